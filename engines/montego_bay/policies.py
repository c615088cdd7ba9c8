"""Montego Bay's decision makers for the reference path (spec §6).

One method per decision of spec §6:

* D1 ``lazy_jack_hire(t, seat) -> bool`` (and ``lazy_jack_bid(t, seat) -> int``
  under ``lazy_jack_allocation=auction``, asked only when the bid is not forced);
* D2 ``lazy_jack_companion(t, seat) -> worker id``;
* D3 ``movement_cards(t, seat) -> values``, one per own worker in canonical
  order (own big, own small, extra) and Lazy Jack's value last for the hirer;
* D4 ``load_target(t, seat, options) -> pier`` (``STOP`` may be among the options);
* D5 ``unload_source(t, seat, options) -> pier``.

A policy may read only what is on the table (spec §6): never the order of
the ship stacks, and in Phase 2 never another player's card (the reference
reveals the cards only after everyone has chosen).

Policies:

* ``random`` — D1 yes when ``below(2) == 0``; auction bid ``cost + below(coins
  - cost + 1)``; D2 ``owned[below(n)]``; D3 one ``kept[below(len(kept))]`` per
  own worker in canonical order, then Lazy Jack's likewise (``kept``: the values,
  ascending, the figure may play: 1..5, Lazy Jack's other than his companion's,
  narrowed by the seat's restriction; one value left is played without a draw)
  — without a restriction ``1 + below(5)`` a worker, uniform over the legal
  vectors; D4 and D5 ``options[below(len)]``, options ascending with ``STOP`` last.

A seat's restriction (``expert:forbid=card_5``, engines._restrict) narrows D1 in
``reference.wants_lazy_jack`` (a forced or forbidden hire is not asked) and D3's
own vectors (``reference.card_vectors``), which every look-ahead here enumerates,
D1's hypothetical hire included; the opponents' model ignores their restrictions.
* ``greedy`` — deterministic, spec §6.2: opponents' figures play their
  myopic best value; every own vector is played through Phase 3 and scored
  with the room values RV.
* ``sampler`` — spec §6.2: ``n_samples`` opponent profiles per decision (D1
  when asked, D3), common to every own vector. Draws per sample, opponents
  by ascending seat, each opponent's workers in canonical order, then that
  opponent's Lazy Jack: ``uniform() < q_myopic`` picks the myopic best,
  otherwise ``below(5)`` (Lazy Jack: ``below(4)`` among the values other
  than his companion's sampled one, or ``below(5)`` when cards need not
  differ) picks uniformly. The mean over samples is ``total / n_samples``.
  ``base=expert`` (``SampledHeuristicPolicy``) searches over the trained
  heuristic instead: its values, opponents' model, hire rule and loading,
  with the same draws in place of its one myopic profile.
* ``heuristic`` — deterministic, no draws: greedy's look-ahead (myopic
  opponents, every own vector played through Phase 3) and greedy's D4/D5,
  each scored by a weighted sum of named features (``HeuristicPolicy``). At
  its declared defaults every new weight is 0 and it decides exactly as
  greedy.

Float comparisons use the spec's tolerance of 1e-9: scanning the options in
tie order, a candidate replaces the incumbent only when better by more than
1e-9. Values are summed over own figures in canonical order, Lazy Jack last;
the sampler's value of an imagined Phase 3 is ``sum RV + lambda_load * sum
load_gain``.
"""

from __future__ import annotations

import math

from engines._rng import Rng
from engines.montego_bay import POLICIES
from engines.montego_bay.board import SUPPLY
from engines.montego_bay.reference import (
    CARD_VALUES,
    STOP,
    Table,
    card_options,
    card_vectors,
    lazy_jack_card_options,
    legal_lazy_jack_values,
    score_ship,
)

TOL = 1e-9

# the declared parameter defaults (engines.montego_bay.POLICIES), for direct construction
_GREEDY = POLICIES["greedy"].default
_SAMPLER = POLICIES["sampler"].default
_HEURISTIC = POLICIES["heuristic"]


# ================================================================ shared helpers (§6.1)


def pier_weight(pier: int, gamma: float) -> float:
    """w(j): pier 1 sails this round; barrels elsewhere are worth gamma of their share."""
    return 1.0 if pier == 1 else gamma


def share(t: Table, values: tuple, counts: list, seat: int) -> float:
    """VP ``seat`` would get if a ship with these values scored with these barrel counts."""
    rules = t.rules
    return float(score_ship(values, counts, rules.majority_zero_mode, rules.tie_rounding)[seat])


def load_value_on(t: Table, ships: list, pier: int, seat: int, gamma: float) -> float:
    """load_value(j, p) on a harbour ``ships`` (the real one or a copy)."""
    values, counts, capacity = ships[pier - 1][0], ships[pier - 1][1], ships[pier - 1][2]
    before = share(t, values, counts, seat)
    after_counts = list(counts)
    after_counts[seat] += 1
    after = share(t, values, after_counts, seat)
    if sum(after_counts) >= capacity:
        return t.rules.fill_bonus + after - pier_weight(pier, gamma) * before
    return pier_weight(pier, gamma) * (after - before)


def harbour(t: Table) -> list:
    """The piers as (values, barrel counts, capacity, pilot) records."""
    return [(s.values, list(s.barrels), s.capacity, s.pilot) for s in t.piers]


def load_value(t: Table, pier: int, seat: int, gamma: float) -> float:
    return load_value_on(t, harbour(t), pier, seat, gamma)


def unload_cost(t: Table, pier: int, seat: int, gamma: float) -> float:
    ship = t.piers[pier - 1]
    before = share(t, ship.values, ship.barrels, seat)
    after_counts = list(ship.barrels)
    after_counts[seat] -= 1
    after = share(t, ship.values, after_counts, seat)
    return pier_weight(pier, gamma) * (before - after)


def best_load_pier(t: Table, ships: list, seat: int, options: list, gamma: float):
    """Greedy D4: the pier maximising load_value, ties to the lower pier; STOP only if all < 0."""
    best, best_value = None, None
    for pier in options:
        if pier == STOP:
            continue
        v = load_value_on(t, ships, pier, seat, gamma)
        if best is None or v > best_value + TOL:
            best, best_value = pier, v
    if STOP in options and best_value < -TOL:
        return STOP, 0.0
    return best, best_value


def best_unload_pier(t: Table, seat: int, options: list, gamma: float) -> int:
    """Greedy D5: the pier minimising unload_cost, ties to the higher pier."""
    best, best_cost = None, None
    for pier in sorted(options, reverse=True):
        c = unload_cost(t, pier, seat, gamma)
        if best is None or c < best_cost - TOL:
            best, best_cost = pier, c
    return best


class Weights:
    """The room-value weights of RV (spec §6.1)."""

    def __init__(self, w_g: float = _GREEDY("w_g"), w_c: float = _GREEDY("w_c"),
                 w_x: float = _GREEDY("w_x")):
        self.w_g, self.w_c, self.w_x = w_g, w_c, w_x


def room_values(t: Table, seat: int, lazy_jack: bool, w: Weights) -> list[float]:
    """RV of a figure of ``seat`` on every path index (Lazy Jack ignores broken barrels)."""
    stock, aboard = t.stock[seat], t.aboard(seat)
    coin_ok = t.bank > 0 and (not lazy_jack or t.rules.lazy_jack_collects_coin)
    out = []
    for q in range(t.board.length):
        v = w.w_g * min(t.room_good[q], stock) + (w.w_c * t.room_coin[q] if coin_ok else 0.0)
        if not lazy_jack:
            v -= w.w_x * min(t.room_broken[q], aboard)
        out.append(v)
    return out


def at_index(table: list, q: int) -> float:
    """A per-index value; a figure in a pub or the supply is worth 0."""
    return table[q] if q >= 0 else 0.0


# ================================================================ imagined movement


def imagine_movement(board, loc: list, order: list, values: list, lj: int, companion: int) -> list:
    """Phase 3 played out on a copy of ``loc`` (same rule as ``reference.move``, faster).

    ``values[f]`` is each mover's card; Lazy Jack (``lj``) starts from his
    companion's location and goes to the supply when blocked.
    """
    L = board.length
    opposite = board.opposite
    entry = board.entry
    loc = list(loc)
    at = [-1] * L
    for f, q in enumerate(loc):
        if q >= 0:
            at[q] = f
    for f in order:
        k = values[f]
        if f == lj:
            start = loc[companion]
        else:
            start = loc[f]
            if start >= 0:
                at[start] = -1  # the mover's own start counts as free
        target = (entry[start] + k - 1) % L if start < 0 else (start + k) % L
        g = at[target]
        if g < 0:
            at[target] = f
            loc[f] = target
            continue
        across = opposite[target]
        if across >= 0 and at[across] < 0:
            at[across] = g
            loc[g] = across
            at[target] = f
            loc[f] = target
            continue
        for d in range(1, k):
            q = (target - d) % L
            if at[q] < 0:
                at[q] = f
                loc[f] = q
                break
        else:
            if f == lj:
                loc[f] = SUPPLY
            elif start >= 0:
                at[start] = f
    return loc


def landing(t: Table, f: int, k: int, companion: int | None) -> int:
    """Where ``f`` ends after playing ``k`` with every other figure standing still."""
    lj = t.lazy_jack
    return imagine_movement(t.board, t.loc, [f], _one(len(t.loc), f, k), lj,
                            companion if companion is not None else -1)[f]


def _one(n: int, f: int, k: int) -> list:
    values = [0] * n
    values[f] = k
    return values


def best_index(values: list[float]) -> int:
    """The first option that no later option beats by more than the tolerance."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best] + TOL:
            best = i
    return best


# ================================================================ a Phase 2 look-ahead


class Lookahead:
    """What one player's greedy or sampler decision knows at Phase 1 or 2 (spec §6.2).

    It holds the player's own room values, each opponent figure's RV for each
    card (the myopic model), and plays imagined Phase 3s for every own vector.
    """

    def __init__(self, t: Table, seat: int, w: Weights, load_gains: list[float] | None = None,
                 lambda_load: float = 0.0):
        self.t, self.seat = t, seat
        self.lj = t.lazy_jack
        self.rv_worker = room_values(t, seat, False, w)
        self.rv_lj = room_values(t, seat, True, w)
        self.lambda_load = lambda_load
        self.load_gain_at = None
        if load_gains is not None:
            self.load_gain_at = [load_gains[t.room_good[q]] for q in range(t.board.length)]
        # Opponent figures: workers of other seats, and an opponent's Lazy Jack if hired.
        hirer = t.lazy_jack_hirer
        self.opponent_lj = hirer is not None and hirer != seat
        self.opponents: list[tuple[int, list[int]]] = []  # (seat, figures in canonical order)
        tables: dict[tuple[int, bool], list[float]] = {}
        self.rv_by_card: dict[int, list[float]] = {}
        for s in range(t.players):
            if s == seat:
                continue
            figures = list(t.owned[s])
            if self.opponent_lj and hirer == s:
                figures.append(self.lj)
            self.opponents.append((s, figures))
            for f in figures:
                is_lj = f == self.lj
                if (s, is_lj) not in tables:
                    tables[(s, is_lj)] = room_values(t, s, is_lj, w)
                table = tables[(s, is_lj)]
                companion = t.lazy_jack_companion if is_lj else None
                self.rv_by_card[f] = [at_index(table, landing(t, f, k, companion))
                                      for k in CARD_VALUES]

    # ------------------------------------------------------------ the opponents' model

    def myopic(self, f: int, allowed=CARD_VALUES) -> int:
        """The value maximising RV of f's own landing, ties to the smaller value."""
        rv = self.rv_by_card[f]
        allowed = list(allowed)
        return allowed[best_index([rv[k - 1] for k in allowed])]

    def myopic_profile(self) -> dict[int, int]:
        """Every opponent figure at its myopic best; an opponent's Lazy Jack after his companion."""
        profile: dict[int, int] = {}
        for _, figures in self.opponents:
            for f in figures:
                if f == self.lj:
                    companion_value = profile[self.t.lazy_jack_companion]
                    profile[f] = self.myopic(f, legal_lazy_jack_values(self.t.rules,
                                                                       companion_value))
                else:
                    profile[f] = self.myopic(f)
        return profile

    def sampled_profile(self, rng: Rng, q_myopic: float) -> dict[int, int]:
        profile: dict[int, int] = {}
        for _, figures in self.opponents:
            for f in figures:
                if f == self.lj:
                    legal = legal_lazy_jack_values(self.t.rules,
                                                   profile[self.t.lazy_jack_companion])
                else:
                    legal = list(CARD_VALUES)
                if rng.uniform() < q_myopic:
                    profile[f] = self.myopic(f, legal)
                else:
                    profile[f] = legal[rng.below(len(legal))]
        return profile

    # ------------------------------------------------------------ own vectors

    def vectors(self, companion: int | None) -> list[tuple[int, ...]]:
        """Own legal vectors in lexicographic canonical order, Lazy Jack's value last, within
        the seat's restriction (a hire is valued with the cards the seat may play)."""
        return card_vectors(self.t, self.seat, companion)

    def totals(self, profiles: list[dict[int, int]], companion: int | None):
        """(vectors, summed value over profiles) with Lazy Jack beside ``companion`` if given.

        ``companion`` is the own Lazy Jack's companion (a hypothetical hire in
        D1, the actual one in D3); None means no own Lazy Jack.
        """
        t = self.t
        lj = self.lj
        own = list(t.owned[self.seat]) + ([lj] if companion is not None else [])
        if companion is not None:
            lj_companion = companion
        elif self.opponent_lj:
            lj_companion = t.lazy_jack_companion
        else:
            lj_companion = -1
        order = ([lj] if lj_companion >= 0 else []) + list(t.rail)
        vectors = self.vectors(companion)
        tables = [self.rv_lj if f == lj else self.rv_worker for f in own]
        gains = self.load_gain_at
        lam = self.lambda_load
        totals = [0.0] * len(vectors)
        board, loc0 = t.board, t.loc
        for profile in profiles:
            values = [0] * len(loc0)
            for f, v in profile.items():
                values[f] = v
            for i, vec in enumerate(vectors):
                for f, v in zip(own, vec, strict=True):
                    values[f] = v
                loc = imagine_movement(board, loc0, order, values, lj, lj_companion)
                rv = 0.0
                for f, table in zip(own, tables, strict=True):
                    q = loc[f]
                    if q >= 0:
                        rv += table[q]
                if gains is not None:
                    lg = 0.0
                    for f in own:
                        q = loc[f]
                        if q >= 0:
                            lg += gains[q]
                    rv += lam * lg
                totals[i] += rv
        return vectors, totals

    def best(self, profiles: list[dict[int, int]], companion: int | None):
        """(best vector, its mean value) over the profiles; ties to the smallest vector."""
        vectors, totals = self.totals(profiles, companion)
        means = [x / len(profiles) for x in totals]
        i = best_index(means)
        return vectors[i], means[i]

    def hire_gain(self, profiles: list[dict[int, int]]) -> tuple[float, int]:
        """D1: (best total with Lazy Jack - best without, the companion giving it)."""
        _, without = self.best(profiles, None)
        best_c, best_with = None, None
        for c in self.t.owned[self.seat]:
            _, value = self.best(profiles, c)
            if best_c is None or value > best_with + TOL:
                best_c, best_with = c, value
        return best_with - without, best_c


def load_gains(t: Table, seat: int, gamma: float, max_good: int = 4) -> list[float]:
    """load_gain(g) for g = 0..max_good: greedy D4 on a fresh copy of the harbour (spec §6.2).

    min(g, stock) barrels, one by one; a ship filled on the copy leaves it and
    the ships behind move down (nothing is drawn: the stacks are hidden);
    stops early when no ship can take a barrel.
    """
    out = []
    for g in range(max_good + 1):
        ships = harbour(t)
        total = 0.0
        for _ in range(min(g, t.stock[seat])):
            options = [j + 1 for j, (_, counts, cap, pilot) in enumerate(ships)
                       if not pilot and sum(counts) < cap]
            if not options:
                break
            if not t.rules.must_load_all:
                options.append(STOP)
            pier, value = best_load_pier(t, ships, seat, options, gamma)
            if pier == STOP:
                break
            total += value
            counts = ships[pier - 1][1]
            counts[seat] += 1
            if sum(counts) >= ships[pier - 1][2]:
                ships.pop(pier - 1)
        out.append(total)
    return out


# ================================================================ random


class RandomPolicy:
    """Uniform over the legal options of each decision (spec §6.2 random)."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def lazy_jack_hire(self, t: Table, seat: int) -> bool:
        return self.rng.below(2) == 0

    def lazy_jack_bid(self, t: Table, seat: int) -> int:
        cost = t.rules.lazy_jack_cost
        return cost + self.rng.below(t.coins[seat] - cost + 1)

    def lazy_jack_companion(self, t: Table, seat: int) -> int:
        own = t.owned[seat]
        return own[self.rng.below(len(own))]

    def movement_cards(self, t: Table, seat: int) -> tuple[int, ...]:
        values = [self.pick(card_options(t, seat)) for _ in t.owned[seat]]
        if t.lazy_jack_hirer == seat:
            companion_value = values[t.owned[seat].index(t.lazy_jack_companion)]
            values.append(self.pick(lazy_jack_card_options(t, seat, companion_value)))
        return tuple(values)

    def pick(self, values: list[int]) -> int:
        """One figure's card, uniform over the values it may play (one left: no draw)."""
        return values[0] if len(values) == 1 else values[self.rng.below(len(values))]

    def load_target(self, t: Table, seat: int, options: list[int]) -> int:
        return options[self.rng.below(len(options))]

    def unload_source(self, t: Table, seat: int, options: list[int]) -> int:
        return options[self.rng.below(len(options))]


# ================================================================ greedy


class GreedyPolicy:
    """Deterministic one-round look-ahead against myopic opponents (spec §6.2 greedy)."""

    def __init__(self, gamma: float = _GREEDY("gamma"),
                 hire_threshold: float = _GREEDY("hire_threshold"), w_g: float = _GREEDY("w_g"),
                 w_c: float = _GREEDY("w_c"), w_x: float = _GREEDY("w_x")):
        self.gamma = gamma
        self.hire_threshold = hire_threshold
        self.weights = Weights(w_g, w_c, w_x)
        self._hire: dict = {}  # (round, seat) -> (gain, companion) of the last D1

    # D1-D3 look at a Phase 3 imagined with these opponent profiles.
    def lookahead(self, t: Table, seat: int) -> Lookahead:
        return Lookahead(t, seat, self.weights)

    def profiles(self, look: Lookahead) -> list[dict[int, int]]:
        return [look.myopic_profile()]

    def _hire_gain(self, t: Table, seat: int) -> tuple[float, int]:
        look = self.lookahead(t, seat)
        gain, companion = look.hire_gain(self.profiles(look))
        self._hire = {(t.round, seat): (gain, companion)}
        return gain, companion

    def lazy_jack_hire(self, t: Table, seat: int) -> bool:
        gain, _ = self._hire_gain(t, seat)
        return gain >= self.hire_threshold - TOL

    def lazy_jack_bid(self, t: Table, seat: int) -> int:
        gain, _ = self._hire.get((t.round, seat)) or self._hire_gain(t, seat)
        cost = t.rules.lazy_jack_cost
        return max(cost, min(t.coins[seat], cost + math.floor(gain - self.hire_threshold)))

    def lazy_jack_companion(self, t: Table, seat: int) -> int:
        _, companion = self._hire.get((t.round, seat)) or self._hire_gain(t, seat)
        return companion

    def movement_cards(self, t: Table, seat: int) -> tuple[int, ...]:
        look = self.lookahead(t, seat)
        companion = t.lazy_jack_companion if t.lazy_jack_hirer == seat else None
        vector, _ = look.best(self.profiles(look), companion)
        return vector

    def load_target(self, t: Table, seat: int, options: list[int]) -> int:
        pier, _ = best_load_pier(t, harbour(t), seat, options, self.gamma)
        return pier

    def unload_source(self, t: Table, seat: int, options: list[int]) -> int:
        return best_unload_pier(t, seat, options, self.gamma)


# ================================================================ sampler


class SamplerPolicy(GreedyPolicy):
    """A sampled best response (spec §6.2 sampler); D2, D4 and D5 as greedy."""

    def __init__(self, rng: Rng, n_samples: int = _SAMPLER("n_samples"),
                 q_myopic: float = _SAMPLER("q_myopic"), gamma: float = _SAMPLER("gamma"),
                 lambda_load: float = _SAMPLER("lambda_load"), w_g: float = _SAMPLER("w_g"),
                 w_c: float = _SAMPLER("w_c"), w_x: float = _SAMPLER("w_x"),
                 hire_threshold: float = _SAMPLER("hire_threshold")):
        super().__init__(gamma, hire_threshold, w_g, w_c, w_x)
        self.rng = rng
        self.n_samples = int(n_samples)
        self.q_myopic = q_myopic
        self.lambda_load = lambda_load

    def lookahead(self, t: Table, seat: int) -> Lookahead:
        gains = load_gains(t, seat, self.gamma, max(t.room_good))
        return Lookahead(t, seat, self.weights, gains, self.lambda_load)

    def profiles(self, look: Lookahead) -> list[dict[int, int]]:
        return [look.sampled_profile(self.rng, self.q_myopic) for _ in range(self.n_samples)]


# ================================================================ heuristic


def progress(t: Table) -> float:
    """Share of the stacks' ships drawn so far: 0 before the first draw, 1 once both stacks
    are empty (the stacks' sizes are on the table, their order is not)."""
    in_stacks = t.rules.freight_ships - 3
    drawn = in_stacks - len(t.stack_a) - len(t.stack_b)
    return drawn / in_stacks


def stacks_empty(t: Table) -> bool:
    """No ship left to draw: every ship in port scores within two rounds."""
    return not t.stack_a and not t.stack_b


class HeuristicPolicy(GreedyPolicy):
    """Greedy's decisions, each scored by a weighted sum of named features.

    The features, with the parameter weighing each (declared in
    ``engines.montego_bay.POLICIES["heuristic"]``, reasons there):

    * a barrel (D4, D5 and the loading gain): its own majority gain on its
      pier weighted ``pier_weight`` (1 for pier 1; ``gamma`` + ``gamma_far`` x
      (pier - 2) + ``gamma_end`` x [stacks empty] for the others), minus
      ``deny_load`` x what the others gain from it on that ship, minus
      ``fill_risk`` when it leaves the ship one barrel short of full;
    * a room reached by an own figure (D1-D3): greedy's RV with a coin worth
      ``w_c + w_c_late x progress``, plus ``lambda_load`` x its loading gain,
      ``w_next`` x the best own room value reachable next round (workers),
      ``-w_risk`` x the later-moving other figures that can reach the space x
      the RV a push across the warehouse would lose, ``w_late`` x its place in
      the Tally-Man's walk, ``-w_unload`` x the majority cost of its broken
      barrels (workers);
    * an imagined Phase 3: the own figures' values minus ``deny_move`` x the
      others' room values where they end;
    * D1: hire when the gain is at least ``hire_threshold + hire_late x
      progress``.

    The opponents' model is greedy's (myopic, with RV of the shared weights
    ``w_g, w_c, w_x``). Every sum runs in a fixed order that ``engine.py``
    follows operation for operation.
    """

    def __init__(self, **params):
        names = [p.name for p in _HEURISTIC.params]
        values = {p.name: p.default for p in _HEURISTIC.params}
        unknown = set(params) - set(names)
        assert not unknown, f"unknown heuristic parameters {sorted(unknown)}"
        values.update(params)
        super().__init__(values["gamma"], values["hire_threshold"], values["w_g"],
                         values["w_c"], values["w_x"])
        for name in names:
            setattr(self, name, values[name])

    # ------------------------------------------------------------ a barrel (D4, D5)

    def pier_weight(self, t: Table, pier: int) -> float:
        if pier == 1:
            return 1.0
        return (self.gamma + self.gamma_far * (pier - 2)
                + self.gamma_end * (1.0 if stacks_empty(t) else 0.0))

    @staticmethod
    def others_gain(t: Table, values: tuple, counts: list, seat: int, delta: int, w: float,
                    fill: bool) -> float:
        """What the other seats gain on a ship when ``seat`` has ``delta`` more barrels: the
        sum over them (ascending, skipping seats without barrels, who gain 0) of a - w b when
        the ship sails full now, else a - b (b, a: each one's share before and after)."""
        after_counts = list(counts)
        after_counts[seat] += delta
        out = 0.0
        for p in range(t.players):
            if p == seat or counts[p] <= 0:
                continue
            b = share(t, values, counts, p)
            a = share(t, values, after_counts, p)
            out += a - w * b if fill else a - b
        return out

    def load_value_on(self, t: Table, ships: list, pier: int, seat: int) -> float:
        values, counts, capacity = ships[pier - 1][0], ships[pier - 1][1], ships[pier - 1][2]
        w = self.pier_weight(t, pier)
        before = share(t, values, counts, seat)
        after_counts = list(counts)
        after_counts[seat] += 1
        after = share(t, values, after_counts, seat)
        fill = sum(after_counts) >= capacity
        v = t.rules.fill_bonus + after - w * before if fill else w * (after - before)
        if self.deny_load != 0.0:
            others = self.others_gain(t, values, counts, seat, 1, w, fill)
            if not fill:
                others = w * others
            v -= self.deny_load * others
        if self.fill_risk != 0.0 and not fill and sum(after_counts) + 1 == capacity:
            v -= self.fill_risk
        return v

    def unload_cost_on(self, t: Table, ships: list, pier: int, seat: int) -> float:
        values, counts = ships[pier - 1][0], ships[pier - 1][1]
        w = self.pier_weight(t, pier)
        before = share(t, values, counts, seat)
        after_counts = list(counts)
        after_counts[seat] -= 1
        after = share(t, values, after_counts, seat)
        c = w * (before - after)
        if self.deny_load != 0.0:
            c += self.deny_load * (w * self.others_gain(t, values, counts, seat, -1, w, False))
        return c

    def best_load(self, t: Table, ships: list, seat: int, options: list):
        """D4: the pier maximising the load value, ties to the lower pier; STOP only if all
        are below 0."""
        best, best_value = None, None
        for pier in options:
            if pier == STOP:
                continue
            v = self.load_value_on(t, ships, pier, seat)
            if best is None or v > best_value + TOL:
                best, best_value = pier, v
        if STOP in options and best_value < -TOL:
            return STOP, 0.0
        return best, best_value

    def best_unload(self, t: Table, ships: list, seat: int, options: list):
        """D5: the pier minimising the unload cost, ties to the higher pier."""
        best, best_cost = None, None
        for pier in sorted(options, reverse=True):
            c = self.unload_cost_on(t, ships, pier, seat)
            if best is None or c < best_cost - TOL:
                best, best_cost = pier, c
        return best, best_cost

    def load_gains(self, t: Table, seat: int) -> list[float]:
        """load_gain(g), g = 0..most good barrels in a room: this policy's D4 played barrel by
        barrel on a copy of the harbour (a ship filled on the copy leaves it; nothing is
        drawn; stops when no ship can load or D4 stops)."""
        ships = harbour(t)
        out, total, active = [0.0], 0.0, True
        for g in range(1, max(t.room_good) + 1):
            if active and g <= t.stock[seat]:
                options = [j + 1 for j, (_, counts, cap, pilot) in enumerate(ships)
                           if not pilot and sum(counts) < cap]
                if not t.rules.must_load_all and options:
                    options.append(STOP)
                pier = STOP
                if options:
                    pier, value = self.best_load(t, ships, seat, options)
                if pier == STOP:
                    active = False
                else:
                    total += value
                    counts = ships[pier - 1][1]
                    counts[seat] += 1
                    if sum(counts) >= ships[pier - 1][2]:
                        ships.pop(pier - 1)
            out.append(total)
        return out

    def unload_losses(self, t: Table, seat: int) -> list[float]:
        """unload_loss(b), b = 0..2: this policy's D5 played min(b, barrels aboard) times on a
        copy of the harbour, the costs summed."""
        ships = harbour(t)
        out, total = [0.0], 0.0
        for _ in range(2):
            options = [j + 1 for j, (_, counts, _, _) in enumerate(ships) if counts[seat] > 0]
            if options:
                pier, c = self.best_unload(t, ships, seat, options)
                total += c
                ships[pier - 1][1][seat] -= 1
            out.append(total)
        return out

    # ------------------------------------------------------------ the decisions

    def lookahead(self, t: Table, seat: int) -> Lookahead:
        return HeuristicLookahead(t, seat, self)

    def threshold(self, t: Table) -> float:
        return self.hire_threshold + self.hire_late * progress(t)

    def lazy_jack_hire(self, t: Table, seat: int) -> bool:
        gain, _ = self._hire_gain(t, seat)
        return gain >= self.threshold(t) - TOL

    def lazy_jack_bid(self, t: Table, seat: int) -> int:
        gain, _ = self._hire.get((t.round, seat)) or self._hire_gain(t, seat)
        cost = t.rules.lazy_jack_cost
        return max(cost, min(t.coins[seat], cost + math.floor(gain - self.threshold(t))))

    def load_target(self, t: Table, seat: int, options: list[int]) -> int:
        pier, _ = self.best_load(t, harbour(t), seat, options)
        return pier

    def unload_source(self, t: Table, seat: int, options: list[int]) -> int:
        pier, _ = self.best_unload(t, harbour(t), seat, options)
        return pier


class HeuristicLookahead(Lookahead):
    """Greedy's look-ahead (myopic opponents) with one value table per own figure and the
    others' room values for denial (HeuristicPolicy's features)."""

    def __init__(self, t: Table, seat: int, h: HeuristicPolicy):
        super().__init__(t, seat, h.weights)  # the opponents' myopic model, as greedy's
        self.deny = h.deny_move
        board, L = t.board, t.board.length
        w_coin = h.w_c + h.w_c_late * progress(t)
        own_w = Weights(h.w_g, w_coin, h.w_x)
        rv_worker = room_values(t, seat, False, own_w)
        rv_lj = room_values(t, seat, True, own_w)
        late = [0.0] * L
        for i, q in enumerate(board.resolution_order):
            late[q] = i / len(board.resolution_order)
        # A term whose weight is 0 is skipped (engine.py does the same, so the floats agree).
        gains = h.load_gains(t, seat) if h.lambda_load != 0.0 else None
        losses = h.unload_losses(t, seat) if h.w_unload != 0.0 else None
        # the terms every own worker's table shares, and those of Lazy Jack's
        prefix_lj, prefix_worker = [], []
        for q in range(L):
            e = 0.0
            if h.lambda_load != 0.0:
                e = h.lambda_load * gains[t.room_good[q]]
            prefix_lj.append(e)
            if h.w_next != 0.0:
                e += h.w_next * max(rv_worker[(q + k) % L] for k in CARD_VALUES)
            prefix_worker.append(e)

        def later_reach(rail_index: int) -> list[int]:
            """How many other seats' workers moving after rail position ``rail_index``
            (0-based; -1: before every worker) can land on each space with some card."""
            count = [0] * L
            for g in t.rail[rail_index + 1:]:
                if t.workers[g].seat == seat:
                    continue
                start = t.loc[g]
                for k in CARD_VALUES:
                    q = (board.entry[start] + k - 1) % L if start < 0 else (start + k) % L
                    count[q] += 1
            return count

        def figure_table(rv: list[float], prefix: list[float], rail_index: int,
                         worker: bool) -> list[float]:
            reach = later_reach(rail_index) if h.w_risk != 0.0 else None
            out = []
            for q in range(L):
                e = prefix[q]
                if h.w_risk != 0.0:
                    o = board.opposite[q]
                    loss = 0.0
                    if o >= 0:
                        d = rv[q] - rv[o]
                        if d > 0.0:
                            loss = d
                    e -= h.w_risk * (reach[q] * loss)
                if h.w_late != 0.0:
                    e += h.w_late * late[q]
                if worker and h.w_unload != 0.0:
                    e -= h.w_unload * losses[t.room_broken[q]]
                out.append(rv[q] + e)
            return out

        self.own_tables = {f: figure_table(rv_worker, prefix_worker, t.rail.index(f), True)
                           for f in t.owned[seat]}
        self.own_tables[self.lj] = figure_table(rv_lj, prefix_lj, -1, False)
        # the others' room values where they stand after the movement (denial)
        self.other_tables: list[tuple[int, list[float]]] = []
        for s, figures in self.opponents:
            for f in figures:
                self.other_tables.append((f, room_values(t, s, f == self.lj, h.weights)))
        self.other_tables.sort(key=lambda item: item[0])  # figure order, Lazy Jack last

    def totals(self, profiles: list[dict[int, int]], companion: int | None):
        """As Lookahead.totals: the own figures' tables summed in canonical order (Lazy Jack
        last), minus deny_move x the others' room values summed in figure order."""
        t = self.t
        lj = self.lj
        own = list(t.owned[self.seat]) + ([lj] if companion is not None else [])
        if companion is not None:
            lj_companion = companion
        elif self.opponent_lj:
            lj_companion = t.lazy_jack_companion
        else:
            lj_companion = -1
        order = ([lj] if lj_companion >= 0 else []) + list(t.rail)
        vectors = self.vectors(companion)
        tables = [self.own_tables[f] for f in own]
        totals = [0.0] * len(vectors)
        board, loc0 = t.board, t.loc
        for profile in profiles:
            values = [0] * len(loc0)
            for f, v in profile.items():
                values[f] = v
            for i, vec in enumerate(vectors):
                for f, v in zip(own, vec, strict=True):
                    values[f] = v
                loc = imagine_movement(board, loc0, order, values, lj, lj_companion)
                rv = 0.0
                for f, table in zip(own, tables, strict=True):
                    q = loc[f]
                    if q >= 0:
                        rv += table[q]
                if self.deny != 0.0:
                    o = 0.0
                    for f, table in self.other_tables:
                        q = loc[f]
                        if q >= 0:
                            o += table[q]
                    rv -= self.deny * o
                totals[i] += rv
        return vectors, totals


# ================================================================ the sampler over the expert


class SampledHeuristicPolicy(HeuristicPolicy):
    """``sampler:base=expert``: the search over the trained heuristic (issue 25).

    Everything the sampler values follows its base: the heuristic's look-ahead tables (its
    room values and features, ``deny_move``), its opponents' model (myopic by the
    heuristic's room values), its hire rule (threshold and ``hire_late``), bid, companion
    and D4/D5, all with the base's parameter values. What the sampler adds is the search:
    each D1 and D3 draws ``n_samples`` opponent profiles from the seat's stream exactly as
    the greedy-based sampler does (each opponent figure plays that myopic best with
    probability ``q_myopic``, else a uniform legal value) in place of the heuristic's one
    myopic profile, and takes the best mean. With ``n_samples=1, q_myopic=1`` it decides as
    its base (it still draws, from its own stream only).
    """

    def __init__(self, rng: Rng, n_samples: int, q_myopic: float, **base_params):
        super().__init__(**base_params)
        self.rng = rng
        self.n_samples = int(n_samples)
        self.q_myopic = q_myopic

    def profiles(self, look: Lookahead) -> list[dict[int, int]]:
        return [look.sampled_profile(self.rng, self.q_myopic) for _ in range(self.n_samples)]


def build_sampler(policy, rng: Rng):
    """The sampler over its base (``Policy.base``, resolved by ``GameInfo``): greedy's
    evaluation with the sampler's own parameters, or the heuristic's (the trained set
    ``expert`` arrives as the heuristic with the set's values)."""
    params = policy.params()
    if params.pop("base") == 0:  # greedy
        return SamplerPolicy(rng, **params)
    base = policy.base
    assert base is not None and base.name == "heuristic", "the expert plays as the heuristic"
    return SampledHeuristicPolicy(rng, params["n_samples"], params["q_myopic"],
                                  **base.params())


# ================================================================ from a declared Policy


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "greedy": lambda policy, rng: GreedyPolicy(**policy.params()),
    "sampler": build_sampler,
    "heuristic": lambda policy, rng: HeuristicPolicy(**policy.params()),
}
