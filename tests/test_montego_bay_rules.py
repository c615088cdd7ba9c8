"""Montego Bay rules against the spec (shared/rules/montego_bay.md): §9's worked examples,
movement and pushing, loading and sailing, Lazy Jack, the rail, the end, options and presets.

States are built by hand on a set-up table and decisions are scripted, so each
test checks one rule the way the spec states it.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from engines._rng import POLICY, WORLD, Rng
from engines._rules import RulesError
from engines.montego_bay import GAME
from engines.montego_bay import reference as ref
from engines.montego_bay.board import LEFT_PUB, RIGHT_PUB, SUPPLY, WITH_COMPANION, make_board
from engines.montego_bay.data import DEFAULT_SHIPS, DEFAULT_TILES, ships_from, tiles_from
from engines.montego_bay.policies import (
    GreedyPolicy,
    Lookahead,
    RandomPolicy,
    SamplerPolicy,
    Weights,
    imagine_movement,
    load_value,
    room_values,
    unload_cost,
)
from engines.montego_bay.reference import STOP, Ship, score_ship
from engines.montego_bay.rules import (
    R,
    Rules,
    encode_ships,
    encode_tiles,
)

BOARD7 = make_board(7)


# ================================================================ helpers


class Script:
    """A policy that answers from queues and remembers what it was asked."""

    def __init__(self, hire=(), bid=(), companion=(), cards=(), load=(), unload=()):
        self.hire, self.bid, self.companion = list(hire), list(bid), list(companion)
        self.cards, self.load, self.unload = list(cards), list(load), list(unload)
        self.asked: list = []

    def lazy_jack_hire(self, t, seat):
        self.asked.append(("hire", seat))
        return self.hire.pop(0)

    def lazy_jack_bid(self, t, seat):
        self.asked.append(("bid", seat))
        return self.bid.pop(0)

    def lazy_jack_companion(self, t, seat):
        return fig(t, self.companion.pop(0))

    def movement_cards(self, t, seat):
        self.asked.append(("cards", seat, list(t.cards)))
        return self.cards.pop(0)

    def load_target(self, t, seat, options):
        self.asked.append(("load", seat, list(options)))
        return self.load.pop(0)

    def unload_source(self, t, seat, options):
        self.asked.append(("unload", seat, list(options)))
        return self.unload.pop(0)


def table(players: int = 3, seed: int = 0, **overrides) -> ref.Table:
    rules = Rules.from_overrides(overrides)
    t = ref.setup(rules, players, Rng(seed, 0, WORLD))
    t.log, t.events = [], []
    return t


def fig(t: ref.Table, name: str) -> int:
    if name == "Lazy Jack":
        return t.lazy_jack
    return next(w.id for w in t.workers if w.name == name)


def place(t: ref.Table, **where) -> None:
    """place(t, A_big=3, B_small='pub') — every named worker to a path index or its pub."""
    for key, q in where.items():
        f = fig(t, key.replace("_", " "))
        t.loc[f] = t.workers[f].pub if q == "pub" else q


def empty_rooms(t: ref.Table) -> None:
    n = t.board.length
    t.room_good, t.room_broken, t.room_coin = [0] * n, [0] * n, [0] * n


def ship(cap: int, values: tuple, barrels=(0, 0, 0), name: str | None = None) -> Ship:
    return Ship(name or f"cap{cap}", cap, values, list(barrels))


def pilot(players: int = 3) -> Ship:
    return Ship("pilot boat", 0, (), [0] * players, pilot=True)


def set_piers(t: ref.Table, piers: list, stack_a=(), stack_b=()) -> None:
    t.piers, t.stack_a, t.stack_b = list(piers), list(stack_a), list(stack_b)
    for s in range(t.players):
        t.stock[s] = t.rules.barrels_per_player - t.aboard(s)


def all_off_path(t: ref.Table) -> None:
    for w in t.workers:
        t.loc[w.id] = w.pub


# ================================================================ E1 — majority scoring


V4 = (10, 5, 3)   # 4-player side, cap 8


@pytest.mark.parametrize("values, counts, expected", [
    (V4, [4, 4, 1, 0], [8, 8, 3, 0]),           # a
    (V4, [2, 2, 2, 2], [5, 5, 5, 5]),           # b: 18/4 = 4.5 -> 5
    (V4, [3, 1, 1, 1], [10, 3, 3, 3]),          # c: 8/3 -> 3
    (V4, [3, 2, 1, 1], [10, 5, 2, 2]),          # d: 3/2 -> 2
    ((7, 3, 2), [4, 2], [7, 3]),                # e: P = 2
    ((7, 3, 2), [3, 3], [5, 5]),                # f: 10/2
    ((8, 4, 2), [2, 2, 2], [5, 5, 5]),          # g: 14/3 -> 5
    ((6, 3, 1), [2, 2, 1], [5, 5, 1]),          # h: 9/2 -> 5
    ((6, 3, 1), [5, 0, 0], [6, 0, 0]),          # i: A alone gets v1
    ((11, 6, 3), [0, 0, 0, 5], [0, 0, 0, 11]),  # i on the 4-player side
])
def test_e1_score_ship(values, counts, expected):
    assert score_ship(values, counts) == expected


def test_e1_ranks_beyond_printed_score_zero_and_nobody_exceeds_v1():
    # Four distinct counts on a 3-rank ship: the 4th place gets 0.
    assert score_ship(V4, [4, 3, 2, 1]) == [10, 5, 3, 0]
    # Rounding up can hand out more than v1 + v2 + v3 (case b gives 20 > 18).
    assert sum(score_ship(V4, [2, 2, 2, 2])) == 20 > sum(V4)
    for counts in itertools.product(range(4), repeat=4):
        points = score_ship(V4, list(counts))
        assert all(0 <= p <= V4[0] for p in points)
        assert all(p == 0 for p, c in zip(points, counts, strict=True) if c == 0)


def test_score_ship_rounding_and_zero_mode_options():
    assert score_ship(V4, [2, 2, 2, 2], rounding="floor") == [4, 4, 4, 4]
    assert score_ship(V4, [2, 2, 2, 2], rounding="exact_fraction") == [Fraction(9, 2)] * 4
    assert score_ship(V4, [3, 1, 1, 1], rounding="exact_fraction") == [10] + [Fraction(8, 3)] * 3
    # lowest_loader_zero: the last of two or more groups gets nothing.
    assert score_ship((7, 3, 2), [3, 2, 1], zero_mode="lowest_loader_zero") == [7, 3, 0]
    assert score_ship((7, 3, 2), [4, 2], zero_mode="lowest_loader_zero") == [7, 0]
    assert score_ship(V4, [3, 1, 1, 1], zero_mode="lowest_loader_zero") == [10, 0, 0, 0]
    # A single group (everyone tied) is not a "lowest group among two".
    assert score_ship((7, 3, 2), [2, 2], zero_mode="lowest_loader_zero") == [5, 5]


# ================================================================ board geometry (§2.2, §7)


def test_default_geometry_w7():
    b = BOARD7
    assert b.length == 14
    assert [b.opposite[p] for p in range(14)] == [13 - p for p in range(14)]
    assert b.entry == {LEFT_PUB: 0, RIGHT_PUB: 7}
    assert b.resolution_order == tuple(range(13, -1, -1))
    assert b.room_at[2] == (2, "N") and b.room_at[11] == (2, "S")
    assert make_board(8).length == 16 and make_board(8).entry[RIGHT_PUB] == 8


def test_end_spaces_left_bottom_entry_and_column_order():
    b = make_board(7, end_spaces=1)
    assert b.length == 16
    assert b.room_at[7] is None and b.room_at[15] is None
    assert b.opposite[0] == 14 and b.opposite[6] == 8 and b.opposite[7] == -1
    assert b.entry == {LEFT_PUB: 0, RIGHT_PUB: 8}
    assert b.resolution_order == tuple(range(14, 7, -1)) + tuple(range(6, -1, -1))
    # A mover whose target is an occupied end space falls back (no push).
    loc = [7, 3, 5]  # figure 0 on the right end space; figure 2 on N5 plays 2
    assert ref.move(b, loc, 2, 2, 5) == (ref.FALLS_BACK, -1, -1) and loc[2] == 6
    lb = make_board(7, pub_entry="left_bottom")
    assert lb.entry[LEFT_PUB] == 13
    loc = [LEFT_PUB]
    ref.move(lb, loc, 0, 2, LEFT_PUB)
    assert loc == [0]  # (2W - 2 + k) mod L
    cols = make_board(7, resolution_order="warehouse_columns")
    assert cols.resolution_order[:4] == (0, 13, 1, 12)


# ================================================================ movement (§4 Phase 3, E2-E5)


def test_e2_first_round_movement_with_pushes():
    t = table(2, workers_per_player_2p=2)
    empty_rooms(t)
    all_off_path(t)
    a_big, a_small, b_big, b_small = (fig(t, n) for n in ("A big", "A small", "B big", "B small"))
    t.rail = [a_big, b_small, a_small, b_big]
    t.cards[a_big], t.cards[b_small], t.cards[a_small], t.cards[b_big] = 3, 2, 2, 3
    ref.phase_movement(t)
    assert (t.loc[a_big], t.loc[b_small], t.loc[a_small], t.loc[b_big]) == (11, 5, 8, 2)
    moves = [e for e in t.events if e["event"] == "move"]
    assert [(e["figure"], e["how"], e["pushed"], e["pushed_to"]) for e in moves] == [
        ("A big", "lands", None, -1), ("B small", "lands", None, -1),
        ("A small", "pushes", "B small", 5), ("B big", "pushes", "A big", 11)]
    ref.phase_tally_man(t, [Script(), Script()])
    visits = [(e["space"], e["figure"]) for e in t.events if e["event"] == "resolve"]
    assert visits == [(11, "A big"), (8, "A small"), (5, "B small"), (2, "B big")]


def test_e3_blocked_push_falls_back():
    A, B, D, C, E = range(5)
    loc = [4, 9, 3, 1, SUPPLY]
    assert ref.move(BOARD7, loc, C, 3, 1) == (ref.FALLS_BACK, -1, -1)
    assert loc[C] == 2
    loc = [4, 9, 3, 1, 2]
    assert ref.move(BOARD7, loc, C, 3, 1) == (ref.BLOCKED, -1, -1)
    assert loc[C] == 1


def test_e4_blocked_from_a_pub_stays_and_is_not_resolved():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    place(t, A_small=1, B_small=12, C_small=0)
    a_big = fig(t, "A big")
    how = ref.move(t.board, t.loc, a_big, 2, LEFT_PUB)
    assert how == (ref.BLOCKED, -1, -1) and t.loc[a_big] == LEFT_PUB
    t.events = []
    ref.phase_tally_man(t, [Script()] * 3)
    resolved = [e["figure"] for e in t.events if e["event"] == "resolve"]
    assert "A big" not in resolved and sorted(resolved) == ["A small", "B small", "C small"]


def test_e5_wrap_around():
    loc = [12]
    assert ref.move(BOARD7, loc, 0, 4, 12) == (ref.LANDS, -1, -1) and loc == [2]


def test_pushed_figure_moves_later_from_its_new_spot_and_own_start_counts_free():
    t = table(2, workers_per_player_2p=2)
    empty_rooms(t)
    all_off_path(t)
    a_big, b_big = fig(t, "A big"), fig(t, "B big")
    place(t, B_big=1)
    t.rail = [a_big, b_big] + [w for w in t.rail if w not in (a_big, b_big)]
    for w in t.rail:
        t.cards[w] = 0
    t.cards[a_big], t.cards[b_big] = 2, 3
    ref.move_figure(t, a_big)           # pub -> 1, pushing B big to 12
    assert (t.loc[a_big], t.loc[b_big]) == (1, 12)
    ref.move_figure(t, b_big)           # B big moves from 12: (12 + 3) mod 14 = 1
    # Target 1 holds A big; its opposite 12 is B big's own start, which counts as free.
    assert (t.loc[a_big], t.loc[b_big]) == (12, 1)


def test_pushing_your_own_figure_is_allowed():
    loc = [3, 1]  # both figures of one player
    assert ref.move(BOARD7, loc, 1, 2, 1) == (ref.PUSHES, 0, 10)
    assert loc == [10, 3]


def test_pub_fallback_walks_back_towards_the_entry():
    # Right pub enters at 7: value 4 targets 10; 10 and its opposite 3 are taken, 9 taken, 8 free.
    loc = [10, 3, 9, RIGHT_PUB]
    assert ref.move(BOARD7, loc, 3, 4, RIGHT_PUB) == (ref.FALLS_BACK, -1, -1)
    assert loc[3] == 8


# ================================================================ Lazy Jack (§4 Phase 1-3, E7, E10)


def hired(t, seat, companion_name):
    t.lazy_jack_hirer = seat
    t.lazy_jack_companion = fig(t, companion_name)
    t.lazy_jack_hires[seat] += 1


def test_lazy_jack_starts_on_companion_space_which_is_not_free_for_him():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    place(t, A_big=5, B_big=8, C_big=7, C_small=6)
    hired(t, 0, "A big")
    t.cards[t.lazy_jack] = 3
    # Target 8 is taken; its opposite 5 is the companion's space; 7 and 6 are taken.
    ref.move_figure(t, t.lazy_jack)
    assert t.loc[t.lazy_jack] == SUPPLY and t.lazy_jack_blocked == 1
    assert t.lazy_jack_hires[0] == 1
    # A worker standing on 5 with value 3 may push to its own start instead.
    loc = list(t.loc)
    assert ref.move(t.board, loc, fig(t, "A big"), 3, 5)[0] == ref.PUSHES


def test_lazy_jack_blocked_option_stays_with_companion_unresolved():
    t = table(3, lazy_jack_blocked="stay_with_companion_unresolved")
    empty_rooms(t)
    all_off_path(t)
    place(t, A_big=5, B_big=8, C_big=7, C_small=6)
    hired(t, 0, "A big")
    t.cards[t.lazy_jack] = 3
    ref.move_figure(t, t.lazy_jack)
    assert t.loc[t.lazy_jack] == WITH_COMPANION
    t.events = []
    ref.phase_tally_man(t, [Script()] * 3)
    assert "Lazy Jack" not in [e["figure"] for e in t.events if e["event"] == "resolve"]


def test_lazy_jack_from_a_pub_enters_at_companions_entry_and_can_be_pushed():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    hired(t, 1, "B small")                 # B small is in the right pub (entry 7)
    t.cards[t.lazy_jack] = 2
    ref.move_figure(t, t.lazy_jack)
    assert t.loc[t.lazy_jack] == 8
    c_small = fig(t, "C small")
    t.cards[c_small] = 2
    ref.move_figure(t, c_small)            # C small from the right pub to 8: pushes Lazy Jack to 5
    assert (t.loc[c_small], t.loc[t.lazy_jack]) == (8, 5)


def test_e10_lazy_jack_priority_and_payment():
    t = table(3)
    t.vp, t.coins = [10, 7, 7], [4, 3, 5]
    t.bank = 15 - 12
    a_big, a_small, b_big, b_small, c_big, c_small = range(6)
    t.rail = [a_big, c_big, a_small, b_small, b_big, c_small]   # earliest: A 1, C 2, B 4
    pa, pb, pc = Script(hire=[True]), Script(hire=[True], companion=["B small"]), Script(hire=[False])
    ref.phase_lazy_jack(t, [pa, pb, pc], Rng(0, 0, WORLD))
    assert pc.asked == [("hire", 2)] and pb.asked == [("hire", 1)] and pa.asked == []
    assert t.coins == [4, 0, 5] and t.bank == 6
    assert t.lazy_jack_hirer == 1 and t.lazy_jack_companion == b_small
    assert t.lazy_jack_hires == [0, 1, 0]
    assert ref.legal_lazy_jack_values(t.rules, 4) == [1, 2, 3, 5]
    # Phase 2: B's companion plays 4, so Lazy Jack may not.
    cards = [Script(cards=[(1, 1)]), Script(cards=[(1, 4, 4)]), Script(cards=[(2, 2)])]
    with pytest.raises(AssertionError):
        ref.phase_cards(t, cards)
    t.cards = [0] * len(t.cards)
    ref.phase_cards(t, [Script(cards=[(1, 1)]), Script(cards=[(1, 4, 5)]), Script(cards=[(2, 2)])])
    assert t.cards[t.lazy_jack] == 5 and t.cards[b_small] == 4
    # Random policy: every legal LJ value, never the companion's.
    t.cards = [0] * len(t.cards)
    seen = set()
    rng = Rng(1, 2, POLICY)
    for _ in range(200):
        v = RandomPolicy(rng).movement_cards(t, 1)
        assert v[2] != v[1]
        seen.add(v[2])
    assert seen == {1, 2, 3, 4, 5}


def test_lazy_jack_not_asked_when_nobody_can_pay_and_at_most_one_hire():
    t = table(3)
    t.coins = [2, 2, 2]
    p = Script()
    ref.phase_lazy_jack(t, [p, p, p], Rng(0, 0, WORLD))
    assert p.asked == [] and t.lazy_jack_hirer is None
    t.coins = [3, 3, 3]
    ps = [Script(hire=[True], companion=["A big"]), Script(hire=[True]), Script(hire=[True])]
    t.rail = list(range(6))
    ref.phase_lazy_jack(t, ps, Rng(0, 0, WORLD))
    assert t.lazy_jack_hirer == 0 and ps[1].asked == [] and ps[2].asked == []


def test_lazy_jack_tiebreak_options():
    t = table(3, lazy_jack_tiebreak="fewer_coins")
    t.vp, t.coins = [10, 7, 7], [4, 3, 5]
    t.rail = [0, 4, 1, 3, 2, 5]  # earliest: A 1, C 2, B 4
    assert ref.priority_order(t, [0, 1, 2], Rng(0, 0, WORLD)) == [1, 2, 0]
    t = table(3, lazy_jack_tiebreak="random")
    t.vp, t.coins = [10, 7, 7], [4, 3, 5]
    orders = set()
    for g in range(40):
        world = Rng(0, g, WORLD)
        orders.add(tuple(ref.priority_order(t, [0, 1, 2], world)))
        assert world.draws >= 1
    assert orders == {(1, 2, 0), (2, 1, 0)}
    t.vp = [1, 2, 3]
    world = Rng(0, 0, WORLD)
    assert ref.priority_order(t, [0, 1, 2], world) == [0, 1, 2] and world.draws == 0


def test_auction_highest_bid_wins_ties_to_fewest_vp():
    t = table(3, lazy_jack_allocation="auction")
    t.vp, t.coins = [10, 7, 7], [4, 3, 5]
    t.bank = 3
    t.rail = [0, 4, 1, 3, 2, 5]
    ps = [Script(hire=[True], bid=[4]), Script(hire=[True]),
          Script(hire=[True], bid=[4], companion=["C small"])]
    ref.phase_lazy_jack(t, ps, Rng(0, 0, WORLD))
    # B can only bid the cost (forced, not asked); A and C bid 4; C has fewer VP than A.
    assert ("bid", 1) not in ps[1].asked
    assert t.lazy_jack_hirer == 2 and t.coins == [4, 3, 1] and t.bank == 7


@pytest.mark.parametrize("tiebreak", ["rail_order", "fewer_coins", "random"])
def test_auction_equal_bids_and_vp_go_to_rail_order_whatever_the_tiebreak(tiebreak):
    # Spec §7: an auction's equal bids go to fewest VP, then rail order;
    # lazy_jack_tiebreak is for the fixed-price offer only and draws nothing here.
    t = table(3, lazy_jack_allocation="auction", lazy_jack_tiebreak=tiebreak)
    t.vp, t.coins = [7, 7, 7], [4, 3, 5]  # A has fewer coins than C: fewer_coins would pick A
    t.bank = 3
    t.rail = [2, 4, 0, 3, 1, 5]  # earliest: C 1, A 3, B 5
    ps = [Script(hire=[True], bid=[4]), Script(hire=[True]),
          Script(hire=[True], bid=[4], companion=["C big"])]
    world = Rng(0, 0, WORLD)
    ref.phase_lazy_jack(t, ps, world)
    assert t.lazy_jack_hirer == 2 and t.coins == [4, 3, 1] and world.draws == 0


def test_e7_broken_barrels_worker_and_lazy_jack():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    q = 13
    t.room_broken[q], t.room_coin[q] = 2, 1
    set_piers(t, [pilot(), ship(6, (7, 3, 2), (1, 2, 0)), ship(5, (6, 3, 1)), ship(4, (5, 2, 1))])
    place(t, A_big=q)
    ref.phase_tally_man(t, [Script(), Script(), Script()])
    assert t.coins[0] == 1 and t.aboard(0) == 0 and t.stock[0] == 16
    assert [e["event"] for e in t.events].count("unload") == 1
    # Lazy Jack (hired by A) on that room: the coin, but nothing removed.
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    t.room_broken[q], t.room_coin[q] = 2, 1
    set_piers(t, [pilot(), ship(6, (7, 3, 2), (1, 2, 0)), ship(5, (6, 3, 1)), ship(4, (5, 2, 1))])
    hired(t, 0, "A big")
    t.loc[t.lazy_jack] = q
    ref.phase_tally_man(t, [Script(), Script(), Script()])
    assert t.coins[0] == 1 and t.aboard(0) == 1


def test_lazy_jack_collects_coin_option_and_empty_bank():
    t = table(3, lazy_jack_collects_coin=False)
    empty_rooms(t)
    all_off_path(t)
    t.room_coin[4] = 1
    hired(t, 2, "C big")
    t.loc[t.lazy_jack] = 4
    ref.phase_tally_man(t, [Script()] * 3)
    assert t.coins[2] == 0 and t.bank == 15
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    t.room_coin[4] = 1
    t.bank, t.coins = 0, [5, 5, 5]
    place(t, C_big=4)
    ref.phase_tally_man(t, [Script()] * 3)
    assert t.coins == [5, 5, 5] and t.bank == 0


def test_broken_barrels_choose_source_pier():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    t.room_broken[2] = 2
    set_piers(t, [pilot(), ship(6, (7, 3, 2), (1, 0, 0)), ship(5, (6, 3, 1), (2, 1, 0)),
                  ship(4, (5, 2, 1))])
    place(t, A_big=2)
    p = Script(unload=[3, 3])
    ref.phase_tally_man(t, [p, Script(), Script()])
    assert p.asked == [("unload", 0, [2, 3]), ("unload", 0, [2, 3])]
    assert (t.piers[1].barrels[0], t.piers[2].barrels[0]) == (1, 0) and t.stock[0] == 15


# ================================================================ loading and sailing (§4 Phase 4, E6)


def test_e6_filling_a_ship_mid_load():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    cap8 = ship(8, (9, 4, 2), name="cap8")
    set_piers(t, [ship(6, (7, 3, 2), (3, 1, 0), "cap6"), ship(5, (6, 3, 1), (2, 2, 0), "cap5"),
                  ship(4, (5, 2, 1), name="cap4"), ship(7, (8, 4, 2), name="cap7")],
              stack_a=[cap8])
    t.room_good[3] = 3
    place(t, C_big=3)
    c = Script(load=[2, 4, 1])
    ref.phase_tally_man(t, [Script(), Script(), c])
    assert c.asked[0] == ("load", 2, [1, 2, 3, 4])
    # After the first barrel the cap-5 ship sailed: C +1 fill bonus, A 5, B 5, C 1.
    assert c.asked[1] == ("load", 2, [1, 2, 3, 4])
    assert [s.name for s in t.piers] == ["cap6", "cap4", "cap7", "cap8"]
    assert t.vp == [5, 5, 2]
    assert t.ships_sailed_full == 1 and t.ships_scored_total == 1
    assert t.stock == [16 - 3, 16 - 1, 16 - 2]   # A +2 and B +2 came back; C loaded 2 more
    assert t.piers[3].barrels == [0, 0, 1] and t.piers[0].barrels == [3, 1, 1]


def test_no_loadable_ship_barrels_stay_in_stock():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    set_piers(t, [pilot()])
    t.room_good[0] = 4
    place(t, A_big=0)
    ref.phase_tally_man(t, [Script()] * 3)
    assert t.stock[0] == 16 and t.aboard(0) == 0


def test_forced_load_is_not_asked_and_draws_nothing():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    set_piers(t, [pilot(), ship(9, (10, 5, 3))])
    t.room_good[0] = 4
    place(t, A_big=0)
    rng = Rng(5, 5, POLICY)
    ref.phase_tally_man(t, [RandomPolicy(rng), RandomPolicy(rng), RandomPolicy(rng)])
    assert rng.draws == 0 and t.piers[1].barrels[0] == 4


def test_must_load_all_false_offers_stop():
    t = table(3, must_load_all=False)
    empty_rooms(t)
    all_off_path(t)
    set_piers(t, [pilot(), ship(9, (10, 5, 3))])
    t.room_good[0] = 4
    place(t, A_big=0)
    p = Script(load=[2, STOP])
    ref.phase_tally_man(t, [p, Script(), Script()])
    assert p.asked == [("load", 0, [2, STOP]), ("load", 0, [2, STOP])]
    assert t.piers[1].barrels[0] == 1 and t.stock[0] == 15
    # Greedy stops only when every load_value is negative: never with the default scoring.
    g = GreedyPolicy()
    assert g.load_target(t, 0, [2, STOP]) == 2


@pytest.mark.parametrize("load_count, loaded", [("fixed", 2), ("while_stock", 3)])
def test_load_count_when_stock_is_short(load_count, loaded):
    # A has 2 barrels in stock and a 3-good room; the first barrel fills a ship holding A's
    # barrels, which come back: 'fixed' still loads 2, 'while_stock' loads all 3.
    t = table(3, load_count=load_count)
    empty_rooms(t)
    all_off_path(t)
    set_piers(t, [pilot(), ship(4, (5, 2, 1), (3, 0, 0)), ship(20, (10, 5, 3), (11, 0, 0))])
    t.stock[0] = 2
    t.room_good[0] = 3
    place(t, A_big=0)
    ref.phase_tally_man(t, [Script(load=[2, 2, 2]), Script(), Script()])
    assert [e["event"] for e in t.events].count("load") == loaded


# ================================================================ harbour and end (E8, E9, §5)


def test_e8_end_of_round_departure():
    t = table(3)
    new = ship(7, (8, 4, 2), name="new")
    set_piers(t, [ship(6, (7, 3, 2), (3, 1, 0), "p1"), ship(5, (6, 3, 1), name="p2"),
                  ship(4, (5, 2, 1), name="p3"), ship(9, (10, 5, 3), name="p4")], stack_a=[new])
    assert ref.phase_harbour(t) is False
    assert t.vp == [7, 3, 0] and t.stock == [16, 16, 16]
    assert [s.name for s in t.piers] == ["p2", "p3", "p4", "new"]
    assert t.ships_scored_total == 1 and t.ships_sailed_full == 0


def test_pilot_boat_departs_without_scoring():
    t = table(3)
    assert t.piers[0].pilot
    ref.phase_harbour(t)
    assert not any(s.pilot for s in t.piers) and t.vp == [0, 0, 0] and len(t.piers) == 4


def test_e9_game_end_and_final_scoring():
    t = table(3)
    empty_rooms(t)
    all_off_path(t)
    set_piers(t, [ship(6, (7, 3, 2), (1, 0, 0), "p1"), ship(4, (5, 2, 1), (1, 2, 0), "p2"),
                  ship(5, (6, 3, 1), (0, 0, 1), "p3"), ship(7, (8, 4, 2), (0, 1, 1), "p4")])
    t.room_good[0] = 1
    place(t, C_big=0)
    ref.phase_tally_man(t, [Script(), Script(), Script(load=[2])])
    assert len(t.piers) == 3 and t.ships_sailed_full == 1
    # p2 sailed full: B 2 -> 5 (first), A 1 C 1 tie for 2nd-3rd -> ceil(3/2) = 2; C +1 bonus.
    assert t.vp == [2, 5, 3]
    assert ref.phase_harbour(t) is True and t.game_over
    ref.final_scoring(t)
    # p1: A alone 7; p3: C alone 6; p4: B 1, C 1 tied for 1st-2nd: ceil(12/2) = 6 each.
    assert t.vp == [9, 11, 15]
    assert t.ships_scored_total == 4
    assert ref.winners(t) == [0.0, 0.0, 1.0]


def test_end_threshold_option():
    t = table(3, end_threshold=2)
    set_piers(t, [ship(6, (7, 3, 2)), ship(4, (5, 2, 1)), ship(5, (6, 3, 1))])
    assert ref.phase_harbour(t) is False and len(t.piers) == 2
    assert ref.phase_harbour(t) is True


@pytest.mark.parametrize("vp, coins, rule, expected", [
    ([20, 20, 15], [1, 2, 0], "coins_then_shared", [0.0, 1.0, 0.0]),
    ([20, 20, 15], [2, 2, 9], "coins_then_shared", [0.5, 0.5, 0.0]),
    ([20, 20, 20], [1, 1, 1], "coins_then_shared", [1 / 3, 1 / 3, 1 / 3]),
    ([20, 20, 15], [1, 2, 0], "shared", [0.5, 0.5, 0.0]),
    ([21, 20, 15], [0, 9, 9], "coins_then_shared", [1.0, 0.0, 0.0]),
])
def test_final_tiebreaks(vp, coins, rule, expected):
    t = table(3, final_tiebreak=rule)
    t.vp, t.coins = vp, coins
    assert ref.winners(t) == pytest.approx(expected)


# ================================================================ ships and the rail (E11, E12)


def test_e11_reshuffle_trigger_once():
    t = table(3)
    assert len(t.stack_a) == 6 and len(t.stack_b) == 6
    for _ in range(6):
        t.piers.pop()
        ref.draw_new(t)
        assert not t.reshuffle_pending
    assert not t.stack_a
    t.piers.pop()
    ref.draw_new(t)
    assert t.reshuffle_pending
    world = Rng(0, 1, WORLD)
    t.round = 5
    ref.phase_rail(t, world)
    assert world.draws > 0 and t.reshuffles == 1 and t.reshuffle_round == 5
    before = list(t.rail)
    t.piers.pop()
    ref.draw_new(t)
    assert not t.reshuffle_pending
    world = Rng(0, 2, WORLD)
    ref.phase_rail(t, world)
    assert world.draws == 0 and t.rail == [before[-1]] + before[:-1]


def test_reshuffle_rule_options():
    t = table(3, reshuffle_rule="every_round_drawing_b")
    t.stack_a = []
    for r in (1, 2):
        t.piers.pop()
        ref.draw_new(t)
        assert t.reshuffle_pending
        ref.phase_rail(t, Rng(0, r, WORLD))
    assert t.reshuffles == 2
    t = table(3, reshuffle_rule="never")
    t.stack_a = []
    t.piers.pop()
    ref.draw_new(t)
    assert not t.reshuffle_pending
    t = table(3, freight_ships=9, stack_b_size=0)
    assert t.stack_b == [] and len(t.stack_a) == 6


def test_e12_rail_rotation_and_clean_up():
    t = table(2, workers_per_player_2p=2)
    a_big, a_small, b_big, b_small = (fig(t, n) for n in ("A big", "A small", "B big", "B small"))
    t.rail = [a_big, b_small, a_small, b_big]
    hired(t, 0, "A big")
    t.loc[t.lazy_jack] = 4
    world = Rng(0, 0, WORLD)
    ref.phase_rail(t, world)
    assert t.rail == [b_big, a_big, b_small, a_small] and world.draws == 0
    assert t.loc[t.lazy_jack] == SUPPLY and t.lazy_jack_hirer is None


def test_stacks_empty_no_refill():
    t = table(3)
    t.stack_a, t.stack_b = [], []
    t.piers.pop()
    ref.draw_new(t)
    assert len(t.piers) == 3


# ================================================================ set-up (§3) and the draw order


@pytest.mark.parametrize("players, overrides, n_workers, left, right, W", [
    (2, {}, 6, 3, 3, 7),
    (2, {"workers_per_player_2p": 2}, 4, 2, 2, 7),
    (2, {"two_player_extra_workers": "both_big"}, 6, 4, 2, 7),
    (2, {"two_player_extra_workers": "both_small"}, 6, 2, 4, 7),
    (3, {}, 6, 3, 3, 7),
    (4, {}, 8, 4, 4, 8),
])
def test_setup_per_player_count(players, overrides, n_workers, left, right, W):
    t = table(players, **overrides)
    assert len(t.workers) == n_workers and t.board.warehouses == W
    assert sum(1 for w in t.workers if t.loc[w.id] == LEFT_PUB) == left
    assert sum(1 for w in t.workers if t.loc[w.id] == RIGHT_PUB) == right
    assert all(t.workers[w].pub == t.loc[w] for w in range(n_workers))
    assert sorted(t.rail) == list(range(n_workers))
    assert t.piers[0].pilot and len(t.piers) == 4
    assert (len(t.stack_a), len(t.stack_b)) == (6, 6)
    assert t.coins == [0] * players and t.bank == 15 and t.stock == [16] * players
    assert t.vp == [0] * players and t.loc[t.lazy_jack] == SUPPLY
    # The warehouse rooms are exactly the tiles for this P.
    rooms = sorted(tuple(t.room(q)) for q in range(t.board.length))
    tiles = tiles_from(DEFAULT_TILES)[:W]
    assert rooms == sorted(tuple(r) for tile in tiles for r in (tile.room_a, tile.room_b))
    # Ship sides: the 4-player side with P = 4.
    side = 4 if players == 4 else 23
    for s in t.piers[1:] + t.stack_a + t.stack_b:
        card = next(c for c in ships_from(DEFAULT_SHIPS) if c.name == s.name)
        assert s.values == (card.values_4 if side == 4 else card.values_23)
    # Seat metrics.
    assert t.first_rail_seat == t.workers[t.rail[0]].seat
    for s in range(players):
        assert t.first_rail_pos[s] == 1 + min(t.rail.index(w) for w in t.owned[s])


def test_two_player_extra_worker_belongs_to_its_controller():
    t = table(2)
    assert [w.name for w in t.workers] == ["A big", "A small", "A extra big",
                                           "B big", "B small", "B extra small"]
    assert [w.seat for w in t.workers] == [0, 0, 0, 1, 1, 1]


def test_setup_draw_order_is_as_documented():
    for players, seed in ((3, 11), (4, 12), (2, 13)):
        rules = Rules()
        t = ref.setup(rules, players, Rng(seed, 3, WORLD))
        W = 8 if players == 4 else 7
        world = Rng(seed, 3, WORLD)
        order = list(range(W))
        world.shuffle(order)
        south = [world.below(2) for _ in range(W)]
        deal = list(range(15))
        world.shuffle(deal)
        rail = list(range(len(t.workers)))
        world.shuffle(rail)
        tiles = tiles_from(DEFAULT_TILES)
        ships = ships_from(DEFAULT_SHIPS)
        for slot in range(W):
            tile = tiles[order[slot]]
            north = tile.room_b if south[slot] else tile.room_a
            assert tuple(t.room(t.board.north(slot))) == tuple(north)
        assert [s.name for s in t.piers[1:]] == [ships[i].name for i in deal[:3]]
        assert [s.name for s in t.stack_a] == [ships[i].name for i in deal[3:9]]
        assert [s.name for s in t.stack_b] == [ships[i].name for i in deal[9:15]]
        assert t.rail == rail


def test_start_coins_come_from_the_bank_and_freight_subset():
    t = table(3, start_coins_by_seat="0,1,2,3")
    assert t.coins == [0, 1, 2] and t.bank == 12
    t = table(3, freight_ships=9, stack_b_size=3)
    assert (len(t.piers), len(t.stack_a), len(t.stack_b)) == (4, 3, 3)
    assert len({s.name for s in t.piers[1:] + t.stack_a + t.stack_b}) == 9


def test_start_coins_by_place_go_to_the_rail_places_on_top_of_the_seats():
    # Rail place k = the k-th player met walking the rail from position 1 (each player at
    # their earliest worker): the order of first_rail_pos, by which the seat analysis
    # re-seats (analyses.seats.reseat). Seat coins (1, 0, 2, 0), place coins (0, 1, 2, 3).
    by_seat, by_place = (1, 0, 2, 0), (0, 1, 2, 3)
    coins = {"start_coins_by_seat": "1,0,2,0", "start_coins_by_place": "0,1,2,3"}
    # P = 3, seed 2: rail B small, C big, A small, A big, B big, C small: places B, C, A.
    t = table(3, seed=2, **coins)
    assert [t.workers[w].name for w in t.rail][:3] == ["B small", "C big", "A small"]
    assert t.first_rail_pos == [3, 1, 2]
    assert t.coins == [1 + 2, 0 + 0, 2 + 1] and t.bank == 15 - 6
    # P = 4, seed 1: D small, A small, C small, B big, ...: places D, A, C, B.
    t = table(4, seed=1, **coins)
    assert [t.workers[w].name for w in t.rail][:4] == ["D small", "A small", "C small", "B big"]
    assert t.coins == [1 + 1, 0 + 3, 2 + 2, 0 + 0] and t.bank == 15 - 9
    # P = 2, seed 3: the rail opens with B's extra worker, so B is place 0 and A place 1.
    t = table(2, seed=3, **coins)
    assert t.workers[t.rail[0]].name == "B extra small"
    assert t.coins == [1 + 1, 0 + 0] and t.bank == 15 - 2
    # In general: place k holds its seat's coins plus entry k; the bank lost their sum; and
    # the coins change no draw (same tiles, ships and rail as without them).
    for players in (2, 3, 4):
        for seed in range(20):
            t = table(players, seed, **coins)
            plain = table(players, seed)
            places = sorted(range(players), key=lambda s: t.first_rail_pos[s])
            for k, seat in enumerate(places):
                assert t.coins[seat] == by_seat[seat] + by_place[k]
            assert t.bank == 15 - sum(by_seat[:players]) - sum(by_place[:players])
            assert t.bank + sum(t.coins) == 15
            assert (t.warehouse_names, t.rail, [x.name for x in t.piers + t.stack_a + t.stack_b]) \
                == (plain.warehouse_names, plain.rail,
                    [x.name for x in plain.piers + plain.stack_a + plain.stack_b])


def test_start_coins_by_seat_and_place_together_must_fit_in_the_bank():
    # Only the first P entries of each list are dealt: 3 + 3 + 3 + 3 by seat and 1 + 2 + 3 + 4
    # by place fit 15 coins with 2 (9) or 3 (15) players, not with 4 (22).
    rules = Rules.from_overrides({"start_coins_by_seat": "3,3,3,3",
                                  "start_coins_by_place": "1,2,3,4"})
    for players in (2, 3):
        GAME.check_seats(rules, GAME.seat_policies("random", players), players)
    with pytest.raises(RulesError, match=r"^rule start_coins_by_place=1,2,3,4 with "
                       r"start_coins_by_seat=3,3,3,3 needs 22 coins for 4 players, more than "
                       r"bank_coins=15$"):
        GAME.check_seats(rules, GAME.seat_policies("random", 4), 4)
    with pytest.raises(RulesError, match="start_coins_by_place"):
        GAME.reference(rules, GAME.seat_policies("greedy", 4), 4, 1, 0)
    roomy = Rules.from_overrides({"start_coins_by_seat": "3,3,3,3",
                                  "start_coins_by_place": "1,2,3,4", "bank_coins": 22})
    roomy.check_players(4)


def test_fixed_orientation_puts_room_a_north():
    t = table(3, tile_orientation_random=False)
    tiles = {tile.name: tile for tile in tiles_from(DEFAULT_TILES)}
    for slot, name in enumerate(t.warehouse_names):
        tile = tiles[name.split()[0]]
        assert tuple(t.room(t.board.north(slot))) == tuple(tile.room_a)


# ================================================================ policies (§6)


def test_load_value_and_unload_cost_formulae():
    t = table(3)
    set_piers(t, [ship(6, (7, 3, 2), (2, 2, 1)), ship(4, (5, 2, 1), (1, 2, 0)),
                  ship(5, (6, 3, 1))])
    # Pier 1 (w = 1): A 2 -> 3 takes 1st alone; the barrel fills (6/6): bonus 1 + 7 - 1 * 4.
    assert load_value(t, 1, 0, 0.7) == pytest.approx(1 + 7 - 5)
    # Pier 2 (w = 0.7): A 1 -> 2 ties B for 1st and fills it: 1 + ceil(7/2) - 0.7 * 2.
    assert load_value(t, 2, 0, 0.7) == pytest.approx(1 + 4 - 0.7 * 2)
    # Pier 3 empty (w = 0.7): 0.7 * (6 - 0).
    assert load_value(t, 3, 0, 0.7) == pytest.approx(0.7 * 6)
    # Unloading A's barrel from pier 2: 0.7 * (share before 2 - after 0).
    assert unload_cost(t, 2, 0, 0.7) == pytest.approx(0.7 * 2)


def test_greedy_d4_ties_to_lower_pier_and_d5_ties_to_higher():
    t = table(3)
    set_piers(t, [pilot(), ship(9, (10, 5, 3)), ship(9, (10, 5, 3)), ship(9, (10, 5, 3), (1, 0, 0))])
    g = GreedyPolicy()
    assert g.load_target(t, 1, [2, 3, 4]) == 2
    set_piers(t, [pilot(), ship(9, (10, 5, 3), (1, 0, 0)), ship(9, (10, 5, 3), (1, 0, 0))])
    assert g.unload_source(t, 0, [2, 3]) == 3


def test_room_values_rv():
    t = table(3)
    empty_rooms(t)
    t.room_good[0], t.room_coin[1], t.room_broken[2], t.room_coin[2] = 4, 1, 2, 1
    set_piers(t, [pilot(), ship(9, (10, 5, 3), (1, 0, 0))])
    t.stock[0] = 3
    w = Weights()
    worker, lj = room_values(t, 0, False, w), room_values(t, 0, True, w)
    assert worker[0] == 3 and worker[1] == pytest.approx(0.8)
    assert worker[2] == pytest.approx(0.8 - 1.0) and lj[2] == pytest.approx(0.8)
    t.bank = 0
    assert room_values(t, 0, False, w)[1] == 0


def brute_force_greedy(t, seat, companion=None):
    """Greedy D3 from the spec's words, with reference.move: best vector and its total."""
    w = Weights()
    lj = t.lazy_jack
    hirer = t.lazy_jack_hirer

    def rv(s, f, q):
        return room_values(t, s, f == lj, w)[q] if q >= 0 else 0.0

    def land(f, k, comp):
        loc = list(t.loc)
        start = loc[comp] if f == lj else loc[f]
        how, _, _ = ref.move(t.board, loc, f, k, start)
        if how == ref.BLOCKED and f == lj:
            return SUPPLY
        return loc[f]

    values = {}
    for s in range(t.players):
        if s == seat:
            continue
        for f in t.owned[s]:
            scores = [rv(s, f, land(f, k, None)) for k in range(1, 6)]
            values[f] = 1 + max(range(5), key=lambda i: (scores[i], -i))
        if hirer == s:
            legal = ref.legal_lazy_jack_values(t.rules, values[t.lazy_jack_companion])
            scores = {k: rv(s, lj, land(lj, k, t.lazy_jack_companion)) for k in legal}
            values[lj] = max(legal, key=lambda k: (scores[k], -k))
    own = list(t.owned[seat]) + ([lj] if companion is not None else [])
    comp = companion if companion is not None else t.lazy_jack_companion
    best, best_total = None, None
    for vec in itertools.product(range(1, 6), repeat=len(own)):
        if companion is not None and vec[-1] == vec[own.index(companion)]:
            continue
        vals = dict(values)
        vals.update(zip(own, vec, strict=True))
        loc = list(t.loc)
        order = ([lj] if comp is not None else []) + list(t.rail)
        for f in order:
            start = loc[comp] if f == lj else loc[f]
            how, _, _ = ref.move(t.board, loc, f, vals[f], start)
            if how == ref.BLOCKED and f == lj:
                loc[f] = SUPPLY
        total = sum(rv(seat, f, loc[f]) for f in own)
        if best is None or total > best_total + 1e-9:
            best, best_total = vec, total
    return best, best_total


@pytest.mark.parametrize("seed", range(6))
def test_greedy_d3_matches_the_spec_words(seed):
    rnd = random.Random(seed)
    t = table(3, seed=seed)
    spaces = rnd.sample(range(t.board.length), 6)
    for w, q in zip(t.workers, spaces, strict=True):
        t.loc[w.id] = q if rnd.random() < 0.8 else w.pub
    for s in range(3):
        t.stock[s] = rnd.randint(0, 16)
    if seed % 2:
        t.lazy_jack_hirer, t.lazy_jack_companion = 1, fig(t, "B small")
    for seat in range(3):
        look = Lookahead(t, seat, Weights())
        companion = t.lazy_jack_companion if t.lazy_jack_hirer == seat else None
        vec, total = look.best([look.myopic_profile()], companion)
        bvec, btotal = brute_force_greedy(t, seat, companion)
        assert (vec, total) == (bvec, pytest.approx(btotal))
        assert GreedyPolicy().movement_cards(t, seat) == vec


def test_imagine_movement_equals_reference_move():
    rnd = random.Random(1)
    for trial in range(400):
        W = rnd.choice((7, 8))
        board = make_board(W, rnd.choice((0, 0, 1, 2)), rnd.choice(("standard", "left_bottom")))
        n = rnd.choice((6, 8))
        spaces = rnd.sample(range(board.length), n)
        loc = [q if rnd.random() < 0.7 else rnd.choice((LEFT_PUB, RIGHT_PUB)) for q in spaces]
        lj = n
        loc.append(SUPPLY)
        companion = rnd.randrange(n) if trial % 2 else -1
        order = ([lj] if companion >= 0 else []) + rnd.sample(range(n), n)
        values = [rnd.randint(1, 5) for _ in range(n + 1)]
        expected = list(loc)
        for f in order:
            start = expected[companion] if f == lj else expected[f]
            how, _, _ = ref.move(board, expected, f, values[f], start)
            if how == ref.BLOCKED and f == lj:
                expected[f] = SUPPLY
        assert imagine_movement(board, loc, order, values, lj, companion) == expected


def test_greedy_hire_threshold_and_companion():
    t = table(3)
    all_off_path(t)
    t.coins = [3, 0, 0]
    g = GreedyPolicy(hire_threshold=-100)
    assert g.lazy_jack_hire(t, 0) is True
    assert g.lazy_jack_companion(t, 0) in t.owned[0]
    assert GreedyPolicy(hire_threshold=100).lazy_jack_hire(t, 0) is False


def test_sampler_does_not_read_hidden_ship_order():
    t = table(3, seed=4)
    all_off_path(t)
    place(t, A_big=2, B_small=9, C_big=5)
    t.coins = [3, 3, 3]
    picks = []
    for shuffle_seed in range(3):
        random.Random(shuffle_seed).shuffle(t.stack_a)
        random.Random(shuffle_seed).shuffle(t.stack_b)
        s = SamplerPolicy(Rng(9, 9, POLICY + 0), n_samples=4)
        picks.append((s.lazy_jack_hire(t, 0), s.movement_cards(t, 0)))
    assert picks[0] == picks[1] == picks[2]


def test_cards_are_revealed_only_after_everyone_chose():
    t = table(3)
    ps = [Script(cards=[(1, 2)]), Script(cards=[(3, 4)]), Script(cards=[(5, 1)])]
    ref.phase_cards(t, ps)
    for p in ps:
        assert all(v == 0 for v in p.asked[0][2])
    assert [t.cards[w] for w in range(6)] == [1, 2, 3, 4, 5, 1]


# ================================================================ options and presets (§7)


def test_defaults_and_presets():
    r = Rules()
    assert r.max_rounds == 14 and r.lazy_jack_cost == 3 and r.bank_coins == 15
    assert r.warehouse_tiles == DEFAULT_TILES and r.ship_table == DEFAULT_SHIPS
    assert set(Rules.preset_names()) == {"standard", "short", "no_lazy_jack", "auction_jack",
                                         "two_workers_2p"}
    short = Rules.from_overrides({}, preset="short")
    assert (short.freight_ships, short.stack_b_size, short.max_rounds) == (9, 3, 8)
    assert Rules.from_overrides({}, preset="no_lazy_jack").lazy_jack_cost == 99
    assert Rules.from_overrides({}, preset="auction_jack").lazy_jack_allocation == "auction"
    assert Rules.from_overrides({}, preset="two_workers_2p").workers_per_player_2p == 2
    assert Rules.from_overrides({}, preset="standard") == r


def test_default_tables_match_the_spec():
    ships = ships_from(DEFAULT_SHIPS)
    assert sum(s.capacity for s in ships) == 90
    assert ships[0] == ("F01", 3, (4, 2, 1), (5, 3, 1))
    assert ships[14] == ("F15", 9, (10, 5, 3), (11, 6, 3))
    assert ships[9].values_23 == (8, 4, 2) and ships[9].values_4 == (9, 5, 3)
    tiles = tiles_from(DEFAULT_TILES)
    rooms7 = [r for tile in tiles[:7] for r in (tile.room_a, tile.room_b)]
    assert sum(r.good for r in rooms7) == 25 and sum(r.broken for r in rooms7) == 4
    assert sum(r.coin for r in rooms7) == 4
    assert (tiles[7].room_a.good + tiles[7].room_b.good, tiles[7].room_a.coin) == (3, 1)


@pytest.mark.parametrize("overrides, fragment", [
    ({"lazy_jack_cots": 3}, "did you mean 'lazy_jack_cost'"),
    ({"lazy_jack_cost": 6}, "lazy_jack_cost"),
    ({"freight_ships": 16}, "freight_ships"),
    ({"freight_ships": 8}, "stack_b_size"),
    ({"stack_b_size": 13}, "stack_b_size"),
    ({"tie_rounding": "up"}, "ceil|floor|exact_fraction"),
    ({"end_threshold": 4}, "end_threshold"),
    ({"start_coins_by_seat": "5,5,5,5"}, "bank_coins"),
    ({"start_coins_by_seat": "1,2,3"}, "start_coins_by_seat"),
    ({"start_coins_by_place": "1,2,3"}, "start_coins_by_place"),
    ({"start_coins_by_place": "0,0,0,31"}, "start_coins_by_place"),
    ({"warehouse_tiles": ",".join(["1,1,0,0,0,0"] * 8)}, "good or broken"),
    ({"warehouse_tiles": ",".join(["0,3,0,0,0,0"] * 8)}, "broken barrels 3"),
    ({"warehouse_tiles": "4,0,0,0,2,1"}, "warehouse_tiles"),
    ({"ship_table": "3,4,2,1,5,3,1"}, "freight_ships"),
    ({"ship_table": "3,4,2,1,5,3"}, "ship_table"),
])
def test_bad_options_are_rejected_with_a_clear_message(overrides, fragment):
    with pytest.raises(RulesError, match=fragment.replace("|", r"\|")):
        Rules.from_overrides(overrides)


def test_option_parsing():
    r = Rules.from_overrides({"lazy_jack_cost": "never", "tile_orientation_random": "false",
                              "start_coins_by_seat": "0,1,1,2", "freight_ships": "9",
                              "stack_b_size": 3, "ship_table": ",".join(
                                  str(x) for x in DEFAULT_SHIPS[:9 * 7])})
    assert r.lazy_jack_cost == 99 and r.tile_orientation_random is False
    assert r.start_coins_by_seat == (0, 1, 1, 2) and r.freight_ships == 9
    assert len(r.ships()) == 9
    assert "lazy_jack_cost=never" in r.describe()


def test_encode():
    r = Rules.from_overrides({"lazy_jack_cost": "never", "start_coins_by_seat": "0,1,1,2",
                              "start_coins_by_place": "3,2,1,0"})
    v = r.encode()
    assert v.shape == (R.SIZE,) and v[R.lazy_jack_cost] == 99
    assert list(v[R.start_coins_by_seat:R.start_coins_by_seat + 4]) == [0, 1, 1, 2]
    assert list(v[R.start_coins_by_place:R.start_coins_by_place + 4]) == [3, 2, 1, 0]
    assert encode_tiles(r).shape == (8, 6) and encode_tiles(r)[0].tolist() == [4, 0, 0, 0, 2, 1]
    assert encode_ships(r).shape == (15, 7) and encode_ships(r)[14].tolist() == [9, 10, 5, 3, 11, 6, 3]


# ================================================================ the declaration and whole games


def test_game_info_and_outcome_row():
    assert GAME.name == "montego-bay" and (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.default_players == 3 and GAME.default_policy == "greedy"
    declared = {n for n, s in GAME.policies.items() if s.base is None}
    assert declared == {"random", "greedy", "sampler", "heuristic"}
    assert all(s.base in declared for s in GAME.policies.values() if s.base is not None)
    for P in (2, 3, 4):
        cols = GAME.columns(P)
        names = [c.name for c in cols]
        assert len(names) == len(set(names))
        for s in range(P):
            for base in ("score", "win", "lazy_jack_hires", "coins", "first_rail_pos"):
                assert f"{base}_{s}" in names
        # win shares split ties; scores are fractional under tie_rounding=exact_fraction
        assert all((c.dtype == "float") == c.name.startswith(("win_", "score_")) for c in cols)
        row = GAME.reference(Rules(), GAME.seat_policies("random", P), P, 3, 1)
        assert list(row) == names
        assert sum(row[f"win_{s}"] for s in range(P)) == pytest.approx(1.0)
    pol = GAME.policy("sampler:n_samples=4:q_myopic=0.25")
    assert pol.param("n_samples") == 4 and pol.param("hire_threshold") == 1.5


def test_same_seed_same_game_and_narration():
    rules = Rules()
    pols = GAME.seat_policies("greedy,random,sampler:n_samples=2", 3)
    a = GAME.reference(rules, pols, 3, 42, 7)
    assert GAME.reference(rules, pols, 3, 42, 7) == a
    assert GAME.reference(rules, pols, 3, 42, 8) != a
    lines, record = GAME.narrate(rules, pols, 3, 42, 7)
    assert record["outcome"] == a
    json.dumps(record)
    text = "\n".join(lines)
    for phrase in ("Set-up", "Round 1", "Phase 2, cards", "Phase 3, movement", "Tally-Man at",
                   "loads a barrel", "Phase 5, harbour", "Phase 6, rail", "Final scoring",
                   "Winner"):
        assert phrase in text
