"""Rum Rebellion's decision makers for the reference path (spec §6.3).

* ``random``    — uniform over the legal options of each decision (spec §6.3 P1).
* ``threshold`` — greedy with a risk appetite ``risk`` (P2).
* ``blocker``   — ``threshold`` that spends its challenges on the leader (P3).
* ``heuristic`` — every decision scored by declared, named features (card-counted
  odds, the rivals' coup threat, votes and barrels needed); at its defaults it
  makes exactly ``threshold(0.5)``'s decisions. It draws no random numbers.
* ``rollout``   — flat Monte Carlo (:class:`RolloutPolicy`) at six decisions, every
  seat of a playout playing its ``base`` policy. At each searched decision it draws
  ``samples`` words from its stream (``next_u64``), one per playout, and nothing
  else; a playout's world is ``Rng(word, 0, 0)``, so the game's world stream never
  moves for it.

One method per decision ID of spec §6.2; the engine asks a decision only when
it has at least two legal options that the seat's restriction keeps
(``reference.decide``), so a forced decision never draws a random number. Each method receives the table; a policy may only use what spec §6.1
says is open (everything except the order of the face-down decks).

The random policy's options are numbered in the order of spec §6.2's table
(``below(2) == 0`` is the first: redeem, move up, buy, 16 barrels, commit,
accept, announce); ``challenge`` is uniform over [none, targets in turn order
after the challenger], ``challenge_target`` (a seat its restriction forces to
challenge: whom) over the targets; ``side_bet`` over [WIN, LOSE, no bet]; ``trade_offer``
over [none, offers in ``reference.trade_offers`` order].

``threshold`` and ``blocker`` compare in integers (or the exact float
expressions given) so the fast path agrees for any ``risk``:
buy iff ``10 * price <= value * (6 + 8 * risk)``; commit a crime iff
``c <= floor(6 * risk + 1e-9)``. Decisions the spec's §6.3 leaves to us
(only reachable under house rules) are defined in the method docstrings.
"""

from __future__ import annotations

import copy
import dataclasses
import math

from engines._rng import Rng
from engines.rum_rebellion import POLICIES, reference
from engines.rum_rebellion.data import (
    CONVICT,
    FINE,
    GAOL,
    LOSE,
    RUM_CORPS,
    TICKET_OF_LEAVE,
    WIN,
)
from engines.rum_rebellion.reference import (
    COUP,
    INCOME,
    LEVEL_UP,
    SQUARE,
    next_win_lose_odds,
    owes_notes,
)
from engines.rum_rebellion.rules import CRIME_VALUE

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

    def challenge_target(self, t, p, targets):
        return targets[self.rng.below(len(targets))]

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

    def challenge_target(self, t, p, targets):
        """Whom to challenge when it must challenge (a restriction): the leader."""
        return leader(t, p, targets)[0]

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


# ================================================================ heuristic

TOL = 1e-9   # a yes needs its score >= -TOL; a later target must beat the best by more


def win_chance(t, k: int) -> float:
    """P(WIN) of the Win/Lose card ``k`` draws ahead, from what every player has seen.

    Drawn cards go under the deck, so the card ``k`` ahead is one seen since the
    last shuffle once ``seen - n + k mod n >= 0`` (then it is known); otherwise it
    is one of the unseen cards (spec §4.11, §6.1). Under ``iid`` every draw is fresh.
    """
    deck = t.win_lose
    n = len(deck)
    wins = sum(1 for c in deck if c == WIN)
    if t.rules.win_lose_after_draw == "iid":
        return wins / n
    seen = t.win_lose_seen
    j = len(seen) - n + k % n
    if j >= 0:
        return 1.0 if seen[j] == WIN else 0.0
    return (wins - sum(1 for c in seen if c == WIN)) / (n - len(seen))


def verdict_odds(t) -> tuple[float, float]:
    """(P(FINE), P(GAOL)) of the next Court Verdict card, counted like ``win_chance``."""
    deck = t.court_verdict
    n = len(deck)
    seen = t.court_verdict_seen
    if len(seen) >= n:
        card = seen[len(seen) - n]
        return (1.0 if card == FINE else 0.0), (1.0 if card == GAOL else 0.0)
    left = n - len(seen)
    fines = sum(1 for c in deck if c == FINE) - sum(1 for c in seen if c == FINE)
    gaols = sum(1 for c in deck if c == GAOL) - sum(1 for c in seen if c == GAOL)
    return fines / left, gaols / left


def coup_threat(t, q) -> float:
    """How near seat q is to a coup: min(votes, V) / V on a level that may attempt one, else 0."""
    pl = t.players[q]
    if t.rules.coup_requires_rum_corps and pl.level != RUM_CORPS:
        return 0.0
    V = t.rules.votes_for_coup
    return min(pl.votes, V) / V


def rival_threat(t, p) -> float:
    """The largest coup threat among p's rivals."""
    most = 0.0
    for q in t.others(p):
        most = max(most, coup_threat(t, q))
    return most


def need_share(t, p) -> float:
    """The share of the next level's price p still lacks (0 on the Rum Corps)."""
    pl = t.players[p]
    if pl.level == CONVICT:
        cost = t.rules.ticket_cost
    elif pl.level == TICKET_OF_LEAVE:
        cost = t.rules.commission_cost
    else:
        return 0.0
    return max(0, cost - pl.barrels) / cost


def eligible_with(t, p, votes: int) -> bool:
    """coup_eligible with ``votes`` votes instead of p's own."""
    pl = t.players[p]
    if t.rules.coup_requires_rum_corps and pl.level != RUM_CORPS:
        return False
    return votes >= t.rules.votes_for_coup and not owes_notes(t, p)


class HeuristicPolicy(ThresholdPolicy):
    """Each decision a weighted sum of named features (declared in ``POLICIES``).

    * crime c:   crime_limit - c + crime_gain x E[barrels] - crime_jail x E[missed turns]
                 + crime_need x need + crime_threat x rival threat >= 0
    * challenge: the pool is the announced targets if any, else all; the target
                 maximises chal_votes x votes/10 + chal_edge_threat x edge x its threat
                 (ties: first in turn order after p); challenge iff chal_base
                 + chal_odds x edge + chal_threat x its threat + chal_risk x at_risk
                 + chal_reach x reach + chal_knock x knock >= 0, edge = 2 P(WIN next) - 1
    * buy:       value x vote_worth - price + buy_reach x [the card lifts p to the coup]
                 >= 0 (blind pack: the pack's sums, no reach term)
    * announce:  ann_base + ann_odds x (P(WIN next) - 1/2) + ann_later x (mean P(WIN) of
                 the L = max(1, P - 1) cards after it - 1/2) >= 0 (under coup_delay=none,
                 where announcing is attempting on the next card, the later term is 0)
                 + ann_thin x [votes - challenge_stake would not be enough] (0 under none)
    * move up to the Rum Corps iff barrels - commission_cost >= rc_reserve
    * everything else (redeem, ticket, promotion, Store sale, Major's income, side
      bets, vote trades) as threshold(0.5).
    Sums are evaluated left to right, as written, on both paths.
    """

    def __init__(self, **params):
        super().__init__(0.5)
        for name, value in params.items():
            setattr(self, name, value)

    def level_up(self, t, p, level) -> bool:
        if level == RUM_CORPS:
            return t.players[p].barrels - t.rules.commission_cost >= self.rc_reserve - TOL
        return True

    def commit_crime(self, t, p, value) -> bool:
        pl = t.players[p]
        c = value
        win = c if t.rules.crime_win_amount == CRIME_VALUE else t.rules.crime_win_amount
        p_win = win_chance(t, 0)
        p_fine, p_gaol = verdict_odds(t)
        if pl.barrels >= c:
            fine_barrels, fine_turns = c, 0
        elif t.rules.fine_unpaid == "gaol":
            fine_barrels, fine_turns = 0, c
        else:
            fine_barrels, fine_turns = pl.barrels, c - pl.barrels
        lose = 1.0 - p_win
        gain = p_win * win - lose * p_fine * fine_barrels
        jail = lose * (p_gaol * c + p_fine * fine_turns)
        score = (self.crime_limit - c + self.crime_gain * gain - self.crime_jail * jail
                 + self.crime_need * need_share(t, p) + self.crime_threat * rival_threat(t, p))
        return score >= -TOL

    def challenge_target(self, t, p, targets):
        """The target it would challenge, challenging or not."""
        pool = [q for q in targets if t.players[q].announced_round is not None] or targets
        edge = 2.0 * win_chance(t, 0) - 1.0
        best, best_score = None, 0.0
        for q in pool:
            score = (self.chal_votes * (t.players[q].votes / 10)
                     + self.chal_edge_threat * edge * coup_threat(t, q))
            if best is None or score > best_score + TOL:
                best, best_score = q, score
        return best

    def challenge(self, t, p, targets):
        best = self.challenge_target(t, p, targets)
        edge = 2.0 * win_chance(t, 0) - 1.0
        votes = t.players[p].votes
        stake = t.rules.challenge_stake
        now = eligible_with(t, p, votes)
        at_risk = 1.0 if now and not eligible_with(t, p, votes - stake) else 0.0
        reach = 1.0 if not now and eligible_with(t, p, votes + stake) else 0.0
        theirs = t.players[best].votes
        knock = (1.0 if eligible_with(t, best, theirs)
                 and not eligible_with(t, best, theirs - stake) else 0.0)
        go = (self.chal_base + self.chal_odds * edge + self.chal_threat * coup_threat(t, best)
              + self.chal_risk * at_risk + self.chal_reach * reach + self.chal_knock * knock)
        return best if go >= -TOL else None

    def buy_vote(self, t, p) -> bool:
        pack = t.vote_pack
        if t.rules.vote_top_visible:
            card = pack[0]
            votes = t.players[p].votes
            V = t.rules.votes_for_coup
            reach = 1.0 if votes < V <= votes + card.value else 0.0
            score = card.value * self.vote_worth - card.price + self.buy_reach * reach
        else:
            score = (sum(c.value for c in pack) * self.vote_worth
                     - sum(c.price for c in pack))
        return score >= -TOL

    def announce_coup(self, t, p) -> bool:
        later = 0.5
        thin = 0.0
        if t.rules.coup_delay != "none":
            L = max(1, t.P - 1)
            total = 0.0
            for k in range(1, L + 1):
                total += win_chance(t, k)
            later = total / L
            votes = t.players[p].votes - t.rules.challenge_stake
            thin = 0.0 if eligible_with(t, p, votes) else 1.0
        return (self.ann_base + self.ann_odds * (win_chance(t, 0) - 0.5)
                + self.ann_later * (later - 0.5) + self.ann_thin * thin >= -TOL)


# ================================================================ rollout


class RolloutPolicy:
    """Flat Monte Carlo at six decisions; ``base`` (threshold or the expert) everywhere else.

    Searched: ``level_up`` (under max_level_ups_per_turn=1), ``major_income``,
    ``commit_crime``, ``challenge`` (``challenge_target`` when a restriction forces the seat
    to challenge), ``buy_vote`` (under max_vote_buys_per_landing=1)
    and ``announce_coup`` -- the decisions of a turn that a playout can take up again
    at the step that asks them (``reference.take_turn``'s ``step``). Not searched:
    redemptions (base: always), the empty Store's sale, promotion (both always taken,
    and rare), side bets and vote trades (house rules; asked out of turn or mid-S2).

    Only while the seat is at least on level ``from_level`` (below it: the base's
    answer, no draws). The candidates are the base's own answer first, then the other
    options in spec §6.2 order (a challenge: none, then the targets in turn order after
    the seat; a seat forced to challenge: the targets). A decision its restriction
    (``reference.decide``) leaves with one option is not asked, so not searched.
    ``samples`` words are drawn from the seat's stream first (as
    ``engines._play.flat_monte_carlo`` draws them); every candidate is played once per
    word (common random playouts) on a copy of the table whose world is
    ``Rng(word, 0, 0)``: first what the seat cannot see is re-dealt (:func:`resample`),
    then the decision's step runs again with the candidate as the answer, and the game
    is played to its end, every seat (this one too) playing ``base``; each later turn
    draws from its own world ``Rng(word, reference.turn_key(round, seat, chain), 0)``,
    so a turn rolls the same dice in every candidate's playout (the options' playouts
    differ by what the option changed). A playout is worth the seat's
    ``win`` (1 for its coup, 0 otherwise; a capped game as ``reference.wins``).

    A candidate's lead is the sum over the words of its playout's worth less the base
    answer's; it replaces the base's answer only when its lead exceeds ``confidence`` x
    sqrt(the sum of the squared differences) (a paired test over the playouts where the
    two differ; 0: plain flat Monte Carlo, a strictly larger total) and is the largest
    such lead (ties: the earlier candidate). Sums run over the words in order, the
    candidates in order, on both paths.
    """

    def __init__(self, policy, rng: Rng):
        self.rng = rng
        self.samples = int(policy.param("samples"))
        self.confidence = policy.param("confidence")
        self.from_level = int(policy.param("from_level"))
        self.base = build(policy.base, rng)   # threshold or heuristic: draws nothing

    def __getattr__(self, name):
        """The decisions it does not search are the base's."""
        return getattr(self.base, name)

    def search(self, t, p, decision: str, step: int, base, options):
        if t.players[p].level < self.from_level:
            return base
        candidates = [base] + [o for o in options if o != base]
        words = [self.rng.next_u64() for _ in range(self.samples)]
        first = [self.playout(t, p, decision, step, candidates[0], w) for w in words]
        best, best_lead = 0, 0.0
        for i in range(1, len(candidates)):
            lead = spread = 0.0
            for j, word in enumerate(words):
                d = self.playout(t, p, decision, step, candidates[i], word) - first[j]
                lead += d
                spread += d * d
            if lead > self.confidence * math.sqrt(spread) + TOL and lead > best_lead + TOL:
                best, best_lead = i, lead
        return candidates[best]

    def playout(self, t, p, decision: str, step: int, answer, word: int) -> float:
        world = Rng(word, 0, 0)
        c = clone(t, world)
        resample(c, world)
        c.playout_word = word
        c.policies = [self.base] * c.P
        c.policies[p] = Forced(self.base, decision, answer)
        reference.play_rounds(c, p, step, c.chain)
        return reference.wins(c)[p]

    def level_up(self, t, p, level) -> bool:
        base = self.base.level_up(t, p, level)
        if t.rules.max_level_ups_per_turn != 1:
            return base
        return self.search(t, p, "level_up", LEVEL_UP, base, (True, False))

    def major_income(self, t, p) -> bool:
        return self.search(t, p, "major_income", INCOME, self.base.major_income(t, p),
                           (False, True))

    def commit_crime(self, t, p, value) -> bool:
        return self.search(t, p, "commit_crime", SQUARE, self.base.commit_crime(t, p, value),
                           (True, False))

    def challenge(self, t, p, targets):
        return self.search(t, p, "challenge", SQUARE, self.base.challenge(t, p, targets),
                           [None, *targets])

    def challenge_target(self, t, p, targets):
        return self.search(t, p, "challenge_target", SQUARE,
                           self.base.challenge_target(t, p, targets), targets)

    def buy_vote(self, t, p) -> bool:
        base = self.base.buy_vote(t, p)
        if t.rules.max_vote_buys_per_landing != 1:
            return base
        return self.search(t, p, "buy_vote", SQUARE, base, (True, False))

    def announce_coup(self, t, p) -> bool:
        step = COUP if t.rules.coup_delay == "none" else reference.ANNOUNCE
        return self.search(t, p, "announce_coup", step, self.base.announce_coup(t, p),
                           (True, False))


class Forced:
    """A playout's searching seat: ``answer`` the first time ``decision`` is asked (the
    decision played out), ``base`` for everything else."""

    def __init__(self, base, decision: str, answer):
        self.base = base
        self.decision = decision
        self.answer = answer

    def __getattr__(self, name):
        if name == self.decision:
            self.decision = None

            def forced(*args):
                return self.answer
            return forced
        return getattr(self.base, name)


def clone(t, world: Rng):
    """A copy of the table to play on with ``world``: nothing it changes reaches ``t``."""
    c = copy.copy(t)
    c.world = world
    c.players = [dataclasses.replace(pl, vote_cards=list(pl.vote_cards),
                                     tickets=list(pl.tickets)) for pl in t.players]
    c.notes = [dataclasses.replace(n) for n in t.notes]
    c.win_lose = list(t.win_lose)
    c.win_lose_seen = list(t.win_lose_seen)
    c.court_verdict = list(t.court_verdict)
    c.court_verdict_seen = list(t.court_verdict_seen)
    c.vote_pack = list(t.vote_pack)
    c.ticket_deck = list(t.ticket_deck)
    c.ticket_owner = list(t.ticket_owner)
    c.took = [list(counts) for counts in t.took]
    c.standings = []
    c.log = c.events = None
    c.observe = None
    return c


def resample(t, rng: Rng) -> None:
    """Re-deal what no player can see (spec §6.1: the order of the face-down decks), from
    ``rng``, in this order: the Win/Lose cards not seen since its last shuffle (the top
    ``len(deck) - len(seen)``; none under iid or once a whole cycle has been seen), then
    the Court Verdict deck's likewise, then the Vote pack below its face-up top card (the
    whole pack under vote_top_visible=false), then the unsold Ticket of Leave cards."""
    for deck, seen in ((t.win_lose, t.win_lose_seen), (t.court_verdict, t.court_verdict_seen)):
        if deck is t.win_lose and t.rules.win_lose_after_draw == "iid":
            continue
        unseen = len(deck) - len(seen)
        if unseen > 0:
            hidden = deck[:unseen]
            rng.shuffle(hidden)
            deck[:unseen] = hidden
    top = 1 if t.rules.vote_top_visible else 0
    hidden = t.vote_pack[top:]
    rng.shuffle(hidden)
    t.vote_pack[top:] = hidden
    rng.shuffle(t.ticket_deck)


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "threshold": lambda policy, rng: ThresholdPolicy(**policy.params()),
    "blocker": lambda policy, rng: BlockerPolicy(**policy.params()),
    "heuristic": lambda policy, rng: HeuristicPolicy(**policy.params()),
    "rollout": lambda policy, rng: RolloutPolicy(policy, rng),
}
