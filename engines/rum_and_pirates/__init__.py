"""Rum & Pirates (2-5 players): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/rum_and_pirates.md``. Players move one neutral Captain
through a harbour town of nine tiles, filling each road it takes with their
own pirates; every corner it reaches gives its mover an action (coins, rum,
recruits, maps, pubs with a dice contest, chests with a scorpion contest,
guards, ...). Whoever boards the ship with pirates left fights for the
bunks with dice. Five rounds; the most honour points win.
"""

from __future__ import annotations

from dataclasses import replace

from engines._game import Choice, Column, GameInfo, Param, PolicySpec, per_seat_columns
from engines.rum_and_pirates.rules import Rules

# Greedy's one-step value weights (spec §8.4), declared once: the rollout plays them too.
GREEDY_PARAMS = (
    Param("w_coin", 1.0, "VP a coin is worth", -10, 10),
    Param("w_rum", 0.6, "VP a rum tile is worth", -10, 10),
    Param("w_hand", 0.35, "VP a pirate placed on the board costs", -10, 10),
    Param("tau", 0.5, "least net value of a move worth making (else board or stop)", -100, 100),
    Param("p_rdv", 0.35, "chance a new rendezvous gets fulfilled", 0, 1),
    Param("w_recruit", 0.8, "VP per round left of a recruited pirate", -10, 10),
    Param("pub_join_share", 1.5, "coins the expected share of a pub must beat to join", -10, 10),
    Param("reroll_can_win", 0, "1: in the bunk fight re-roll only when a new roll can win the "
          "column (0: the spec's D9 as written)", 0, 1, integer=True),
)

# The heuristic's parameters: greedy's eight first (same names, order, defaults: its row is
# greedy's row, so every decision greedy makes reads them where greedy does), then the
# features greedy does not have, each entering with weight 0 (at its defaults the heuristic
# decides exactly as greedy). `search` is the box `rumsim train` searches.
_GREEDY_SEARCH = {"w_coin": (0, 4), "w_rum": (0, 2), "w_hand": (0, 2), "tau": (-4, 2),
                  "p_rdv": (0, 1), "w_recruit": (0, 3), "pub_join_share": (0, 5),
                  "reroll_can_win": (0, 1)}
HEURISTIC_PARAMS = (
    *(replace(p, search=_GREEDY_SEARCH[p.name]) for p in GREEDY_PARAMS),
    Param("w_deny", 0.0, "VP per VP of the best road the next active player gets from the "
          "corner the Captain is left on (it starts there: denial)", -10, 10, search=(-0.5, 1.5)),
    Param("w_cont", 0.0, "VP per VP of my own best next road from the corner reached (a chain "
          "of moves in this turn)", -10, 10, search=(-0.5, 1.5)),
    Param("w_bunk_boarded", 0.0, "VP a pirate in hand is worth while I have no more than the "
          "longest row already on the mast (the bunk fight)", -10, 10, search=(0, 2)),
    Param("w_bunk_active", 0.0, "VP a pirate in hand is worth while I have no more than the "
          "largest hand of the others still moving (they may board with it)", -10, 10,
          search=(0, 2)),
    Param("coin_round", 0.0, "change of a coin's worth per round played (coins score nothing "
          "at the end)", -10, 10, search=(-0.5, 0.5)),
    Param("coin_last", 0.0, "change of a coin's worth in the last round (spend them)", -10, 10,
          search=(-2, 1)),
    Param("rum_last", 0.0, "change of a rum tile's worth in the last round (only its rolls "
          "are left)", -10, 10, search=(-1, 1)),
    Param("rdv_round", 0.0, "extra chance a new rendezvous gets fulfilled per round left after "
          "this one", -1, 1, search=(-0.2, 0.2)),
    Param("map_odd", 0.4, "share of its value a map is worth while it waits for its pair (an odd "
          "count of its colour)", -10, 10, search=(0, 1.5)),
    Param("tau_boarded", 0.0, "change of the least net worth moving per other player already on "
          "the mast (board early for the upper row, or wait)", -10, 10, search=(-1.5, 1)),
)

POLICIES = {
    "random": PolicySpec("random", 0, "uniform over the legal options of every decision "
                         "(spec §8.3)"),
    "greedy": PolicySpec("greedy", 1, "one-step value of the corner reached, less the pirates "
                         "and coins spent (spec §8.4)", GREEDY_PARAMS),
    "rollout": PolicySpec("rollout", 2, "flat Monte Carlo over the moves: the base policy's "
                          "`width` best moves, BOARD and REST or STOP, each played on `samples` "
                          "re-dealt hidden worlds by base players to the horizon (the same "
                          "worlds for every candidate); the base policy elsewhere (spec §8.5: "
                          "greedy at its default weights); slow", (
        Param("samples", 16, "playouts per candidate (M)", 1, 256, integer=True),
        Param("width", 6, "greedy's best moves played out (K)", 1, 70, integer=True),
        Param("horizon", 0, "0: play out to the end of the round (score plus coins, rum and "
              "open rendezvous at greedy's weights); 1: to the end of the game", 0, 1,
              integer=True),
        Param("reroll_can_win", 0, "as greedy's, in the rollout seat's own dice", 0, 1,
              integer=True),
        Param("base", 0, "the policy the search ranks its moves by, plays its playouts with "
              "(every seat), weighs a playout's coins, rum and rendezvous by, and decides by "
              "outside D1 / D2: greedy at its defaults (spec §8.5) or the trained expert",
              policies=("greedy", "expert")),
    ), slow=True),
    "heuristic": PolicySpec("heuristic", 3, "greedy's one-step value plus weighted features "
                            "greedy lacks: denial of the next player, the chain of my own "
                            "moves, pirates kept for the bunk fight, the worth of coins, rum "
                            "and rendezvous by the rounds left; greedy exactly at its defaults",
                            HEURISTIC_PARAMS),
}

# VP categories of spec §7, in the order of the §11.13 table.
CATEGORIES = ("pubs", "chests", "scorpions", "guards", "sleep", "supplies", "rdv", "maps")

_PER_SEAT = (
    ("score", "int", "final VP"),
    ("win", "float", "1.0 for the winner, 1/k shared by k tied players (tiebreak)"),
    *((f"vp_{c}", "int", f"VP from {c}") for c in CATEGORIES),
    ("bunk", "int", "sleeping tiles won"),
    ("pubs", "int", "pub tiles won"),
    ("maps", "int", "map tiles taken"),
    ("scorpions", "int", "scorpion chests taken"),
    ("coins", "int", "coins held at the end"),
    ("rum", "int", "rum tiles held at the end"),
)

_GAME_COLUMNS = (
    Column("start_seat", "int", "the seat that started round 1 (first_start_seat)"),
    Column("rounds", "int", "rounds played"),
    Column("turns", "int", "turns (TURN calls of spec 5.2: moves, rests, boardings, lone turns)"),
    *(Column(f"turns_r{r}", "int", f"turns in round {r} (0 if not played)") for r in range(1, 6)),
    Column("max_round_turns", "int", "turns of the longest round"),
    Column("moves", "int", "Captain moves"),
    Column("dark_moves", "int", "dark-road moves"),
    Column("forced_dark_moves", "int", "dark-road moves with no free road at the corner"),
    Column("rests", "int", "rests"),
    Column("dead_end_relocations", "int", "Captain relocations from a dead end"),
    Column("hq_visits", "int", "arrivals on headquarters"),
    Column("recruits", "int", "pirates recruited from a reserve"),
    Column("scorpion_contests", "int", "scorpion contests held"),
    Column("rolls", "int", "die rolls, re-rolls included"),
    Column("rerolls", "int", "re-rolls (each a rum tile; under rerolls_per_rum=2 the free "
           "second re-roll counts too)"),
    Column("bunk_rerolls", "int", "re-rolls in the bunk fight"),
    Column("bunk_hopeless_rerolls", "int", "bunk-fight re-rolls that could not win the column "
           "(a new roll cannot beat an earlier roll under bunk_tie_rule)"),
    Column("coins_again", "int", "coins paid for extra moves"),
    Column("coins_dark", "int", "coins paid for dark moves"),
    Column("coins_rest", "int", "coins paid for rests"),
    Column("pub_fees", "int", "coins paid to pub hosts"),
    Column("chests_exhausted", "int", "1 if the chest slot is empty at the end (all 12 used)"),
    Column("pubs_exhausted", "int", "1 if the pub stack is empty at the end"),
    Column("big_guards_exhausted", "int", "1 if the big-guard stack is empty at the end"),
    Column("tied_first", "int", "players with the top score before the tie-break"),
    Column("lead_changes", "int", "round ends whose leader, the one seat with the top score of "
           "its holdings then, differs from the last round's seat leader; shared tops skipped"),
    Column("half_time_leader", "int", "the one seat with the top score of its holdings after "
           "round rounds // 2; -1 if the top was shared or rounds < 2"),
)


# The kinds of option a seat chooses (restricted play, engines._restrict): a restriction
# (`expert:forbid=pub`, `greedy:force=dark_road`) narrows every decision of these kinds, and
# the outcome counts each seat's picks (`took_<name>_<seat>`). A move at D1 / D2 is of the
# kind of the corner action it reaches (ACTION_CHOICE) when it goes by road, of dark_road when
# it goes dark; STOP, and the options of D3-D6 and D8 (keep or sell, which map, which guard
# stack, what to take back, which pub tile), are of no kind.
CHOICES = (
    Choice("coin", "a road move to a coin corner, at the start of a turn or moving again"),
    Choice("crew", "a road move to a pirate corner or to headquarters, both putting pirates "
           "back in hand: a recruit, or a road or dark pair taken back"),
    Choice("supplies", "a road move to a pirate supplies corner"),
    Choice("rendezvous", "a road move to a rendezvous corner"),
    Choice("map", "a road move to a treasure map corner"),
    Choice("pub", "a road move to a pub corner, hosting its contest"),
    Choice("chest", "a road move to a treasure chest corner: the chest and the scorpion "
           "contest"),
    Choice("rum", "a road move to a rum corner"),
    Choice("guard", "a road move to a guard corner"),
    Choice("dark_road", "a dark-road move, forced or not, whatever corner it reaches"),
    Choice("rest", "to rest at the start of a turn, paying rest_coin"),
    Choice("board", "to board the ship at the start of a turn, or after a move under "
           "board_after_move_same_turn; not the boarding stop_after_move_boards makes"),
    Choice("reroll", "to re-roll a die in a pub, a scorpion contest or the bunk fight, every "
           "re-roll: the free second one of rerolls_per_rum = 2 too"),
    Choice("pub_join", "to join another player's pub, paying its host a coin"),
)
# The choice of a road move by the action of the corner it reaches (data.ACTION_CODES order):
# headquarters shares `crew` with the pirate corner (both put pirates back in hand), which
# keeps the declared choices at 14.
ACTION_CHOICE = ("coin", "crew", "crew", "supplies", "rendezvous", "map", "pub", "chest", "rum",
                 "guard")


GAME = GameInfo(
    name="rum-and-pirates",
    title="Rum & Pirates",
    min_players=2,
    max_players=5,
    default_players=4,
    policies=POLICIES,
    default_policy="greedy",
    rules_cls=Rules,
    columns=per_seat_columns(_PER_SEAT, _GAME_COLUMNS),
    choices=CHOICES,
    summary="move one Captain through a pirate town, fill its roads with your pirates, then "
            "fight for the bunks",
    # The strength ladder (`rumsim ladder`, the page's skilled play), weakest first, and
    # the deals it plays by default (every rung on each).
    extra={"ladder": ("random", "greedy", "expert",
                     "rollout:base=expert:samples=8:width=3",
                     "rollout:base=expert:samples=16:width=3"), "ladder_deals": 5_000,
           "seat_note": "seat 0 starts round 1 (the start marker then moves one seat a round). "
                        "The spec's prototype finds seat 0 weakest under random play and in 2- "
                        "and 3-player greedy play, strongest in 4-player greedy play: a seat "
                        "answer holds for the policy it names."},
)
