"""Rum Runner (solo card game): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/rum_runner.md``. A joker boat sails a line of 16 ports,
collecting rum while one port closes each turn; the collection is scored
against six printed bands.
"""

from __future__ import annotations

from engines._game import Column, GameInfo, Param, PolicySpec
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
    "rollout": PolicySpec("rollout", 2, "finish the game `samples` times with greedy for each "
                          "option after re-dealing the hidden cards; slow", (
        Param("samples", 16, "imagined games per option at each decision", 1, 4096,
              integer=True),
    ), slow=True),
}

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
    summary="solo card game: sail a boat along 16 ports collecting rum before they close",
)
