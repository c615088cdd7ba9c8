"""Rum Runner (solo card game): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/rum_runner.md``. A joker boat sails a line of 16 ports,
collecting rum while one port closes each turn; the collection is scored
against six printed bands.
"""

from __future__ import annotations

from engines._game import Choice, Column, GameInfo, Param, PolicySpec
from engines.rum_runner.rules import Rules

POLICIES = {
    "random": PolicySpec("random", 0, "uniform over DRAW and each distinct hand value; "
                         "continue or stop with even odds; any legal port flipped"),
    "greedy": PolicySpec("greedy", 1, "one-step look-ahead on the landing's immediate gain", (
        Param("draw_threshold", 2.0, "play only if the best gain reaches this, else draw "
              "(the risk knob: low plays anything, high waits for better plays)", -1000, 1000),
        Param("replenish_weight", 1.0, "value of each card a closed-port landing returns",
              -1000, 1000),
    )),
    "rollout": PolicySpec("rollout", 2, "finish the game `samples` times with the `base` policy "
                          "for each option after re-dealing the hidden cards; slow", (
        Param("samples", 16, "imagined games per option at each decision", 1, 4096,
              integer=True),
        Param("base", 0, "the policy that finishes each imagined game (and the rest of an "
              "imagined turn): greedy, or the trained expert", policies=("greedy", "expert")),
    ), slow=True),
    "heuristic": PolicySpec(
        "heuristic", 3,
        "greedy's look-ahead plus weighted features (card, suit-set and pair potential, the chain "
        "of same-number cards, the cost of a draw, which port to close); at its defaults it "
        "plays exactly as greedy", (
            Param("draw_threshold", 2.0, "greedy's risk knob: play if the best play's value "
                  "reaches this plus the draw terms below, else draw", -1000, 1000,
                  search=(-5.0, 40.0)),
            Param("replenish_weight", 1.0, "greedy's value of each card a closed-port landing "
                  "returns to the deck (fuel for later landings)", -1000, 1000,
                  search=(-2.0, 12.0)),
            Param("w_card", 0.0, "each card a landing puts into the collection: its share of "
                  "future suit sets (30 points per four suits), beyond its own score",
                  -1000, 1000, search=(-6.0, 12.0)),
            Param("w_scarce", 0.0, "a rum card of a suit the collection holds fewest of: it "
                  "brings the next suit set nearer", -1000, 1000, search=(-8.0, 12.0)),
            Param("w_pair", 0.0, "times what the next card of the collected rank would add, if "
                  "one is unseen (a lone 7 or 9 scores 0 until its pair comes)", -1000, 1000,
                  search=(-1.0, 2.0)),
            Param("w_exhausted", 0.0, "each movement card an exhausted pile's landing takes from "
                  "the deck, beyond greedy's 3.5: it scores and fills suit sets, but leaves play",
                  -1000, 1000, search=(-5.0, 20.0)),
            Param("w_chain", 0.0, "the further landings of the same-number cards in hand (one "
                  "turn, one flip, several landings), each counted while it beats w_stop",
                  -1000, 1000, search=(0.0, 1.5)),
            Param("w_stop", 0.0, "D3: continue a chain only onto a landing worth more than this "
                  "(greedy: any positive gain); a card kept can make a better landing later",
                  -1000, 1000, search=(-8.0, 10.0)),
            Param("w_draw_free", 0.0, "added to the draw value when a DRAW turn closes no port "
                  "(flip_after_draw=false): then drawing costs no time", -1000, 1000,
                  search=(-10.0, 80.0)),
            Param("w_draw_hand", 0.0, "draw value per card already in hand (a big hand already "
                  "holds its chains)", -1000, 1000, search=(-5.0, 3.0)),
            Param("w_draw_open", 0.0, "draw value per open port (turns left: early, drawn cards "
                  "have time to make chains)", -1000, 1000, search=(-2.0, 10.0)),
            Param("w_flip_reach", 0.0, "D4: cost of closing a port a hand card reaches from the "
                  "boat next turn", -1000, 1000, search=(-10.0, 25.0)),
            Param("w_flip_same", 0.0, "D4: cost of closing a port, per other open port paying "
                  "from its pile (how much of the pile stays reachable)", -1000, 1000,
                  search=(-10.0, 20.0)),
            Param("w_flip_left", 0.0, "D4: cost of closing a port, per card below its pile's "
                  "top (what the port can still pay)", -1000, 1000, search=(-5.0, 15.0)),
            Param("w_free_replenish", 0.0, "added to replenish_weight when draws close no port: "
                  "then movement cards run out, not turns", -1000, 1000, search=(-5.0, 25.0)),
            Param("w_free_reach", 0.0, "added to w_flip_reach when draws close no port (a closed "
                  "port in reach is a refuelling stop)", -1000, 1000, search=(-50.0, 10.0)),
            Param("w_free_same", 0.0, "added to w_flip_same when draws close no port", -1000,
                  1000, search=(-20.0, 5.0)),
            Param("w_free_stop", 0.0, "added to w_stop when draws close no port", -1000, 1000,
                  search=(-8.0, 12.0)),
        )),
}

# The kinds of option the player chooses (restricted play, engines._restrict): bit i is
# position i. Both paths derive their kinds from this list (``CHOICE``): D1 the start end,
# D2 DRAW or the value played first (under multi_card_mode=combined, every count of that
# value), D3 continuing with another card of the value, D4 the rank of the port closed.
# PASS (forced, the only option then) and STOP have no kind. Every move's course is fixed
# by the card's value, so bouncing at an end is no separate choice.
CHOICES = (
    Choice("start_left", "to start the boat at the left end, D1 under start_end=choose"),
    Choice("start_right", "to start the boat at the right end, D1 under start_end=choose"),
    Choice("draw", "DRAW as its turn's action, D2"),
    Choice("play_2", "to open its turn by playing a 2, D2; not the same-number cards after it"),
    Choice("play_3", "to open its turn by playing a 3, D2; not the same-number cards after it"),
    Choice("play_4", "to open its turn by playing a 4, D2; not the same-number cards after it"),
    Choice("play_5", "to open its turn by playing a 5, D2; not the same-number cards after it"),
    Choice("chain", "to play another card of the same number after a landing rather than "
           "stop, D3, once a card"),
    Choice("close_jack", "to close a J port, which pays 6s, at the end-of-turn flip, D4"),
    Choice("close_queen", "to close a Q port, which pays 8s, at the end-of-turn flip, D4"),
    Choice("close_king", "to close a K port, which pays 10s, at the end-of-turn flip, D4"),
    Choice("close_ace", "to close an A port, which pays 7s and 9s, at the end-of-turn flip, D4"),
)
# choice name -> its bit (the kind of an option), for both paths
CHOICE = {c.name: i for i, c in enumerate(CHOICES)}

COLUMNS = [
    Column("game", "int", "game index within the run"),
    Column("players", "int", "always 1"),
    Column("score_0", "int", "final score"),
    Column("win_0", "float", "1.0 if score_0 >= win_threshold (not 'Completely broke')"),
    Column("band_0", "int", "printed band 0 (broke) .. 5 (god)"),
    Column("turns", "int", "turns played"),
    Column("end_reason", "int", "0 normal, 1 stranded, 2 capped"),
    Column("collection_size", "int", "cards in the scored collection"),
    Column("rum_cards", "int", "rum cards (6-10) collected"),
    Column("movement_cards_collected", "int", "movement cards (2-5) in the collection"),
    Column("landings", "int", "landings on any port"),
    Column("replenishments", "int", "landings on closed ports"),
    Column("exhausted_landings", "int", "landings whose rum pile was empty"),
    Column("draws", "int", "DRAW turns"),
]


def _columns(players: int) -> list[Column]:
    return COLUMNS


GAME = GameInfo(
    name="rum-runner",
    title="Rum Runner",
    min_players=1,
    max_players=1,
    default_players=1,
    policies=POLICIES,
    default_policy="greedy",
    rules_cls=Rules,
    columns=_columns,
    choices=CHOICES,
    summary="solo card game: sail a boat along 16 ports collecting rum before they close",
    # The strength ladder (`rumsim ladder`, the page's skilled play), weakest first, and
    # the deals it plays by default (every rung on each).
    extra={"ladder": ("random", "greedy", "expert",
                     "rollout:base=expert:samples=8", "rollout:base=expert:samples=16"), "ladder_deals": 2_000},
)
