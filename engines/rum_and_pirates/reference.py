"""Rum & Pirates, the readable reference path: the rules as the spec states them, round by round.

This module is the oracle. It plays one game with plain lists and the
rulebook's names (Captain, corners, roads, dark halves, hand, reserve, mast
rows, bunk fight, display, stacks), can narrate every placement, move, coin,
action, roll and award, and returns the outcome row that the Numba fast path
(``engine.py``) must reproduce exactly for the same rules, policies, players,
seed and game index. What both paths decide where the spec is silent (random
streams, the engine's reading of every option, greedy and rollout in full) is
written down once, in ``READINGS.md`` beside this module.

Random draws. Chance uses only the world stream ``Rng(seed, game, WORLD)``,
in exactly this order:

1. The layout: ``data.generate_layout(world, hq_tile_position, tile_rotation)``
   (a Fisher-Yates shuffle of the tiles, then one ``below(4)`` per position
   unless tiles are not turned); nothing when the ``layout`` option fixes it.
2. The eleven stacks, in ``data.STACKS`` order (pubs, maps, chests, scorpions,
   big guards, small guards, supplies, rendezvous, bunks, hammocks, bedrolls),
   each ``Rng.shuffle``-d from ``data.initial_stacks()``; all eleven always.
   With ``sleeping_tile_order`` ascending/descending the three sleeping stacks
   are then replaced by their sorted order (no extra draw).
3. During play, every die roll ``world.dice(6)`` in event order: pub contest
   rolls and re-rolls, scorpion contest rolls and re-rolls, bunk-fight rolls,
   re-rolls and tie re-rolls.

Nothing else draws from the world stream. Every decision belongs to a seat's
policy (``policies.py``), which owns ``Rng(seed, game, POLICY + seat)``; a
decision with one legal option is not asked (:func:`choose`) and draws nothing.

Conventions both paths keep: the top of a stack is its last element, "under a
stack" is index 0; the pub and map displays are lists (set-up tiles in draw
order, a taken tile removed without reordering, refills appended); the set-up
display draws 4 pubs, 4 maps, the chest, the scorpion. Option lists follow
spec §8.2 (:func:`legal_moves`, :func:`turn_options`, :func:`again_options`,
:func:`hq_options`, ...).

The round loop (spec §5.2) keeps its state in the table (``cur``, ``in_turn``,
``owed``, ``lone``), so a game can be resumed from a D1 or D2 decision on a
:func:`clone` (the rollout policy does): :func:`do_turn_choice` /
:func:`do_again_choice` apply a choice, :func:`finish_round` plays on to the
end of the round, :func:`play_rounds` to the end of the game. Every invariant
of spec §10 that a single engine can check is asserted by :meth:`Table.check`
when ``Table.checking`` is set. Every round end notes the standings
(:func:`note_standing`), from which :func:`lead_story` gives the ``lead_changes``
and ``half_time_leader`` columns.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from engines._restrict import kept, kept_binary
from engines._rng import Rng
from engines._standings import lead_story, leader  # noqa: F401 (tests use leader)
from engines.rum_and_pirates import ACTION_CHOICE, CHOICES, data
from engines.rum_and_pirates.data import (
    CHEST,
    COIN,
    CORNER_ACTION,
    CORNER_COLOUR,
    CORNER_TILE,
    HQ,
    MAP,
    PIRATE,
    PUB,
    RDV_TARGETS,
    RENDEZVOUS,
    RUM,
    SUPPLIES,
    Board,
)
from engines.rum_and_pirates.rules import UNLIMITED, Rules

SEATS = "ABCDE"
REST, BOARD, STOP = "REST", "BOARD", "STOP"
KEEP, SELL = "KEEP", "SELL"
BIG, SMALL = "BIG", "SMALL"
NONE = "NONE"
JOIN, DECLINE = "JOIN", "DECLINE"
REROLL = "REROLL"
SLEEPING = ("bunks", "hammocks", "bedrolls")
PLACE_NAMES = ("bunk", "hammock", "bedroll")

# The declared choices (``__init__.CHOICES``) by name -> their bit; a road move's by the
# action of the corner it reaches.
KIND = {c.name: i for i, c in enumerate(CHOICES)}
ACTION_KIND = tuple(KIND[name] for name in ACTION_CHOICE)
assert len(ACTION_KIND) == len(data.ACTION_CODES)
NO_KIND = -1


class Move(NamedTuple):
    """A Captain move (spec §5.3): along road ``road`` (dark halves -1), or dark from half
    ``exit`` to half ``entry``; ``pirates`` placed, ``dark_coin`` paid, ``forced`` dark."""

    road: int
    exit: int
    entry: int
    pirates: int
    dark_coin: int
    forced: bool
    dest: int

    @property
    def dark(self) -> bool:
        return self.road < 0


# ================================================================ the pieces


@dataclass
class Player:
    """One pirate captain's holdings: hand, reserve, coins, rum and every collected tile."""

    seat: int
    hand: int
    reserve: int
    coins: int
    rum: int = 0
    boarded: bool = False
    pubs: list = field(default_factory=list)          # pub tile codes
    maps: list = field(default_factory=list)          # map tile codes
    chests: list = field(default_factory=list)        # chest values
    scorpions: list = field(default_factory=list)     # scorpion thresholds
    big_guards: list = field(default_factory=list)    # guard counts
    small_guards: list = field(default_factory=list)
    supplies: list = field(default_factory=list)      # kept supply codes
    drawn: list = field(default_factory=list)         # every supply code drawn (kept or sold)
    sold: list = field(default_factory=list)          # sold supply codes (out of the game)
    rdv: list = field(default_factory=list)           # [target, fulfilled] in holding order
    sleeping: list = field(default_factory=list)      # (stack name, value)
    score: int = 0
    vp: dict = field(default_factory=dict)

    @property
    def owned(self) -> int:
        return data.PIRATES_PER_PLAYER - self.reserve


@dataclass
class Table:
    """Everything on the table during one game."""

    rules: Rules
    players: int
    seats: list
    board: Board
    stacks: dict
    road_owner: list
    dark_owner: list
    dark_partner: list                 # the other half of the dark move that placed a half
    pub_display: list = field(default_factory=list)
    map_display: list = field(default_factory=list)
    chest: int | None = None           # the displayed chest value
    scorpion: int | None = None        # the displayed scorpion threshold
    face_up: list = field(default_factory=list)   # this round's sleeping tiles (stack, value)
    removed: dict = field(default_factory=dict)   # stack name -> tiles out of the game
    captain: int = data.HQ_CORNER
    mast: list = field(default_factory=list)      # [seat, pirates] top row first
    round: int = 0
    start: int = 0
    # the round loop's state (spec §5.2), so that it can be resumed from D1 / D2
    cur: int = 0
    in_turn: bool = False              # a move was made this turn: D2 comes next
    owed: int = 0                      # the move-again coin of the next move of this turn
    lone: bool = False
    round_turns: int = 0
    turn_moves: int = 0
    turn_again_paid: int = 0
    owed_free: bool = False            # dead_end_next_move_free: the next move pays no coin
    # counters (outcome columns and invariants)
    turns_by_round: list = field(default_factory=lambda: [0] * 5)
    count: dict = field(default_factory=dict)
    win: list = field(default_factory=list)
    tied_first: int = 0
    world: Rng | None = None
    policies: list | None = None
    log: list | None = None
    events: list | None = None
    checking: bool = False
    awarded_round: list = field(default_factory=list)
    standings: list = field(default_factory=list)   # every seat's score after each round
    # restricted play (engines._restrict): each seat's masks, read once from its decision
    # maker (play_game), so a playout's base players keep them; took[seat][choice] counts
    forbid: list = field(default_factory=list)
    force: list = field(default_factory=list)
    took: list = field(default_factory=list)

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def event(self, kind: str, **what) -> None:
        if self.events is not None:
            self.events.append({"round": self.round, "event": kind, **what})

    def bump(self, key: str, n: int = 1) -> None:
        self.count[key] = self.count.get(key, 0) + n

    def active(self, seat: int) -> bool:
        """Spec §5.2 (with zero_hand_may_rest): not boarded and pirates in hand, or allowed to
        rest without pirates."""
        p = self.seats[seat]
        if p.boarded:
            return False
        return p.hand >= 1 or (self.rules.zero_hand_may_rest and p.coins >= self.rules.rest_coin)

    # ------------------------------------------------------------ spec §10

    def check(self, where: str) -> None:
        """Spec §10 invariants 1-8, 10 and 12-14 (raise AssertionError naming the step)."""
        if not self.checking:
            return
        r, b = self.rules, self.board
        on_mast = {s: n for s, n in self.mast}
        for p in self.seats:
            roads = sum(b.roads[i][2] for i in range(data.N_ROADS) if self.road_owner[i] == p.seat)
            darks = sum(b.darks[i][1] for i in range(data.N_DARKS) if self.dark_owner[i] == p.seat)
            total = p.hand + roads + darks + on_mast.get(p.seat, 0) + p.reserve
            assert total == data.PIRATES_PER_PLAYER, f"{where}: {seat_name(p.seat)} pirates {total}"
            assert p.hand >= 0 and p.reserve >= 0, f"{where}: negative pirates"
            assert p.coins >= 0, f"{where}: {seat_name(p.seat)} coins {p.coins}"
            assert p.rum >= 0, f"{where}: {seat_name(p.seat)} rum {p.rum}"
            assert sum(f for _, f in p.rdv) <= len(p.rdv)
            assert p.owned >= self.count.get(f"owned_{p.seat}", 0), f"{where}: owned fell"
            self.count[f"owned_{p.seat}"] = p.owned
        for i in range(data.N_DARKS):
            if self.dark_owner[i] < 0:
                assert self.dark_partner[i] < 0, f"{where}: free half with a partner"
        # coins (3) and rum (4): the ledger of every gain from and payment to the bank
        coins = sum(p.coins for p in self.seats)
        start = sum(r.starting_coins_by_seat[s] for s in range(self.players))
        c = self.count
        assert coins == start + c.get("coins_in", 0) - c.get("coins_out", 0), f"{where}: coins"
        if r.coin_supply == UNLIMITED:
            spec = start + c.get("coin_visits", 0) + r.supply_sell_coins * c.get("sold", 0) \
                + c.get("coin_guards", 0) - c.get("coins_again", 0) - c.get("coins_dark", 0) \
                - c.get("coins_rest", 0) - c.get("coins_maps", 0)
            assert coins == spec, f"{where}: coins {coins} != {spec}"
        else:
            assert coins <= r.coin_supply, f"{where}: more coins than the supply"
        rum = sum(p.rum for p in self.seats)
        assert rum == c.get("rum_in", 0) - c.get("rum_spent", 0), f"{where}: rum"
        if r.rum_supply == UNLIMITED and r.rerolls_per_rum == 1:
            assert rum == r.rum_per_visit * c.get("rum_visits", 0) - c.get("rerolls", 0)
        elif r.rum_supply != UNLIMITED:
            assert rum <= r.rum_supply
        # tiles (5)
        held = {name: 0 for name in data.STACKS}
        for p in self.seats:
            held["pubs"] += len(p.pubs)
            held["maps"] += len(p.maps)
            held["chests"] += len(p.chests)
            held["scorpions"] += len(p.scorpions)
            held["big_guards"] += len(p.big_guards)
            held["small_guards"] += len(p.small_guards)
            held["supplies"] += len(p.supplies) + len(p.sold)
            held["rendezvous"] += len(p.rdv)
            for name, _ in p.sleeping:
                held[name] += 1
        shown = {"pubs": len(self.pub_display), "maps": len(self.map_display),
                 "chests": self.chest is not None, "scorpions": self.scorpion is not None}
        for name, _ in self.face_up:
            shown[name] = shown.get(name, 0) + 1
        for name in data.STACKS:
            n = held[name] + shown.get(name, 0) + len(self.stacks[name]) \
                + self.removed.get(name, 0)
            assert n == data.SET_SIZES[name], f"{where}: {name} {n}"
        # display (6)
        assert len(self.pub_display) == min(4, len(self.pub_display) + len(self.stacks["pubs"]))
        assert len(self.map_display) == min(4, len(self.map_display) + len(self.stacks["maps"]))
        assert (self.chest is None) == (self.scorpion is None), f"{where}: chest slots"
        # Captain (7)
        assert 0 <= self.captain < data.N_CORNERS
        # sleeping tiles (8): at most one per player per round
        assert len(self.awarded_round) == len(set(self.awarded_round)), f"{where}: two tiles"
        # order (14): mast rows follow boarding order, each row the hand at boarding
        assert len({s for s, _ in self.mast}) == len(self.mast)
        assert all(n >= 1 for _, n in self.mast)
        # scores (12) after scoring
        if self.win:
            for p in self.seats:
                assert p.score == sum(p.vp.values()), f"{where}: score"
                low = 12 * r.scorpion_value
                assert low <= p.score <= 493, f"{where}: score {p.score}"
                assert p.vp["supplies"] <= most_supply_points(r)
                assert p.vp["rdv"] == sum(RDV_TARGETS[tg][3] for tg, f in p.rdv if f)


def clone(t: Table) -> Table:
    """A copy of the table to play on (no story, no checks; the same policies and world until
    the caller replaces them)."""
    c = copy.copy(t)
    c.seats = []
    for p in t.seats:
        q = copy.copy(p)
        for name in ("pubs", "maps", "chests", "scorpions", "big_guards", "small_guards",
                     "supplies", "drawn", "sold", "sleeping"):
            setattr(q, name, list(getattr(p, name)))
        q.rdv = [list(x) for x in p.rdv]
        q.vp = dict(p.vp)
        c.seats.append(q)
    c.stacks = {k: list(v) for k, v in t.stacks.items()}
    c.road_owner, c.dark_owner, c.dark_partner = (list(t.road_owner), list(t.dark_owner),
                                                  list(t.dark_partner))
    c.pub_display, c.map_display, c.face_up = (list(t.pub_display), list(t.map_display),
                                               list(t.face_up))
    c.removed, c.count = dict(t.removed), dict(t.count)
    c.mast = [list(x) for x in t.mast]
    c.turns_by_round, c.win, c.awarded_round = (list(t.turns_by_round), list(t.win),
                                                list(t.awarded_round))
    c.standings = list(t.standings)
    c.took = [list(x) for x in t.took]
    c.log = c.events = None
    c.checking = False
    return c


# ================================================================ names for the story


def seat_name(seat: int) -> str:
    return SEATS[seat]


def pub_name(code: int) -> str:
    return f"{data.COLOUR_CODES[data.tile_colour(code)]} {data.tile_value(code)}"


def supply_name(code: int) -> str:
    return f"{data.SUPPLY_KINDS[data.tile_colour(code)]} {data.tile_value(code)}"


def move_name(t: Table, m: Move) -> str:
    b = t.board
    if not m.dark:
        return f"{b.road_name(m.road)}"
    return f"dark {b.dark_name(m.exit)} + {b.dark_name(m.entry)}"


def show_player(p: Player) -> str:
    return (f"{seat_name(p.seat)} hand {p.hand} reserve {p.reserve} coins {p.coins} "
            f"rum {p.rum}")


# ================================================================ set-up (spec §4)


def setup(rules: Rules, players: int, world: Rng) -> Table:
    """Board, stacks, display, players (spec §4), drawing in the order of the docstring."""
    rules.check_players(players)
    layout = rules.fixed_layout()
    if layout is None:
        layout = data.generate_layout(world, rules.hq_tile_position, rules.tile_rotation)
    board = Board(layout)
    stacks = data.initial_stacks()
    for name in data.STACKS:
        world.shuffle(stacks[name])
    if rules.sleeping_tile_order != "shuffled":
        for name in SLEEPING:
            stacks[name] = sorted(stacks[name], reverse=rules.sleeping_tile_order == "ascending")
    seats = [Player(seat=s, hand=rules.starting_hand,
                    reserve=data.PIRATES_PER_PLAYER - rules.starting_hand,
                    coins=rules.starting_coins_by_seat[s]) for s in range(players)]
    t = Table(rules=rules, players=players, seats=seats, board=board, stacks=stacks,
              road_owner=[-1] * data.N_ROADS, dark_owner=[-1] * data.N_DARKS,
              dark_partner=[-1] * data.N_DARKS, world=world, forbid=[0] * players,
              force=[0] * players, took=[[0] * len(CHOICES) for _ in range(players)])
    for _ in range(data.PUB_DISPLAY):
        if stacks["pubs"]:
            t.pub_display.append(stacks["pubs"].pop())
    for _ in range(data.MAP_DISPLAY):
        if stacks["maps"]:
            t.map_display.append(stacks["maps"].pop())
    t.chest = stacks["chests"].pop()
    t.scorpion = stacks["scorpions"].pop()
    if not rules.uses_bedroll(players):
        t.removed["bedrolls"] = len(stacks["bedrolls"])
        stacks["bedrolls"] = []
    return t


def narrate_setup(t: Table) -> None:
    if t.log is None:
        return
    layout = " ".join(f"{tile}r{rot}" for tile, rot in t.board.layout)
    t.say(f"Rum & Pirates, {t.players} players; seat {seat_name(t.rules.first_start_seat)} "
          f"starts round 1.")
    t.say(f"  board (tile and quarter-turns by position): {layout}; "
          f"the Captain stands on {data.corner_name(t.captain)}")
    t.say(f"  display: pubs {', '.join(pub_name(c) for c in t.pub_display)}; "
          f"maps {', '.join(pub_name(c) for c in t.map_display)}; chest {t.chest}, "
          f"scorpion {t.scorpion}")
    for p in t.seats:
        t.say(f"  {show_player(p)}")
    t.event("setup", layout=[list(x) for x in t.board.layout], pubs=list(t.pub_display),
            maps=list(t.map_display), chest=t.chest, scorpion=t.scorpion)


# ================================================================ coins, rum, dice


def bank_coins(t: Table) -> int | None:
    if t.rules.coin_supply == UNLIMITED:
        return None
    return t.rules.coin_supply - sum(p.coins for p in t.seats)


def gain_coins(t: Table, seat: int, n: int, why: str) -> int:
    """Take ``n`` coins from the bank (what is left of it under a supply limit)."""
    bank = bank_coins(t)
    if bank is not None:
        n = min(n, bank)
    t.seats[seat].coins += n
    t.bump("coins_in", n)
    if n:
        t.say(f"    {seat_name(seat)} takes {n} coin{'s' if n != 1 else ''} ({why}): "
              f"{t.seats[seat].coins}")
        t.event("coins", seat=seat, gain=n, why=why)
    return n


def pay_coins(t: Table, seat: int, n: int, why: str, told: bool = True) -> None:
    """Pay ``n`` coins to the bank (``told``: a line of its own in the story)."""
    if n == 0:
        return
    p = t.seats[seat]
    assert p.coins >= n
    p.coins -= n
    t.bump("coins_out", n)
    if told:
        t.say(f"    {seat_name(seat)} pays {n} coin{'s' if n != 1 else ''} ({why}): {p.coins}")
    t.event("pay", seat=seat, coins=n, why=why)


def gain_rum(t: Table, seat: int, n: int) -> int:
    r = t.rules
    if r.rum_supply != UNLIMITED:
        n = min(n, r.rum_supply - sum(p.rum for p in t.seats))
    t.seats[seat].rum += n
    t.bump("rum_in", n)
    return n


def die(t: Table) -> int:
    t.bump("rolls")
    return t.world.dice(6)


def choose(t: Table, seat: int, decision: str, options: list, ctx: dict | None = None,
           kind=None):
    """A policy's pick among ``options`` (not asked when there is one). With ``kind`` (an
    option -> its declared choice, NO_KIND for none), the seat's restriction first narrows
    the options to those it may choose (engines._restrict) and the pick is counted in
    ``t.took``."""
    if kind is not None:
        options = kept(options, [kind(o) for o in options], t.forbid[seat], t.force[seat])
    if len(options) == 1:
        pick = options[0]
    else:
        pick = getattr(t.policies[seat], decision)(t, seat, options, ctx or {})
    if kind is not None:
        took(t, seat, kind(pick))
    return pick


def choose_yes(t: Table, seat: int, decision: str, yes, no, choice: int, ctx) -> bool:
    """A yes/no decision (D7 JOIN / DECLINE, D9 REROLL / KEEP) whose yes is of ``choice``: the
    seat's restriction may settle it without asking (engines._restrict.kept_binary); a yes
    is counted in ``t.took``."""
    said = kept_binary(choice, t.forbid[seat], t.force[seat])
    if said is None:
        said = choose(t, seat, decision, [yes, no], ctx) == yes
    if said:
        took(t, seat, choice)
    return said


def took(t: Table, seat: int, choice: int) -> None:
    """``seat`` took an option of ``choice`` (nothing for NO_KIND)."""
    if choice != NO_KIND:
        t.took[seat][choice] += 1


def option_kind(option) -> int:
    """The declared choice of a D1 / D2 option: a road move's by the action of the corner it
    reaches, every dark move dark_road, REST rest, BOARD board; STOP none."""
    if isinstance(option, Move):
        return KIND["dark_road"] if option.dark else ACTION_KIND[CORNER_ACTION[option.dest]]
    return {REST: KIND["rest"], BOARD: KIND["board"]}.get(option, NO_KIND)


def reroll_loop(t: Table, seat: int, v: int, ctx) -> int:
    """The re-rolls of spec 5.5 ROLL after a roll of ``v``: while the player has rum (or a
    second re-roll of a spent tile left, rerolls_per_rum = 2) and chooses REROLL. ``ctx(v)``
    is the decision's context for the roll ``v`` (D9). Returns the final roll."""
    p = t.seats[seat]
    free = 0
    while free > 0 or p.rum >= 1:
        info = ctx(v)
        if not choose_yes(t, seat, "reroll", REROLL, KEEP, KIND["reroll"], info):
            break
        if free > 0:
            free -= 1
        else:
            p.rum -= 1
            t.bump("rum_spent")
            free = t.rules.rerolls_per_rum - 1
        t.bump("rerolls")
        if info.get("kind", "").startswith("bunk"):
            t.bump("bunk_rerolls")
            if info.get("hopeless"):
                t.bump("bunk_hopeless_rerolls")
        old, v = v, die(t)
        t.say(f"      {seat_name(seat)} re-rolls {old} -> {v} (rum {p.rum})")
        t.event("reroll", seat=seat, old=old, roll=v, rum=p.rum)
    return v


def roll(t: Table, seat: int, ctx) -> int:
    """ROLL(p) of spec 5.5: one die, then the player's re-rolls."""
    v = die(t)
    t.say(f"      {seat_name(seat)} rolls {v}")
    t.event("roll", seat=seat, roll=v)
    return reroll_loop(t, seat, v, ctx)


# ================================================================ moves (spec §5.3, §5.4)


def free_roads(t: Table, corner: int) -> list:
    return [r for r in t.board.corner_roads[corner] if t.road_owner[r] < 0]


def free_halves(t: Table, corner: int) -> list:
    return [d for d in t.board.corner_darks[corner] if t.dark_owner[d] < 0]


def entries(t: Table, corner: int, x: int) -> list:
    """The free dark halves a dark move leaving by ``x`` from ``corner`` may enter by."""
    same = t.rules.dark_same_corner
    return [y for y in range(data.N_DARKS) if y != x and t.dark_owner[y] < 0
            and (same or t.board.darks[y][0] != corner)]


def has_legal_move(t: Table, corner: int) -> bool:
    """Board-level legality (spec 5.3): a free road, or a usable pair of free dark halves."""
    if free_roads(t, corner):
        return True
    return any(entries(t, corner, x) for x in free_halves(t, corner))


def dead_end(t: Table, corner: int) -> bool:
    if t.rules.dead_end_rule == "no_free_road_or_half":
        return not free_roads(t, corner) and not free_halves(t, corner)
    return not has_legal_move(t, corner)


def legal_moves(t: Table, seat: int, again: int) -> list:
    """The affordable legal moves of ``seat`` from the Captain's corner paying the move-again
    coin ``again``, in the option order of spec 8.2: free roads by id, then dark moves by exit
    id and entry id."""
    r, b, p, c = t.rules, t.board, t.seats[seat], t.captain
    moves = []
    roads = sorted(free_roads(t, c))
    for road in roads:
        u, v, n = b.roads[road]
        if n <= p.hand and again <= p.coins:
            moves.append(Move(road, -1, -1, n, 0, False, v if u == c else u))
    forced = not roads or (r.forced_dark_by_affordability
                           and all(b.roads[road][2] > p.hand for road in roads))
    coin = 0 if forced and r.forced_dark_free else r.dark_coin
    if coin + again > p.coins:
        return moves
    for x in sorted(free_halves(t, c)):
        for y in entries(t, c, x):
            n = b.darks[x][1] + b.darks[y][1]
            if n <= p.hand:
                moves.append(Move(-1, x, y, n, coin, forced, b.darks[y][0]))
    return moves


def do_move(t: Table, seat: int, m: Move, again: int) -> None:
    """Steps M1-M6 of spec 5.3."""
    p = t.seats[seat]
    t.bump("moves")
    t.turn_moves += 1
    if m.dark:
        t.bump("dark_moves")
        t.bump("forced_dark_moves", int(m.forced))
    start = t.captain
    # M1: coins
    pay_coins(t, seat, again, "move again", told=False)
    t.bump("coins_again", again)
    t.turn_again_paid += again
    pay_coins(t, seat, m.dark_coin, "dark road", told=False)
    t.bump("coins_dark", m.dark_coin)
    # M2: pirates
    p.hand -= m.pirates
    if m.dark:
        t.dark_owner[m.exit] = t.dark_owner[m.entry] = seat
        t.dark_partner[m.exit], t.dark_partner[m.entry] = m.entry, m.exit
    else:
        t.road_owner[m.road] = seat
    # M3: the Captain
    t.captain = m.dest
    t.say(f"  {seat_name(seat)} moves the Captain {start} -> {data.corner_name(m.dest)} by "
          f"{move_name(t, m)}: {m.pirates} pirate{'s' if m.pirates != 1 else ''}"
          + (f", {'forced' if m.forced else 'voluntary'} dark" if m.dark else "")
          + (f", {again} coin to move again" if again else "")
          + (f", {m.dark_coin} coin for the dark road" if m.dark_coin else "")
          + f"; hand {p.hand}, coins {p.coins}")
    t.event("move", seat=seat, road=m.road, exit=m.exit, entry=m.entry, pirates=m.pirates,
            again=again, dark_coin=m.dark_coin, dest=m.dest)
    # M4: a rendezvous
    for tile in p.rdv:
        if not tile[1] and data.rdv_matches(tile[0], m.dest):
            tile[1] = True
            t.say(f"    {seat_name(seat)} reveals a rendezvous: {RDV_TARGETS[tile[0]][0]} "
                  f"({RDV_TARGETS[tile[0]][3]} VP)")
            t.event("rendezvous_fulfilled", seat=seat, target=tile[0])
            break
    # M5: the corner's action
    resolve_action(t, seat, m.dest)
    t.check("action")
    # M6: dead end
    if dead_end(t, t.captain):
        relocate(t, seat)
    t.check("move")


def relocate(t: Table, seat: int) -> None:
    """Spec 5.4: the Captain goes to the next numbered coin corner that has a legal move."""
    d = t.captain
    tile = CORNER_TILE[d]
    for k in range(1, 10):
        t2 = (tile - 1 + k) % 9 + 1
        c2 = data.COIN_CORNER_OF_TILE[t2]
        # spec 5.4 with dead_end_rule (9.2): "c2 has a legal move" uses the rule's own test
        # (READINGS.md, dead_end_rule = no_free_road_or_half); fixed by the fast-path helper
        if not dead_end(t, c2):
            t.captain = c2
            t.bump("dead_end_relocations")
            t.bump(f"relocation_k{k}")
            if t.rules.dead_end_next_move_free:
                t.owed_free = True
            t.say(f"    dead end on {d}: the Captain goes to {data.corner_name(c2)}")
            t.event("dead_end", corner=d, to=c2, k=k)
            return
    t.bump("dead_end_stuck")
    t.say(f"    dead end on {d}: no coin corner has a legal move, the Captain stays")
    t.event("dead_end", corner=d, to=d, k=0)


# ================================================================ corner actions (spec §6)


def resolve_action(t: Table, seat: int, corner: int) -> None:
    action = CORNER_ACTION[corner]
    if action == COIN:
        t.bump("coin_visits")
        gain_coins(t, seat, 1, "coin corner")
    elif action == HQ:
        headquarters(t, seat)
    elif action == PIRATE:
        recruit(t, seat)
    elif action == SUPPLIES:
        supplies(t, seat)
    elif action == RENDEZVOUS:
        rendezvous(t, seat)
    elif action == MAP:
        treasure_map(t, seat, CORNER_COLOUR[corner])
    elif action == PUB:
        pub(t, seat, CORNER_COLOUR[corner])
    elif action == CHEST:
        treasure_chest(t, seat)
    elif action == RUM:
        t.bump("rum_visits")
        n = gain_rum(t, seat, t.rules.rum_per_visit)
        t.say(f"    {seat_name(seat)} takes {n} rum: {t.seats[seat].rum}")
        t.event("rum", seat=seat, gain=n)
    else:
        guard(t, seat)


def hq_options(t: Table, seat: int) -> list:
    """D6 in spec 8.2 order: NONE, own roads by id, own dark pairs (x < y) lexicographic
    (only the two halves of one dark move under hq_dark_pair_any = false)."""
    options: list = [NONE]
    options += [("ROAD", r) for r in range(data.N_ROADS) if t.road_owner[r] == seat]
    halves = [d for d in range(data.N_DARKS) if t.dark_owner[d] == seat]
    for i, x in enumerate(halves):
        for y in halves[i + 1:]:
            if t.rules.hq_dark_pair_any or t.dark_partner[x] == y:
                options.append(("PAIR", x, y))
    return options


def reclaim_size(t: Table, option) -> int:
    if option == NONE:
        return 0
    if option[0] == "ROAD":
        return t.board.roads[option[1]][2]
    return t.board.darks[option[1]][1] + t.board.darks[option[2]][1]


def headquarters(t: Table, seat: int) -> None:
    """6.2: take back one own road, or two own dark halves (or nothing)."""
    t.bump("hq_visits")
    p = t.seats[seat]
    option = choose(t, seat, "hq_reclaim", hq_options(t, seat))
    if option == NONE:
        t.say(f"    {seat_name(seat)} takes nothing back at headquarters")
        return
    n = reclaim_size(t, option)
    if option[0] == "ROAD":
        t.road_owner[option[1]] = -1
        what = t.board.road_name(option[1])
    else:
        for d in option[1:]:
            t.dark_owner[d] = -1
            t.dark_partner[d] = -1
        what = f"dark halves {t.board.dark_name(option[1])} and {t.board.dark_name(option[2])}"
    p.hand += n
    t.say(f"    {seat_name(seat)} takes back {what} at headquarters: {n} pirates, hand {p.hand}")
    t.event("hq", seat=seat, option=list(option), pirates=n)


def recruit(t: Table, seat: int) -> None:
    p = t.seats[seat]
    if p.reserve >= 1:
        p.reserve -= 1
        p.hand += 1
        t.bump("recruits")
        t.say(f"    {seat_name(seat)} recruits a pirate: hand {p.hand}, reserve {p.reserve}")
        t.event("recruit", seat=seat)
    else:
        t.say(f"    {seat_name(seat)} has no pirate left to recruit")


def supplies(t: Table, seat: int) -> None:
    """6.4: draw the top supply, keep it or sell it for coins."""
    stack = t.stacks["supplies"]
    if not stack:
        return
    code = stack.pop()
    p = t.seats[seat]
    p.drawn.append(code)
    if choose(t, seat, "supply_keep", [KEEP, SELL], {"tile": code}) == KEEP:
        p.supplies.append(code)
        t.say(f"    {seat_name(seat)} keeps a pirate supply ({supply_name(code)})")
        t.event("supply", seat=seat, tile=code, keep=True)
    else:
        p.sold.append(code)
        t.bump("sold")
        t.say(f"    {seat_name(seat)} sells a pirate supply ({supply_name(code)})")
        t.event("supply", seat=seat, tile=code, keep=False)
        gain_coins(t, seat, t.rules.supply_sell_coins, "supply sold")


def rendezvous(t: Table, seat: int) -> None:
    stack = t.stacks["rendezvous"]
    if not stack:
        return
    target = stack.pop()
    t.seats[seat].rdv.append([target, False])
    t.say(f"    {seat_name(seat)} draws a rendezvous ({RDV_TARGETS[target][0]})")
    t.event("rendezvous", seat=seat, target=target)


def refill(display: list, stack: list, size: int) -> None:
    while len(display) < size and stack:
        display.append(stack.pop())


def treasure_map(t: Table, seat: int, colour: int) -> None:
    """6.6: one displayed map of the corner's colour (affordable at map_price), or none."""
    price = t.rules.map_price
    p = t.seats[seat]
    options: list = [i for i, c in enumerate(t.map_display)
                     if data.tile_colour(c) == colour and p.coins >= price]
    if not options:
        return
    options.append(NONE)
    i = choose(t, seat, "map_take", options)
    if i == NONE:
        t.say(f"    {seat_name(seat)} takes no map")
        return
    code = t.map_display.pop(i)
    pay_coins(t, seat, price, "map")
    t.bump("coins_maps", price)
    p.maps.append(code)
    refill(t.map_display, t.stacks["maps"], data.MAP_DISPLAY)
    t.say(f"    {seat_name(seat)} takes the map {pub_name(code)}; maps shown "
          f"{', '.join(pub_name(c) for c in t.map_display)}")
    t.event("map", seat=seat, tile=code)


def pub(t: Table, seat: int, colour: int) -> None:
    """6.7: the matching pub tiles, invitations, the dice contest, the refill."""
    r, P = t.rules, t.players
    m = [c for c in t.pub_display if data.tile_colour(c) == colour]
    if not m:
        return
    t.pub_display = [c for c in t.pub_display if data.tile_colour(c) != colour]
    t.say(f"    pub: {', '.join(pub_name(c) for c in m)} on the table")
    joined = []
    for k in range(1, P):
        other = (seat + k) % P
        if r.pub_join_requires_active and not t.active(other):
            continue
        ctx = {"host": seat, "tiles": list(m), "joined": list(joined)}
        # JOIN needs a coin; without one the seat declines unasked
        if t.seats[other].coins >= 1 and \
                choose_yes(t, other, "pub_join", JOIN, DECLINE, KIND["pub_join"], ctx):
            t.seats[other].coins -= 1
            t.seats[seat].coins += 1
            t.bump("pub_fees")
            joined.append(other)
            t.say(f"    {seat_name(other)} joins, paying {seat_name(seat)} 1 coin")
            t.event("pub_join", seat=other, host=seat)
    if not joined:
        t.seats[seat].pubs += m
        t.say(f"    nobody joins: {seat_name(seat)} takes {', '.join(pub_name(c) for c in m)}")
        t.event("pub_take", seat=seat, tiles=list(m))
    else:
        order = [seat, *joined]
        k = 0
        while m:
            roller = order[k % len(order)]
            k += 1
            v = roll(t, roller, lambda v, m=m: {"kind": "pub", "roll": v, "tiles": list(m)})
            eligible = [i for i, c in enumerate(m) if data.tile_value(c) < v]
            if not eligible:
                continue
            if r.pub_take_rule == "choose_one":
                taken = [choose(t, roller, "pub_take", eligible, {"roll": v, "tiles": list(m)})]
            elif r.pub_take_rule == "highest_one":
                best = eligible[0]
                for i in eligible:
                    if data.tile_value(m[i]) > data.tile_value(m[best]):
                        best = i
                taken = [best]
            else:
                taken = eligible
            tiles = [m[i] for i in taken]
            m[:] = [c for i, c in enumerate(m) if i not in taken]
            t.seats[roller].pubs += tiles
            t.say(f"      {seat_name(roller)} takes {', '.join(pub_name(c) for c in tiles)}")
            t.event("pub_take", seat=roller, tiles=tiles)
    refill(t.pub_display, t.stacks["pubs"], data.PUB_DISPLAY)
    t.say(f"    pubs shown: {', '.join(pub_name(c) for c in t.pub_display)}")


def treasure_chest(t: Table, seat: int) -> None:
    """6.8: the chest, then the scorpion contest, then new chests."""
    P = t.players
    if t.chest is not None:
        t.seats[seat].chests.append(t.chest)
        t.say(f"    {seat_name(seat)} takes the chest ({t.chest} VP)")
        t.event("chest", seat=seat, value=t.chest)
        t.chest = None
    if t.scorpion is not None:
        thr = t.scorpion
        t.bump("scorpion_contests")
        t.say(f"    scorpion contest to {thr}")
        total, k = 0, 0
        while True:
            roller = (seat + k) % P
            k += 1
            v = roll(t, roller, lambda v, total=total, k=k: {
                "kind": "scorpion", "roll": v, "total": total, "threshold": thr,
                "next": (seat + k) % P})
            total += v
            t.say(f"      total {total} of {thr}")
            if total >= thr:
                t.seats[roller].scorpions.append(thr)
                t.say(f"    {seat_name(roller)} is stung: takes the scorpion ({thr})")
                t.event("scorpion", seat=roller, threshold=thr, total=total)
                break
        t.scorpion = None
    if t.chest is None and t.stacks["chests"]:
        t.chest = t.stacks["chests"].pop()
    if t.scorpion is None and t.stacks["scorpions"]:
        t.scorpion = t.stacks["scorpions"].pop()


def guard_beats(rules: Rules, hand: int, g: int) -> bool:
    return hand >= g if rules.guard_win_rule == "greater_or_equal" else hand > g


def guard(t: Table, seat: int) -> None:
    """6.10: the big or the small guard stack; the hand against the guard count."""
    options = [s for s, name in ((BIG, "big_guards"), (SMALL, "small_guards")) if t.stacks[name]]
    if not options:
        return
    which = choose(t, seat, "guard_stack", options)
    name = "big_guards" if which == BIG else "small_guards"
    g = t.stacks[name].pop()
    p = t.seats[seat]
    if guard_beats(t.rules, p.hand, g):
        getattr(p, name).append(g)
        t.say(f"    {seat_name(seat)} beats a {which.lower()} guard {g} with {p.hand} in hand")
        t.event("guard", seat=seat, stack=which, count=g, won=True)
        if which == SMALL and data.small_guard_coin(g):
            t.bump("coin_guards", gain_coins(t, seat, 1, "guard's coin"))
    else:
        t.stacks[name].insert(0, g)
        t.say(f"    {seat_name(seat)} fails against a {which.lower()} guard {g} "
              f"({p.hand} in hand): it goes under the stack")
        t.event("guard", seat=seat, stack=which, count=g, won=False)


# ================================================================ the action phase (spec §5.2)


def again_coin(t: Table) -> int:
    """The coin the next move of this turn costs."""
    if t.owed_free:
        return 0
    return t.owed


def turn_options(t: Table, seat: int) -> list:
    """D1: the affordable moves, REST if legal, BOARD if legal (spec 8.2)."""
    p = t.seats[seat]
    options: list = legal_moves(t, seat, 0)
    if p.coins >= t.rules.rest_coin:
        options.append(REST)
    if p.hand >= 1:
        options.append(BOARD)
    return options


def again_options(t: Table, seat: int) -> list:
    """D2: the moves affordable with the move-again coin, STOP (and BOARD when
    board_after_move_same_turn); empty when the decision is not offered."""
    moves = legal_moves(t, seat, again_coin(t))
    if not t.rules.board_after_move_same_turn:
        return [*moves, STOP] if moves else []
    options = [*moves, STOP]
    if t.seats[seat].hand >= 1:
        options.append(BOARD)
    return options if len(options) > 1 else []


def board(t: Table, seat: int) -> None:
    """BOARD: the whole hand on the next free mast row."""
    p = t.seats[seat]
    t.mast.append([seat, p.hand])
    t.say(f"  {seat_name(seat)} boards with {p.hand} pirate{'s' if p.hand != 1 else ''} "
          f"(row {len(t.mast)})")
    t.event("board", seat=seat, pirates=p.hand, row=len(t.mast))
    p.hand = 0
    p.boarded = True


def begin_turn(t: Table) -> list:
    """A TURN call of spec 5.2 for ``t.cur``: counted, lone flag set; its D1 options."""
    if t.round_turns >= t.rules.max_turns_per_round:
        raise RuntimeError(f"round {t.round} exceeded max_turns_per_round="
                           f"{t.rules.max_turns_per_round}")
    t.round_turns += 1
    t.turns_by_round[t.round - 1] += 1
    seat = t.cur
    t.lone = all(not t.active(s) for s in range(t.players) if s != seat)
    t.turn_moves = t.turn_again_paid = 0
    t.owed_free = False
    t.bump("lone_turns", int(t.lone))
    return turn_options(t, seat)


def do_turn_choice(t: Table, choice) -> None:
    """Apply the D1 choice of ``t.cur``."""
    seat, p, r = t.cur, t.seats[t.cur], t.rules
    if choice == REST:
        pay_coins(t, seat, r.rest_coin, "rest")
        t.bump("rests")
        t.bump("coins_rest", r.rest_coin)
        t.say(f"  {seat_name(seat)} rests (coins {p.coins})")
        t.event("rest", seat=seat)
        end_turn(t)
    elif choice == BOARD:
        board(t, seat)
        end_turn(t)
    else:
        do_move(t, seat, choice, 0)
        t.in_turn = True
        t.owed = 0 if t.lone and r.lone_player_free_moves else r.move_again_coin


def do_again_choice(t: Table, choice) -> None:
    """Apply the D2 choice (a move, STOP, or BOARD) of ``t.cur``."""
    seat = t.cur
    if choice == STOP:
        stop_turn(t)
    elif choice == BOARD:
        board(t, seat)
        end_turn(t)
    else:
        again = again_coin(t)
        t.owed_free = False
        do_move(t, seat, choice, again)


def stop_turn(t: Table) -> None:
    """A move turn ends (STOP, or no affordable move-again)."""
    p = t.seats[t.cur]
    if t.rules.stop_after_move_boards and p.hand >= 1:
        board(t, t.cur)
    end_turn(t)


def end_turn(t: Table) -> None:
    if t.checking and t.turn_moves:
        r = t.rules
        per = 0 if t.lone and r.lone_player_free_moves else r.move_again_coin
        if not r.dead_end_next_move_free:
            assert t.turn_again_paid == (t.turn_moves - 1) * per, "turn costs"
        else:
            assert t.turn_again_paid <= (t.turn_moves - 1) * per, "turn costs"
    t.in_turn = False
    t.owed_free = False
    t.cur = (t.cur + 1) % t.players
    t.check("turn")


def action_phase(t: Table) -> None:
    """Spec 5.2 from wherever the round loop stands (``t.cur``, ``t.in_turn``)."""
    while True:
        if t.in_turn:
            options = again_options(t, t.cur)
            if not options:
                stop_turn(t)
                continue
            do_again_choice(t, choose(t, t.cur, "move_again", options, {"lone": t.lone},
                                      option_kind))
            continue
        if not any(t.active(s) for s in range(t.players)):
            return
        if not t.active(t.cur):
            t.cur = (t.cur + 1) % t.players
            continue
        options = begin_turn(t)
        do_turn_choice(t, choose(t, t.cur, "turn_action", options, {"lone": t.lone},
                                 option_kind))


# ================================================================ the bunk fight (spec §5.5)


def beats(rule: str, row_a: int, a: int, row_b: int, b: int) -> bool:
    """Does roll ``a`` of row ``row_a`` beat roll ``b`` of row ``row_b`` (bunk_tie_rule)?"""
    if a != b:
        return a > b
    if rule == "upper_wins":
        return row_a < row_b
    if rule == "lower_wins":
        return row_a > row_b
    return False


def hopeless(rule: str, row: int, others: list) -> bool:
    """Some other contender's current roll beats a 6 of row ``row``."""
    return any(beats(rule, ro, v, row, 6) for ro, v in others)


def column_winner(rule: str, rows: list, rolls: dict) -> list:
    """The contenders at the top under bunk_tie_rule (one, or the tied group for reroll)."""
    top = max(rolls[p] for p in rows)
    tied = [p for p in rows if rolls[p] == top]
    if rule == "upper_wins":
        return tied[:1]
    if rule == "lower_wins":
        return tied[-1:]
    return tied


def roll_column(t: Table, group: list, row_of: dict, rolls: dict, column: int) -> None:
    """Every contender of ``group`` (row order) rolls once, with the re-rolls reroll_window
    allows (spec 5.5 ROLL, contract ``after_column``); sets ``rolls``."""
    rule = t.rules.bunk_tie_rule
    if t.rules.reroll_window == "immediate":
        done: list = []
        for p in group:
            row = row_of[p]
            earlier = [(row_of[q], rolls[q]) for q in done]

            def ctx(v, row=row, earlier=earlier):
                return {"kind": "bunk", "roll": v, "column": column, "row": row,
                        "first": not earlier, "earlier": earlier,
                        "hopeless": hopeless(rule, row, earlier)}
            rolls[p] = roll(t, p, ctx)
            done.append(p)
        return
    for p in group:
        rolls[p] = die(t)
        t.say(f"      {seat_name(p)} rolls {rolls[p]}")
        t.event("roll", seat=p, roll=rolls[p])
    again = True
    while again:
        again = False
        for p in group:
            if t.seats[p].rum < 1:
                continue
            row = row_of[p]

            def ctx(v, p=p, row=row):
                now = dict(rolls)
                now[p] = v
                others = [(row_of[q], now[q]) for q in group if q != p]
                return {"kind": "bunk_sweep", "roll": v, "column": column, "row": row,
                        "winning": p in column_winner(rule, group, now),
                        "others": others, "hopeless": hopeless(rule, row, others)}
            before = t.count.get("rerolls", 0)
            rolls[p] = reroll_loop(t, p, rolls[p], ctx)
            again = again or t.count.get("rerolls", 0) > before


def bunk_fight(t: Table) -> list:
    """Spec 5.5: the passes over the mast; returns the ranking (best first)."""
    r = t.rules
    rows = [s for s, n in t.mast if n >= 1]
    row_of = {s: i for i, s in enumerate(rows)}
    cnt = {s: n for s, n in t.mast}
    alive = list(rows)
    groups = []
    passes = 0
    if rows:
        t.say(f"  Bunk fight: rows {', '.join(f'{seat_name(s)} {cnt[s]}' for s in rows)}")
    while len(alive) >= 2:
        passes += 1
        before = sum(cnt[p] for p in alive)
        start_cnt = dict(cnt)
        crossed = {p: 0 for p in alive}
        last: dict = {}
        lone_from = None          # the outermost column of a run of uncontested columns
        for j in range(max(cnt[p] for p in alive), 0, -1):
            C = [p for p in alive if cnt[p] >= j]
            if len(C) == 1:
                crossed[C[0]] += 1
                lone_from = j if lone_from is None else lone_from
                if cnt[C[0]] > 0 and len([p for p in alive if cnt[p] >= j - 1]) != 1:
                    cols = f"column {j}" if lone_from == j else f"columns {lone_from}-{j}"
                    t.say(f"    pass {passes}, {cols}: only {seat_name(C[0])}, who crosses")
                    lone_from = None
                continue
            rolls: dict = {}
            group = C
            while True:
                roll_column(t, group, row_of, rolls, j)
                top = column_winner(r.bunk_tie_rule, group, rolls)
                if len(top) == 1:
                    break
                t.say(f"      tie between {', '.join(seat_name(p) for p in top)}: re-roll")
                group = top
            w = top[0]
            crossed[w] += 1
            for p in C:
                last[p] = rolls[p]
            t.say(f"    pass {passes}, column {j}: "
                  f"{', '.join(f'{seat_name(p)} {rolls[p]}' for p in C)} -> "
                  f"{seat_name(w)} crosses")
            t.event("bunk_column", passes=passes, column=j, rolls={p: rolls[p] for p in C},
                    winner=w)
        out = [p for p in alive if crossed[p] == 0]
        if r.bunk_elimination_order == "row_only":
            out.sort(key=lambda p: row_of[p])
        elif r.bunk_elimination_order == "pirates_at_pass_start":
            out.sort(key=lambda p: (-start_cnt[p], row_of[p]))
        else:
            out.sort(key=lambda p: (-last[p], row_of[p]))
        groups.append(out)
        alive = [p for p in alive if crossed[p] >= 1]
        cnt = {p: crossed[p] for p in alive}
        after = sum(cnt.values())
        if t.checking:
            assert after == max(start_cnt[p] for p in start_cnt if p in crossed) < before, \
                "bunk pass"
        if out:
            t.say(f"    out: {', '.join(seat_name(p) for p in out)}")
    ranking = alive + [p for g in reversed(groups) for p in g]
    if t.checking:
        assert sorted(ranking) == sorted(rows), "bunk ranking"
    return ranking


def award_sleeping(t: Table, ranking: list) -> None:
    """The face-up sleeping tiles to the ranking; the rest discarded or under their stack."""
    t.awarded_round = []
    for place, (name, value) in enumerate(t.face_up):
        if place < len(ranking):
            s = ranking[place]
            t.seats[s].sleeping.append((name, value))
            t.awarded_round.append(s)
            t.say(f"  {seat_name(s)} wins the {PLACE_NAMES[SLEEPING.index(name)]} ({value} VP)")
            t.event("sleeping", seat=s, place=name, value=value)
        elif t.rules.unawarded_sleeping_tiles == "return_to_bottom":
            t.stacks[name].insert(0, value)
        else:
            t.removed[name] = t.removed.get(name, 0) + 1
    t.face_up = []
    if t.checking:
        assert len(t.awarded_round) == min(len(ranking), t.rules.places(t.players))


# ================================================================ rounds


def begin_round(t: Table) -> None:
    """Spec 5.1."""
    t.round += 1
    r = t.rules
    for name in SLEEPING[:r.places(t.players)]:
        t.face_up.append((name, t.stacks[name].pop()))
    for p in t.seats:
        p.hand = p.owned
        p.boarded = False
    t.mast = []
    t.start = (r.first_start_seat + t.round - 1) % t.players
    t.cur = t.start
    t.in_turn = False
    t.round_turns = 0
    t.awarded_round = []
    t.say(f"Round {t.round}, {seat_name(t.start)} starts; sleeping tiles "
          f"{', '.join(f'{PLACE_NAMES[SLEEPING.index(n)]} {v}' for n, v in t.face_up)}; "
          f"the Captain on {data.corner_name(t.captain)}")
    for p in t.seats:
        t.say(f"  {show_player(p)}")
    t.event("round", start=t.start, sleeping=[v for _, v in t.face_up])
    t.check("round start")
    if t.checking:
        assert all(p.hand == p.owned for p in t.seats)
        assert all(o < 0 for o in t.road_owner) and all(o < 0 for o in t.dark_owner)


def end_round(t: Table) -> None:
    """Spec 5.6: everybody's pirates come back."""
    t.road_owner = [-1] * data.N_ROADS
    t.dark_owner = [-1] * data.N_DARKS
    t.dark_partner = [-1] * data.N_DARKS
    t.mast = []
    for p in t.seats:
        p.hand = p.owned
    t.check("round end")


def finish_round(t: Table) -> None:
    """The rest of the round from the round loop's state: action phase, bunk fight, end."""
    action_phase(t)
    award_sleeping(t, bunk_fight(t))
    t.check("bunk fight")
    end_round(t)
    note_standing(t)


def play_round(t: Table) -> None:
    begin_round(t)
    finish_round(t)


def play_rounds(t: Table) -> None:
    """The rounds left, then scoring."""
    while t.round < t.rules.num_rounds:
        play_round(t)
    finish_game(t)


# ================================================================ the lead, round by round


def note_standing(t: Table) -> None:
    """The end of round ``t.round``: every seat's score if the game ended now (spec §7 on the
    holdings so far; nothing of it waits for the end, so the last round's is the final
    score)."""
    t.standings.append([score(t.rules, p) for p in t.seats])



def map_score(maps: list) -> int:
    total = 0
    for colour in data.MAP_COLOURS:
        values = sorted((data.tile_value(c) for c in maps if data.tile_colour(c) == colour),
                        reverse=True)
        total += sum(values[:2 * (len(values) // 2)])
    return total


def most_supply_points(rules: Rules) -> int:
    """The most the pirate supplies can score: every number once (2+3+4+5 = 14), or the best
    tile of every kind (5 kinds x 5 = 25) under ``best_per_kind``."""
    if rules.supply_scoring == "best_per_kind":
        return len(data.SUPPLY_KINDS) * max(data.SUPPLY_VALUES)
    return sum(set(data.SUPPLY_VALUES))


def supply_score(rules: Rules, supplies: list) -> int:
    if rules.supply_scoring == "best_per_kind":
        best: dict = {}
        for c in supplies:
            k = data.tile_colour(c)
            best[k] = max(best.get(k, 0), data.tile_value(c))
        return sum(best.values())
    return sum({data.tile_value(c) for c in supplies})


def categories(rules: Rules, p: Player) -> dict:
    """Spec §7, category by category (the order of ``CATEGORIES``)."""
    return {
        "pubs": sum(data.tile_value(c) for c in p.pubs),
        "chests": sum(p.chests),
        "scorpions": rules.scorpion_value * len(p.scorpions),
        "guards": sum(p.big_guards) + sum(p.small_guards),
        "sleep": sum(v for _, v in p.sleeping),
        "supplies": supply_score(rules, p.supplies),
        "rdv": sum(RDV_TARGETS[tg][3] for tg, f in p.rdv if f),
        "maps": map_score(p.maps),
    }


def score(rules: Rules, p: Player) -> int:
    return sum(categories(rules, p).values())


def winners(t: Table) -> list:
    best = max(p.score for p in t.seats)
    tied = [p for p in t.seats if p.score == best]
    t.tied_first = len(tied)
    if t.rules.tiebreak != "shared":
        most = max(p.coins for p in tied)
        tied = [p for p in tied if p.coins == most]
        if t.rules.tiebreak == "most_coins_then_rum":
            most = max(p.rum for p in tied)
            tied = [p for p in tied if p.rum == most]
    win = [0.0] * t.players
    for p in tied:
        win[p.seat] = 1.0 / len(tied)
    return win


def finish_game(t: Table) -> None:
    t.say("Final scoring:")
    for p in t.seats:
        p.vp = categories(t.rules, p)
        p.score = sum(p.vp.values())
        t.say(f"  {seat_name(p.seat)} {p.score} VP: "
              + ", ".join(f"{k} {v}" for k, v in p.vp.items())
              + f" (coins {p.coins}, rum {p.rum})")
    t.win = winners(t)
    t.say("Winner: " + ", ".join(f"{seat_name(s)} ({w:g})" for s, w in enumerate(t.win) if w))
    t.event("end", scores=[p.score for p in t.seats], win=list(t.win))
    t.check("scoring")


def play_game(rules: Rules, players: int, policies: list, world: Rng, narrate: bool = False,
              checking: bool = False) -> Table:
    """Set up, play ``num_rounds`` rounds, score."""
    t = setup(rules, players, world)
    t.policies = policies
    # each seat's restriction, once (a search's playouts replace the players, not these)
    t.forbid = [int(getattr(m, "forbid", 0)) for m in policies]
    t.force = [int(getattr(m, "force", 0)) for m in policies]
    t.checking = checking
    if narrate:
        t.log, t.events = [], []
    narrate_setup(t)
    t.check("setup")
    play_rounds(t)
    return t


# ================================================================ the record


def outcome(t: Table, game: int) -> dict:
    """The outcome row (the columns of ``GAME.columns(players)``)."""
    from engines.rum_and_pirates import CATEGORIES

    row: dict = {"game": game, "players": t.players}
    seats = t.seats
    per_seat = {
        "score": [p.score for p in seats],
        "win": [float(w) for w in t.win],
        **{f"vp_{c}": [p.vp[c] for p in seats] for c in CATEGORIES},
        "bunk": [len(p.sleeping) for p in seats],
        "pubs": [len(p.pubs) for p in seats],
        "maps": [len(p.maps) for p in seats],
        "scorpions": [len(p.scorpions) for p in seats],
        "coins": [p.coins for p in seats],
        "rum": [p.rum for p in seats],
    }
    for prefix, values in per_seat.items():
        for s, v in enumerate(values):
            row[f"{prefix}_{s}"] = v
    c = t.count
    row["start_seat"] = t.rules.first_start_seat
    row["rounds"] = t.round
    row["turns"] = sum(t.turns_by_round)
    for r in range(5):
        row[f"turns_r{r + 1}"] = t.turns_by_round[r]
    row["max_round_turns"] = max(t.turns_by_round)
    for key in ("moves", "dark_moves", "forced_dark_moves", "rests", "dead_end_relocations",
                "hq_visits", "recruits", "scorpion_contests", "rolls", "rerolls",
                "bunk_rerolls", "bunk_hopeless_rerolls", "coins_again", "coins_dark",
                "coins_rest", "pub_fees"):
        row[key] = c.get(key, 0)
    row["chests_exhausted"] = int(t.chest is None)
    row["pubs_exhausted"] = int(not t.stacks["pubs"])
    row["big_guards_exhausted"] = int(not t.stacks["big_guards"])
    row["tied_first"] = t.tied_first
    row["lead_changes"], row["half_time_leader"] = lead_story(t.standings)
    for k, c in enumerate(CHOICES):
        for s in range(t.players):
            row[f"took_{c.name}_{s}"] = t.took[s][k]
    return row


def final_state(t: Table) -> dict:
    """Where everything ended up: players' holdings, display, stacks, Captain."""
    return {
        "players": [{
            "seat": seat_name(p.seat), "score": p.score, "vp": dict(p.vp), "coins": p.coins,
            "rum": p.rum, "reserve": p.reserve,
            "pubs": [pub_name(c) for c in p.pubs], "maps": [pub_name(c) for c in p.maps],
            "chests": list(p.chests), "scorpions": list(p.scorpions),
            "guards": list(p.big_guards) + list(p.small_guards),
            "supplies": [supply_name(c) for c in p.supplies],
            "rendezvous": [{"target": RDV_TARGETS[tg][0], "fulfilled": f} for tg, f in p.rdv],
            "sleeping": [v for _, v in p.sleeping]} for p in t.seats],
        "captain": t.captain,
        "pub_display": [pub_name(c) for c in t.pub_display],
        "map_display": [pub_name(c) for c in t.map_display],
        "chest": t.chest,
        "scorpion": t.scorpion,
        "stacks": {name: len(s) for name, s in t.stacks.items()},
    }


# ================================================================ the scorpion odds (spec 8.4)


@cache
def sting_chances(players: int, threshold: int, exact: bool = False) -> tuple:
    """Each seat offset's chance of being stung (offset 0 = the host), no rum: the dynamic
    programme of spec 8.4 over totals in ascending order (floats, or Fractions if exact)."""
    one = Fraction(1) if exact else 1.0
    dist = {0: one}
    q = [one * 0] * players
    k = 0
    while dist:
        new: dict = {}
        for total, pr in dist.items():
            for f in range(1, 7):
                if total + f >= threshold:
                    q[k % players] += pr / 6
                else:
                    new[total + f] = new.get(total + f, one * 0) + pr / 6
        dist = new
        k += 1
    return tuple(q)


__all__ = ["BOARD", "REST", "STOP", "Move", "Player", "Table", "action_phase", "clone",
           "do_again_choice", "do_turn_choice", "finish_round", "outcome", "final_state",
           "play_game", "play_rounds", "score", "setup", "sting_chances"]
