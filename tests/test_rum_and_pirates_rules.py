"""Rum & Pirates against its spec (shared/rules/rum_and_pirates.md): the worked examples of
§11.1-§11.12, the sting-chance table of §11.2, the scores of §11.4, the assembler against the
reference layout of §3.8, the player count, rule options and presets of §9.

Each example is played on a constructed table: ``World`` deals the dice it is given and never
shuffles (so every stack is in the order the test wrote), and ``Script`` answers each question
from the test's script (an unexpected question fails the test). Where the spec says what the
greedy policy would do, the greedy policy plays.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engines._rng import POLICY, WORLD, Rng
from engines._rules import RulesError
from engines.rum_and_pirates import GAME, data
from engines.rum_and_pirates import policies as pol
from engines.rum_and_pirates import reference as ref
from engines.rum_and_pirates.data import BLUE, GREEN, RED, YELLOW, map_code, pub_code
from engines.rum_and_pirates.rules import Rules

REF = Rules(layout=tuple(x for pair in data.REFERENCE_LAYOUT for x in pair))


class World:
    """Dice from a list; shuffles leave every stack in its written order."""

    def __init__(self, dice=()):
        self.dice_left = list(dice)
        self.rolled = 0

    def shuffle(self, items):
        pass

    def below(self, n):
        raise AssertionError("no draw expected")

    def dice(self, sides=6):
        assert self.dice_left, "more dice rolled than scripted"
        self.rolled += 1
        return self.dice_left.pop(0)


class Script:
    """Answers decisions from per-decision queues; an unscripted question fails."""

    def __init__(self, **answers):
        self.answers = {k: list(v) for k, v in answers.items()}
        self.asked = []

    def __getattr__(self, decision):
        if decision.startswith("_"):
            raise AttributeError(decision)

        def answer(t, seat, options, ctx):
            queue = self.answers.get(decision)
            assert queue, f"unscripted {decision} for seat {seat}: {options}"
            a = queue.pop(0)
            self.asked.append((decision, a))
            if callable(a):
                a = a(options)
            assert a in options, f"{decision}: {a} not in {options}"
            return a
        return answer


def table(players=3, rules=REF, dice=(), policies=None):
    t = ref.setup(rules, players, World(dice))
    t.policies = policies or [pol.GreedyPolicy() for _ in range(players)]
    t.checking = False
    t.round = 1
    return t


def road(t, u, v):
    for r, (a, b, _) in enumerate(t.board.roads):
        if {a, b} == {u, v}:
            return r
    raise KeyError((u, v))


def dark(t, name):
    for d in range(data.N_DARKS):
        if t.board.dark_name(d).startswith(name + ":"):
            return d
    raise KeyError(name)


# ================================================================ §3.8 the assembler

REF_ROADS = """
0-1:2  0-2:3  0-10:2  0-20:3  1-2:1  1-3:2  1-11:3  1-16:2
2-3:2  2-22:3  2-28:4  3-19:1  3-29:4  4-5:2  4-7:3  5-6:2
5-7:3  5-8:4  6-7:2  6-11:1  6-16:3  7-17:3  8-9:3  8-10:3
8-11:3  9-10:2  9-12:1  10-11:2  10-14:3  12-13:2  12-14:2  13-15:2
14-15:2  14-20:3  15-20:4  16-17:1  17-18:2  17-19:2  18-25:3  19-24:3
20-21:2  20-22:2  21-23:2  22-23:2  22-32:2  23-33:2  24-25:1  24-26:3
24-27:3  24-29:5  25-27:2  26-27:1  26-31:2  28-29:2  28-30:2  29-30:3
29-31:1  30-32:3  30-34:2  32-33:2  32-34:2  32-35:3  33-35:2  34-35:2
""".split()
REF_DARKS = """
4@0.P0:2  5@0.P1:2  7@0.P6:2  4@0.P7:1  8@1.P0:1  9@1.P1:2
12@2.P0:2  13@2.P1:3  13@2.P2:2  15@2.P3:1  18@3.P6:2  17@3.P7:3
21@5.P2:2  23@5.P3:3  26@6.P4:2  27@6.P5:2  27@6.P6:3  25@6.P7:2
30@7.P4:3  31@7.P5:1  33@8.P2:2  35@8.P3:2  35@8.P4:2  34@8.P5:2
""".split()


def test_reference_layout_roads_and_darks():
    b = data.Board(data.REFERENCE_LAYOUT)
    roads = sorted(f"{min(u, v)}-{max(u, v)}:{n}" for u, v, n in b.roads)
    assert len(b.roads) == 64 and roads == sorted(REF_ROADS)
    darks = sorted(f"{c}@{p}.P{g}:{n}" for c, n, p, g in b.darks)
    assert len(b.darks) == 24 and darks == sorted(REF_DARKS)
    assert Counter(n for _, _, n in b.roads) == {1: 8, 2: 31, 3: 20, 4: 4, 5: 1}
    assert Counter(n for _, n, _, _ in b.darks) == {1: 4, 2: 15, 3: 5}
    degrees = Counter(len(b.corner_roads[c]) + len(b.corner_darks[c]) for c in range(36))
    assert degrees == {3: 6, 4: 16, 5: 14}


def test_random_layouts_have_64_roads_and_24_darks():
    rng = Rng(5, 0, WORLD)
    for _ in range(200):
        b = data.Board(data.generate_layout(rng))
        assert len(b.roads) == 64 and len(b.darks) == 24
        assert all(1 <= n <= 5 for _, _, n in b.roads)
        assert all(1 <= n <= 3 for _, n, _, _ in b.darks)
        assert all(len(b.corner_darks[c]) <= 3 for c in range(36))


# ================================================================ §11.1 pub contest


def pub_table():
    t = table(3, dice=[2, 5, 5, 2, 3, 6])
    t.pub_display = [pub_code(0, 2), pub_code(0, 5), pub_code(1, 3), pub_code(2, 4)]
    t.stacks["pubs"] = [pub_code(2, 2), pub_code(1, 4), pub_code(0, 3)]
    for p, c in zip(t.seats, (1, 2, 1), strict=True):
        p.coins = c
    return t


def test_pub_contest_seed_example():
    t = pub_table()
    ref.pub(t, 0, RED)
    A, B, C = t.seats
    assert (A.pubs, A.coins) == ([], 3)
    assert (B.pubs, B.coins) == ([pub_code(0, 2)], 1)
    assert (C.pubs, C.coins) == ([pub_code(0, 5)], 0)
    assert t.world.rolled == 6 and t.count["rolls"] == 6 and t.count["pub_fees"] == 2
    assert t.pub_display == [pub_code(1, 3), pub_code(2, 4), pub_code(0, 3), pub_code(1, 4)]


def test_pub_contest_nobody_joins():
    t = pub_table()
    t.policies = [pol.GreedyPolicy(), Script(pub_join=[ref.DECLINE]),
                  Script(pub_join=[ref.DECLINE])]
    ref.pub(t, 0, RED)
    assert sorted(t.seats[0].pubs) == [pub_code(0, 2), pub_code(0, 5)]
    assert t.seats[0].coins == 1 and t.world.rolled == 0


def test_pub_without_a_coin_is_not_asked():
    t = pub_table()
    t.seats[1].coins = 0
    t.policies = [pol.GreedyPolicy(), Script(), Script(pub_join=[ref.DECLINE])]
    ref.pub(t, 0, RED)
    assert t.seats[0].coins == 1 and len(t.seats[0].pubs) == 2


# ================================================================ §11.2 scorpion contest


def chest_table(dice, rum=0):
    t = table(3, dice=dice)
    t.chest, t.scorpion = 5, 12
    t.stacks["chests"], t.stacks["scorpions"] = [4, 6], [20, 13]
    t.seats[0].rum = rum
    return t


def test_scorpion_contest():
    t = chest_table([4, 6, 1, 3])
    ref.treasure_chest(t, 0)
    assert t.seats[0].chests == [5] and t.seats[0].scorpions == [12]
    assert ref.score(t.rules, t.seats[0]) == 3
    assert (t.chest, t.scorpion) == (6, 13) and t.world.rolled == 4


def test_scorpion_contest_rum_variant():
    t = chest_table([4, 3, 2, 4, 2, 1], rum=1)
    ref.treasure_chest(t, 0)   # greedy: 9 + 4 >= 12 and 12 - 9 >= 2 -> re-roll
    A, B, _ = t.seats
    assert A.chests == [5] and A.scorpions == [] and A.rum == 0
    assert B.scorpions == [12] and t.count["rerolls"] == 1 and t.count["rolls"] == 6


def test_sting_chances_exact():
    q = ref.sting_chances(3, 12, exact=True)
    assert q == (Fraction(23855791, 60466176), Fraction(75928169, 362797056),
                 Fraction(143734141, 362797056))
    assert sum(q) == 1
    assert ref.sting_chances(3, 12)[0] == pytest.approx(0.39453, abs=5e-6)


@pytest.mark.parametrize("thr,row", [
    (10, (0.5410, 0.2794, 0.0810, 0.0144)), (12, (0.5365, 0.3945, 0.1805, 0.0489)),
    (15, (0.4778, 0.4000, 0.3365, 0.1607)), (18, (0.5019, 0.3010, 0.3524, 0.2944)),
    (21, (0.5046, 0.3009, 0.2403, 0.3274))])
def test_sting_chance_table(thr, row):
    for n, want in zip((2, 3, 4, 5), row, strict=True):
        assert ref.sting_chances(n, thr)[0] == pytest.approx(want, abs=5e-5)
        assert sum(ref.sting_chances(n, thr, exact=True)) == 1


# ================================================================ §11.3 bunk fight


def bunk_table(dice, policies=None):
    t = table(4, dice=dice, policies=policies)
    t.mast = [[0, 2], [1, 4], [2, 3]]
    t.face_up = [("bunks", 7), ("hammocks", 4), ("bedrolls", 1)]
    return t


def test_bunk_fight():
    t = bunk_table([2, 5, 4, 4, 1, 3, 6, 6, 2, 5, 3])
    ranking = ref.bunk_fight(t)
    assert ranking == [1, 2, 0] and t.world.rolled == 11
    ref.award_sleeping(t, ranking)
    assert [p.sleeping for p in t.seats] == [[("bedrolls", 1)], [("bunks", 7)],
                                             [("hammocks", 4)], []]


def test_bunk_fight_rum_variant():
    a = Script(reroll=[ref.KEEP, ref.KEEP, ref.REROLL])
    t = bunk_table([2, 5, 4, 4, 1, 3, 6, 6, 2, 6, 5, 3, 4, 1],
                   policies=[a, pol.GreedyPolicy(), pol.GreedyPolicy(), pol.GreedyPolicy()])
    t.seats[0].rum = 1
    assert ref.bunk_fight(t) == [0, 1, 2]
    assert t.world.rolled == 14 and t.seats[0].rum == 0 and not a.answers["reroll"]


def test_bunk_fight_one_player_rolls_nothing():
    t = table(4)
    t.mast = [[2, 5]]
    assert ref.bunk_fight(t) == [2] and t.world.rolled == 0


def test_greedy_bunk_reroll_rule():
    g = pol.GreedyPolicy()
    t = table(4)
    first = {"kind": "bunk", "roll": 3, "first": True, "earlier": [], "hopeless": False}
    assert g.reroll(t, 0, [], first) == ref.REROLL
    assert g.reroll(t, 0, [], {**first, "roll": 4}) == ref.KEEP
    later = {"kind": "bunk", "roll": 5, "first": False, "earlier": [(0, 5)], "hopeless": False}
    assert g.reroll(t, 1, [], later) == ref.REROLL       # upper row wins a tie
    assert g.reroll(t, 1, [], {**later, "roll": 6}) == ref.KEEP
    hopeless = {**later, "earlier": [(0, 6)], "hopeless": True}
    assert g.reroll(t, 1, [], hopeless) == ref.REROLL
    assert pol.GreedyPolicy(reroll_can_win=1).reroll(t, 1, [], hopeless) == ref.KEEP


# ================================================================ §11.4 scoring


def scored_player():
    p = ref.Player(seat=0, hand=0, reserve=5, coins=4, rum=3)
    p.pubs = [pub_code(0, 3), pub_code(1, 4), pub_code(2, 5)]
    p.chests, p.scorpions = [6], [15]
    p.big_guards, p.small_guards = [5], [2]
    hat, hook, parrot = 1, 2, 3
    p.supplies = [data.supply_code(hat, 2), data.supply_code(hook, 3),
                  data.supply_code(parrot, 3), data.supply_code(hat, 5)]
    p.rdv = [[data.RDV_RED_MAP, True], [data.RDV_PUB, True], [data.RDV_GUARD, False]]
    p.maps = [map_code(RED, 6), map_code(RED, 4), map_code(RED, 3), map_code(GREEN, 5),
              map_code(YELLOW, 3), map_code(YELLOW, 3)]
    p.sleeping = [("bunks", 7), ("bedrolls", 1)]
    return p


def test_final_score_of_one_player():
    p = scored_player()
    assert ref.categories(Rules(), p) == {"pubs": 12, "chests": 6, "scorpions": -2,
                                          "guards": 7, "sleep": 8, "supplies": 10, "rdv": 10,
                                          "maps": 16}
    assert ref.score(Rules(), p) == 67
    by_kind = Rules.from_overrides(preset="supply_by_kind")
    assert ref.categories(by_kind, p)["supplies"] == 11 and ref.score(by_kind, p) == 68


def test_more_scoring_fixtures():
    reds = [map_code(RED, v) for v in (6, 4, 4, 3, 3)]
    assert ref.map_score(reds) == 17 and ref.map_score([map_code(GREEN, 6)]) == 0
    sup = data.supply_code
    assert ref.supply_score(Rules(), [sup(0, 2), sup(1, 2), sup(2, 2)]) == 2
    assert ref.supply_score(Rules(), [sup(0, 5), sup(1, 4), sup(2, 3), sup(3, 2),
                                      sup(4, 5)]) == 14
    assert ref.supply_score(Rules(), []) == 0


def test_tiebreaks():
    for rule, want in (("shared", [0.5, 0.5, 0.0]), ("most_coins", [0.0, 1.0, 0.0])):
        t = table(3, rules=Rules(layout=REF.layout, tiebreak=rule))
        for p, (s, c) in zip(t.seats, ((10, 1), (10, 2), (5, 9)), strict=True):
            p.score, p.coins = s, c
        assert ref.winners(t) == want and t.tied_first == 2
    t = table(3, rules=Rules(layout=REF.layout, tiebreak="most_coins_then_rum"))
    for p, (s, c, r) in zip(t.seats, ((10, 2, 0), (10, 2, 3), (10, 1, 9)), strict=True):
        p.score, p.coins, p.rum = s, c, r
    assert ref.winners(t) == [0.0, 1.0, 0.0] and t.tied_first == 3


# ================================================================ §11.5 headquarters


def hq_table(rules=REF):
    t = table(2, rules=rules)
    for x, y in (("4@0.P7", "9@1.P1"), ("31@7.P5", "26@6.P4")):
        dx, dy = dark(t, x), dark(t, y)
        t.dark_owner[dx] = t.dark_owner[dy] = 0
        t.dark_partner[dx], t.dark_partner[dy] = dy, dx
    t.seats[0].hand = 10 - 6
    return t


def test_headquarters_reclaim():
    t = hq_table()
    options = ref.hq_options(t, 0)
    assert options[0] == ref.NONE and len(options) == 1 + 6
    ref.headquarters(t, 0)
    assert t.seats[0].hand == 8
    assert t.dark_owner[dark(t, "9@1.P1")] < 0 and t.dark_owner[dark(t, "26@6.P4")] < 0
    assert t.dark_owner[dark(t, "4@0.P7")] == 0 and t.dark_owner[dark(t, "31@7.P5")] == 0


def test_headquarters_prefers_the_road_on_ties():
    t = hq_table()
    r = road(t, 2, 28)
    t.road_owner[r] = 0
    assert pol.GreedyPolicy().hq_reclaim(t, 0, ref.hq_options(t, 0), {}) == ("ROAD", r)


def test_headquarters_pairs_of_one_move():
    t = hq_table(Rules(layout=REF.layout, hq_dark_pair_any=False))
    options = ref.hq_options(t, 0)
    assert len(options) == 3
    ref.headquarters(t, 0)
    assert t.seats[0].hand == 4 + 3


# ================================================================ §11.6 guards


def test_guards():
    t = table(2)
    p = t.seats[0]
    t.policies = [Script(guard_stack=[ref.SMALL, ref.BIG, ref.SMALL]), pol.GreedyPolicy()]
    t.stacks["small_guards"] = [2, 3]
    t.stacks["big_guards"] = [5, 4]
    p.hand, p.coins = 4, 0
    ref.guard(t, 0)
    assert p.small_guards == [3] and p.coins == 0
    ref.guard(t, 0)
    assert p.big_guards == [] and t.stacks["big_guards"] == [4, 5]
    p.hand = 3
    ref.guard(t, 0)
    assert p.small_guards == [3, 2] and p.coins == 1


def test_greedy_guard_expectations():
    t = table(2)
    g = pol.GreedyPolicy()
    for h, small, big, pick in ((3, 15 / 9, 0, ref.SMALL), (5, 24 / 9, 12 / 9, ref.SMALL),
                                (7, 24 / 9, 45 / 9, ref.BIG)):
        assert g.guard_expectation(t, "small_guards", h) == pytest.approx(small)
        assert g.guard_expectation(t, "big_guards", h) == pytest.approx(big)
        t.seats[0].hand = h
        assert g.guard_stack(t, 0, [ref.BIG, ref.SMALL], {}) == pick


# ================================================================ §11.7, §11.8 moves


def test_first_moves_on_the_reference_layout():
    t = table(3)
    t.seats[0].hand, t.seats[0].coins = 10, 2
    moves = ref.legal_moves(t, 0, 0)
    got = [(min(t.board.roads[m.road][:2]), max(t.board.roads[m.road][:2]), m.pirates, m.dest)
           for m in moves]
    assert sorted(got) == sorted([(1, 2, 1, 1), (2, 3, 2, 3), (0, 2, 3, 0), (2, 22, 3, 22),
                                  (2, 28, 4, 28)])
    assert [m.road for m in moves] == sorted(m.road for m in moves)
    assert ref.turn_options(t, 0)[-2:] == [ref.REST, ref.BOARD]


def test_dark_road():
    t = table(3)
    t.captain = 4
    p = t.seats[0]
    p.hand, p.coins = 15, 5
    moves = ref.legal_moves(t, 0, 0)
    assert len(moves) == 46 and sum(not m.dark for m in moves) == 2
    darks = [(m.exit, m.entry) for m in moves if m.dark]
    assert darks == sorted(darks)
    p.hand, p.coins = 5, 1
    x, y = dark(t, "4@0.P7"), dark(t, "8@1.P0")
    m = next(m for m in ref.legal_moves(t, 0, 0) if (m.exit, m.entry) == (x, y))
    assert (m.pirates, m.dark_coin, m.dest, m.forced) == (2, 1, 8, False)
    ref.do_move(t, 0, m, 0)
    assert (p.hand, p.coins, t.captain) == (3, 1, 8)


def test_forced_dark_road_is_free():
    t = table(3)
    t.captain = 4
    t.road_owner[road(t, 4, 5)] = t.road_owner[road(t, 4, 7)] = 1
    t.seats[0].hand, t.seats[0].coins = 5, 0
    moves = ref.legal_moves(t, 0, 0)
    assert moves and all(m.dark and m.forced and m.dark_coin == 0 for m in moves)
    paid = Rules(layout=REF.layout, forced_dark_free=False)
    t.rules = paid
    assert ref.legal_moves(t, 0, 0) == []


def test_dark_same_corner():
    x, y = None, None
    for rules, legal in ((REF, False), (Rules(layout=REF.layout, dark_same_corner=True), True)):
        t = table(3, rules=rules)
        t.captain = 4
        t.seats[0].hand, t.seats[0].coins = 5, 1
        x, y = dark(t, "4@0.P7"), dark(t, "4@0.P0")
        assert any((m.exit, m.entry) == (x, y) for m in ref.legal_moves(t, 0, 0)) == legal


# ================================================================ §11.9 dead end


def test_dead_end_relocation():
    t = table(3)
    t.road_owner[road(t, 1, 16)] = 1
    t.road_owner[road(t, 6, 16)] = 2
    t.captain = 17
    t.map_display = [map_code(GREEN, 5), map_code(RED, 3), map_code(YELLOW, 4),
                     map_code(RED, 6)]
    t.stacks["maps"] = [map_code(GREEN, 3)]
    p = t.seats[0]
    p.hand, p.coins = 10, 2
    m = next(m for m in ref.legal_moves(t, 0, 0) if m.road == road(t, 16, 17))
    ref.do_move(t, 0, m, 0)
    assert p.maps == [map_code(GREEN, 5)]
    assert t.captain == 22 and p.coins == 2 and t.count["dead_end_relocations"] == 1


def test_dead_end_candidate_order():
    order = [data.COIN_CORNER_OF_TILE[(5 - 1 + k) % 9 + 1] for k in range(1, 10)]
    assert order == [22, 26, 31, 33, 1, 7, 8, 14, 18]
    t = table(3)
    for r in t.board.corner_roads[22]:
        t.road_owner[r] = 2
    t.road_owner[road(t, 1, 16)] = 1
    t.road_owner[road(t, 6, 16)] = 2
    t.road_owner[road(t, 16, 17)] = 0
    t.captain = 16
    ref.relocate(t, 0)
    assert t.captain == 26


# ================================================================ §11.10 lone player


def test_lone_player():
    b = Script(turn_action=[lambda o: next(m for m in o if isinstance(m, ref.Move)
                                           and m.dest == 1)],
               move_again=[ref.STOP])
    t = table(3, policies=[pol.GreedyPolicy(), b, pol.GreedyPolicy()])
    t.seats[0].boarded = t.seats[2].boarded = True
    t.seats[0].hand = t.seats[2].hand = 0
    p = t.seats[1]
    p.hand, p.coins = 5, 0
    t.cur = 1
    options = ref.begin_turn(t)
    assert t.lone
    ref.do_turn_choice(t, ref.choose(t, 1, "turn_action", options))
    assert (p.hand, p.coins) == (4, 1)
    assert ref.again_coin(t) == 0
    moves = ref.again_options(t, 1)
    m = next(m for m in moves if isinstance(m, ref.Move) and m.road == road(t, 1, 16))
    ref.do_again_choice(t, m)
    assert (p.hand, p.coins) == (2, 1)


def test_lone_turns_continue_until_boarding():
    b = Script(turn_action=[lambda o: o[0], ref.BOARD], move_again=[ref.STOP])
    t = table(3, policies=[pol.GreedyPolicy(), b, pol.GreedyPolicy()])
    t.seats[0].boarded = t.seats[2].boarded = True
    t.seats[0].hand = t.seats[2].hand = 0
    t.seats[1].hand = 5
    t.cur = 0
    ref.action_phase(t)
    assert t.round_turns == 2 and t.mast[0][0] == 1


# ================================================================ §11.11 order


def test_turn_order_and_boarding():
    t = table(3)
    t.round = 0
    starts = []
    for _ in range(5):
        ref.begin_round(t)
        starts.append(t.start)
    assert starts == [0, 1, 2, 0, 1]
    t.seats[2].hand, t.seats[0].hand, t.seats[1].hand = 4, 1, 0
    ref.board(t, 2)
    ref.board(t, 0)
    assert t.mast == [[2, 4], [0, 1]]


def test_first_start_seat():
    t = table(4, rules=Rules(layout=REF.layout, first_start_seat=3))
    t.round = 0
    ref.begin_round(t)
    assert t.start == 3


# ================================================================ §11.12 map


def test_map_action():
    t = table(3, policies=[Script(map_take=[1]), pol.GreedyPolicy(), pol.GreedyPolicy()])
    t.map_display = [map_code(RED, 3), map_code(RED, 6), map_code(GREEN, 4), map_code(YELLOW, 5)]
    t.stacks["maps"] = [map_code(GREEN, 6), map_code(YELLOW, 4)]
    ref.treasure_map(t, 0, RED)
    assert t.seats[0].maps == [map_code(RED, 6)]
    assert t.map_display == [map_code(RED, 3), map_code(GREEN, 4), map_code(YELLOW, 5),
                             map_code(YELLOW, 4)]
    # greedy takes the 6 (pair value later) and the options are red 3, red 6, none
    g = pol.GreedyPolicy()
    t.map_display = [map_code(RED, 3), map_code(RED, 6), map_code(GREEN, 4), map_code(YELLOW, 5)]
    assert g.map_take(t, 1, [0, 1, ref.NONE], {}) == 1


def test_map_price_needs_coins():
    t = table(3, rules=Rules(layout=REF.layout, map_price=2),
              policies=[Script(), pol.GreedyPolicy(), pol.GreedyPolicy()])
    t.seats[0].coins = 1
    t.map_display = [map_code(RED, 3), map_code(GREEN, 4)]
    ref.treasure_map(t, 0, RED)      # nothing affordable: not asked
    assert t.seats[0].maps == []


# ================================================================ players, options, presets


def test_player_counts():
    with pytest.raises(RulesError):
        GAME.check_players(1)
    with pytest.raises(RulesError):
        GAME.check_players(6)
    for n in (1, 6):
        with pytest.raises(RulesError):
            Rules().check_players(n)
    with pytest.raises(RulesError, match="first_start_seat"):
        Rules(first_start_seat=3).check_players(3)
    with pytest.raises(RulesError, match="coin_supply"):
        Rules(coin_supply=7).check_players(4)
    Rules(coin_supply=8).check_players(4)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_every_preset_plays(preset):
    rules = Rules.from_overrides(preset=preset)
    for key, value in Rules.preset(preset).items():
        assert getattr(rules, key) == value
    policies = [pol.RandomPolicy(Rng(3, 0, POLICY)), pol.GreedyPolicy(), pol.GreedyPolicy()]
    t = ref.play_game(rules, 3, policies, Rng(3, 0, WORLD), checking=True)
    assert t.round == rules.num_rounds
    row = ref.outcome(t, 0)
    assert list(row) == [c.name for c in GAME.columns(3)]


def test_option_parsing():
    over = Rules.from_strings(["bunk_tie_rule=reroll", "coin_supply=unlimited",
                               "layout=2,0,3,0,4,0,5,0,1,0,6,0,7,0,8,0,9,0"])
    rules = Rules.from_overrides(over)
    assert rules.bunk_tie_rule == "reroll" and rules.coin_supply == -1
    assert rules.fixed_layout() == data.REFERENCE_LAYOUT
    with pytest.raises(RulesError):
        Rules.from_overrides({"layout": (2, 0) + (-1,) * 16})
    with pytest.raises(RulesError):
        Rules.from_overrides({"zero_hand_may_rest": True, "rest_coin": 0})


def test_max_turns_per_round_raises():
    rules = Rules(max_turns_per_round=3)
    policies = [pol.GreedyPolicy() for _ in range(4)]
    with pytest.raises(RuntimeError, match="max_turns_per_round"):
        ref.play_game(rules, 4, policies, Rng(1, 0, WORLD))


def test_outcome_types_and_replay():
    policies = lambda: [pol.RandomPolicy(Rng(9, 2, POLICY + s)) for s in range(4)]  # noqa: E731
    a = ref.outcome(ref.play_game(Rules(), 4, policies(), Rng(9, 2, WORLD)), 2)
    b = ref.outcome(ref.play_game(Rules(), 4, policies(), Rng(9, 2, WORLD)), 2)
    assert a == b
    for c in GAME.columns(4):
        assert type(a[c.name]) is (float if c.dtype == "float" else int), c.name


def test_setup_display_order():
    t = ref.setup(REF, 4, World())
    stacks = data.initial_stacks()
    assert t.pub_display == stacks["pubs"][::-1][:4]
    assert t.map_display == stacks["maps"][::-1][:4]
    assert (t.chest, t.scorpion) == (stacks["chests"][-1], stacks["scorpions"][-1])
    t3 = ref.setup(REF, 3, World())
    assert t3.stacks["bedrolls"] == [] and t3.removed["bedrolls"] == 5
    up = ref.setup(Rules(layout=REF.layout, sleeping_tile_order="ascending"), 4, World())
    assert up.stacks["bunks"][::-1] == sorted(data.BUNKS)


def test_colour_constants():
    assert (RED, BLUE, GREEN, YELLOW) == (0, 1, 2, 3)
