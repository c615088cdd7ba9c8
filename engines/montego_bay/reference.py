"""Montego Bay, the readable reference path: the rules as the spec states them, phase by phase.

This module is the oracle. It plays one game with plain lists and names from
the rulebook (warehouses, rooms, path, pubs, workers, Lazy Jack, Tally-Man,
piers, ships, stacks, rail, barrels, coins), can narrate every card, move,
push, room and ship, and returns the outcome row of spec §5 that the Numba
fast path (``engine.py``) must reproduce exactly for the same rules,
policies, players, seed and game index.

Random draws. Chance uses only the world stream ``Rng(seed, game, WORLD)``,
in exactly this order (a fast path replays it draw for draw):

1. Warehouse tiles: the list of tile numbers ``[0 .. W-1]`` (T1..T7, plus T8
   with 4 players) is shuffled (``Rng.shuffle``: Fisher-Yates from the last
   position down); slot ``i`` (left to right) gets tile ``order[i]``.
2. Orientations, only if ``tile_orientation_random``: for slot 0 .. W-1 one
   ``below(2)`` each; 0 puts room A north, 1 puts room A south.
3. Ships: the list of ship-table rows ``[0 .. n-1]`` (n = rows of
   ``ship_table``) is shuffled; its first ``freight_ships`` entries are used:
   entries 0, 1, 2 go to piers 2, 3, 4; the next
   ``freight_ships - 3 - stack_b_size`` form stack A (top first); the last
   ``stack_b_size`` form stack B (top first). The pilot boat is at pier 1.
4. Rail: the workers in canonical order (seat 0's big, small, extra, then
   seat 1's, ...) are shuffled; rail position 1 is the first entry.
5. Every round, Phase 1, only with ``lazy_jack_tiebreak=random``, the
   fixed-price allocation (``fewest_vp``) and at least two eligible players: the eligible seats, ascending, are sorted by VP
   (stable); each run of two or more equal VP is shuffled in place.
6. Phase 6 of a round with a re-draw: the rail (positions 1..N as they
   stand) is shuffled; nothing is drawn when it only rotates.

Nothing else draws from the world stream: ships come off the stacks in the
order dealt, and every decision belongs to a seat's policy. Each seat's
policy owns the stream ``Rng(seed, game, POLICY + seat)`` for its random
choices and its samples (see ``policies.py`` for their order). A forced
decision (one legal option) is not asked, so it draws nothing.

A round is ``phase_lazy_jack``, ``phase_cards``, ``phase_movement``,
``phase_tally_man``, ``phase_harbour`` and ``phase_rail`` (spec §4); set-up is
``setup`` (§3); the end is ``final_scoring`` and ``winners`` (§5); majority
scoring is the pure function ``score_ship``.

Restricted play (``engines._restrict``): each seat's masks are read from its decision
maker once, when the game starts, into ``t.forbid``/``t.force``. D1 "hire Lazy Jack?"
(``wants_lazy_jack``) is a yes/no decision whose yes has the kind ``lazy_jack``; in D3 each
figure's card is one choice among the values it may play (``card_options``), so a seat's
options are the vectors of ``card_vectors``, and a seat left with one vector plays it
unasked. ``t.took`` counts every yes and every card played, by kind. Set-up gives the starting coins
(``start_coins_by_seat``, plus ``start_coins_by_place`` by rail place: the order of
``first_rail_pos``) after the rail is dealt; that draws nothing.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

from engines._restrict import kept, kept_binary
from engines._rng import Rng
from engines._standings import lead_story, leader  # noqa: F401 (tests use leader)
from engines.montego_bay import CARD_VALUES, CHOICE, CHOICES
from engines.montego_bay.board import (
    LEFT_PUB,
    RIGHT_PUB,
    SUPPLY,
    WITH_COMPANION,
    Board,
    make_board,
)
from engines.montego_bay.data import PILOT_NAME, Room
from engines.montego_bay.rules import Rules

SEATS = "ABCD"
STOP = 0  # the D4 option "stop loading this room" (only when must_load_all is false)

# The kinds of option a seat's restriction narrows (engines._restrict, declared in
# engines.montego_bay.CHOICES): D1's "hire" and each card value of D3.
LAZY_JACK = CHOICE["lazy_jack"]
CARD_KIND = {k: CHOICE[f"card_{k}"] for k in CARD_VALUES}

# How a move ended (spec §4 Phase 3).
LANDS, PUSHES, FALLS_BACK, BLOCKED = "lands", "pushes", "falls back", "blocked"


# ================================================================ the pieces


@dataclass(frozen=True)
class Worker:
    """One worker figure: whose it is, its size (which pub it starts in) and its name."""

    id: int
    seat: int
    size: str          # "big" or "small"
    extra: bool        # a worker of an unused colour run by this seat (2 players)
    name: str

    @property
    def pub(self) -> int:
        return LEFT_PUB if self.size == "big" else RIGHT_PUB


@dataclass
class Ship:
    """A ship at a pier or in a stack: its hold and the barrels of each seat aboard."""

    name: str
    capacity: int
    values: tuple      # VP for ranks 1-3 on the side used for this player count
    barrels: list      # per seat
    pilot: bool = False

    @property
    def load(self) -> int:
        return sum(self.barrels)

    @property
    def full(self) -> bool:
        return not self.pilot and self.load >= self.capacity

    def show(self) -> str:
        if self.pilot:
            return PILOT_NAME
        loads = " ".join(f"{SEATS[s]}{n}" for s, n in enumerate(self.barrels) if n)
        v = "/".join(map(str, self.values))
        return f"{self.name} (cap {self.capacity}, {v}; {self.load}/{self.capacity}" + \
            (f": {loads})" if loads else ")")


@dataclass
class Table:
    """Everything on the table during one game."""

    rules: Rules
    players: int
    board: Board
    workers: list                      # Worker, canonical order
    owned: list                        # per seat: its worker ids, canonical order
    loc: list                          # per figure (workers, then Lazy Jack): location
    room_good: list                    # per path index
    room_broken: list
    room_coin: list
    warehouse_names: list              # per slot, e.g. 'T3 (A north)'
    piers: list                        # Ship; index 0 is pier 1, packed
    stack_a: list                      # top first
    stack_b: list
    departed: list = field(default_factory=list)
    rail: list = field(default_factory=list)
    vp: list = field(default_factory=list)
    coins: list = field(default_factory=list)
    stock: list = field(default_factory=list)
    bank: int = 0
    round: int = 0
    lazy_jack_hirer: int | None = None
    lazy_jack_companion: int | None = None
    cards: list = field(default_factory=list)   # per figure: this round's value, 0 = none
    reshuffle_pending: bool = False
    reshuffles: int = 0
    stack_b_drawn: bool = False
    game_over: bool = False
    # counters for the outcome row
    ships_sailed_full: int = 0
    ships_scored_total: int = 0
    lazy_jack_hires: list = field(default_factory=list)
    lazy_jack_blocked: int = 0
    took: list = field(default_factory=list)   # per seat, per choice: times it took that kind
    reshuffle_round: int = 0
    first_rail_seat: int = 0
    first_rail_pos: list = field(default_factory=list)
    win: list = field(default_factory=list)
    standings: list = field(default_factory=list)  # VP after each round; the last: final VP
    # each seat's restriction (engines._restrict): bits of CHOICES it may never take / must
    # take when it can; read once from the decision makers when the game starts
    forbid: list = field(default_factory=list)
    force: list = field(default_factory=list)
    # narration and checking
    log: list | None = None
    events: list | None = None
    observer: object = None

    # ------------------------------------------------------------ what can be seen

    @property
    def lazy_jack(self) -> int:
        """Lazy Jack's figure id (after all workers)."""
        return len(self.workers)

    def owner(self, f: int) -> int:
        return self.lazy_jack_hirer if f == self.lazy_jack else self.workers[f].seat

    def figure_name(self, f: int) -> str:
        return "Lazy Jack" if f == self.lazy_jack else self.workers[f].name

    def room(self, q: int) -> Room:
        return Room(self.room_good[q], self.room_broken[q], self.room_coin[q])

    def aboard(self, seat: int) -> int:
        """Barrels of ``seat`` on all ships at the piers."""
        return sum(ship.barrels[seat] for ship in self.piers)

    def loadable_piers(self) -> list[int]:
        """Pier numbers (1-4) whose ship is a freight ship with free capacity."""
        return [j + 1 for j, ship in enumerate(self.piers)
                if not ship.pilot and ship.load < ship.capacity]

    def piers_holding(self, seat: int) -> list[int]:
        """Pier numbers whose ship holds at least one barrel of ``seat``."""
        return [j + 1 for j, ship in enumerate(self.piers) if ship.barrels[seat] > 0]

    def rail_position(self, worker: int) -> int:
        """1-based position of a worker's tile on the rail."""
        return self.rail.index(worker) + 1

    def earliest_rail_position(self, seat: int) -> int:
        return min(self.rail_position(w) for w in self.owned[seat])

    def rail_places(self) -> list[int]:
        """The seats in rail place order (turn order): place 0 is the seat whose earliest
        worker stands first on the rail, place 1 the next such seat, and so on."""
        return sorted(range(self.players), key=self.earliest_rail_position)

    def figure_at(self, q: int) -> int | None:
        for f, where in enumerate(self.loc):
            if where == q:
                return f
        return None

    # ------------------------------------------------------------ narration

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def record(self, **event) -> None:
        if self.events is not None:
            self.events.append(event)

    def check(self, what: str) -> None:
        """Hand the table to an observer (the invariant tests) after every step."""
        if self.observer is not None:
            self.observer(self, what)


def show_vp(x) -> str:
    return str(x) if not isinstance(x, Fraction) or x.denominator == 1 else f"{float(x):.2f}"


# ================================================================ majority scoring (§4)


def rank_value(values: tuple, rank: int) -> int:
    """v_r of the ship's side; every rank beyond the printed ones is worth 0."""
    return values[rank - 1] if rank <= len(values) else 0


def score_ship(values: tuple, counts: list, zero_mode: str = "beyond_printed",
               rounding: str = "ceil") -> list:
    """VP each player gets when a ship with these barrel counts scores (pure).

    Only players with a barrel aboard take part. They are sorted by barrels,
    descending, and walked in groups of equal counts; a group of t players on
    ranks r..r+t-1 gets, each, (v_r + ... + v_{r+t-1}) / t rounded as
    ``rounding`` says (ceil by default). ``zero_mode=lowest_loader_zero``
    gives the last group nothing when there are two groups or more.
    """
    points: list = [0] * len(counts)
    loaders = sorted((p for p, c in enumerate(counts) if c > 0), key=lambda p: -counts[p])
    groups: list[list[int]] = []
    for p in loaders:
        if groups and counts[groups[-1][0]] == counts[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    rank = 1
    for i, group in enumerate(groups):
        t = len(group)
        if zero_mode == "lowest_loader_zero" and len(groups) >= 2 and i == len(groups) - 1:
            total = 0
        else:
            total = sum(rank_value(values, r) for r in range(rank, rank + t))
        if rounding == "ceil":
            each = -(-total // t)
        elif rounding == "floor":
            each = total // t
        else:
            each = Fraction(total, t)
            each = int(each) if each.denominator == 1 else each
        for p in group:
            points[p] = each
        rank += t
    return points


def ship_scores(t: Table, ship: Ship) -> list:
    rules = t.rules
    return score_ship(ship.values, ship.barrels, rules.majority_zero_mode, rules.tie_rounding)


# ================================================================ set-up (§3)


def make_workers(rules: Rules, players: int) -> list[Worker]:
    """Each seat's big and small worker, plus with 2 players the extra worker (canonical order)."""
    extra_sizes = {"big_and_small": ("big", "small"), "both_big": ("big", "big"),
                   "both_small": ("small", "small")}[rules.two_player_extra_workers]
    workers: list[Worker] = []
    for seat in range(players):
        sizes = [("big", False), ("small", False)]
        if rules.workers_per_player(players) == 3:
            sizes.append((extra_sizes[seat], True))
        for size, extra in sizes:
            name = f"{SEATS[seat]} {'extra ' if extra else ''}{size}"
            workers.append(Worker(len(workers), seat, size, extra, name))
    return workers


def setup(rules: Rules, players: int, world: Rng) -> Table:
    """Steps 1-7 of spec §3, drawing from the world stream in the documented order.

    The starting coins (step 4) are given last, once the rail (step 6) is known: the
    player in rail place k adds ``start_coins_by_place[k]`` to their seat's
    ``start_coins_by_seat``. Giving coins draws nothing.
    """
    W = rules.warehouses(players)
    board = make_board(W, rules.path_end_spaces, rules.pub_entry, rules.resolution_order)

    # 1. Warehouse tiles in random order, each randomly oriented.
    tiles = rules.tiles(players)
    order = list(range(W))
    world.shuffle(order)
    a_south = [world.below(2) == 1 if rules.tile_orientation_random else False
               for _ in range(W)]
    room_good, room_broken, room_coin = [0] * board.length, [0] * board.length, [0] * board.length
    names = []
    for slot in range(W):
        tile = tiles[order[slot]]
        north, south = (tile.room_b, tile.room_a) if a_south[slot] else (tile.room_a, tile.room_b)
        for q, room in ((board.north(slot), north), (board.south(slot), south)):
            room_good[q], room_broken[q], room_coin[q] = room
        names.append(f"{tile.name} (A {'south' if a_south[slot] else 'north'})")

    # 2-3. Workers, stocks, VP; everyone in their pub.
    workers = make_workers(rules, players)
    owned = [[w.id for w in workers if w.seat == s] for s in range(players)]
    loc = [w.pub for w in workers] + [SUPPLY]

    # 5. Ships: the pilot boat at pier 1, three freight ships behind it, two stacks.
    cards = rules.ships()
    deal = list(range(len(cards)))
    world.shuffle(deal)
    used = [cards[i] for i in deal[:rules.freight_ships]]

    def ship(card) -> Ship:
        return Ship(card.name, card.capacity, card.values(players), [0] * players)

    pilot = Ship(PILOT_NAME, 0, (), [0] * players, pilot=True)
    split = rules.freight_ships - rules.stack_b_size
    piers = [pilot] + [ship(c) for c in used[:3]]
    stack_a = [ship(c) for c in used[3:split]]
    stack_b = [ship(c) for c in used[split:]]

    # 6. The rail: every worker's order tile in random order.
    rail = list(range(len(workers)))
    world.shuffle(rail)

    t = Table(rules=rules, players=players, board=board, workers=workers, owned=owned, loc=loc,
              room_good=room_good, room_broken=room_broken, room_coin=room_coin,
              warehouse_names=names, piers=piers, stack_a=stack_a, stack_b=stack_b, rail=rail,
              vp=[0] * players, coins=[0] * players, stock=[rules.barrels_per_player] * players,
              bank=rules.bank_coins, cards=[0] * (len(workers) + 1),
              lazy_jack_hires=[0] * players, took=[[0] * len(CHOICES) for _ in range(players)],
              forbid=[0] * players, force=[0] * players)
    t.first_rail_seat = workers[rail[0]].seat
    t.first_rail_pos = [t.earliest_rail_position(s) for s in range(players)]

    # 4. Coins, given once the rail is dealt (they draw nothing): each player takes from the
    #    bank the coins of their seat and those of their rail place (places in the order of
    #    first_rail_pos, the turn order the seat analysis re-seats by).
    for place, seat in enumerate(t.rail_places()):
        t.coins[seat] = rules.start_coins_by_seat[seat] + rules.start_coins_by_place[place]
        t.bank -= t.coins[seat]
    return t


def narrate_setup(t: Table) -> None:
    b = t.board
    t.say(f"Set-up: {t.players} players, {b.warehouses} warehouses, path of {b.length} spaces")
    for slot in range(b.warehouses):
        n, s = b.north(slot), b.south(slot)
        t.say(f"  warehouse {slot}: {t.warehouse_names[slot]}: N{slot} [{n}] {t.room(n)}, "
              f"S{slot} [{s}] {t.room(s)}")
    t.say("  piers: " + "; ".join(f"{j + 1} {ship.show()}" for j, ship in enumerate(t.piers)))
    t.say(f"  stack A {len(t.stack_a)} ships, stack B {len(t.stack_b)} ships (face down)")
    t.say("  rail: " + ", ".join(t.workers[w].name for w in t.rail))
    if any(t.coins):
        t.say("  starting coins: " + ", ".join(f"{SEATS[s]} {c}" for s, c in enumerate(t.coins)))
    t.record(event="setup", warehouses=list(t.warehouse_names),
             piers=[s.name for s in t.piers], rail=[t.workers[w].name for w in t.rail])


# ================================================================ ships leaving and arriving


def draw_new(t: Table) -> None:
    """A new ship into the highest empty pier: stack A first, then stack B, else none."""
    if t.stack_a:
        ship = t.stack_a.pop(0)
        source = "A"
    elif t.stack_b:
        ship = t.stack_b.pop(0)
        source = "B"
        rule = t.rules.reshuffle_rule
        if (rule == "once" and not t.stack_b_drawn) or rule == "every_round_drawing_b":
            t.reshuffle_pending = True
        t.stack_b_drawn = True
    else:
        t.say("      no ship is left in the stacks; the pier stays empty")
        return
    t.piers.append(ship)
    t.say(f"      {ship.show()} comes from stack {source} to pier {len(t.piers)}")
    t.record(event="draw_ship", ship=ship.name, stack=source, pier=len(t.piers))


def score_and_clear(t: Table, ship: Ship, why: str) -> None:
    """Majority scoring of a leaving or final ship; its barrels go back to their owners."""
    if ship.pilot or ship.load == 0:
        return
    points = ship_scores(t, ship)
    t.ships_scored_total += 1
    for seat, p in enumerate(points):
        t.vp[seat] += p
    gains = ", ".join(f"{SEATS[s]} +{show_vp(p)}" for s, p in enumerate(points) if ship.barrels[s])
    t.say(f"      {ship.name} scores ({why}): {gains}")
    t.record(event="score_ship", ship=ship.name, why=why, barrels=list(ship.barrels),
             points=[float(p) if isinstance(p, Fraction) else p for p in points])
    for seat, n in enumerate(ship.barrels):
        t.stock[seat] += n
    ship.barrels = [0] * t.players


def sail_full(t: Table, pier: int, filler: int) -> None:
    """A ship filled during loading sails at once: fill bonus, majority scoring, ships move down."""
    ship = t.piers[pier - 1]
    t.ships_sailed_full += 1
    t.vp[filler] += t.rules.fill_bonus
    t.say(f"      {ship.name} is full and sails: {SEATS[filler]} +{t.rules.fill_bonus} fill bonus")
    t.record(event="sail_full", ship=ship.name, pier=pier, filler=filler)
    score_and_clear(t, ship, "full")
    t.piers.pop(pier - 1)
    t.departed.append(ship)
    draw_new(t)
    t.check("sail")


# ================================================================ movement (§4 Phase 3)


def target_of(board: Board, start: int, k: int) -> int:
    """Where value ``k`` aims from ``start``: k steps clockwise, or the pub's entry + k - 1."""
    if start < 0:
        return (board.entry[start] + k - 1) % board.length
    return (start + k) % board.length


def move(board: Board, loc: list, f: int, k: int, start: int) -> tuple[str, int, int]:
    """Figure ``f`` plays value ``k`` from ``start`` (a path index or a pub); changes ``loc``.

    Returns (how, pushed figure or -1, where it was pushed or -1). On BLOCKED
    nothing changes: the caller leaves a worker where it was and handles
    Lazy Jack. Figures other than ``f`` occupy their spaces; ``f``'s own
    start counts as free (Lazy Jack's start is his companion's space, which is
    occupied by the companion).
    """
    L = board.length
    on_path = {q: g for g, q in enumerate(loc) if q >= 0 and g != f}
    target = target_of(board, start, k)
    if target not in on_path:
        loc[f] = target
        return LANDS, -1, -1
    across = board.opposite[target]
    if across >= 0 and across not in on_path:
        pushed = on_path[target]
        loc[pushed] = across
        loc[f] = target
        return PUSHES, pushed, across
    for d in range(1, k):
        q = (target - d) % L
        if q not in on_path:
            loc[f] = q
            return FALLS_BACK, -1, -1
    return BLOCKED, -1, -1


def lazy_jack_blocked_place(rules: Rules) -> int:
    return SUPPLY if rules.lazy_jack_blocked == "to_supply" else WITH_COMPANION


def movement_order(t: Table) -> list[int]:
    """Lazy Jack first (if hired), then the workers by rail position."""
    return ([t.lazy_jack] if t.lazy_jack_hirer is not None else []) + list(t.rail)


def move_figure(t: Table, f: int) -> None:
    """Phase 3 for one figure, narrated."""
    lj = f == t.lazy_jack
    start = t.loc[t.lazy_jack_companion] if lj else t.loc[f]
    k = t.cards[f]
    board = t.board
    how, pushed, to = move(board, t.loc, f, k, start)
    name = t.figure_name(f)
    if how == BLOCKED:
        if lj:
            t.loc[f] = lazy_jack_blocked_place(t.rules)
            t.lazy_jack_blocked += 1
            where = "back to the supply" if t.loc[f] == SUPPLY else "beside his companion"
            t.say(f"  {name} plays {k} from {board.name(start)}: blocked, goes {where} "
                  "and does nothing this round")
        else:
            t.say(f"  {name} plays {k} from {board.name(start)}: blocked all the way back, "
                  "stays")
    elif how == PUSHES:
        t.say(f"  {name} plays {k} from {board.name(start)} -> {board.name(t.loc[f])}, "
              f"pushing {t.figure_name(pushed)} through the warehouse to {board.name(to)}")
    elif how == FALLS_BACK:
        target = target_of(board, start, k)
        t.say(f"  {name} plays {k} from {board.name(start)}: {board.name(target)} is taken and "
              f"cannot be pushed through, falls back to {board.name(t.loc[f])}")
    else:
        t.say(f"  {name} plays {k} from {board.name(start)} -> {board.name(t.loc[f])}")
    t.record(event="move", figure=name, value=k, start=start, how=how, end=t.loc[f],
             pushed=t.figure_name(pushed) if pushed >= 0 else None, pushed_to=to)
    t.check("move")


# ================================================================ the six phases (§4)


def priority_order(t: Table, eligible: list[int], world: Rng) -> list[int]:
    """Phase 1 step 2: fewest VP first; ties by lazy_jack_tiebreak.

    The auction breaks ties between equal bids by fewest VP, then rail order
    (spec §7), so ``lazy_jack_tiebreak`` applies to the fixed-price offer only.
    """
    rule = t.rules.lazy_jack_tiebreak
    if t.rules.lazy_jack_allocation == "auction":
        rule = "rail_order"
    if rule == "rail_order":
        return sorted(eligible, key=lambda s: (t.vp[s], t.earliest_rail_position(s)))
    if rule == "fewer_coins":
        return sorted(eligible, key=lambda s: (t.vp[s], t.coins[s], t.earliest_rail_position(s)))
    order = sorted(eligible, key=lambda s: t.vp[s])
    if len(order) >= 2:
        i = 0
        while i < len(order):
            j = i
            while j < len(order) and t.vp[order[j]] == t.vp[order[i]]:
                j += 1
            if j - i >= 2:
                run = order[i:j]
                world.shuffle(run)
                order[i:j] = run
            i = j
    return order


def hire_lazy_jack(t: Table, seat: int, price: int, policy) -> None:
    t.coins[seat] -= price
    t.bank += price
    t.lazy_jack_hires[seat] += 1
    t.lazy_jack_hirer = seat
    companion = policy.lazy_jack_companion(t, seat)
    assert companion in t.owned[seat], "the companion must be one of the hirer's workers"
    t.lazy_jack_companion = companion
    t.say(f"  {SEATS[seat]} hires Lazy Jack for {price} coins (coins {t.coins[seat]}, bank "
          f"{t.bank}); he starts beside {t.workers[companion].name} at "
          f"{t.board.name(t.loc[companion])}")
    t.record(event="hire", seat=seat, price=price, companion=t.workers[companion].name)


def wants_lazy_jack(t: Table, seat: int, policy) -> bool:
    """D1 "hire Lazy Jack?" within the seat's restriction: a seat forced to hire him says yes
    and one forbidden says no, unasked; each yes is counted."""
    must = kept_binary(LAZY_JACK, t.forbid[seat], t.force[seat])
    yes = policy.lazy_jack_hire(t, seat) if must is None else must
    if yes:
        t.took[seat][LAZY_JACK] += 1
    return yes


def phase_lazy_jack(t: Table, policies: list, world: Rng) -> None:
    """Phase 1: at most one hire; asked in priority order (or a sealed auction)."""
    rules = t.rules
    cost = rules.lazy_jack_cost
    eligible = [s for s in range(t.players) if t.coins[s] >= cost]
    if not eligible:
        return
    order = priority_order(t, eligible, world)
    t.say("Phase 1, Lazy Jack: asked in order " + ", ".join(
        f"{SEATS[s]} ({show_vp(t.vp[s])} VP, {t.coins[s]} coins)" for s in order))
    if rules.lazy_jack_allocation == "fewest_vp":
        for seat in order:
            if wants_lazy_jack(t, seat, policies[seat]):
                hire_lazy_jack(t, seat, cost, policies[seat])
                break
            t.say(f"  {SEATS[seat]} declines")
        return
    bids = {}
    for seat in order:  # sealed: no policy sees another's answer
        if wants_lazy_jack(t, seat, policies[seat]):
            bid = cost if t.coins[seat] == cost else policies[seat].lazy_jack_bid(t, seat)
            assert cost <= bid <= t.coins[seat], "a bid is between the cost and own coins"
            bids[seat] = bid
    if not bids:
        t.say("  nobody bids")
        return
    t.say("  bids: " + ", ".join(f"{SEATS[s]} {b}" for s, b in bids.items()))
    best = max(bids.values())
    winner = next(s for s in order if bids.get(s) == best)
    hire_lazy_jack(t, winner, best, policies[winner])


def legal_lazy_jack_values(rules: Rules, companion_value: int) -> list[int]:
    if rules.lazy_jack_distinct_card:
        return [k for k in CARD_VALUES if k != companion_value]
    return list(CARD_VALUES)


def card_options(t: Table, seat: int, legal=CARD_VALUES) -> list[int]:
    """The values among ``legal`` that one figure of ``seat`` may play: each figure's card is
    one choice, narrowed by the seat's restriction (engines._restrict)."""
    return kept(list(legal), [CARD_KIND[k] for k in legal], t.forbid[seat], t.force[seat])


def lazy_jack_card_options(t: Table, seat: int, companion_value: int) -> list[int]:
    """The values the hirer may play for Lazy Jack beside a companion playing this value."""
    return card_options(t, seat, legal_lazy_jack_values(t.rules, companion_value))


def card_vectors(t: Table, seat: int, companion: int | None) -> list[tuple[int, ...]]:
    """D3's options: one value per own worker in canonical order, and Lazy Jack's last when
    he stands beside ``companion`` (None: no own Lazy Jack), each within the seat's
    restriction; in lexicographic order."""
    own = t.owned[seat]
    plain = list(itertools.product(card_options(t, seat), repeat=len(own)))
    if companion is None:
        return plain
    at = own.index(companion)
    return [v + (k,) for v in plain for k in lazy_jack_card_options(t, seat, v[at])]


def phase_cards(t: Table, policies: list) -> None:
    """Phase 2: every player picks a value per own figure; revealed when all have chosen.

    A player left with one vector by its restriction plays it unasked."""
    chosen = {}
    for seat in range(t.players):
        figures = list(t.owned[seat])
        if t.lazy_jack_hirer == seat:
            figures.append(t.lazy_jack)
        options = card_vectors(t, seat, t.lazy_jack_companion if t.lazy_jack_hirer == seat
                               else None)
        if len(options) == 1:
            values = options[0]
        else:
            values = tuple(policies[seat].movement_cards(t, seat))
        assert len(values) == len(figures), "one value per own figure (Lazy Jack last)"
        assert values in options, "card values are 1..5, within the seat's restriction"
        for v in values:
            t.took[seat][CARD_KIND[v]] += 1
        chosen[seat] = (figures, values)
    for figures, values in chosen.values():
        for f, v in zip(figures, values, strict=True):
            t.cards[f] = v
    if t.lazy_jack_hirer is not None and t.rules.lazy_jack_distinct_card:
        assert t.cards[t.lazy_jack] != t.cards[t.lazy_jack_companion], \
            "Lazy Jack's card differs from his companion's"
    t.say("Phase 2, cards: " + "; ".join(
        ", ".join(f"{t.figure_name(f)} {v}" for f, v in zip(*chosen[s], strict=True))
        for s in range(t.players)))
    t.record(event="cards", cards={t.figure_name(f): t.cards[f]
                                   for s in range(t.players) for f in chosen[s][0]})


def phase_movement(t: Table) -> None:
    """Phase 3: Lazy Jack first, then the workers by rail position, pushing as they land."""
    t.say("Phase 3, movement:")
    for f in movement_order(t):
        move_figure(t, f)


def resolve_room(t: Table, f: int, q: int, policies: list) -> None:
    """Phase 4 for the figure on space ``q``: coin, then good barrels, then broken barrels."""
    rules = t.rules
    seat = t.owner(f)
    lj = f == t.lazy_jack
    room = t.room(q)
    t.say(f"  Tally-Man at {t.board.name(q)} [{room}]: {t.figure_name(f)} for {SEATS[seat]}")
    t.record(event="resolve", space=q, figure=t.figure_name(f), seat=seat)
    if room.coin and (not lj or rules.lazy_jack_collects_coin):
        if t.bank >= 1:
            t.bank -= 1
            t.coins[seat] += 1
            t.say(f"    takes a coin (coins {t.coins[seat]}, bank {t.bank})")
            t.record(event="coin", seat=seat, space=q)
        else:
            t.say("    the bank is empty: no coin")
    if room.good:
        load_barrels(t, seat, room.good, policies[seat])
    if room.broken and not lj:
        remove_broken(t, seat, room.broken, policies[seat])


def load_barrels(t: Table, seat: int, good: int, policy) -> None:
    """Load a room's good barrels one at a time; a ship that fills sails at once."""
    rules = t.rules
    n = min(good, t.stock[seat]) if rules.load_count == "fixed" else good
    if n < good and rules.load_count == "fixed":
        t.say(f"    only {t.stock[seat]} barrels in stock")
    for _ in range(n):
        if t.stock[seat] == 0:  # load_count=while_stock ends with the stock
            t.say("    the stock is empty")
            break
        options = t.loadable_piers()
        if not options:
            t.say("    no ship can take a barrel: the rest stay in stock")
            break
        if not rules.must_load_all:
            options = options + [STOP]
        pier = options[0] if len(options) == 1 else policy.load_target(t, seat, options)
        assert pier in options, "a legal pier (or stop)"
        if pier == STOP:
            t.say("    stops loading this room")
            break
        ship = t.piers[pier - 1]
        ship.barrels[seat] += 1
        t.stock[seat] -= 1
        t.say(f"    loads a barrel onto pier {pier}: {ship.show()}")
        t.record(event="load", seat=seat, pier=pier, ship=ship.name)
        t.check("barrel")
        if ship.full:
            sail_full(t, pier, seat)


def remove_broken(t: Table, seat: int, broken: int, policy) -> None:
    """Remove up to ``broken`` of the player's own barrels from ships of the player's choice."""
    n = min(broken, t.aboard(seat))
    if n == 0:
        t.say(f"    {broken} broken barrel(s), but {SEATS[seat]} has none aboard")
    for _ in range(n):
        options = t.piers_holding(seat)
        pier = options[0] if len(options) == 1 else policy.unload_source(t, seat, options)
        assert pier in options, "a pier holding an own barrel"
        ship = t.piers[pier - 1]
        ship.barrels[seat] -= 1
        t.stock[seat] += 1
        t.say(f"    broken barrel: removes one from pier {pier}: {ship.show()}")
        t.record(event="unload", seat=seat, pier=pier, ship=ship.name)
        t.check("unload")


def phase_tally_man(t: Table, policies: list) -> None:
    """Phase 4: the Tally-Man walks his order; each figure standing in front of a room resolves."""
    t.say("Phase 4, Tally-Man:")
    standing = {q: f for f, q in enumerate(t.loc) if q >= 0}
    for q in t.board.resolution_order:
        if q in standing:
            resolve_room(t, standing[q], q, policies)


def phase_harbour(t: Table) -> bool:
    """Phase 5: the game ends with end_threshold ships or fewer; else pier 1 departs."""
    n = len(t.piers)
    if n <= t.rules.end_threshold:
        t.say(f"Phase 5, harbour: only {n} ships at the piers: the game ends")
        t.game_over = True
        return True
    ship = t.piers.pop(0)
    t.say(f"Phase 5, harbour: {ship.show()} departs from pier 1")
    t.record(event="depart", ship=ship.name)
    score_and_clear(t, ship, "departs")
    t.departed.append(ship)
    draw_new(t)
    return False


def phase_rail(t: Table, world: Rng) -> None:
    """Phase 6: the one re-draw of the rail, or the rotation; Lazy Jack back to the supply."""
    redraw = t.reshuffle_pending and (t.reshuffles == 0
                                      or t.rules.reshuffle_rule == "every_round_drawing_b")
    if redraw:
        world.shuffle(t.rail)
        t.reshuffles += 1
        if t.reshuffle_round == 0:
            t.reshuffle_round = t.round
        how = "re-drawn (stack B reached)"
    else:
        t.rail.insert(0, t.rail.pop())
        how = "rotates"
    t.reshuffle_pending = False
    t.say(f"Phase 6, rail {how}: " + ", ".join(t.workers[w].name for w in t.rail))
    t.record(event="rail", redraw=redraw, rail=[t.workers[w].name for w in t.rail])
    t.loc[t.lazy_jack] = SUPPLY
    t.lazy_jack_hirer = None
    t.lazy_jack_companion = None
    t.cards = [0] * len(t.cards)


def play_round(t: Table, policies: list, world: Rng) -> bool:
    """One round, Phases 1-6; True when the game ended in Phase 5."""
    t.round += 1
    t.say(f"Round {t.round}: VP " + ", ".join(f"{SEATS[s]} {show_vp(v)}" for s, v in enumerate(t.vp))
          + "; coins " + ", ".join(f"{SEATS[s]} {c}" for s, c in enumerate(t.coins))
          + f"; bank {t.bank}; rail " + ", ".join(t.workers[w].name for w in t.rail))
    t.say("  piers: " + "; ".join(f"{j + 1} {s.show()}" for j, s in enumerate(t.piers)))
    t.record(event="round", round=t.round)
    phase_lazy_jack(t, policies, world)
    t.check("phase1")
    phase_cards(t, policies)
    t.check("phase2")
    phase_movement(t)
    t.check("phase3")
    phase_tally_man(t, policies)
    t.check("phase4")
    if phase_harbour(t):
        t.check("phase5")
        return True
    t.check("phase5")
    phase_rail(t, world)
    t.check("phase6")
    return False


# ================================================================ the end (§5)


def final_scoring(t: Table) -> None:
    """Every freight ship still at a pier scores, in pier order, with no fill bonus."""
    t.say("Final scoring:")
    for ship in t.piers:
        score_and_clear(t, ship, "final")


def winners(t: Table) -> list[float]:
    """Win shares: most VP; then most coins (coins_then_shared); then shared 1/k."""
    best = max(t.vp)
    tied = [s for s in range(t.players) if t.vp[s] == best]
    if len(tied) > 1 and t.rules.final_tiebreak == "coins_then_shared":
        most = max(t.coins[s] for s in tied)
        tied = [s for s in tied if t.coins[s] == most]
    return [1.0 / len(tied) if s in tied else 0.0 for s in range(t.players)]


# ================================================================ one game


def play_game(rules: Rules, players: int, policies: list, world: Rng, narrate: bool = False,
              observer=None, table: Table | None = None) -> Table:
    """Set up (unless a table is given), play rounds until Phase 5 ends the game, score."""
    t = table if table is not None else setup(rules, players, world)
    # each seat's restriction, read once: it holds whichever policy plays the seat
    t.forbid = [getattr(p, "forbid", 0) for p in policies]
    t.force = [getattr(p, "force", 0) for p in policies]
    if narrate:
        t.log, t.events = [], []
    t.observer = observer
    narrate_setup(t)
    t.check("setup")
    while not play_round(t, policies, world):
        assert t.round < rules.max_rounds, "every round removes a ship (spec §4 length bound)"
        note_standing(t)
    final_scoring(t)
    note_standing(t)  # the last round's standing is the final score
    t.win = winners(t)
    t.say("Game over after " + f"{t.round} rounds: VP " + ", ".join(
        f"{SEATS[s]} {show_vp(v)}" for s, v in enumerate(t.vp)) + "; coins " + ", ".join(
        f"{SEATS[s]} {c}" for s, c in enumerate(t.coins)))
    t.say("Winner: " + ", ".join(f"{SEATS[s]} ({w:g})" for s, w in enumerate(t.win) if w))
    t.check("end")
    return t


# ================================================================ who leads, round by round


def note_standing(t: Table) -> None:
    """The VP on the track as a round ends (after the last round: the final VP)."""
    t.standings.append(list(t.vp))



def outcome(t: Table, game: int) -> dict:
    """The outcome row of spec §5 (column order as declared in ``__init__``)."""
    P = t.players
    row: dict = {"game": game, "players": P}
    for s in range(P):
        row[f"score_{s}"] = float(t.vp[s]) if isinstance(t.vp[s], Fraction) else t.vp[s]
    for s in range(P):
        row[f"win_{s}"] = t.win[s]
    row["rounds"] = t.round
    row["ships_sailed_full"] = t.ships_sailed_full
    row["ships_scored_total"] = t.ships_scored_total
    for s in range(P):
        row[f"lazy_jack_hires_{s}"] = t.lazy_jack_hires[s]
    for s in range(P):
        row[f"coins_{s}"] = t.coins[s]
    row["first_rail_seat"] = t.first_rail_seat
    for s in range(P):
        row[f"first_rail_pos_{s}"] = t.first_rail_pos[s]
    row["lazy_jack_blocked"] = t.lazy_jack_blocked
    row["reshuffle_round"] = t.reshuffle_round
    assert len(t.standings) == t.round, "one standing per round"
    row["lead_changes"], row["half_time_leader"] = lead_story(t.standings)
    for k, choice in enumerate(CHOICES):
        for s in range(P):
            row[f"took_{choice.name}_{s}"] = t.took[s][k]
    return row


def final_state(t: Table) -> dict:
    """Where everything ended up: warehouses, figures, rail, piers, VP, coins, bank, stocks."""
    b = t.board
    return {
        "warehouses": [{"slot": i, "tile": t.warehouse_names[i],
                        "north": str(t.room(b.north(i))), "south": str(t.room(b.south(i)))}
                       for i in range(b.warehouses)],
        "figures": {t.workers[w].name: b.name(t.loc[w]) for w in range(len(t.workers))},
        "rail": [t.workers[w].name for w in t.rail],
        "piers": [s.name for s in t.piers],
        "departed": [s.name for s in t.departed],
        "vp": [float(v) for v in t.vp],
        "coins": list(t.coins),
        "bank": t.bank,
        "stock": list(t.stock),
    }


__all__ = [
    "LEFT_PUB", "RIGHT_PUB", "SUPPLY", "WITH_COMPANION", "STOP", "Table", "Ship", "Worker",
    "score_ship", "setup", "move", "phase_lazy_jack", "phase_cards", "phase_movement",
    "phase_tally_man", "phase_harbour", "phase_rail", "final_scoring", "winners", "play_game",
    "outcome", "final_state",
]
