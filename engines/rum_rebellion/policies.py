"""Rum Rebellion's decision makers for the reference path (spec §6.3).

* ``random``    — uniform over the legal options of each decision (spec §6.3 P1).
* ``threshold`` — greedy with a risk appetite ``risk`` (P2).
* ``blocker``   — ``threshold`` that spends its challenges on the leader (P3).

One method per decision ID of spec §6.2; the engine asks a decision only when
it has at least two legal options, so a forced decision never draws a random
number. Each method receives the table; a policy may only use what spec §6.1
says is open (everything except the order of the face-down decks).

The random policy's options are numbered in the order of spec §6.2's table
(``below(2) == 0`` is the first: redeem, move up, buy, 16 barrels, commit,
accept, announce); ``challenge`` is uniform over [none, targets in turn order
after the challenger]; ``side_bet`` over [WIN, LOSE, no bet]; ``trade_offer``
over [none, offers in ``reference.trade_offers`` order].

``threshold`` and ``blocker`` compare in integers (or the exact float
expressions given) so the fast path agrees for any ``risk``:
buy iff ``10 * price <= value * (6 + 8 * risk)``; commit a crime iff
``c <= floor(6 * risk + 1e-9)``. Decisions the spec's §6.3 leaves to us
(only reachable under house rules) are defined in the method docstrings.
"""

from __future__ import annotations

import math

from engines._rng import Rng
from engines.rum_rebellion import POLICIES
from engines.rum_rebellion.data import LOSE, RUM_CORPS, WIN
from engines.rum_rebellion.reference import next_win_lose_odds

# ================================================================ random (P1)


class RandomPolicy:
    """Uniform over the legal options of every decision."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def _yes(self) -> bool:
        return self.rng.below(2) == 0

    def redeem(self, t, p, note) -> bool:
        return self._yes()

    def level_up(self, t, p, level) -> bool:
        return self._yes()

    def store_empty_buy(self, t, p) -> bool:
        return self._yes()

    def major_income(self, t, p) -> bool:
        """True = 8 barrels + the top Vote card (option 1); False = 16 barrels (option 0)."""
        return self.rng.below(2) == 1

    def commit_crime(self, t, p, value) -> bool:
        return self._yes()

    def challenge(self, t, p, targets):
        pick = self.rng.below(len(targets) + 1)
        return None if pick == 0 else targets[pick - 1]

    def buy_vote(self, t, p) -> bool:
        return self._yes()

    def accept_promotion(self, t, p) -> bool:
        return self._yes()

    def announce_coup(self, t, p) -> bool:
        return self._yes()

    def trade_offer(self, t, p, offers):
        pick = self.rng.below(len(offers) + 1)
        return None if pick == 0 else offers[pick - 1]

    def trade_accept(self, t, q, p, offer) -> bool:
        return self._yes()

    def side_bet(self, t, q, drawer):
        return (WIN, LOSE, None)[self.rng.below(3)]


# ================================================================ threshold (P2)


def buys(price: int, value: int, risk: float) -> bool:
    """The buy rule: 10 * price <= value * (6 + 8r) (r = 0.5 buys every default card)."""
    return 10 * price <= value * (6 + 8 * risk)


def crime_limit(risk: float) -> int:
    """The largest crime value committed: floor(6r) (r = 0: none; 0.5: 3; 1: all)."""
    return math.floor(6 * risk + 1e-9)


def leader(t, p, targets) -> tuple[int, bool]:
    """The challenge target of §6.3: announced candidates first, then the largest key.

    Key: (votes, -((q - p) mod P)), i.e. most votes, ties to the next in turn order.
    Returns (target, whether some candidate has announced).
    """
    P = t.P
    announced = [q for q in targets if t.players[q].announced_round is not None]
    pool = announced or targets
    target = max(pool, key=lambda q: (t.players[q].votes, -((q - p) % P)))
    return target, bool(announced)


class ThresholdPolicy:
    """Greedy with risk appetite r (spec §6.3 P2)."""

    margin_for_challenge = 10   # challenge a target within this many votes of a coup

    def __init__(self, risk: float = POLICIES["threshold"].default("risk")):
        self.risk = risk

    def redeem(self, t, p, note) -> bool:
        return True

    def level_up(self, t, p, level) -> bool:
        return True

    def store_empty_buy(self, t, p) -> bool:
        return True

    def major_income(self, t, p) -> bool:
        """8 barrels + the card iff the top card is worth 10 votes (blind: every card is)."""
        pack = t.vote_pack
        if t.rules.vote_top_visible:
            return pack[0].value >= 10
        return min(c.value for c in pack) >= 10

    def commit_crime(self, t, p, value) -> bool:
        return value <= crime_limit(self.risk)

    def challenge(self, t, p, targets):
        target, announced = leader(t, p, targets)
        votes = t.players[target].votes
        if announced or votes >= t.rules.votes_for_coup - 10 or self.risk >= 0.5:
            return target
        return None

    def buy_vote(self, t, p) -> bool:
        """The buy rule on the top card (blind: on the pack's totals)."""
        pack = t.vote_pack
        if t.rules.vote_top_visible:
            return buys(pack[0].price, pack[0].value, self.risk)
        return buys(sum(c.price for c in pack), sum(c.value for c in pack), self.risk)

    def accept_promotion(self, t, p) -> bool:
        return True

    def announce_coup(self, t, p) -> bool:
        return True

    def trade_offer(self, t, p, offers):
        """Ask for votes only when it needs them (able to coup but short of votes).

        Among asks to players below the Rum Corps whose card passes the buy
        rule: the largest value, then the lowest price, then the first listed.
        Never offers to sell.
        """
        pl = t.players[p]
        if pl.votes >= t.rules.votes_for_coup:
            return None
        if t.rules.coup_requires_rum_corps and pl.level != RUM_CORPS:
            return None
        best = None
        for offer in offers:
            if offer.kind != "ask" or t.players[offer.other].level == RUM_CORPS:
                continue
            if not buys(offer.price, offer.card.value, self.risk):
                continue
            if best is None or (offer.card.value, -offer.price) > (best.card.value, -best.price):
                best = offer
        return best

    def trade_accept(self, t, q, p, offer) -> bool:
        """Sell while below the Rum Corps unless it arms a near-coup buyer; buy as on the board."""
        if offer.kind == "ask":
            near = t.rules.votes_for_coup - self.margin_for_challenge
            return (t.players[q].level != RUM_CORPS
                    and t.players[p].votes + offer.card.value < near)
        return t.players[q].level == RUM_CORPS and buys(offer.price, offer.card.value, self.risk)

    def side_bet(self, t, q, drawer):
        """Bet on the likelier card when its chance is at least 1 - r/2 (WIN checked first)."""
        wins, total = next_win_lose_odds(t)
        if 2 * wins >= (2 - self.risk) * total:
            return WIN
        if 2 * (total - wins) >= (2 - self.risk) * total:
            return LOSE
        return None


# ================================================================ blocker (P3)


class BlockerPolicy(ThresholdPolicy):
    """threshold(r_b) except challenges: only the announced or near-coup leader (spec §6.3 P3)."""

    margin_for_challenge = 20

    def __init__(self, risk: float = POLICIES["blocker"].default("risk")):
        super().__init__(risk)

    def challenge(self, t, p, targets):
        target, announced = leader(t, p, targets)
        if announced or t.players[target].votes >= t.rules.votes_for_coup - 20:
            return target
        return None


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "threshold": lambda policy, rng: ThresholdPolicy(**policy.params()),
    "blocker": lambda policy, rng: BlockerPolicy(**policy.params()),
}
