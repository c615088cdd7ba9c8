"""Rum Rebellion (roll-and-move race for 2-6): the game's declaration for the rest of rumsim.

Spec: ``shared/rules/rum_rebellion.md``. Convicts collect rum barrels, buy a
Ticket of Leave (occupation squares that earn rent), buy a Rum Corps
commission, gather Votes of Support and attempt a coup; the first successful
coup wins.
"""

from __future__ import annotations

from engines._game import Choice, Column, GameInfo, Param, PolicySpec, per_seat_columns
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
    # Every decision scored by named features (policies.HeuristicPolicy); at these defaults
    # it makes exactly threshold(0.5)'s decisions (tests/test_rum_rebellion_heuristic.py).
    # Odds are the open card counts of spec 4.11/6.1: the Win/Lose card k draws ahead and
    # the next Court Verdict card, from the decks' compositions and the cards seen since
    # the last shuffle (exact once a whole cycle has been seen).
    "heuristic": PolicySpec("heuristic", 3, "every decision scored by declared features "
                            "(card-counted odds, rivals' coup threat, votes needed); at its "
                            "defaults exactly threshold(0.5)", (
        # commit a crime iff crime_limit - c + the weighted features >= 0
        Param("crime_limit", 3.0, "largest crime committed blind: the size of gamble a "
              "player takes for c barrels (threshold(0.5): 3)", 0.0, 10.0, search=(0.0, 6.0)),
        Param("crime_gain", 0.0, "x expected barrels of the crime (card-counted WIN pays c, "
              "a Fine costs c): a known WIN is free money", -10.0, 10.0, search=(0.0, 4.0)),
        Param("crime_jail", 0.0, "x expected missed turns (Gaol, unpaid Fine): a lost turn "
              "is worth a whole roll of progress", -10.0, 10.0, search=(0.0, 4.0)),
        Param("crime_need", 0.0, "x share of the next level's price still missing: barrels "
              "are worth most while they stand between the player and moving up",
              -10.0, 10.0, search=(-3.0, 3.0)),
        Param("crime_threat", 0.0, "x the leading rival's coup threat (0..1): when time is "
              "short a behind player must gamble, or must not lose turns", -10.0, 10.0,
              search=(-3.0, 3.0)),
        # target: announced players first (they attempt next turn), then the largest score
        Param("chal_votes", 1.0, "target score x the target's votes / 10: taking votes from "
              "the richest hurts the race most (threshold: the most votes)", -5.0, 5.0,
              search=(-1.0, 2.0)),
        Param("chal_edge_threat", 0.0, "target score x edge x the target's coup threat "
              "(edge = 2 P(WIN) - 1): a likely win should hit the leader, a likely loss "
              "should feed someone harmless", -20.0, 20.0, search=(-5.0, 10.0)),
        # challenge the chosen target iff chal_base + the weighted features >= 0
        Param("chal_base", 1.0, "challenge at even odds: a fair 10-vote coin flip is "
              "variance (threshold(0.5): always)", -10.0, 10.0, search=(-3.0, 3.0)),
        Param("chal_odds", 0.0, "x edge (2 P(WIN) - 1 of the counted next card): a counted "
              "card turns the flip into a sure gain or loss", -20.0, 20.0, search=(0.0, 10.0)),
        Param("chal_threat", 0.0, "x the target's coup threat: stripping 10 votes from a "
              "near-coup leader delays the end", -10.0, 10.0, search=(-3.0, 3.0)),
        Param("chal_risk", 0.0, "x [own votes would drop below the coup if it is lost]: a "
              "lost challenge lapses one's own announcement", -10.0, 10.0, search=(-4.0, 2.0)),
        Param("chal_reach", 0.0, "x [own votes reach the coup if it is won]: a won challenge "
              "lets the player announce", -10.0, 10.0, search=(-2.0, 4.0)),
        Param("chal_knock", 0.0, "x [a won challenge drops the coup-eligible target below the "
              "coup]: its win lapses a rival's announcement, its loss only pads the rival",
              -10.0, 10.0, search=(-2.0, 6.0)),
        # buy the top Vote card iff value x vote_worth - price + buy_reach x [completes] >= 0
        Param("vote_worth", 1.0, "barrels a vote is worth: buy a card whose price is at most "
              "value x vote_worth (threshold(0.5): 1)", 0.0, 5.0, search=(0.4, 1.6)),
        Param("buy_reach", 0.0, "extra barrels paid for a card that lifts the player to the "
              "coup: the last card is worth more than its votes", -20.0, 20.0,
              search=(-5.0, 10.0)),
        # announce iff ann_base + ann_odds x (P(WIN next) - 1/2)
        #              + ann_later x (mean P(WIN) of the P - 1 cards after it - 1/2)
        #              + ann_thin x [one lost challenge would lapse it] >= 0
        Param("ann_base", 1.0, "announce as soon as eligible: every round waited is a round "
              "for rivals (threshold: always)", -10.0, 10.0, search=(-2.0, 2.0)),
        Param("ann_odds", 0.0, "x the counted chance that the next card is WIN (the attempt "
              "draws it unless a rival draws first; under coup_delay=none it does): wait out a "
              "known Lose", -40.0, 40.0, search=(0.0, 20.0)),
        Param("ann_later", 0.0, "x the counted chance of WIN over the P - 1 cards after the "
              "next (rivals' draws may come first; none under coup_delay=none)", -40.0, 40.0,
              search=(-5.0, 15.0)),
        Param("ann_thin", 0.0, "x [one lost challenge before the attempt would drop the "
              "votes below the coup]: an announcement draws the rivals' challenges, so a thin "
              "margin may be worth another card first (0 under coup_delay=none)", -10.0, 10.0,
              search=(-3.0, 2.0)),
        # move up to the Rum Corps iff barrels - commission_cost >= rc_reserve
        Param("rc_reserve", 0.0, "barrels kept after buying the commission: an officer "
              "with no barrels cannot buy the Vote cards it lands on (whole barrels)", 0.0,
              30.0, integer=True, search=(0.0, 6.0)),
    )),
    # Flat Monte Carlo over the options of six decisions (policies.RolloutPolicy); the
    # playouts' every seat, and the searching seat's other decisions, play `base`.
    "rollout": PolicySpec("rollout", 4, "flat Monte Carlo at the seat's decisions to move "
                          "up, take the Major's income, commit a crime, challenge, buy a Vote "
                          "card and announce: each option played out `samples` times to the "
                          "end of the game on re-dealt hidden decks (the same playouts for "
                          "every option), every seat playing `base`; `base` elsewhere; slow", (
        Param("samples", 64, "playouts per option of a searched decision (64: every seat "
              "searching plays about 150 games/s at 4 players on 2 cores)", 1, 256,
              integer=True),
        Param("confidence", 2.0, "an option replaces the base's answer only when its "
              "playouts beat the base's by more than this many standard errors (paired, "
              "playout by playout): most options differ by a point or two of win chance, "
              "which a few playouts cannot see, and noise must not overrule the base",
              0.0, 5.0),
        Param("from_level", 2, "search only while the seat is at least on this level (0: "
              "every decision; 2: only as a Rum Corps officer, near the coup, where "
              "playouts are short and decisions decide games)", 0, 2, integer=True),
        Param("base", 0, "the policy of every seat in the playouts, and of the searching seat "
              "at the decisions it does not search", policies=("threshold", "expert")),
    ), slow=True),
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

# The kinds of option a player chooses, in bit order (engines._restrict): what a restriction
# (`expert:forbid=crime`, `threshold:force=challenge`) forbids or forces, and what the
# took_<name>_<seat> columns count. Every one is a yes/no (or, for a challenge, whom)
# whose "no" has no kind. Side bets and vote trades (house rules) declare none.
CHOICES = (
    Choice("redeem", "to buy back one of its own promissory notes in S2, a choice only "
           "under redeem_timing=start_of_turn"),
    Choice("ticket", "to buy a Ticket of Leave in S4, moving up from Convict"),
    Choice("commission", "to buy a Rum Corps commission in S4, moving up from Ticket of Leave"),
    Choice("store_vote", "to buy the top Vote card from the empty Bond Store in S5"),
    Choice("major_vote", "8 barrels and the top Vote card as a Major's income for passing "
           "Start, rather than 16 barrels"),
    Choice("crime", "to commit the crime of a Crime square"),
    Choice("challenge", "to challenge another player on a Challenge square, whichever the "
           "target"),
    Choice("buy_vote", "to buy the top Vote card on a Buy Vote Cards square, once per card "
           "bought"),
    Choice("promotion", "promotion from Captain to Major on a Promotion square"),
    Choice("announce", "to announce a coup in S9, or under coup_delay=none to attempt one "
           "in S3"),
)
# each choice's bit, by name, for both paths
CHOICE_BIT = {c.name: i for i, c in enumerate(CHOICES)}
C_REDEEM = CHOICE_BIT["redeem"]
C_TICKET = CHOICE_BIT["ticket"]
C_COMMISSION = CHOICE_BIT["commission"]
C_STORE_VOTE = CHOICE_BIT["store_vote"]
C_MAJOR_VOTE = CHOICE_BIT["major_vote"]
C_CRIME = CHOICE_BIT["crime"]
C_CHALLENGE = CHOICE_BIT["challenge"]
C_BUY_VOTE = CHOICE_BIT["buy_vote"]
C_PROMOTION = CHOICE_BIT["promotion"]
C_ANNOUNCE = CHOICE_BIT["announce"]
N_CHOICES = len(CHOICES)


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
    choices=CHOICES,
    summary="roll-and-move race for 2-6: convict, ticket of leave, Rum Corps, then a coup",
    # The strength ladder (`rumsim ladder`, the page's skilled play), weakest first, and
    # the deals it plays by default (every rung on each).
    extra={"ladder": ("random", "threshold", "expert",
                     "rollout:base=expert:samples=16", "rollout:base=expert:samples=32"),
           "ladder_deals": 8_000},
)
