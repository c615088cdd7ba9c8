"""21 Motines (3-5 players): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/motines.md``. Fishermen on one boat: each round the
Captain picks one of six actions and the others follow (later positions get
less), take a Subvention, or mutiny to be Captain next round. The 21st
mutiny ends the game after one more Captain round and a free round; fish,
money, treasures and ice turn into points.
"""

from __future__ import annotations

from engines._game import Choice, Column, GameInfo, Param, PolicySpec, per_seat_columns
from engines.motines.rules import Rules

_BONUS = "valuation bonus of a mutiny (being Captain next round); 0 in the last Captain round"
_RESERVE = Param("money_reserve", 2, "use a 4 PV for 4$ treasure only with at least 4$ + this",
                 0, 20, integer=True)
_RESERVE_SEARCH = Param(_RESERVE.name, _RESERVE.default, _RESERVE.help, _RESERVE.low,
                        _RESERVE.high, integer=True, search=(0, 6))

POLICIES = {
    "random": PolicySpec("random", 0, "uniform over the flat list of legal options of every "
                         "decision (slots and Mutiny spaces each one option)"),
    "greedy": PolicySpec("greedy", 1, "one-step maximiser of the valuation Phi (PV + $/2 + "
                         "fish/2 - ice + best sale + treasures)", (
        Param("captain_bonus", 1.5, _BONUS, -100, 100),
        _RESERVE,
    )),
    "planner": PolicySpec("planner", 2, "greedy with Captain denial, mutiny timing, a sale "
                          "floor and an ice target (spec 6.1)", (
        Param("lam", 0.5, "weight of the followers' best JOIN gains the Captain denies", -10, 10),
        Param("captain_bonus", 2.0, "mutiny bonus while the marker is at most num_mutinies - 2",
              -100, 100),
        Param("captain_bonus_late", 1.0, "mutiny bonus at num_mutinies - 1", -100, 100),
        Param("margin", 0.25, "a mutiny must beat JOIN and Subvention by this", -100, 100),
        Param("sell_floor", 10, "sell before the last rounds only for at least this many $ (or "
              "with 2+ ice)", 0, 100, integer=True),
        Param("ice_target_slack", 0, "ice kept above the icons in hand", -4, 8, integer=True),
        _RESERVE,
    )),
    "rollout": PolicySpec("rollout", 3, "flat Monte Carlo over the Captain's, followers' and "
                          "free-round choices: the `width` options the base policy values "
                          "most, each played to the end `samples` times with every seat the "
                          "base policy, on re-dealt hidden cards (the same re-deals for every "
                          "option), the base's best starting `prior` ahead; otherwise the "
                          "base policy; slow", (
        Param("samples", 8, "playouts per option", 1, 256, integer=True),
        Param("width", 6, "options played out (the base's best; the rest are never chosen)",
              1, 40, integer=True),
        Param("score_weight", 0.02, "worth of one PV of lead over the best other player in a "
              "playout, next to a win (1)", 0, 1),
        Param("prior", 0.0, "head start of the base's own best option, in worth per playout: "
              "another candidate is chosen only when its mean worth is higher by more than "
              "this (few samples then deviate from the base only on clear evidence)", 0, 1),
        Param("base", 0, "the policy the search builds on: it ranks the options, plays every "
              "seat of every playout and makes the other decisions (greedy; expert: the "
              "trained heuristic)", policies=("greedy", "expert")),
    ), slow=True),
    # defaults: greedy exactly (new weights 0, shared ones greedy's values; tests/
    # test_motines_heuristic.py); the free round is always valued as greedy values it (the
    # end's true worth: $ and fish 1/2 PV, ice -1 PV, a sale only with a market treasure)
    "heuristic": PolicySpec("heuristic", 4, "greedy's one-step choice under a weighted "
                            "valuation: money with a reserve, fish, ice, sale potential and "
                            "treasures weighed; Captain bonus by stage of the game; mutiny and "
                            "Captain denial; a sale floor (feature weights for rumsim train)", (
        Param("w_money", 0.5, "a $ is half a PV at final scoring (1 PV per 2$)", 0, 5,
              search=(0.25, 1.25)),
        Param("w_cash", 0.0, "a $ up to cash_target is worth more before the free round: it "
              "pays a 3$ mutiny (+4 PV) or 2 PV for 2$", -5, 5, search=(0.0, 1.5)),
        Param("cash_target", 3, "the $ reserve w_cash rewards: a 3$ mutiny's price", 0, 30,
              search=(0.0, 8.0)),
        Param("w_fish", 0.5, "a fish held: 1$ at final scoring, and a card toward a sale", -5,
              5, search=(0.0, 1.5)),
        Param("w_ice", 1.0, "an ice held costs 1 PV at the end unless a sale takes it", -5, 5,
              search=(0.0, 2.0)),
        Param("ice_excess", 0.0, "ice above what the hand's icons can sell off is sure to "
              "cost its PV", -5, 5, search=(0.0, 1.5)),
        Param("w_sale", 1.0, "the best sale's gain is only potential until a market action "
              "makes it", -5, 5, search=(0.0, 2.0)),
        Param("w_treasure", 1.0, "held and expected treasures' values (2 PV, 2$, 4 PV for "
              "4$, market, fish)", -5, 5, search=(0.25, 3.0)),
        Param("sell_min", 0.0, "in normal rounds sell only for a gain above this: a bigger "
              "set may come", 0, 100, search=(0.0, 14.0)),
        Param("captain_bonus", 1.5, "a mutiny's captaincy (position 1 of the action one "
              "picks) in mid-game", -100, 100, search=(-1.0, 4.0)),
        Param("captain_bonus_early", 1.5, "the captaincy while treasures are replaced by "
              "+1$ +1 PV (the Captain's Treasures are worth less then)", -100, 100,
              search=(-1.0, 4.0)),
        Param("captain_bonus_late", 1.5, "the captaincy in the last P mutinies (few Captain "
              "rounds are left to use it)", -100, 100, search=(-1.0, 4.0)),
        Param("mutiny_denial", 0.0, "per follower still to choose: a mutiny taken is one "
              "that follower cannot take (2.5 PV and the captaincy)", -10, 10,
              search=(-0.5, 1.0)),
        # Not trained (no search box): the joiner's gain is read off its whole hand, which
        # hidden_hands keeps private (blind-drawn colours, treasure types), as the spec's
        # planner reads it; a trained player plays on what it may see, so lam stays 0.
        Param("lam", 0.0, "Captain denial: weight of the JOIN gain above Subvention that "
              "the Captain's action hands the first follower expected to join (the first "
              "who can pay a mutiny mutinies); reads that follower's private cards, so it is "
              "not trained", 0, 10),
        _RESERVE_SEARCH,
    )),
}

_PER_SEAT = (
    ("score", "int", "final PV"),
    ("win", "float", "1.0 for the winner, 1/k shared (most PV, then a leftover 1$; "
     "final_tiebreak)"),
    ("captain_rounds", "int", "normal and last-Captain rounds as Captain"),
    ("money", "int", "$ held when the free round ended (before final scoring)"),
    ("ice_left", "int", "ice held at the end"),
    ("sales", "int", "sales made (Fish Market, Special Offers market, market treasures, "
     "final scoring)"),
    ("mut", "int", "Mutiny pawns resolved, in every phase"),
)

_GAME_COLUMNS = (
    Column("rounds", "int", "rounds played: normal, last Captain and free"),
    Column("normal_rounds", "int", "rounds of phase NORMAL"),
    Column("mutinies", "int", "moves of the Mutinies marker (num_mutinies unless truncated)"),
    Column("mut_actions", "int", "Mutiny pawns resolved in all rounds"),
    Column("truncated", "int", "1 if max_rounds ended the normal rounds"),
    Column("first_captain", "int", "the seat of the first Captain"),
    Column("tied_first", "int", "players with the highest PV before the tie-break"),
    *(Column(f"captain_{code.lower()}", "int", f"rounds in which the Captain chose {name}")
      for code, name in (("IF", "Indiscriminate fishing"), ("SF", "Selective fishing"),
                         ("ICE", "the Ice Factory"), ("TR", "Treasures"),
                         ("FM", "the Fish Market"), ("SO", "Special Offers"))),
    # Standing after a round: each seat's PV track then (after the free round: the final PV).
    # Leader: the one seat with the strictly highest standing, -1 when the top is shared.
    Column("lead_changes", "int", "round ends whose leader (sole most PV on the track; "
           "final PV after the last round) is a seat other than the last sole leader"),
    Column("half_time_leader", "int", "sole PV leader after round floor(rounds/2); -1 if "
           "shared or rounds < 2"),
)

# The kinds of option a seat chooses (``expert:forbid=mutiny``, ``expert:force=sell``; see
# engines._restrict), in bit order. The first eight are the boxes a pawn goes to, in box
# order (data.BOX_CODES): every D1, D2 and D9 option (a box with its slot or Mutiny space)
# is of its box's kind. ``sell`` is a sale made (D6); declining has no kind.
_PAWN = "for its pawn: as Captain D1, as a follower joining the Captain D2, or in the free " \
    "round D9"
CHOICES = (
    Choice("if", f"Indiscriminate fishing {_PAWN}"),
    Choice("sf", f"Selective fishing {_PAWN}"),
    Choice("ice", f"the Ice Factory {_PAWN}"),
    Choice("treasures", f"Treasures, the treasure hunt, {_PAWN}"),
    Choice("market", f"the Fish Market {_PAWN}"),
    Choice("offers", f"Special Offers {_PAWN}"),
    Choice("subvention", "the Subvention for its pawn: as a follower D2 or in the free round "
           "D9"),
    Choice("mutiny", "a Mutiny space for its pawn: as a follower D2 or in the free round D9"),
    Choice("sell", "a sale when one was offered, D6: on a Fish Market slot, the Special "
           "Offers market, a market treasure or at final scoring; declining has no kind"),
)
CHOICE_NAMES = tuple(c.name for c in CHOICES)
# the choice a pawn placed in each box counts as, by box code (data.IF .. data.MUT)
BOX_CHOICE = tuple(CHOICE_NAMES.index(name) for name in (
    "if", "sf", "ice", "treasures", "market", "offers", "subvention", "mutiny"))
SELL = CHOICE_NAMES.index("sell")


GAME = GameInfo(
    name="motines",
    title="21 Motines",
    min_players=3,
    max_players=5,
    default_players=4,
    policies=POLICIES,
    default_policy="greedy",
    rules_cls=Rules,
    columns=per_seat_columns(_PER_SEAT, _GAME_COLUMNS),
    choices=CHOICES,
    summary="worker placement on a fishing boat: follow the Captain, or mutiny to be the next",
    # Said with every seat answer (spec §9.1 "Reading the figures").
    # The strength ladder (`rumsim ladder`, the page's skilled play), weakest first, and
    # the deals it plays by default (every rung on each).
    extra={"ladder": ("random", "greedy", "expert",
                     "rollout:base=expert:samples=2:width=2:prior=0.35",
                     "rollout:base=expert:samples=4:width=2:prior=0.35"), "ladder_deals": 9_000,
           "seat_note": "seat 0 is the first Captain. The weakest seat changes with the "
                        "policy: under random play it is seat 0 (no Subvention or Mutiny in "
                        "round 1, 1$ less, Captain more often), under greedy play at 4 players "
                        "seat 1, the first follower (it mutinies with 3$ in round 1 and stays "
                        "short of money). A seat answer holds for the policy it names."},
)
