"""Rum & Pirates' decision makers for the reference path (spec §8, ``READINGS.md``).

The decision interface: ``reference.choose`` asks a seat's decision maker
``method(t, seat, options, ctx)`` and uses the option it returns; a decision
with one legal option is not asked. One method per decision of spec 8.2, the
options listed in 8.2's order:

* D1 ``turn_action``: :class:`reference.Move` s (roads by id, then dark moves
  by exit and entry id), ``REST`` if legal, ``BOARD`` if legal; ctx ``lone``.
* D2 ``move_again``: the moves affordable with the move-again coin, ``STOP``
  (then ``BOARD`` under board_after_move_same_turn); ctx ``lone``.
* D3 ``supply_keep``: ``KEEP``, ``SELL``; ctx ``tile`` (the drawn code).
* D4 ``map_take``: the matching affordable display indices in display order,
  ``NONE``.
* D5 ``guard_stack``: ``BIG``, ``SMALL`` (non-empty stacks only).
* D6 ``hq_reclaim``: ``NONE``, ``("ROAD", r)`` by id, ``("PAIR", x, y)``.
* D7 ``pub_join``: ``JOIN``, ``DECLINE``; ctx ``host``, ``tiles``, ``joined``.
* D8 ``pub_take``: indices into the remaining matching tiles (``ctx["tiles"]``);
  ctx ``roll``.
* D9 ``reroll``: ``REROLL``, ``KEEP``; ctx ``kind`` (``pub``: ``roll``,
  ``tiles``; ``scorpion``: ``roll``, ``total``, ``threshold``, ``next``;
  ``bunk``: ``roll``, ``column``, ``row``, ``first``, ``earlier`` (row, roll)
  of the contenders who rolled before in this column round, ``hopeless``;
  ``bunk_sweep`` (reroll_window = after_column): ``roll``, ``winning``,
  ``others``, ``hopeless``).

Policies and the draws of each seat's stream ``Rng(seed, game, POLICY + seat)``:

* ``random``: one ``below(n)`` per decision asked (n >= 2), ``options[i]``.
* ``greedy`` (spec 8.4 as the contract completes it) draws nothing. Its scans
  keep the earliest option unless a later one is better by more than 1e-9, and
  its thresholds allow 1e-9 (``net >= tau - 1e-9``), so that values equal on
  paper (e.g. rum at 2 pirates: 1.2 - 0.7 = tau) decide the same way in both
  engine paths whatever the rounding of their sums.
* ``heuristic`` (:class:`HeuristicPolicy`) draws nothing; its scans and threshold keep
  greedy's 1e-9 conventions.
* ``rollout``: its base policy (greedy, or the expert: ``rollout:base=expert``)
  except at D1 / D2 with two or more candidates, where it draws ``samples`` words
  (``next_u64``), one per playout, and plays each candidate on ``samples``
  re-dealt worlds (:func:`resample`), every seat the base policy.
"""

from __future__ import annotations

from engines._play import flat_monte_carlo
from engines._rng import Rng
from engines.rum_and_pirates import POLICIES, data
from engines.rum_and_pirates.data import (
    CHEST,
    COIN,
    CORNER_ACTION,
    CORNER_COLOUR,
    GUARD,
    HQ,
    MAP,
    PIRATE,
    PUB,
    RDV_TARGETS,
    RENDEZVOUS,
    RUM,
    SUPPLIES,
)
from engines.rum_and_pirates.reference import (
    BIG,
    BOARD,
    DECLINE,
    JOIN,
    KEEP,
    NONE,
    REROLL,
    REST,
    SELL,
    SMALL,
    STOP,
    Move,
    Table,
    again_coin,
    clone,
    do_again_choice,
    do_turn_choice,
    finish_round,
    guard_beats,
    map_score,
    play_rounds,
    score,
    sting_chances,
    supply_score,
)

TOL = 1e-9
ALL_SUPPLIES = tuple(sorted(data.initial_stacks()["supplies"]))
ALL_RDV = tuple(sorted(data.initial_stacks()["rendezvous"]))


def _greedy_default(name: str) -> float:
    return POLICIES["greedy"].default(name)


def _heuristic_default(name: str) -> float:
    return POLICIES["heuristic"].default(name)


# ================================================================ random


class RandomPolicy:
    """Uniform over the legal options of every decision (spec 8.3)."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def _pick(self, t, seat, options, ctx):
        return options[self.rng.below(len(options))]

    turn_action = move_again = supply_keep = map_take = guard_stack = hq_reclaim = \
        pub_join = pub_take = reroll = _pick


# ================================================================ greedy


class GreedyPolicy:
    """The one-step value of spec 8.4, completed by the contract."""

    def __init__(self, w_coin: float = _greedy_default("w_coin"),
                 w_rum: float = _greedy_default("w_rum"),
                 w_hand: float = _greedy_default("w_hand"),
                 tau: float = _greedy_default("tau"),
                 p_rdv: float = _greedy_default("p_rdv"),
                 w_recruit: float = _greedy_default("w_recruit"),
                 pub_join_share: float = _greedy_default("pub_join_share"),
                 reroll_can_win: float = _greedy_default("reroll_can_win")):
        self.w_coin, self.w_rum, self.w_hand, self.tau = w_coin, w_rum, w_hand, tau
        self.p_rdv, self.w_recruit, self.pub_join_share = p_rdv, w_recruit, pub_join_share
        self.reroll_can_win = int(reroll_can_win)

    # ------------------------------------------------------------ pieces of V

    def supply_gain(self, t: Table, seat: int, code: int) -> int:
        kept = t.seats[seat].supplies
        return supply_score(t.rules, [*kept, code]) - supply_score(t.rules, kept)

    def supplies_value(self, t: Table, seat: int) -> float:
        if not t.stacks["supplies"]:
            return 0.0
        drawn = list(t.seats[seat].drawn)
        unseen = []
        for c in ALL_SUPPLIES:
            if c in drawn:
                drawn.remove(c)
            else:
                unseen.append(c)
        if not unseen:
            return 0.0
        sell = t.rules.supply_sell_coins * self.w_coin
        total = 0.0
        for c in unseen:
            total += max(self.supply_gain(t, seat, c), sell)
        return total / len(unseen)

    def rendezvous_value(self, t: Table) -> float:
        if not t.stacks["rendezvous"]:
            return 0.0
        v = data.RDV_MEAN_VALUE * self.p_rdv
        return v / 2 if t.round == t.rules.num_rounds else v

    def map_expr(self, t: Table, seat: int, code: int) -> float:
        maps = t.seats[seat].maps
        after = [*maps, code]
        colour = data.tile_colour(code)
        odd = sum(1 for c in after if data.tile_colour(c) == colour) % 2 == 1
        gain = map_score(after) - map_score(maps)
        return gain + (0.4 * data.tile_value(code) if odd else 0.0)

    def map_value(self, t: Table, seat: int, colour: int, coins: int) -> float:
        price = t.rules.map_price
        if coins < price:
            return 0.0
        best = None
        for c in t.map_display:
            if data.tile_colour(c) == colour:
                v = self.map_expr(t, seat, c) - price * self.w_coin
                if best is None or v > best + TOL:
                    best = v
        return 0.0 if best is None else best

    def expected_joiners(self, t: Table, seat: int, total: int) -> int:
        participants = 1
        joined = 0
        for k in range(1, t.players):
            other = (seat + k) % t.players
            if t.rules.pub_join_requires_active and not t.active(other):
                continue
            if total / (participants + 1) > self.pub_join_share * self.w_coin:
                participants += 1
                joined += 1
        return joined

    def pub_value(self, t: Table, seat: int, colour: int) -> float:
        m = [c for c in t.pub_display if data.tile_colour(c) == colour]
        if not m:
            return 0.0
        total = sum(data.tile_value(c) for c in m)
        j = self.expected_joiners(t, seat, total)
        return total / (1 + j) + j * self.w_coin

    def chest_value(self, t: Table) -> float:
        v = float(t.chest) if t.chest is not None else 0.0
        if t.scorpion is not None:
            v += t.rules.scorpion_value * sting_chances(t.players, t.scorpion)[0]
        return v

    def guard_expectation(self, t: Table, name: str, h: int) -> float:
        stack = t.stacks[name]
        if not stack:
            return 0.0
        tiles = stack[-1:] if t.rules.guard_stack_visible else stack
        total = 0.0
        for g in tiles:
            if guard_beats(t.rules, h, g):
                coin = 1 if name == "small_guards" and data.small_guard_coin(g) else 0
                total += g + coin * self.w_coin
        return total / len(tiles)

    def guard_value(self, t: Table, h: int) -> float:
        return max(self.guard_expectation(t, "big_guards", h),
                   self.guard_expectation(t, "small_guards", h), 0.0)

    def hq_value(self, t: Table, seat: int, m: Move) -> float:
        """w_hand x the most pirates one legal reclaim returns, this move's pirates placed."""
        return self.w_hand * self.hq_most(t, seat, m)

    def hq_most(self, t: Table, seat: int, m: Move) -> int:
        """The most pirates one legal reclaim returns, this move's pirates placed."""
        b = t.board
        roads = [b.roads[r][2] for r in range(data.N_ROADS) if t.road_owner[r] == seat]
        halves = [d for d in range(data.N_DARKS) if t.dark_owner[d] == seat]
        partner = dict((d, t.dark_partner[d]) for d in halves)
        if m.dark:
            halves += [m.exit, m.entry]
            partner[m.exit], partner[m.entry] = m.entry, m.exit
        else:
            roads.append(b.roads[m.road][2])
        best = max(roads, default=0)
        if t.rules.hq_dark_pair_any:
            lens = sorted((b.darks[d][1] for d in halves), reverse=True)
            if len(lens) >= 2:
                best = max(best, lens[0] + lens[1])
        else:
            for d in halves:
                best = max(best, b.darks[d][1] + b.darks[partner[d]][1])
        return best

    def value(self, t: Table, seat: int, m: Move, coins_paid: int) -> float:
        """V(d, h) of spec 8.4 for the move ``m``."""
        p = t.seats[seat]
        d = m.dest
        h = p.hand - m.pirates
        action = CORNER_ACTION[d]
        R = t.rules.num_rounds - t.round + 1
        if action == COIN:
            v = self.w_coin
        elif action == PIRATE:
            v = self.w_recruit * R + self.w_hand if p.reserve >= 1 else 0.0
        elif action == RUM:
            v = t.rules.rum_per_visit * self.w_rum
        elif action == SUPPLIES:
            v = self.supplies_value(t, seat)
        elif action == RENDEZVOUS:
            v = self.rendezvous_value(t)
        elif action == MAP:
            v = self.map_value(t, seat, CORNER_COLOUR[d], p.coins - coins_paid)
        elif action == PUB:
            v = self.pub_value(t, seat, CORNER_COLOUR[d])
        elif action == CHEST:
            v = self.chest_value(t)
        elif action == GUARD:
            v = self.guard_value(t, h)
        elif action == HQ:
            v = self.hq_value(t, seat, m)
        else:
            v = 0.0
        for target, fulfilled in p.rdv:
            if not fulfilled and data.rdv_matches(target, d):
                v += RDV_TARGETS[target][3]
                break
        return v

    def net(self, t: Table, seat: int, m: Move, again: int) -> float:
        coins = m.dark_coin + again
        return self.value(t, seat, m, coins) - self.w_hand * m.pirates - self.w_coin * coins

    def move_nets(self, t: Table, seat: int, options: list, again: int) -> list:
        """(option index, net) of every move among ``options``."""
        return [(i, self.net(t, seat, o, again)) for i, o in enumerate(options)
                if isinstance(o, Move)]

    @staticmethod
    def best(scored: list):
        """The first (index, value) whose value no later one beats by more than TOL."""
        best = None
        for i, v in scored:
            if best is None or v > best[1] + TOL:
                best = (i, v)
        return best

    # ------------------------------------------------------------ decisions

    def turn_action(self, t, seat, options, ctx):
        top = self.best(self.move_nets(t, seat, options, 0))
        if top is not None and top[1] >= self.tau - TOL:
            return options[top[0]]
        return self.no_move(options, top, REST)

    def move_again(self, t, seat, options, ctx):
        top = self.best(self.move_nets(t, seat, options, again_coin(t)))
        if top is not None and top[1] >= self.tau - TOL:
            return options[top[0]]
        return self.no_move(options, top, STOP)

    @staticmethod
    def no_move(options, top, other):
        """D1 / D2 when the best move is not worth making: BOARD, else ``other`` (D1: REST,
        what a zero-hand player may only do; D2: STOP), else, when the seat's restriction
        left only moves, the best of them."""
        if BOARD in options:
            return BOARD
        if other in options:
            return other
        return options[top[0]]

    def supply_keep(self, t, seat, options, ctx):
        gain = self.supply_gain(t, seat, ctx["tile"])
        return KEEP if gain >= t.rules.supply_sell_coins * self.w_coin - TOL else SELL

    def map_take(self, t, seat, options, ctx):
        scored = [(i, self.map_expr(t, seat, t.map_display[o])) for i, o in enumerate(options)
                  if o != NONE]
        return options[self.best(scored)[0]]

    def guard_stack(self, t, seat, options, ctx):
        h = t.seats[seat].hand
        big = self.guard_expectation(t, "big_guards", h)
        small = self.guard_expectation(t, "small_guards", h)
        return SMALL if small > big + TOL else BIG

    def hq_reclaim(self, t, seat, options, ctx):
        from engines.rum_and_pirates.reference import reclaim_size

        return options[self.best([(i, reclaim_size(t, o)) for i, o in enumerate(options)])[0]]

    def pub_join(self, t, seat, options, ctx):
        total = sum(data.tile_value(c) for c in ctx["tiles"])
        participants = 1 + len(ctx["joined"])
        return JOIN if total / (participants + 1) > self.pub_join_share * self.w_coin \
            else DECLINE

    def pub_take(self, t, seat, options, ctx):
        tiles = ctx["tiles"]
        return options[self.best([(i, data.tile_value(tiles[o]))
                                  for i, o in enumerate(options)])[0]]

    def reroll(self, t, seat, options, ctx):
        kind, v = ctx["kind"], ctx["roll"]
        if kind == "pub":
            want = not any(data.tile_value(c) < v for c in ctx["tiles"])
        elif kind == "scorpion":
            total, thr = ctx["total"], ctx["threshold"]
            want = total + v >= thr and thr - total >= 2
        else:
            rule = t.rules.bunk_tie_rule
            if kind == "bunk":
                if ctx["first"]:
                    want = v <= 3
                else:
                    top = max(r for _, r in ctx["earlier"])
                    want = v <= top if rule == "upper_wins" else v < top
            else:
                want = not ctx["winning"]
            if want and self.reroll_can_win and ctx["hopeless"]:
                want = False
        return REROLL if want else KEEP


# ================================================================ heuristic


class HeuristicPolicy(GreedyPolicy):
    """Greedy's one-step value plus weighted features greedy lacks (``heuristic``).

    Its first eight parameters are greedy's, read wherever greedy reads them, so at the
    declared defaults (every new weight 0, ``map_odd`` = greedy's 0.4) it decides exactly as
    greedy. What it adds (the names of ``__init__.HEURISTIC_PARAMS``):

    * the worth of coins, rum and a new rendezvous by the round, set at every decision:
      ``w_coin + coin_round * (round - 1) + coin_last * [last round]``,
      ``w_rum + rum_last * [last round]``, ``p_rdv + rdv_round * (rounds left after this)``
      (greedy's every use of them sees these);
    * ``map_odd``: greedy's 0.4, the share of a map's value it is worth unpaired;
    * the net of a move at D1 / D2 (:meth:`net`) is greedy's, then
      ``- w_deny * gift + w_cont * cont + w_bunk_boarded * d_boarded
      + w_bunk_active * d_active`` (each term left out while its weight is 0):
      ``gift`` = the best (at least 0) of ``corner_value - w_hand * len`` over the free
      roads from the destination (this move's road excluded) the next active player (the
      first clockwise; none: 0) can pay from their hand, guards valued at their hand left;
      ``cont`` = the same for myself with my hand left after the move, the move-again coin of
      the next move (0 when lone) charged at ``w_coin`` and my open rendezvous counted, 0 if I
      could not pay that coin; ``d_boarded`` = ``min(h', B + 1) - min(h, B + 1)`` where ``B``
      is the longest row the others have on the mast (0: none), ``h`` my hand and ``h'`` my
      hand after the move (its pirates paid, plus the recruit of a PIRATE corner with a
      reserve, plus HQ's largest reclaim); ``d_active`` the same with ``B`` = the largest
      hand of the other active players;
    * the least net worth moving is ``tau + tau_boarded * (others on the mast)``.

    ``corner_value`` is greedy's V of the corner's action (a map as if affordable, a guard
    at the given hand, headquarters 0) without the rendezvous bonus. It draws nothing.
    """

    def __init__(self, w_coin: float = _heuristic_default("w_coin"),
                 w_rum: float = _heuristic_default("w_rum"),
                 w_hand: float = _heuristic_default("w_hand"),
                 tau: float = _heuristic_default("tau"),
                 p_rdv: float = _heuristic_default("p_rdv"),
                 w_recruit: float = _heuristic_default("w_recruit"),
                 pub_join_share: float = _heuristic_default("pub_join_share"),
                 reroll_can_win: float = _heuristic_default("reroll_can_win"),
                 w_deny: float = _heuristic_default("w_deny"),
                 w_cont: float = _heuristic_default("w_cont"),
                 w_bunk_boarded: float = _heuristic_default("w_bunk_boarded"),
                 w_bunk_active: float = _heuristic_default("w_bunk_active"),
                 coin_round: float = _heuristic_default("coin_round"),
                 coin_last: float = _heuristic_default("coin_last"),
                 rum_last: float = _heuristic_default("rum_last"),
                 rdv_round: float = _heuristic_default("rdv_round"),
                 map_odd: float = _heuristic_default("map_odd"),
                 tau_boarded: float = _heuristic_default("tau_boarded")):
        super().__init__(w_coin, w_rum, w_hand, tau, p_rdv, w_recruit, pub_join_share,
                         reroll_can_win)
        self.base = (w_coin, w_rum, p_rdv)
        self.w_deny, self.w_cont = w_deny, w_cont
        self.w_bunk_boarded, self.w_bunk_active = w_bunk_boarded, w_bunk_active
        self.coin_round, self.coin_last, self.rum_last = coin_round, coin_last, rum_last
        self.rdv_round, self.map_odd, self.tau_boarded = rdv_round, map_odd, tau_boarded

    # ------------------------------------------------------------ the round's weights

    def sync(self, t: Table) -> None:
        """The worth of coins, rum and a new rendezvous in this round."""
        w_coin, w_rum, p_rdv = self.base
        last = t.round == t.rules.num_rounds
        self.w_coin = w_coin + self.coin_round * (t.round - 1) + (self.coin_last if last else 0.0)
        self.w_rum = w_rum + (self.rum_last if last else 0.0)
        self.p_rdv = p_rdv + self.rdv_round * (t.rules.num_rounds - t.round)

    def map_expr(self, t: Table, seat: int, code: int) -> float:
        maps = t.seats[seat].maps
        after = [*maps, code]
        colour = data.tile_colour(code)
        odd = sum(1 for c in after if data.tile_colour(c) == colour) % 2 == 1
        gain = map_score(after) - map_score(maps)
        return gain + (self.map_odd * data.tile_value(code) if odd else 0.0)

    # ------------------------------------------------------------ features

    def corner_value(self, t: Table, seat: int, corner: int, h: int) -> float:
        """Greedy's V of ``corner``'s action for ``seat`` with ``h`` pirates left in hand (a
        map as if affordable, headquarters 0), without the rendezvous bonus (remembered for
        the decision: nothing it reads changes while a decision is weighed)."""
        key = (corner, h)
        if key not in self.seen:
            self.seen[key] = self.action_value(t, seat, corner, h)
        return self.seen[key]

    def action_value(self, t: Table, seat: int, corner: int, h: int) -> float:
        p = t.seats[seat]
        action = CORNER_ACTION[corner]
        if action == COIN:
            return self.w_coin
        if action == PIRATE:
            R = t.rules.num_rounds - t.round + 1
            return self.w_recruit * R + self.w_hand if p.reserve >= 1 else 0.0
        if action == RUM:
            return t.rules.rum_per_visit * self.w_rum
        if action == SUPPLIES:
            return self.supplies_value(t, seat)
        if action == RENDEZVOUS:
            return self.rendezvous_value(t)
        if action == MAP:
            return self.map_value(t, seat, CORNER_COLOUR[corner], 1 << 40)
        if action == PUB:
            return self.pub_value(t, seat, CORNER_COLOUR[corner])
        if action == CHEST:
            return self.chest_value(t)
        if action == GUARD:
            return self.guard_value(t, h)
        return 0.0   # HQ

    @staticmethod
    def rendezvous_bonus(p, corner: int) -> float:
        """The open rendezvous of ``p`` an arrival on ``corner`` would reveal (its VP)."""
        for target, fulfilled in p.rdv:
            if not fulfilled and data.rdv_matches(target, corner):
                return float(RDV_TARGETS[target][3])
        return 0.0

    def next_roads(self, t: Table, m: Move, hand: int) -> list:
        """(road length, far corner) of the free roads from ``m``'s destination that ``hand``
        pirates pay, ``m``'s own road excluded."""
        b, d = t.board, m.dest
        out = []
        for r in b.corner_roads[d]:
            u, v, n = b.roads[r]
            if r == m.road or t.road_owner[r] >= 0 or n > hand:
                continue
            out.append((n, v if u == d else u))
        return out

    def gift(self, t: Table, seat: int, m: Move, nxt: int) -> float:
        """The best net (at least 0) the next active player ``nxt`` gets from ``m``'s
        destination by a road, at my corner values (-1: nobody, 0)."""
        if nxt < 0:
            return 0.0
        hand = t.seats[nxt].hand
        best = 0.0
        for n, c in self.next_roads(t, m, hand):
            x = self.corner_value(t, seat, c, hand - n) - self.w_hand * n
            if x > best:
                best = x
        return best

    def cont(self, t: Table, seat: int, m: Move, again: int, again_next: int) -> float:
        """My best net (at least 0) of a next road from ``m``'s destination in this turn."""
        p = t.seats[seat]
        if p.coins - m.dark_coin - again < again_next:
            return 0.0
        hand = p.hand - m.pirates
        best = 0.0
        for n, c in self.next_roads(t, m, hand):
            x = (self.corner_value(t, seat, c, hand - n) + self.rendezvous_bonus(p, c)) \
                - self.w_hand * n - self.w_coin * again_next
            if x > best:
                best = x
        return best

    def hand_after(self, t: Table, seat: int, m: Move) -> int:
        """My hand after ``m``: its pirates paid, a recruit, headquarters' largest reclaim."""
        p = t.seats[seat]
        h = p.hand - m.pirates
        action = CORNER_ACTION[m.dest]
        if action == PIRATE and p.reserve >= 1:
            h += 1
        elif action == HQ:
            h += self.hq_most(t, seat, m)
        return h

    def situation(self, t: Table, seat: int) -> None:
        """What the features of this decision's moves share: the others on the mast (count,
        longest row), the largest hand still moving, the next active player."""
        others = [q for q in range(t.players) if q != seat]
        rows = [n for q, n in t.mast if q != seat]
        self.boarded = len(rows)
        self.longest_row = max(rows, default=0)
        self.largest_hand = max((t.seats[q].hand for q in others if t.active(q)), default=0)
        self.nxt = next((q for q in ((seat + k) % t.players for k in range(1, t.players))
                         if t.active(q)), -1)
        r = t.rules
        self.again_next = 0 if t.lone and r.lone_player_free_moves else r.move_again_coin
        self.seen = {}

    def net(self, t: Table, seat: int, m: Move, again: int) -> float:
        v = super().net(t, seat, m, again)
        if self.w_deny != 0.0:
            v = v - self.w_deny * self.gift(t, seat, m, self.nxt)
        if self.w_cont != 0.0:
            v = v + self.w_cont * self.cont(t, seat, m, again, self.again_next)
        if self.w_bunk_boarded != 0.0 or self.w_bunk_active != 0.0:
            h = t.seats[seat].hand
            h2 = self.hand_after(t, seat, m)
            if self.w_bunk_boarded != 0.0:
                b = self.longest_row + 1
                v = v + self.w_bunk_boarded * (min(h2, b) - min(h, b))
            if self.w_bunk_active != 0.0:
                b = self.largest_hand + 1
                v = v + self.w_bunk_active * (min(h2, b) - min(h, b))
        return v

    def threshold(self) -> float:
        return self.tau + self.tau_boarded * self.boarded

    # ------------------------------------------------------------ decisions

    def turn_action(self, t, seat, options, ctx):
        self.sync(t)
        self.situation(t, seat)
        top = self.best(self.move_nets(t, seat, options, 0))
        if top is not None and top[1] >= self.threshold() - TOL:
            return options[top[0]]
        return self.no_move(options, top, REST)

    def move_again(self, t, seat, options, ctx):
        self.sync(t)
        self.situation(t, seat)
        top = self.best(self.move_nets(t, seat, options, again_coin(t)))
        if top is not None and top[1] >= self.threshold() - TOL:
            return options[top[0]]
        return self.no_move(options, top, STOP)

    def _synced(name):
        def decide(self, t, seat, options, ctx):
            self.sync(t)
            return getattr(GreedyPolicy, name)(self, t, seat, options, ctx)
        decide.__name__ = name
        return decide

    supply_keep = _synced("supply_keep")
    map_take = _synced("map_take")
    guard_stack = _synced("guard_stack")
    hq_reclaim = _synced("hq_reclaim")
    pub_join = _synced("pub_join")
    pub_take = _synced("pub_take")
    reroll = _synced("reroll")
    del _synced


# ================================================================ rollout


class RolloutPolicy:
    """Flat Monte Carlo at D1 / D2 over a base policy's moves, with base-policy playouts; the
    base policy (with the rollout's own ``reroll_can_win``) elsewhere (spec 8.5, contract
    "Rollout").

    The base is the declared ``Policy`` the ``base`` parameter names (``Policy.base``): greedy
    at its defaults (spec 8.5; also when none is given) or the trained expert (the heuristic
    with the expert's values). Candidates: the base's ``width`` moves with the highest net
    (ties to the lower index), then REST (D1, if legal), then BOARD (D1) or STOP (D2; and
    BOARD when board_after_move_same_turn offers it), in option order. With two or more,
    ``samples`` words are drawn (``next_u64``); each candidate is played once per word on a
    clone whose world is ``Rng(word, 0, 0)``, re-dealt by :func:`resample`, every seat the
    base policy to the horizon (0: the end of this round, 1: the end of the game). A playout
    is worth own - best other (score, plus at horizon 0 w_coin*coins + w_rum*rum + p_rdv*open
    rendezvous VP at the base's weights of the round: greedy's defaults, or the expert's
    round weights); the first candidate with the largest sum wins (a later one must be better
    by more than 1e-9).
    """

    def __init__(self, rng: Rng, samples: float = POLICIES["rollout"].default("samples"),
                 width: float = POLICIES["rollout"].default("width"),
                 horizon: float = POLICIES["rollout"].default("horizon"),
                 reroll_can_win: float = POLICIES["rollout"].default("reroll_can_win"),
                 base: float = POLICIES["rollout"].default("base"), base_policy=None):
        self.rng = rng
        self.samples = int(samples)
        self.width = int(width)
        self.horizon = int(horizon)
        self.base_policy = base_policy   # None: greedy at its defaults
        # the seat's own decisions: the base's, with the rollout's reroll_can_win
        self.own = self.base_player()
        self.own.reroll_can_win = int(reroll_can_win)

    def base_player(self):
        """A fresh decision maker of the base policy (it draws nothing)."""
        return GreedyPolicy() if self.base_policy is None else build(self.base_policy, None)

    def candidates(self, t, seat, options, again: int) -> list:
        own = self.own
        if isinstance(own, HeuristicPolicy):
            own.sync(t)
            own.situation(t, seat)
        nets = own.move_nets(t, seat, options, again)
        ranked = sorted(nets, key=lambda x: -x[1])[:self.width]
        chosen = sorted(i for i, _ in ranked)
        chosen += [i for i, o in enumerate(options) if o in (REST, BOARD, STOP)]
        return chosen

    def decide(self, t, seat, options, decision: str, again: int):
        chosen = self.candidates(t, seat, options, again)
        if len(chosen) == 1:
            return options[chosen[0]]
        best = flat_monte_carlo(self.rng, chosen, self.samples,
                                lambda i, word: self.playout(t, seat, options[i], decision, word),
                                TOL)
        return options[best]

    def playout(self, t: Table, seat: int, option, decision: str, word: int) -> float:
        world = Rng(word, 0, 0)
        c = clone(t)
        c.world = world
        c.policies = [self.base_player() for _ in range(t.players)]
        resample(c, seat, world)
        if decision == "turn_action":
            do_turn_choice(c, option)
        else:
            do_again_choice(c, option)
        finish_round(c)
        if self.horizon == 1:
            play_rounds(c)
        g = self.base_player()   # the worth of coins, rum and rendezvous: the base's
        if isinstance(g, HeuristicPolicy):
            g.sync(c)

        def worth(p) -> float:
            v = float(score(c.rules, p))
            if self.horizon == 0:
                open_vp = sum(RDV_TARGETS[tg][3] for tg, f in p.rdv if not f)
                v += g.w_coin * p.coins + g.w_rum * p.rum + g.p_rdv * open_vp
            return v

        own = worth(c.seats[seat])
        return own - max(worth(p) for p in c.seats if p.seat != seat)

    def turn_action(self, t, seat, options, ctx):
        return self.decide(t, seat, options, "turn_action", 0)

    def move_again(self, t, seat, options, ctx):
        return self.decide(t, seat, options, "move_again", again_coin(t))

    def _own(name):
        def decide(self, t, seat, options, ctx):
            return getattr(self.own, name)(t, seat, options, ctx)
        decide.__name__ = name
        return decide

    supply_keep = _own("supply_keep")
    map_take = _own("map_take")
    guard_stack = _own("guard_stack")
    hq_reclaim = _own("hq_reclaim")
    pub_join = _own("pub_join")
    pub_take = _own("pub_take")
    reroll = _own("reroll")
    del _own


def resample(t: Table, seat: int, rng: Rng) -> None:
    """Re-deal what ``seat`` cannot see (contract, Rollout step 5).

    (a) Supplies: the 20 codes ascending, less the tiles ``seat`` drew (kept or sold),
    shuffled; each other player in seat order gets as many as they keep, from the front
    (their sold tiles stay recorded as they were; their ``drawn`` = new kept + sold); then
    the supplies stack gets the next ``len(stack)`` tiles (the first dealt is index 0).
    (b) Rendezvous: the 18 targets ascending, less ``seat``'s own tiles and the others'
    fulfilled ones, shuffled; each other player in seat order gets its open tiles (in
    holding order) from the front; then the stack. (c) Then the pubs, maps, chests,
    scorpions, big guards, small guards, bunks, hammocks and bedrolls stacks are each
    shuffled in place, in that order.
    """
    me = t.seats[seat]
    others = [p for p in t.seats if p.seat != seat]
    pool = list(ALL_SUPPLIES)
    for c in me.drawn:
        pool.remove(c)
    rng.shuffle(pool)
    at = 0
    for p in others:
        n = len(p.supplies)
        p.supplies = pool[at:at + n]
        p.drawn = [*p.supplies, *p.sold]
        at += n
    n = len(t.stacks["supplies"])
    t.stacks["supplies"] = pool[at:at + n]
    pool = list(ALL_RDV)
    for target, _ in me.rdv:
        pool.remove(target)
    for p in others:
        for target, fulfilled in p.rdv:
            if fulfilled:
                pool.remove(target)
    rng.shuffle(pool)
    at = 0
    for p in others:
        for tile in p.rdv:
            if not tile[1]:
                tile[0] = pool[at]
                at += 1
    n = len(t.stacks["rendezvous"])
    t.stacks["rendezvous"] = pool[at:at + n]
    for name in ("pubs", "maps", "chests", "scorpions", "big_guards", "small_guards", "bunks",
                 "hammocks", "bedrolls"):
        rng.shuffle(t.stacks[name])


# ================================================================ building them


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "greedy": lambda policy, rng: GreedyPolicy(**policy.params()),
    "rollout": lambda policy, rng: RolloutPolicy(rng, **policy.params(), base_policy=policy.base),
    "heuristic": lambda policy, rng: HeuristicPolicy(**policy.params()),
}

__all__ = ["GreedyPolicy", "HeuristicPolicy", "RandomPolicy", "RolloutPolicy", "build",
           "resample"]
