"""Rum Rebellion (roll-and-move race for 2-6): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/rum_rebellion.md``. Convicts collect rum barrels, buy a
Ticket of Leave (occupation squares that earn rent), buy a Rum Corps
commission, gather Votes of Support and attempt a coup; the first successful
coup wins.
"""

from __future__ import annotations

from engines._game import Column, GameInfo, Param, PolicySpec, per_seat_columns
from engines.rum_rebellion.rules import Rules

POLICIES = {
    "random": PolicySpec("random", 0, "uniform over the legal options of every decision"),
    "threshold": PolicySpec("threshold", 1, "greedy: always moves up, redeems, announces; "
                            "buys cheap votes, commits small crimes, challenges the leader", (
        Param("risk", 0.5, "risk appetite: crimes up to floor(6r), buy iff price <= "
              "value x (0.6 + 0.8r), challenge anyone when r >= 0.5", 0.0, 1.0),
    )),
    "blocker": PolicySpec("blocker", 2, "threshold, but challenges only an announced or "
                          "near-coup leader", (
        Param("risk", 0.25, "risk appetite, as for threshold", 0.0, 1.0),
    )),
}

_PER_SEAT = (
    ("win", "float", "1.0 for the seat that made the successful coup (capped games: 0, or "
     "1/k under cap_resolution=progress)"),
    ("score", "int", "progress score: 1000 x stage + 10 x votes + net barrels"),
    ("level", "int", "final level: 0 Convict, 1 Ticket of Leave, 2 Rum Corps"),
    ("votes", "int", "votes held at the end"),
)

_GAME_COLUMNS = (
    Column("rounds", "int", "the round in which the game ended (from 1)"),
    Column("turns", "int", "turns actually played, free turns included, skipped turns not"),
    Column("coups_attempted", "int", "coup attempts (Win/Lose draws in S3)"),
    Column("challenges", "int", "challenges made"),
    Column("crimes_committed", "int", "crimes committed"),
    Column("notes_written", "int", "promissory notes written (to players or the Store)"),
    Column("store_ran_out", "int", "1 if the Bond Store ever paid less than it owed"),
    Column("capped", "int", "1 if max_rounds finished without a successful coup"),
    Column("bond_store_seat", "int", "the Bond Store player's seat"),
    Column("doubles_chain_cap_hits", "int", "doubles chains stopped by the safety cap (always 0)"),
    Column("lead_changes", "int", "round ends (a coup ends round `rounds`) whose leader, the one "
           "seat with the top progress score, differs from the last round's seat leader; "
           "shared tops skipped"),
    Column("half_time_leader", "int", "the one seat with the top progress score after round "
           "rounds // 2; -1 if the top was shared or rounds < 2"),
)



GAME = GameInfo(
    name="rum-rebellion",
    title="Rum Rebellion",
    min_players=2,
    max_players=6,
    default_players=4,
    policies=POLICIES,
    default_policy="threshold",
    rules_cls=Rules,
    columns=per_seat_columns(_PER_SEAT, _GAME_COLUMNS),
    summary="roll-and-move race for 2-6: convict, ticket of leave, Rum Corps, then a coup",
)
