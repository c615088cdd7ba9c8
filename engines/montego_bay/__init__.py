"""Montego Bay (2-4 players): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/montego_bay.md``. Workers walk a loop of spaces in front
of warehouse rooms, pushing each other through the warehouses; the Tally-Man
then has each figure load its room's barrels onto the ships at four piers.
Full ships sail at once; the ship at pier 1 leaves every round; every ship
pays VP for the majorities aboard.
"""

from __future__ import annotations

from engines._game import Choice, Column, GameInfo, Param, PolicySpec
from engines.montego_bay.rules import Rules

_WEIGHTS = (
    Param("w_g", 1.0, "room value of each good barrel the figure would load", -1000, 1000),
    Param("w_c", 0.8, "room value of a coin (when the bank has one)", -1000, 1000),
    Param("w_x", 1.0, "room cost of each own barrel a broken-barrel room removes", -1000, 1000),
)

POLICIES = {
    "random": PolicySpec("random", 0, "uniform over the legal options of every decision: hire "
                         "with even odds, cards uniform over legal vectors, any legal pier"),
    "greedy": PolicySpec("greedy", 1, "plays every own card vector through the movement "
                         "against myopic opponents and takes the best room values; loads "
                         "for the best majority gain", (
        Param("gamma", 0.7, "weight of a barrel on a ship that does not sail this round", 0, 10),
        Param("hire_threshold", 2.0, "hire Lazy Jack when he adds at least this room value",
              -1000, 1000),
        *_WEIGHTS,
    )),
    "sampler": PolicySpec("sampler", 2, "its base (greedy, or the trained expert) against "
                          "n_samples sampled opponent profiles; over greedy it adds the loading "
                          "gain of the rooms reached; slow", (
        Param("n_samples", 16, "opponent profiles drawn per decision", 1, 4096, integer=True),
        Param("q_myopic", 0.5, "chance an opponent figure plays its myopic best (else a uniform "
              "value)", 0, 1),
        Param("gamma", 0.7, "weight of a barrel on a ship that does not sail this round", 0, 10),
        Param("lambda_load", 0.5, "weight of the loading gain of the rooms reached", -1000, 1000),
        *_WEIGHTS,
        Param("hire_threshold", 1.5, "hire Lazy Jack when he adds at least this value",
              -1000, 1000),
        Param("base", 0, "the policy searched over: greedy values the options with the "
              "parameters above; expert replaces them with the trained heuristic's look-ahead "
              "values, opponents' model, hire rule and loading, sampling only the opponents' "
              "cards", policies=("greedy", "expert")),
    ), slow=True),
    "heuristic": PolicySpec("heuristic", 3, "greedy's look-ahead scored by a weighted sum of "
                            "named features (majority-aware loading, denial, exposure to "
                            "pushes, tempo); at its defaults it decides exactly as greedy", (
        # Shared with greedy, in greedy's columns and with greedy's values.
        Param("gamma", 0.7, "weight of a barrel on a ship at piers 2-4: it does not sail this "
              "round and others may still outload it", 0, 10, search=(0.0, 1.2)),
        Param("hire_threshold", 2.0, "hire Lazy Jack when he adds at least this value: three "
              "coins spent for one more room", -1000, 1000, search=(-1.0, 6.0)),
        Param("w_g", 1.0, "room value of each good barrel the figure would load: barrels are "
              "what majorities are made of", -1000, 1000, search=(0.0, 3.0)),
        Param("w_c", 0.8, "room value of a coin (when the bank has one): coins hire Lazy Jack "
              "and break ties", -1000, 1000, search=(0.0, 3.0)),
        Param("w_x", 1.0, "room cost of each own barrel a broken-barrel room removes: lost "
              "barrels lose majorities", -1000, 1000, search=(0.0, 3.0)),
        # New features: weight 0 (or no change) at the defaults.
        Param("lambda_load", 0.0, "room value of the majority gain its barrels would make on "
              "today's harbour (greedy counts barrels, not what they win)", -1000, 1000,
              search=(-0.5, 2.0)),
        Param("gamma_far", 0.0, "change of a barrel's weight per pier beyond pier 2: a ship "
              "further out sails later and is contested longer", -10, 10, search=(-0.3, 0.3)),
        Param("gamma_end", 0.0, "change of the weight of piers 2-4 once the stacks are empty: "
              "every ship in port then scores within two rounds", -10, 10, search=(-0.5, 0.8)),
        Param("deny_load", 0.0, "weight of the VP a barrel takes from (or gives to) the others "
              "on its ship: the game is won relative to them", -1000, 1000,
              search=(-0.5, 1.5)),
        Param("fill_risk", 0.0, "cost of leaving a ship one barrel short of full: the next "
              "loader sails it with the fill bonus", -1000, 1000, search=(-1.0, 3.0)),
        Param("deny_move", 0.0, "weight of the others' room values where the imagined "
              "movement leaves them: pushes and blocks take rooms from them", -1000, 1000,
              search=(-0.5, 1.5)),
        Param("w_risk", 0.0, "cost per later-moving other figure that can reach the space, "
              "times what a push across the warehouse would lose: opponents do not play "
              "myopically", -1000, 1000, search=(-0.5, 1.5)),
        Param("w_next", 0.0, "worth of the best own room reachable from the space next "
              "round: workers stay where they end", -1000, 1000, search=(-0.5, 1.0)),
        Param("w_late", 0.0, "worth of a room resolved late in the Tally-Man's walk (0 first "
              "to 1 last): it loads after the others and can top up their ships",
              -1000, 1000, search=(-2.0, 2.0)),
        Param("w_unload", 0.0, "room cost of the majority VP its broken barrels would take "
              "off today's ships (beyond w_x per barrel)", -1000, 1000, search=(-1.0, 2.0)),
        Param("w_c_late", 0.0, "change of a coin's room value from the first ship drawn (0) "
              "to empty stacks (1): coins only hire Lazy Jack while rounds are left",
              -1000, 1000, search=(-1.5, 1.5)),
        Param("hire_late", 0.0, "change of the hire threshold from the first ship drawn (0) "
              "to empty stacks (1): unspent coins are worth little at the end", -1000, 1000,
              search=(-4.0, 4.0)),
    )),
}


# The values of a movement card set (spec §2.1: one set of 1..5 per worker).
CARD_VALUES = (1, 2, 3, 4, 5)

# The kinds of option a player chooses (restricted play, engines._restrict): bit i is
# position i. Both paths derive their kinds from this list (``CHOICE``): D1 "hire Lazy Jack"
# (yes has the kind, no has none) and D3's card values, each figure's card one choice (its
# workers' and the hired Lazy Jack's, whose value also differs from his companion's). The
# companion (D2), the bid and the piers of D4/D5 have no kind.
CHOICES = (
    Choice("lazy_jack", "to hire Lazy Jack, saying yes when offered him in Phase 1, D1; "
           "under lazy_jack_allocation=auction, each bid, won or not"),
    *(Choice(f"card_{k}", f"the movement card {k} for one of its figures in Phase 2, D3: "
             "a worker's card, or Lazy Jack's when it hired him") for k in CARD_VALUES),
)
# choice name -> its bit (the kind of an option), for both paths
CHOICE = {c.name: i for i, c in enumerate(CHOICES)}


def _columns(players: int) -> list[Column]:
    seats = range(players)
    return [
        Column("game", "int", "game index within the run"),
        Column("players", "int", "number of players"),
        *(Column(f"score_{s}", "float", f"final VP of seat {s} (whole numbers unless "
                 "tie_rounding=exact_fraction)") for s in seats),
        *(Column(f"win_{s}", "float", f"1.0 if seat {s} won alone, 1/k in a k-way tie "
                 "(most VP, then most coins)") for s in seats),
        Column("rounds", "int", "the round in whose Phase 5 the game ended"),
        Column("ships_sailed_full", "int", "ships that filled and sailed during loading"),
        Column("ships_scored_total", "int", "freight ships scored with at least one barrel "
               "(full sails, departures, final scoring)"),
        *(Column(f"lazy_jack_hires_{s}", "int", f"Lazy Jack hires paid by seat {s}")
          for s in seats),
        *(Column(f"coins_{s}", "int", f"coins of seat {s} at the end") for s in seats),
        Column("first_rail_seat", "int", "seat owning the worker at rail position 1 at set-up"),
        *(Column(f"first_rail_pos_{s}", "int", f"set-up rail position (1-based) of seat {s}'s "
                 "earliest worker") for s in seats),
        Column("lazy_jack_blocked", "int", "hired Lazy Jacks left at their start (did nothing)"),
        Column("reshuffle_round", "int", "round whose Phase 6 re-drew the rail (0: never)"),
        # Standing after a round: each seat's VP on the track then (ships still at a pier
        # score only at the end: after the last round, the final VP). Leader: the one seat
        # with the strictly highest standing, -1 when the top is shared.
        Column("lead_changes", "int", "round ends whose leader (sole most VP on the track; "
               "final VP after the last round) is a seat other than the last sole leader"),
        Column("half_time_leader", "int", "sole VP leader after round floor(rounds/2); -1 if "
               "shared or rounds < 2"),
    ]


GAME = GameInfo(
    name="montego-bay",
    title="Montego Bay",
    min_players=2,
    max_players=4,
    default_players=3,
    policies=POLICIES,
    default_policy="greedy",
    rules_cls=Rules,
    columns=_columns,
    choices=CHOICES,
    summary="workers push each other along the warehouses to load barrels onto ships; "
            "majorities score",
    # The strength ladder (`rumsim ladder`, the page's skilled play), weakest first, and
    # the deals it plays by default (every rung on each). Seats (colours) have no turn
    # order here; the rail has. The seat analysis re-seats players by their first worker's
    # rail position ("turn_order") and also shows win share per rail position itself
    # ("seat_views"). The top search is 8 times the one below: 64 against 128 samples
    # were not shown to differ in strength (+0 Elo [-4, +5] on 8,000 deals), and a top rung
    # no stronger than the one below says nothing about stronger play; 16 against 128:
    # +1.6 pp [+0.6, +2.7] in one seat among the other on 2,000 deals.
    extra={"ladder": ("random", "greedy", "expert",
                     "sampler:base=expert:n_samples=16:q_myopic=0.3",
                     "sampler:base=expert:n_samples=128:q_myopic=0.3"), "ladder_deals": 6_000,
           "seat_views": {"first rail position": "first_rail_pos_{seat}"},
           "turn_order": ("rail order", "first_rail_pos_{seat}")},
)
