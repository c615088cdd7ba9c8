"""Rum Runner reference path against the spec's worked examples (shared/rules/rum_runner.md).

Movement (§4.1, §7, §9.3), landings (§4.3, §9.4), game ends (§4.2 T5, §9.5), the
scripted opening (§9.6) and the rule options' parsing and validation (§7).
Tables are built by hand; the world RNG is a stub whose ``shuffle`` is the
identity and whose ``below`` returns scripted values; decisions are scripted.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engines._rng import WORLD, Rng
from engines._rules import RulesError
from engines.rum_runner import reference as ref
from engines.rum_runner.cards import Card, cards
from engines.rum_runner.reference import DRAW, LEFT, PASS, PLAY, RIGHT, Action, Deal, Table
from engines.rum_runner.rules import Rules

N = 16
C = 2 * (N - 1)

PORTS_9_6 = cards("J♣ Q♦ K♥ A♠ J♦ Q♥ K♠ A♣ J♥ Q♠ K♣ A♦ J♠ Q♣ K♦ A♥")
DECK_9_6 = cards("2♣ 2♦ 4♥ 3♠ 5♣ 4♦ 2♥ 3♣ 5♦ 4♠ 2♠ 3♦ 5♥ 4♣ 3♥ 5♠")
PILES_9_6 = [cards("6♣ 6♦ 6♥ 6♠"), cards("8♣ 8♦ 8♥ 8♠"), cards("10♣ 10♦ 10♥ 10♠"),
             cards("9♣ 7♦ 9♥ 7♠ 9♦ 7♣ 9♠ 7♥")]


# ================================================================ helpers


class StubWorld:
    """World RNG stand-in: identity shuffle (recorded), scripted ``below``."""

    def __init__(self, below=()):
        self.script = list(below)
        self.shuffled: list[list] = []

    def shuffle(self, items: list) -> None:
        self.shuffled.append(list(items))

    def below(self, n: int) -> int:
        assert self.script, f"unexpected random draw below({n})"
        value = self.script.pop(0)
        assert 0 <= value < n
        return value


class ScriptedPolicy:
    """Decisions from lists; each asked decision must be legal and is consumed in order."""

    def __init__(self, start="left", actions=(), continues=(), flips=()):
        self.start = start
        self.actions = list(actions)
        self.continues = list(continues)
        self.flips = list(flips)
        self.asked: list[tuple] = []

    def choose_start_end(self, t):
        self.asked.append(("start",))
        return self.start

    def choose_action(self, t, options):
        self.asked.append(("action", list(options)))
        assert self.actions, f"unexpected D2 with options {options}"
        action = self.actions.pop(0)
        assert action in options, (action, options)
        return action

    def choose_continue(self, t, value):
        self.asked.append(("continue", value))
        assert self.continues, f"unexpected D3 for value {value}"
        assert any(c.rank == value for c in t.hand)
        return self.continues.pop(0)

    def choose_flip(self, t, candidates):
        self.asked.append(("flip", list(candidates)))
        assert self.flips, f"unexpected D4 with candidates {candidates}"
        port = self.flips.pop(0)
        assert port in candidates and port != t.boat
        return port

    def done(self) -> bool:
        return not (self.actions or self.continues or self.flips)


def make_table(rules=None, *, ports=None, open_ports=None, deck=(), hand=(), discard=(),
               piles=None, collection=(), boat=0, heading=RIGHT, turn=0) -> Table:
    ports = list(PORTS_9_6 if ports is None else ports)
    face_up = [True] * N if open_ports is None else [i in set(open_ports) for i in range(N)]
    return Table(
        rules=rules or Rules(),
        ports=ports,
        face_up=face_up,
        movement_deck=list(deck),
        deck_batch=[0] * len(deck),
        hand=list(hand),
        discard=list(discard),
        piles=[list(p) for p in (piles if piles is not None else PILES_9_6)],
        collection=list(collection),
        boat=boat,
        heading=heading,
        turn=turn,
    )


def play(action_value: int) -> Action:
    return Action(PLAY, action_value)


# ================================================================ §4.1 / §9.3 movement


def pos_of(u: int) -> int:
    return u if u <= N - 1 else C - u


def dir_of(u: int) -> int:
    return RIGHT if u < N - 1 else LEFT


def u_of(pos: int, heading: int) -> int:
    return pos if heading == RIGHT and pos < N - 1 else (C - pos) % C


TABLE_9_3 = [
    # boat before, heading, u before, card, u after, lands on, heading after
    (0, RIGHT, 0, 4, 4, 4, RIGHT),
    (13, RIGHT, 13, 5, 18, 12, LEFT),
    (14, RIGHT, 14, 2, 16, 14, LEFT),
    (13, RIGHT, 13, 2, 15, 15, LEFT),
    (15, LEFT, 15, 3, 18, 12, LEFT),
    (1, LEFT, 29, 5, 4, 4, RIGHT),
    (2, LEFT, 28, 2, 0, 0, RIGHT),
]


@pytest.mark.parametrize(("pos", "heading", "u", "card", "u_after", "lands", "heading_after"),
                         TABLE_9_3)
def test_movement_table_9_3(pos, heading, u, card, u_after, lands, heading_after):
    assert u_of(pos, heading) == u
    assert (u + card) % C == u_after
    assert (pos_of(u_after), dir_of(u_after)) == (lands, heading_after)
    all_open = [True] * N
    assert ref.course(Rules(), all_open, pos, heading, card) == (lands, heading_after)
    # flipped ports still count as spaces: closing ports changes nothing (§4.1)
    closed = [i % 3 == 0 for i in range(N)]
    assert ref.course(Rules(), closed, pos, heading, card) == (lands, heading_after)
    assert ref.course(Rules(), [False] * N, pos, heading, card) == (lands, heading_after)


def test_movement_table_9_3_squares_visited():
    """The step-by-step path of §9.3 'Squares visited', one step at a time."""
    visits = {(13, RIGHT, 5): [14, 15, 14, 13, 12], (14, RIGHT, 2): [15, 14],
              (1, LEFT, 5): [0, 1, 2, 3, 4], (2, LEFT, 2): [1, 0], (15, LEFT, 3): [14, 13, 12]}
    for (pos, heading, card), path in visits.items():
        seen = []
        for _ in range(card):
            pos, heading = ref.course(Rules(), [True] * N, pos, heading, 1)
            seen.append(pos)
        assert seen == path


def all_u_states():
    return [(pos_of(u), dir_of(u), u) for u in range(C)]


def test_every_u_state_is_a_distinct_legal_boat_state():
    states = {(p, h) for p, h, _ in all_u_states()}
    assert len(states) == C
    assert {p for p, _ in states} == set(range(N))
    assert (0, RIGHT) in states and (0, LEFT) not in states
    assert (15, LEFT) in states and (15, RIGHT) not in states


@pytest.mark.parametrize("card", [1, 2, 3, 4, 5, 8, 10, 29, 30, 31, 47])
def test_course_equals_closed_form_for_every_state(card):
    for pos, heading, u in all_u_states():
        want = (pos_of((u + card) % C), dir_of((u + card) % C))
        assert ref.course(Rules(), [True] * N, pos, heading, card) == want, (pos, heading, card)
        # with skipping switched off explicitly and the default line/reflect rules
        assert ref.course(Rules(bounce_mode="reflect", port_topology="line"), [True] * N,
                          pos, heading, card) == want
        # closed ports skipped but every port open: the same geometry
        assert ref.course(Rules(flipped_ports_count_as_spaces=False), [True] * N,
                          pos, heading, card) == want


def test_sequences_of_cards_follow_the_unfolded_coordinate():
    """Direction persists between cards and turns (§4.1): a run of moves is one walk in u."""
    rng = Rng(7, 0, WORLD)
    for _ in range(200):
        start = rng.below(C)
        pos, heading, u = pos_of(start), dir_of(start), start
        for _ in range(12):
            v = 2 + rng.below(4)
            pos, heading = ref.course(Rules(), [True] * N, pos, heading, v)
            u = (u + v) % C
            assert (pos, heading) == (pos_of(u), dir_of(u))


def test_sail_moves_the_table_boat():
    t = make_table(boat=13, heading=RIGHT)
    ref.sail(t, 5)
    assert (t.boat, t.heading) == (12, LEFT)


# ---------------------------------------------------------------- §7 movement variants


@pytest.mark.parametrize("overrides", [{"port_topology": "ring"}, {"bounce_mode": "wrap"},
                                       {"port_topology": "ring", "bounce_mode": "stop_at_end"}])
def test_wrap_and_ring(overrides):
    """§7: past 15 is 0, past 0 is 15, and the direction never changes."""
    rules = Rules(**overrides)
    assert rules.wraps
    for pos in range(N):
        for heading in (RIGHT, LEFT):
            for card in range(1, 6):
                assert ref.course(rules, [True] * N, pos, heading, card) == (
                    (pos + heading * card) % N, heading)
    assert ref.course(rules, [True] * N, 14, RIGHT, 3) == (1, RIGHT)
    assert ref.course(rules, [True] * N, 1, LEFT, 3) == (14, LEFT)
    assert ref.course(rules, [True] * N, 15, LEFT, 4) == (11, LEFT)


def test_stop_at_end():
    """§7: a move that reaches an end port lands there, loses its remaining steps, faces inward."""
    rules = Rules(bounce_mode="stop_at_end")
    assert ref.course(rules, [True] * N, 13, RIGHT, 5) == (15, LEFT)
    assert ref.course(rules, [True] * N, 13, RIGHT, 2) == (15, LEFT)
    assert ref.course(rules, [True] * N, 2, LEFT, 5) == (0, RIGHT)
    assert ref.course(rules, [True] * N, 15, LEFT, 3) == (12, LEFT)
    assert ref.course(rules, [True] * N, 0, RIGHT, 4) == (4, RIGHT)
    for pos, heading, _ in all_u_states():
        for card in range(1, 6):
            target = min(pos + card, N - 1) if heading == RIGHT else max(pos - card, 0)
            want_heading = LEFT if target == N - 1 else RIGHT if target == 0 else heading
            assert ref.course(rules, [True] * N, pos, heading, card) == (target, want_heading)


def test_skip_closed_ports_counts_only_open_ports():
    """§7 flipped_ports_count_as_spaces=false: each step goes to the nearest open port ahead."""
    rules = Rules(flipped_ports_count_as_spaces=False)
    face_up = [i in {0, 3, 4, 9} for i in range(N)]
    assert ref.course(rules, face_up, 0, RIGHT, 1) == (3, RIGHT)
    assert ref.course(rules, face_up, 0, RIGHT, 2) == (4, RIGHT)
    # reversing first when there is no open port that way, leftover steps carry on
    pos, _ = ref.course(rules, face_up, 4, RIGHT, 3)   # 9, (turn) 4, 3
    assert pos == 3
    pos, _ = ref.course(rules, face_up, 4, RIGHT, 5)   # 9, 4, 3, 0, (turn) 3
    assert pos == 3
    pos, heading = ref.course(rules, face_up, 9, LEFT, 4)  # 4, 3, 0, (turn) 3
    assert pos == 3
    # after any move the boat faces a way in which an open port lies (it has turned around at the
    # last port in its direction, §4.1), and it always stands on an open port
    for start in (0, 3, 4, 9):
        for heading in (RIGHT, LEFT):
            for card in range(1, 8):
                pos, new_heading = ref.course(rules, face_up, start, heading, card)
                assert face_up[pos]
                ahead = range(pos + new_heading, N if new_heading == RIGHT else -1, new_heading)
                assert any(face_up[i] for i in ahead), (start, heading, card, pos, new_heading)


def test_skip_closed_ports_matches_a_walk_over_the_open_ports():
    """With closed ports skipped the boat bounces along the open ports exactly as the default
    geometry does along all ports (§7)."""
    rules = Rules(flipped_ports_count_as_spaces=False)
    open_ports = [1, 2, 5, 8, 11, 12, 14]
    face_up = [i in open_ports for i in range(N)]
    m = len(open_ports)
    cycle = 2 * (m - 1)
    for k, pos in enumerate(open_ports):
        for heading in (RIGHT, LEFT):
            if (k == 0 and heading == LEFT) or (k == m - 1 and heading == RIGHT):
                continue
            u = k if heading == RIGHT and k < m - 1 else (cycle - k) % cycle
            for card in range(1, 12):
                w = (u + card) % cycle
                want = open_ports[w if w <= m - 1 else cycle - w]
                assert ref.course(rules, face_up, pos, heading, card)[0] == want


@pytest.mark.parametrize("card", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("pos", [0, 6, 15])
def test_skip_closed_ports_boat_stays_on_the_only_open_port(pos, card):
    """§7: if the boat's own port is the only open one, the step leaves the boat where it is."""
    rules = Rules(flipped_ports_count_as_spaces=False)
    face_up = [i == pos for i in range(N)]
    headings = (RIGHT,) if pos == 0 else (LEFT,) if pos == N - 1 else (RIGHT, LEFT)
    for heading in headings:
        assert ref.course(rules, face_up, pos, heading, card)[0] == pos


@pytest.mark.parametrize("card", [1, 2, 3, 4, 5])
@pytest.mark.parametrize(("pos", "heading"), [(0, RIGHT), (N - 1, LEFT)])
def test_skip_closed_ports_boat_stuck_at_an_end_still_faces_inward(pos, heading, card):
    """§8 item 3 (and §4.1 'on an end port facing outward, reverse it'): at position 0 the boat
    heads RIGHT, at 15 it heads LEFT, also when it cannot move because its port is the only
    open one."""
    rules = Rules(flipped_ports_count_as_spaces=False)
    face_up = [i == pos for i in range(N)]
    assert ref.course(rules, face_up, pos, heading, card) == (pos, heading)


# ================================================================ §9.4 landings


def test_landing_case_1_open_port_with_rum():
    t = make_table(piles=[cards("6♥ 6♠"), [], [], []], boat=4)  # port 4 is J♦
    assert t.ports[4].rank == 11
    ref.land(t, 4, 1, StubWorld())
    assert t.collection == cards("6♥")
    assert t.piles[0] == cards("6♠")                 # 6♠ is the new visible top
    assert (t.landings, t.replenishments, t.exhausted_landings) == (1, 0, 0)


@pytest.mark.parametrize(("deck", "gained", "left"), [
    (cards("4♣ 2♦ 5♥ 3♠"), cards("4♣ 2♦ 5♥"), cards("3♠")),
    (cards("2♣"), cards("2♣"), []),
    ([], [], []),
])
def test_landing_cases_2_and_3_exhausted_pile(deck, gained, left):
    piles = [cards("6♣"), [], cards("10♣"), cards("7♣")]
    t = make_table(deck=deck, discard=cards("5♣"), piles=piles, boat=1)  # port 1 is Q♦
    assert t.ports[1].rank == 12
    ref.land(t, 5, 1, StubWorld())
    assert t.collection == gained
    assert t.movement_deck == left
    assert t.discard == cards("5♣")
    assert t.piles == piles
    assert (t.landings, t.replenishments, t.exhausted_landings) == (1, 0, 1)


def test_landing_exhausted_take_option():
    t = make_table(Rules(exhausted_pile_take=5), deck=cards("4♣ 2♦ 5♥ 3♠ 2♠ 3♥"),
                   piles=[[], [], [], []], boat=1)
    ref.land(t, 2, 1, StubWorld())
    assert t.collection == cards("4♣ 2♦ 5♥ 3♠ 2♠")
    assert t.movement_deck == cards("3♥")


def test_landing_case_4_closed_port_returns_all_three():
    """Reached with a 4♠; discard [2♣, 5♦] + 4♠ = 3 cards; n = min(4, 3) = 3."""
    world = StubWorld()
    t = make_table(deck=cards("3♥"), hand=cards("4♠"), discard=cards("2♣ 5♦"),
                   open_ports=[i for i in range(N) if i != 4], boat=0)
    ref.play_one_move(t, 4, 1, world)
    assert t.boat == 4 and not t.face_up[4]
    assert world.shuffled == [cards("2♣ 5♦ 4♠")]           # the whole discard, oldest first
    assert t.discard == []
    assert t.movement_deck == cards("3♥ 2♣ 5♦ 4♠")          # under the bottom, shuffled order
    assert t.collection == []
    assert (t.landings, t.replenishments, t.exhausted_landings) == (1, 1, 0)


def test_landing_case_5_closed_port_returns_two_of_five():
    """Reached with a 2♥; discard [3♣, 3♦, 4♥, 5♠] + 2♥ = 5 cards; n = 2."""
    world = StubWorld()
    t = make_table(deck=cards("2♠"), hand=cards("2♥"), discard=cards("3♣ 3♦ 4♥ 5♠"),
                   open_ports=[i for i in range(N) if i != 2], boat=0)
    ref.play_one_move(t, 2, 1, world)
    assert world.shuffled == [cards("3♣ 3♦ 4♥ 5♠ 2♥")]
    assert t.movement_deck == cards("2♠ 3♣ 3♦")             # identity shuffle: the first two
    assert t.discard == cards("4♥ 5♠ 2♥")


def test_landing_case_5_with_a_real_shuffle():
    """Two random cards of the five (the card just played included) go under the deck."""
    five = cards("3♣ 3♦ 4♥ 5♠ 2♥")
    returned_ever = Counter()
    for game in range(300):
        t = make_table(deck=cards("2♠"), hand=cards("2♥"), discard=cards("3♣ 3♦ 4♥ 5♠"),
                       open_ports=[i for i in range(N) if i != 2], boat=0)
        ref.play_one_move(t, 2, 1, Rng(11, game, WORLD))
        assert t.movement_deck[0] == cards("2♠")[0] and len(t.movement_deck) == 3
        returned = t.movement_deck[1:]
        assert len(t.discard) == 3
        assert Counter(returned + t.discard) == Counter(five)
        returned_ever.update(returned)
    # every one of the five, the 2♥ just played included, comes back sometimes
    assert set(returned_ever) == set(five)
    assert min(returned_ever.values()) > 60   # about 120 expected each


def test_landing_on_a_closed_port_never_collects_rum():
    """§4.4 item 4: a closed port pays no rum, exhausted pile or not."""
    for piles in (PILES_9_6, [[], [], [], []]):
        t = make_table(deck=cards("3♥ 4♥ 5♥"), hand=cards("3♠"), discard=cards("2♣"),
                       piles=piles, open_ports=[0, 15], boat=0)
        ref.play_one_move(t, 3, 1, StubWorld())
        assert t.collection == []
        assert t.piles == [list(p) for p in piles]


def test_closed_port_effect_options():
    """§7: replenish_and_collect collects first, then replenishes; nothing does nothing."""
    t = make_table(Rules(flipped_port_effect="replenish_and_collect"), deck=cards("5♥"),
                   hand=cards("3♠"), discard=cards("2♣ 4♣"), open_ports=[0], boat=0)
    ref.play_one_move(t, 3, 1, StubWorld())                 # port 3 is A♠ -> 7/9 pile
    assert t.collection == cards("9♣")
    assert t.movement_deck == cards("5♥ 2♣ 4♣ 3♠")
    assert t.discard == []
    t = make_table(Rules(flipped_port_effect="nothing"), deck=cards("5♥"),
                   hand=cards("3♠"), discard=cards("2♣ 4♣"), open_ports=[0], boat=0)
    world = StubWorld()
    ref.play_one_move(t, 3, 1, world)
    assert t.collection == [] and t.movement_deck == cards("5♥")
    assert t.discard == cards("2♣ 4♣ 3♠") and world.shuffled == []


def test_replenish_amount_options():
    # turn_steps: all steps this turn, this move included (3 + 3 = 6, limited by the discard)
    rules = Rules(replenish_amount="turn_steps")
    t = make_table(rules, hand=cards("3♠ 3♥"), discard=cards("2♣ 2♦ 4♣ 4♦ 5♣ 5♦"),
                   open_ports=[i for i in range(N) if i != 6], boat=0)
    ref.begin_turn(t)
    ref.play_one_move(t, 3, 1, StubWorld())                 # port 3, open: collects
    assert t.movement_deck == []
    ref.play_one_move(t, 3, 1, StubWorld())                 # port 6, closed: returns 6
    assert t.movement_deck == cards("2♣ 2♦ 4♣ 4♦ 5♣ 5♦")
    assert t.discard == cards("3♥ 3♠")                      # lowest suit copy played first
    # cards_played_this_turn: 2 cards played -> 2 returned
    rules = Rules(replenish_amount="cards_played_this_turn")
    t = make_table(rules, hand=cards("3♠ 3♥"), discard=cards("2♣ 2♦ 4♣"),
                   open_ports=[i for i in range(N) if i != 6], boat=0)
    ref.begin_turn(t)
    ref.play_one_move(t, 3, 1, StubWorld())
    ref.play_one_move(t, 3, 1, StubWorld())
    assert t.movement_deck == cards("2♣ 2♦")
    # replenish_includes_played_card=false: the card just played stays out of the shuffle
    rules = Rules(replenish_includes_played_card=False)
    world = StubWorld()
    t = make_table(rules, hand=cards("4♠"), discard=cards("2♣ 5♦"),
                   open_ports=[i for i in range(N) if i != 4], boat=0)
    ref.play_one_move(t, 4, 1, world)
    assert world.shuffled == [cards("2♣ 5♦")]
    assert t.movement_deck == cards("2♣ 5♦") and t.discard == cards("4♠")
    t = make_table(rules, hand=cards("4♠"), open_ports=[i for i in range(N) if i != 4], boat=0)
    ref.play_one_move(t, 4, 1, StubWorld())                 # n = min(4, 1 - 1) = 0
    assert t.movement_deck == [] and t.discard == cards("4♠")


def test_landing_case_6_only_same_number_may_follow():
    t = make_table(deck=cards("2♠"), hand=cards("3♣ 3♦ 5♠"), open_ports=None, boat=0)
    assert ref.legal_actions(t) == [Action(DRAW), play(3), play(5)]
    policy = ScriptedPolicy(continues=[True])
    ref.play_cards(t, play(3), policy, StubWorld())
    # 3♣ (lowest suit) first, then 3♦ after the one D3 question; no question once no 3 is left
    assert t.discard == cards("3♣ 3♦")
    assert [a for a in policy.asked if a[0] == "continue"] == [("continue", 3)]
    assert t.hand == cards("5♠") and t.boat == 6
    # STOP after the first 3 leaves the other 3 in hand
    t = make_table(deck=cards("2♠"), hand=cards("3♦ 5♠ 3♣"), boat=0)
    ref.play_cards(t, play(3), ScriptedPolicy(continues=[False]), StubWorld())
    assert t.discard == cards("3♣") and sorted(t.hand) == cards("3♦ 5♠")


def test_landing_twice_on_the_same_open_port_collects_twice():
    """§4.4 items 2-3: from 14 heading right a 2 lands where it started; each landing collects."""
    t = make_table(hand=cards("2♣ 2♦"), boat=12, heading=RIGHT)     # port 14 is K♦ -> 10s
    ref.play_cards(t, play(2), ScriptedPolicy(continues=[True]), StubWorld())
    assert t.collection == cards("10♣ 10♦")                 # 12 -> 14, then 15, 14
    assert (t.boat, t.heading) == (14, LEFT)
    assert t.landings == 2
    t = make_table(hand=cards("2♣"), boat=14, heading=RIGHT)
    ref.play_cards(t, play(2), ScriptedPolicy(), StubWorld())
    assert (t.boat, t.heading) == (14, LEFT) and t.collection == cards("10♣")


def test_legal_actions_and_pass():
    assert ref.legal_actions(make_table(deck=cards("2♠"))) == [Action(DRAW)]
    assert ref.legal_actions(make_table(hand=cards("4♠ 2♥ 4♣"))) == [play(2), play(4)]
    assert ref.legal_actions(make_table()) == [Action(PASS)]
    forbid = Rules(draw_when_short="forbid")
    assert ref.legal_actions(make_table(forbid, deck=cards("2♠ 3♠"))) == [Action(PASS)]
    assert ref.legal_actions(make_table(forbid, deck=cards("2♠ 3♠ 4♠"))) == [Action(DRAW)]
    reshuffle = Rules(reshuffle_discard_when_deck_empty=True)
    assert ref.legal_actions(make_table(reshuffle, discard=cards("2♠"))) == [Action(DRAW)]
    combined = Rules(multi_card_mode="combined")
    assert ref.legal_actions(make_table(combined, hand=cards("4♠ 2♥ 4♣"))) == [
        play(2), Action(PLAY, 4, 1), Action(PLAY, 4, 2)]


def test_draw_takes_three_or_what_is_left():
    t = make_table(deck=cards("2♠ 3♠ 4♠ 5♠"))
    ref.draw(t, StubWorld())
    assert t.hand == cards("2♠ 3♠ 4♠") and t.movement_deck == cards("5♠")
    ref.draw(t, StubWorld())
    assert t.hand == cards("2♠ 3♠ 4♠ 5♠") and t.movement_deck == []
    assert t.draws == 2


# ================================================================ §9.5 end of game


def test_blocked_last_port():
    world = StubWorld()
    t = make_table(deck=cards("4♣ 5♣"), hand=cards("3♥ 2♠"), discard=cards("2♣ 5♦"),
                   open_ports=[11], boat=8, heading=RIGHT, turn=15)
    policy = ScriptedPolicy(actions=[play(3), play(2)])
    ref.play_turn(t, policy, world)                          # turn t
    assert t.boat == 11 and t.collection == cards("9♣")     # 7/9 pile top
    assert t.open_ports() == [11] and t.end_reason is None
    assert not any(a[0] == "flip" for a in policy.asked)
    ref.play_turn(t, policy, world)                          # turn t+1
    assert t.boat == 13 and t.ports[13] == Card(12, 0)
    assert world.shuffled == [cards("2♣ 5♦ 3♥ 2♠")]
    assert t.movement_deck == cards("4♣ 5♣ 2♣ 5♦")          # min(2, 4) = 2 returned
    assert t.open_ports() == []
    assert t.end_reason == "normal" and t.turn == 17
    assert policy.done()


def test_stranded():
    t = make_table(hand=cards("3♥"), discard=cards("2♣ 5♦"), open_ports=[11], boat=8,
                   heading=RIGHT, turn=15)
    policy = ScriptedPolicy()                                # PLAY 3 is forced: no question
    ref.play_turn(t, policy, StubWorld())
    assert t.boat == 11 and t.collection == cards("9♣")
    assert t.end_reason == "stranded" and t.turn == 16
    assert t.open_ports() == [11] and t.face_up[11]
    assert policy.asked == []


def test_stranded_needs_the_hand_and_deck_empty():
    t = make_table(deck=cards("2♠"), hand=cards("3♥"), open_ports=[11], boat=8, turn=15)
    ref.play_turn(t, ScriptedPolicy(actions=[play(3)]), StubWorld())
    assert t.boat == 11 and t.end_reason is None            # a DRAW is still possible
    t = make_table(hand=cards("3♥ 4♥"), open_ports=[11], boat=8, turn=15)
    ref.play_turn(t, ScriptedPolicy(actions=[play(3)]), StubWorld())
    assert t.end_reason is None                              # a card is still in hand


def test_end_on_stranded_false_plays_to_the_cap():
    rules = Rules(end_on_stranded=False, max_turns=20)
    t = make_table(rules, hand=cards("3♥"), open_ports=[11], boat=8, turn=15)
    policy = ScriptedPolicy()
    ref.play_turn(t, policy, StubWorld())
    assert t.end_reason is None
    while t.end_reason is None:
        ref.play_turn(t, policy, StubWorld())
    assert t.end_reason == "capped" and t.turn == 20 and t.open_ports() == [11]


def test_running_out_on_passes():
    t = make_table(open_ports=[3, 9], boat=5, turn=14)
    assert not t.face_up[5]
    policy = ScriptedPolicy(flips=[3])
    ref.play_turn(t, policy, StubWorld())                    # PASS, flip 3 (chosen)
    assert t.open_ports() == [9] and t.end_reason is None
    ref.play_turn(t, policy, StubWorld())                    # PASS, flip 9 (forced)
    assert t.open_ports() == [] and t.end_reason == "normal" and t.turn == 16
    assert [a[0] for a in policy.asked] == ["flip"]          # PASS and the last flip are forced
    assert policy.done()


def test_pass_without_flip_on_pass_strands_at_once():
    t = make_table(Rules(flip_on_pass=False), open_ports=[3, 9], boat=5, turn=14)
    ref.play_turn(t, ScriptedPolicy(), StubWorld())
    assert t.open_ports() == [3, 9] and t.end_reason == "stranded"


def test_draw_turn_flip_follows_flip_after_draw():
    t = make_table(deck=cards("2♠ 3♠ 4♠ 5♠"), open_ports=[3, 9], boat=5)
    ref.play_turn(t, ScriptedPolicy(flips=[9]), StubWorld())
    assert t.open_ports() == [3]
    t = make_table(Rules(flip_after_draw=False), deck=cards("2♠ 3♠ 4♠ 5♠"), open_ports=[3, 9],
                   boat=5)
    ref.play_turn(t, ScriptedPolicy(), StubWorld())
    assert t.open_ports() == [3, 9] and t.hand == cards("2♠ 3♠ 4♠")


def test_capped():
    t = make_table(Rules(max_turns=16), deck=cards("2♠ 3♠ 4♠"), open_ports=[3, 9], boat=5,
                   turn=15)
    ref.play_turn(t, ScriptedPolicy(flips=[3]), StubWorld())
    assert t.end_reason == "capped" and t.turn == 16


def test_normal_end_after_exactly_16_turns():
    """§9.5: when every turn flips a port the 16th flip ends the game, never earlier."""
    from engines.rum_runner.policies import GreedyPolicy

    found = 0
    for game in range(40):
        world = Rng(3, game, WORLD)
        t = ref.setup(Rules(), world)
        policy = GreedyPolicy()
        ref.place_boat(t, ref.choose_start(t, policy, world))
        flipped_every_turn = True
        while t.end_reason is None:
            before = len(t.open_ports())
            ref.play_turn(t, policy, world)
            if len(t.open_ports()) != before - 1:
                flipped_every_turn = False
            if flipped_every_turn:
                assert len(t.open_ports()) == N - t.turn
                assert (t.end_reason == "normal") == (t.turn == 16)
        if flipped_every_turn:
            found += 1
            assert t.turn == 16 and t.end_reason == "normal"
    assert found >= 20


# ================================================================ §9.6 scripted opening

# After each turn: boat, heading, hand, deck size, discard size, collection, score, closed ports.
OPENING = [
    (4, RIGHT, "4♥", 13, 2, "10♣ 6♣", 8, [15]),
    (8, RIGHT, "", 13, 3, "10♣ 6♣ 6♦", 17, [15, 14]),
    (8, RIGHT, "3♠ 5♣ 4♦", 10, 3, "10♣ 6♣ 6♦", 17, [15, 14, 0]),
    (13, RIGHT, "3♠ 4♦", 10, 4, "10♣ 6♣ 6♦ 8♣", 21, [15, 14, 0, 1]),
    (13, LEFT, "3♠", 10, 5, "10♣ 6♣ 6♦ 8♣ 8♦", 33, [15, 14, 0, 1, 2]),
    (10, LEFT, "", 10, 6, "10♣ 6♣ 6♦ 8♣ 8♦ 10♦", 48, [15, 14, 0, 1, 2, 3]),
    (10, LEFT, "2♥ 3♣ 5♦", 7, 6, "10♣ 6♣ 6♦ 8♣ 8♦ 10♦", 48, [15, 14, 0, 1, 2, 3, 4]),
    (8, LEFT, "3♣ 5♦", 7, 7, "10♣ 6♣ 6♦ 8♣ 8♦ 10♦ 6♥", 51, [15, 14, 0, 1, 2, 3, 4, 5]),
    (3, LEFT, "3♣", 12, 3, "10♣ 6♣ 6♦ 8♣ 8♦ 10♦ 6♥", 51, [15, 14, 0, 1, 2, 3, 4, 5, 6]),
]

# turns 3 and 7 are forced DRAWs (empty hand): the policy is not asked then
OPENING_ACTIONS = [play(2), play(4), play(5), play(4), play(3), play(2), play(5)]
OPENING_FLIPS = [15, 14, 0, 1, 2, 3, 4, 5, 6]


def deal_9_6() -> Deal:
    return Deal(ports=list(PORTS_9_6), movement_deck=list(DECK_9_6),
                piles=[list(p) for p in PILES_9_6])


def opening_policy() -> ScriptedPolicy:
    return ScriptedPolicy(start="left", actions=OPENING_ACTIONS, continues=[True],
                          flips=OPENING_FLIPS)


def test_scripted_opening_setup():
    world = StubWorld()
    t = ref.setup(Rules(), world, deal_9_6())
    assert world.shuffled == []                              # an injected deal shuffles nothing
    assert t.ports == PORTS_9_6 and all(t.face_up)
    assert t.hand == cards("2♣ 2♦ 4♥")
    assert t.movement_deck == DECK_9_6[3:] and len(t.movement_deck) == 13
    assert t.piles == PILES_9_6 and t.discard == [] and t.collection == [] and t.turn == 0
    policy = opening_policy()
    ref.place_boat(t, ref.choose_start(t, policy, world))
    assert (t.boat, t.heading) == (0, RIGHT)


def test_scripted_opening_every_turn():
    world = StubWorld()                                      # no random draw may happen
    t = ref.setup(Rules(), world, deal_9_6())
    policy = opening_policy()
    ref.place_boat(t, ref.choose_start(t, policy, world))
    for turn, (boat, heading, hand, deck, discard, collection, score, closed) in enumerate(
            OPENING, start=1):
        ref.play_turn(t, policy, world)
        where = f"after turn {turn}"
        assert t.turn == turn, where
        assert (t.boat, t.heading) == (boat, heading), where
        assert Counter(t.hand) == Counter(cards(hand)), where
        assert len(t.movement_deck) == deck, where
        assert len(t.discard) == discard, where
        assert t.collection == cards(collection), where
        assert t.score() == score, where
        assert t.open_ports() == [i for i in range(N) if i not in closed], where
        assert t.end_reason is None, where
    assert policy.done()
    # the D2 options offered on turn 1 and the D3 questions asked
    assert policy.asked[1] == ("action", [Action(DRAW), play(2), play(4)])
    assert [a for a in policy.asked if a[0] == "continue"] == [("continue", 2)]
    assert [a[0] for a in policy.asked] == (
        ["start", "action", "continue", "flip", "action", "flip", "flip"]
        + ["action", "flip"] * 3 + ["flip"] + ["action", "flip"] * 2)
    # final state after turn 9, exactly as §9.6 gives it (identity shuffle)
    assert world.shuffled == [cards("2♣ 2♦ 4♥ 5♣ 4♦ 3♠ 2♥ 5♦")]   # discard, oldest first
    assert (t.boat, t.heading) == (3, LEFT)
    assert t.hand == cards("3♣")
    assert t.movement_deck == cards("4♠ 2♠ 3♦ 5♥ 4♣ 3♥ 5♠ 2♣ 2♦ 4♥ 5♣ 4♦")
    assert t.discard == cards("3♠ 2♥ 5♦")
    assert t.open_ports() == [7, 8, 9, 10, 11, 12, 13]
    assert Counter(t.collection) == Counter(cards("10♣ 6♣ 6♦ 8♣ 8♦ 10♦ 6♥"))
    assert t.score() == 51 == 20 + 15 + 16
    assert t.piles == [cards("6♠"), cards("8♥ 8♠"), cards("10♥ 10♠"), PILES_9_6[3]]
    assert (t.landings, t.replenishments, t.exhausted_landings, t.draws) == (8, 1, 0, 2)


def test_scripted_opening_with_a_real_shuffle():
    """After turn 9 the deck is the 7 old cards followed by 5 of the 8 discards, in any order."""
    eight = cards("2♣ 2♦ 4♥ 5♣ 4♦ 3♠ 2♥ 5♦")
    bottoms = set()
    for game in range(20):
        world = Rng(5, game, WORLD)
        t = ref.setup(Rules(), world, deal_9_6())
        policy = opening_policy()
        ref.place_boat(t, ref.choose_start(t, policy, world))
        for _ in range(9):
            ref.play_turn(t, policy, world)
        assert t.movement_deck[:7] == cards("4♠ 2♠ 3♦ 5♥ 4♣ 3♥ 5♠")
        assert len(t.movement_deck) == 12 and len(t.discard) == 3
        assert Counter(t.movement_deck[7:] + t.discard) == Counter(eight)
        assert (t.boat, t.heading, t.score()) == (3, LEFT, 51)
        bottoms.add(tuple(t.movement_deck[7:]))
    assert len(bottoms) > 1


def test_play_game_uses_the_injected_deal():
    """play_game with a Deal plays from it (narrated events of the first two turns)."""
    from engines.rum_runner.policies import GreedyPolicy

    class ThenGreedy(GreedyPolicy):
        def __init__(self):
            super().__init__()
            self.script = opening_policy()

        def choose_start_end(self, t):
            return self.script.choose_start_end(t)

        def choose_action(self, t, options):
            if t.turn <= 2:
                return self.script.choose_action(t, options)
            return super().choose_action(t, options)

        def choose_continue(self, t, value):
            if t.turn <= 2:
                return self.script.choose_continue(t, value)
            return super().choose_continue(t, value)

        def choose_flip(self, t, candidates):
            if t.turn <= 2:
                return self.script.choose_flip(t, candidates)
            return super().choose_flip(t, candidates)

    t = ref.play_game(Rules(), 1, [ThenGreedy()], Rng(1, 0, WORLD), deal=deal_9_6(), narrate=True)
    assert t.ports == PORTS_9_6
    events = [e for e in t.events if e["event"] in ("play", "collect", "flip")][:7]
    assert events == [
        {"event": "play", "cards": ["2♣"], "start": 0, "boat": 2},
        {"event": "collect", "card": "10♣", "pile": "10s"},
        {"event": "play", "cards": ["2♦"], "start": 2, "boat": 4},
        {"event": "collect", "card": "6♣", "pile": "6s"},
        {"event": "flip", "port": 15},
        {"event": "play", "cards": ["4♥"], "start": 4, "boat": 8},
        {"event": "collect", "card": "6♦", "pile": "6s"},
    ]
    assert t.end_reason is not None


def test_start_end_rule():
    t = ref.setup(Rules(start_end="right"), StubWorld(), deal_9_6())
    policy = ScriptedPolicy(start="left")
    end = ref.choose_start(t, policy, StubWorld())
    ref.place_boat(t, end)
    assert (t.boat, t.heading) == (15, LEFT) and policy.asked == []
    rules = Rules(start_end="random")
    assert ref.choose_start(ref.setup(rules, StubWorld(), deal_9_6()), policy,
                            StubWorld(below=[0])) == "left"
    assert ref.choose_start(ref.setup(rules, StubWorld(), deal_9_6()), policy,
                            StubWorld(below=[1])) == "right"


# ================================================================ §7 rule options


def test_defaults_match_the_spec_table():
    r = Rules()
    assert r.to_dict() == {
        "start_end": "choose", "port_topology": "line", "flipped_ports_count_as_spaces": True,
        "multi_card_mode": "sequential", "bounce_mode": "reflect",
        "flipped_port_effect": "replenish_only", "replenish_amount": "card_value",
        "replenish_includes_played_card": True, "exhausted_pile_take": 3, "draw_count": 3,
        "draw_when_short": "take_remaining", "flip_after_draw": True, "flip_on_pass": True,
        "reshuffle_discard_when_deck_empty": False, "hand_scores": False,
        "suit_set_mode": "additive", "suit_set_value": 30, "pair_rule": "disjoint",
        "score_band_edges": (200, 250, 300, 325, 350),
        "score_band_edge_rule": "lower_inclusive", "win_threshold": 200,
        "end_on_stranded": True, "max_turns": 200,
    }
    assert r.describe() == "default" and r.changed() == {}


def test_from_overrides_parses_strings_and_native_values():
    r = Rules.from_overrides({"draw_count": "2", "flip_after_draw": "false",
                              "bounce_mode": "WRAP", "score_band_edges": "[1, 2, 3, 4, 5]",
                              "suit_set_value": 10, "hand_scores": True})
    assert r.draw_count == 2 and r.flip_after_draw is False and r.bounce_mode == "wrap"
    assert r.score_band_edges == (1, 2, 3, 4, 5) and r.suit_set_value == 10 and r.hand_scores
    assert Rules.from_overrides({}) == Rules() == Rules.from_overrides(None)


@pytest.mark.parametrize(("typo", "meant"), [
    ("flip_afer_draw", "flip_after_draw"),
    ("draw_cont", "draw_count"),
    ("bounce", "bounce_mode"),
    ("suit_set_mod", "suit_set_mode"),
])
def test_unknown_key_suggests_the_closest_name(typo, meant):
    for call in (lambda: Rules.from_overrides({typo: "1"}),
                 lambda: Rules.from_strings([f"{typo}=1"]),
                 lambda: Rules.option(typo)):
        with pytest.raises(RulesError) as err:
            call()
        assert f"'{typo}'" in str(err.value)
        assert f"did you mean '{meant}'" in str(err.value)


def test_unknown_key_far_from_everything_has_no_suggestion():
    with pytest.raises(RulesError) as err:
        Rules.from_overrides({"zzzzzz": 1})
    assert "unknown rule 'zzzzzz'" in str(err.value) and "did you mean" not in str(err.value)


@pytest.mark.parametrize(("key", "value", "allowed"), [
    ("draw_count", "0", "int 1..16"),
    ("draw_count", "17", "int 1..16"),
    ("draw_count", "two", "int 1..16"),
    ("draw_count", "2.5", "int 1..16"),
    ("exhausted_pile_take", "-1", "int 0..16"),
    ("max_turns", "15", "int 16..100000"),
    ("flip_after_draw", "maybe", "true|false"),
    ("bounce_mode", "bounce", "reflect|stop_at_end|wrap"),
    ("start_end", "middle", "choose|left|right|random"),
    ("multi_card_mode", "summed", "sequential|combined"),
    ("score_band_edges", "200,250,300", "list of 5 increasing integers"),
    ("score_band_edges", "350,325,300,250,200", "list of 5 increasing integers"),
    ("score_band_edges", "200,250,x,325,350", "list of 5 increasing integers"),
])
def test_bad_values_name_key_value_and_allowed(key, value, allowed):
    with pytest.raises(RulesError) as err:
        Rules.from_overrides({key: value})
    msg = str(err.value)
    assert key in msg and repr(value) in msg and allowed in msg
    overrides = Rules.from_strings([f"{key}={value}"])          # parsing is deferred
    with pytest.raises(RulesError):
        Rules.from_overrides(overrides)


def test_bad_choice_suggests_the_closest_value():
    with pytest.raises(RulesError) as err:
        Rules.from_overrides({"bounce_mode": "stop_at_ends"})
    assert "did you mean 'stop_at_end'" in str(err.value)


def test_direct_construction_validates():
    with pytest.raises(RulesError):
        Rules(draw_count=0)
    with pytest.raises(RulesError):
        Rules(bounce_mode="sideways")
    assert issubclass(RulesError, ValueError)


def test_presets():
    assert Rules.from_overrides(preset="standard") == Rules()
    long = Rules.from_overrides(preset="long")
    assert long.changed() == {"flip_after_draw": False}
    assert long.describe() == "flip_after_draw=false"
    both = Rules.from_overrides({"draw_count": "2"}, preset="long")
    assert both.changed() == {"flip_after_draw": False, "draw_count": 2}
    # an override wins over the preset
    assert Rules.from_overrides({"flip_after_draw": "true"}, preset="long") == Rules()
    assert {"standard", "long"} <= set(Rules.preset_names())
    with pytest.raises(RulesError) as err:
        Rules.from_overrides(preset="lnog")
    assert "unknown preset 'lnog'" in str(err.value) and "did you mean 'long'" in str(err.value)


def test_from_strings():
    assert Rules.from_strings(["draw_count=2", " bounce_mode = wrap "]) == {
        "draw_count": "2", "bounce_mode": "wrap"}
    assert Rules.from_strings([]) == {}
    with pytest.raises(RulesError) as err:
        Rules.from_strings(["draw_count"])
    assert "key=value" in str(err.value)
    r = Rules.from_overrides(Rules.from_strings(["draw_count=2", "flip_on_pass=no"]))
    assert r.draw_count == 2 and r.flip_on_pass is False


def test_read_file(tmp_path):
    top = tmp_path / "top.toml"
    top.write_text('flip_after_draw = false\nscore_band_edges = [100, 200, 300, 400, 500]\n'
                   'bounce_mode = "stop_at_end"\n', encoding="utf-8")
    r = Rules.from_overrides(Rules.read_file(top))
    assert r.changed() == {"flip_after_draw": False, "bounce_mode": "stop_at_end",
                           "score_band_edges": (100, 200, 300, 400, 500)}
    table = tmp_path / "table.toml"
    table.write_text("[rules]\ndraw_count = 2\n", encoding="utf-8")
    assert Rules.from_overrides(Rules.read_file(str(table))).draw_count == 2

    typo = tmp_path / "typo.toml"
    typo.write_text("draw_cont = 2\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        Rules.read_file(typo)
    assert "did you mean 'draw_count'" in str(err.value)

    bad_value = tmp_path / "bad.toml"
    bad_value.write_text("draw_count = 0\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        Rules.from_overrides(Rules.read_file(bad_value))
    assert "draw_count" in str(err.value) and "1..16" in str(err.value)

    with pytest.raises(RulesError) as err:
        Rules.read_file(tmp_path / "missing.toml")
    assert "does not exist" in str(err.value)
    broken = tmp_path / "broken.toml"
    broken.write_text("draw_count = = 2\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        Rules.read_file(broken)
    assert "not valid TOML" in str(err.value)
