"""Rum Runner, the Numba fast path: the same games as ``reference.py``, draw for draw.

This module owns the flat-state engine. A whole game lives in ONE int64 buffer
of ``S_SIZE`` slots at the named offsets ``S_*`` below (the rules vector and a
rank-points table derived from it sit in the same buffer), and small ``@njit``
functions each do one rule step (deal, sail, land, collect, replenish, draw,
flip, end check, score) or one policy decision; a turn function per policy
strings them together. Because the state is one flat buffer, the rollout policy
copies it into a preallocated buffer, re-deals the hidden cards there and plays
the copy out with its base policy (greedy, or the heuristic with the expert's
values), without touching the game.

``engines._fast`` runs the games (``FAST`` at the end of this module): it
hands ``play_one`` the block's buffers as typed pointers (``int64*``, indexed
like the array), the generator states and the encoded rules and policy. The
rules are read at the indices ``R = Rules.slots()``, from the copy
``setup_block`` puts into the state at ``S_RULES``; the policy's parameters at
the columns its ``PolicySpec.slots()`` names (``GREEDY.draw_threshold``).

Replay contract (see ``reference.py``): the world stream makes the deal,
``start_end=random``, replenishment and reshuffle shuffles; the policy stream
makes the random policy's choices and, for the rollout policy, its re-deals
and every random draw of its imagined games. Option lists, tie-breaks and the
float arithmetic of greedy's gains and of the heuristic's feature sums follow
``policies.py`` exactly (the heuristic values each pile top once a decision, and
skips planning chains that an upper bound shows cannot change it: ``heur_best``).

Card ids are ``(rank - 2) * 4 + suit`` (``cards.py``): movement cards 0..15,
rum cards 16..35, ports 36..51. The hand is one suit bitmask per value 2..5
(the lowest-suit copy is the lowest set bit); the collection is a 36-bit mask
plus suit counts and (additive scoring) running rank points.

Restricted play (``engines._restrict``): play_one reads the seat's masks from its own
row into the state (``S_FORBID``, ``S_FORCE``), so the rollout's copies carry them into
every imagined game; each decision narrows its options first (``kept_actions``,
``chain_rule``, ``kept_flips``, ``kept_starts``), as ``reference.py`` does, and ``S_TOOK``
counts the kinds taken.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.extending import intrinsic

from engines._fast import fast_path, offset, ptr
from engines._game import FORBID_COLUMN, FORCE_COLUMN, POLICY_WIDTH
from engines._jit import njit
from engines._restrict import is_allowed_fast, is_forced_fast, keeps_fast, kept_binary_fast
from engines._rng import rng_below, rng_shuffle
from engines.rum_runner import CHOICE, CHOICES, POLICIES
from engines.rum_runner.rules import R

N_PORTS = 16
CYCLE = 2 * (N_PORTS - 1)  # spec §4.1
RIGHT = 1
LEFT = -1

# ---------------------------------------------------------------- the flat state
S_PORT_PILE = 0        # 16: rum pile (0 6s, 1 8s, 2 10s, 3 7/9s) paid by the port at each position
S_FACE_UP = 16         # bitmask of open ports
S_BOAT = 17            # boat position 0..15
S_HEADING = 18         # RIGHT (+1) or LEFT (-1)
S_DECK_HEAD = 19       # live deck = S_DECK[head : head + n], top first
S_DECK_N = 20
S_DECK = 21            # 16 card ids
S_DECK_BATCH = 37      # 16: the batch each deck card arrived with (parallel to S_DECK)
S_BATCHES = 53         # batches made so far (replenishments + reshuffles)
S_HAND = 54            # 4: suit bitmask of the hand's cards of value 2, 3, 4, 5
S_HAND_N = 58
S_DISC_N = 59
S_DISC = 60            # 16: discard pile, oldest first
S_PILE_TOP = 76        # 4: index of each rum pile's top card within its slots
S_PILE_END = 80        # 4: one past each pile's last card
S_PILE = 84            # 4 x 8: the piles' cards, top first (pile p at S_PILE + 8 p)
S_COLL = 116           # bitmask of collected card ids (0..35)
S_COLL_N = 117
S_COLL_MOVE = 118      # movement cards in the collection
S_SUIT_N = 119         # 4: collected cards per suit
S_BASE = 123           # rank points of the collection (additive mode, kept incrementally)
S_SCORE = 124          # score of the collection now (both modes)
S_TURN = 125
S_END = 126            # -1 while playing, then 0 normal / 1 stranded / 2 capped
S_STEPS_TURN = 127
S_CARDS_TURN = 128
S_LANDINGS = 129
S_REPLEN = 130
S_EXHAUSTED = 131
S_DRAWS = 132
S_PILE_PORTS = 133     # 4: bitmask of the ports that pay from each pile (fixed by the deal)
S_FORBID = 137         # the seat's restriction: bits of the CHOICES it may never take
S_FORCE = 138          # ... and of those it must take when it can
S_TOOK = 139           # N_CHOICES: times the seat took an option of each kind
N_CHOICES = len(CHOICES)
S_RULES = S_TOOK + N_CHOICES  # R.SIZE: the rules vector (Rules.encode()), read as s[S_RULES + R.<name>]
S_RANK_POINTS = S_RULES + R.SIZE  # 9 x 5: rank_points(rank, n) for rank 2..10, n 0..4 (from rules)
S_SIZE = S_RANK_POINTS + 45
# Under suit_set_mode=exclusive the state array is 2 * DP_STATES slots longer: scratch for the
# scoring DP (never copied, never part of the game).
S_SCRATCH = S_SIZE

# action kinds
A_DRAW = 0
A_PLAY = 1
A_PASS = 2

# option kinds (the CHOICES bits): play_v is K_PLAY + v - 2, closing a port that pays from
# pile p (J 6s, Q 8s, K 10s, A 7/9s) is K_CLOSE + p
K_START_LEFT = CHOICE["start_left"]
K_START_RIGHT = CHOICE["start_right"]
K_DRAW = CHOICE["draw"]
K_PLAY = CHOICE["play_2"]
K_CHAIN = CHOICE["chain"]
K_CLOSE = CHOICE["close_jack"]
if ([CHOICE[f"play_{v}"] for v in range(2, 6)] != [K_PLAY + i for i in range(4)]
        or [CHOICE[f"close_{r}"] for r in ("jack", "queen", "king", "ace")]
        != [K_CLOSE + p for p in range(4)]):
    raise ImportError("rum_runner.CHOICES: play_2..play_5 and close_jack..close_ace must be "
                      "consecutive, in that order")
HAND_VALUES = 15  # every value 2..5 (bit v - 2): a decision over the whole hand

# rollout decisions
D_START = 0
D_ACTION = 1
D_CONTINUE = 2
D_FLIP = 3

# the option buffer of the rollout policy: kinds, values, counts, totals
MAX_OPTIONS = 32
O_KIND = 0
O_VALUE = MAX_OPTIONS
O_COUNT = 2 * MAX_OPTIONS
O_TOTAL = 3 * MAX_OPTIONS
O_SIZE = 4 * MAX_OPTIONS

EXHAUSTED_CARD_VALUE = 3.5     # policies.EXHAUSTED_CARD_VALUE
# the policies' columns in a seat's encoded row (PolicySpec.slots)
RANDOM = POLICIES["random"].slots()
GREEDY = POLICIES["greedy"].slots()
ROLLOUT = POLICIES["rollout"].slots()
HEUR = POLICIES["heuristic"].slots()
# the heuristic's scratch (the block's float buffer): HeuristicPolicy.value of a landing that
# collects each rum pile's visible top, valued once per decision
H_VALUE = 0
H_BOUND_EXHAUSTED = 4   # heur_bounds, once a game
H_BOUND_CLOSED = 5
H_PLAYS = 8             # 4 x 8: heur_best's bound and first landing of each value's play
H_SIZE = 40
DP_STATES = 10 ** 4            # (most suit sets + 1) ** 4, at most 10 ** 4 (9 sets)
NEG = -(1 << 60)


# ================================================================ bits


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits (LLVM ctpop: one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@intrinsic
def _ctz(typingctx, x):
    """Index of the lowest set bit (LLVM cttz; x must not be 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return x(x), codegen


@njit(cache=True, inline="always")
def _low_index4(low):
    """Index of a single set bit of a 4-bit value (1, 2, 4, 8 -> 0, 1, 2, 3)."""
    return (low >> 1) - (low >> 3)


@njit(cache=True, inline="always")
def _nth_bit(mask, n):
    """Index of the n-th (0-based, ascending) set bit of a 16-bit ``mask``.

    Binary search on popcounts with selects instead of a bit-by-bit loop, whose
    unpredictable exit cost a fifth of a random game.
    """
    pos = 0
    for width in (8, 4, 2, 1):
        c = _popcount(mask & ((1 << width) - 1))
        up = n >= c
        n = n - c if up else n
        mask = mask >> width if up else mask
        pos = pos + width if up else pos
    return pos


# ================================================================ scoring (spec §5.2)


@njit(cache=True, inline="always")
def rank_points(rank, n, pair_all):
    """scoring.rank_points."""
    if n <= 0:
        return 0
    if rank <= 5:
        return rank * n
    if rank == 6 or rank == 8 or rank == 10:
        if pair_all:
            return n * rank if n >= 2 else n * (rank // 2)
        return (n // 2) * 2 * rank + (n % 2) * (rank // 2)
    if rank == 7 or rank == 9:
        if pair_all:
            return n * 2 * rank if n >= 2 else 0
        return (n // 2) * 4 * rank
    return 0


@njit(cache=True)
def exclusive_score(s, mask):
    """scoring._exclusive_score of the collection ``mask``: the same DP over (cards of each suit
    put into sets so far), every subset of each rank's cards tried; the best value whose four
    suits put the same number j of cards into sets, plus j sets. Scratch: s[S_SCRATCH:].
    """
    pair_all = s[S_RULES + R.pair_rule]
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for rank in range(2, 11):
        sm = (mask >> ((rank - 2) * 4)) & 15
        c0 += sm & 1
        c1 += (sm >> 1) & 1
        c2 += (sm >> 2) & 1
        c3 += (sm >> 3) & 1
    m = min(min(c0, c1), min(c2, c3))
    if m == 0:
        total = 0
        for rank in range(2, 11):
            total += rank_points(rank, _popcount((mask >> ((rank - 2) * 4)) & 15), pair_all)
        return total
    d = m + 1
    nst = d * d * d * d
    cur = S_SCRATCH
    nxt = S_SCRATCH + DP_STATES
    for i in range(nst):
        s[cur + i] = NEG
    s[cur] = 0
    for rank in range(2, 11):
        sm = (mask >> ((rank - 2) * 4)) & 15
        if sm == 0:
            continue
        nb = _popcount(sm)
        for i in range(nst):
            s[nxt + i] = NEG
        for st in range(nst):
            value = s[cur + st]
            if value == NEG:
                continue
            u0 = st % d
            u1 = (st // d) % d
            u2 = (st // (d * d)) % d
            u3 = st // (d * d * d)
            sub = sm
            while True:  # every subset of the rank's suits, sm down to 0
                v0 = u0 + (sub & 1)
                v1 = u1 + ((sub >> 1) & 1)
                v2 = u2 + ((sub >> 2) & 1)
                v3 = u3 + ((sub >> 3) & 1)
                if v0 <= m and v1 <= m and v2 <= m and v3 <= m:
                    total = value + rank_points(rank, nb - _popcount(sub), pair_all)
                    key = nxt + v0 + d * (v1 + d * (v2 + d * v3))
                    if total > s[key]:
                        s[key] = total
                if sub == 0:
                    break
                sub = (sub - 1) & sm
        cur, nxt = nxt, cur
    best = NEG
    step = 1 + d + d * d + d * d * d
    for j in range(d):
        value = s[cur + j * step]
        if value != NEG:
            total = value + s[S_RULES + R.suit_set_value] * j
            if total > best:
                best = total
    return best


@njit(cache=True)
def add_card(s, c):
    """Put card ``c`` (id 0..35) into the collection (call refresh_score after)."""
    rank = (c >> 2) + 2
    suit = c & 3
    mask = s[S_COLL]
    before = _popcount((mask >> (c & ~3)) & 15)
    s[S_COLL] = mask | (1 << c)
    row = S_RANK_POINTS + (rank - 2) * 5 + before
    s[S_BASE] += s[row + 1] - s[row]
    s[S_SUIT_N + suit] += 1
    s[S_COLL_N] += 1
    if rank <= 5:
        s[S_COLL_MOVE] += 1


@njit(cache=True, inline="always")
def _min_suits(s):
    return min(min(s[S_SUIT_N], s[S_SUIT_N + 1]), min(s[S_SUIT_N + 2], s[S_SUIT_N + 3]))


@njit(cache=True)
def refresh_score(s):
    if s[S_RULES + R.suit_set_mode]:
        s[S_SCORE] = exclusive_score(s, s[S_COLL])
    else:
        s[S_SCORE] = s[S_BASE] + s[S_RULES + R.suit_set_value] * _min_suits(s)


@njit(cache=True)
def score_plus(s, c):
    """Score of the collection with card ``c`` added (the collection is not changed)."""
    if s[S_RULES + R.suit_set_mode]:
        return exclusive_score(s, s[S_COLL] | (1 << c))
    suit = c & 3
    before = _popcount((s[S_COLL] >> (c & ~3)) & 15)
    row = S_RANK_POINTS + (c >> 2) * 5 + before
    base = s[S_BASE] + s[row + 1] - s[row]
    n0 = s[S_SUIT_N] + (suit == 0)
    n1 = s[S_SUIT_N + 1] + (suit == 1)
    n2 = s[S_SUIT_N + 2] + (suit == 2)
    n3 = s[S_SUIT_N + 3] + (suit == 3)
    return base + s[S_RULES + R.suit_set_value] * min(min(n0, n1), min(n2, n3))


# ================================================================ setup (spec §3)


@njit(cache=True)
def deal(s, wr):
    """Steps 1-4 and 6: shuffle ports, movement deck, then the 6s, 8s, 10s and 7/9 piles."""
    for i in range(S_RULES):
        s[i] = 0
    for i in range(16):                      # ports J..A, ascending (rank, suit)
        s[S_PORT_PILE + i] = 36 + i
    rng_shuffle(wr, s, S_PORT_PILE, 16)
    for i in range(16):
        p = (s[S_PORT_PILE + i] >> 2) + 2 - 11
        s[S_PORT_PILE + i] = p
        s[S_PILE_PORTS + p] |= 1 << i
    for i in range(16):                      # movement cards 2..5
        s[S_DECK + i] = i
    rng_shuffle(wr, s, S_DECK, 16)
    for p in range(3):                       # 6s (16..19), 8s (24..27), 10s (32..35)
        first = 16 + 8 * p
        for i in range(4):
            s[S_PILE + 8 * p + i] = first + i
        rng_shuffle(wr, s, S_PILE + 8 * p, 4)
        s[S_PILE_END + p] = 4
    for i in range(4):                       # 7s then 9s
        s[S_PILE + 24 + i] = 20 + i
        s[S_PILE + 28 + i] = 28 + i
    rng_shuffle(wr, s, S_PILE + 24, 8)
    s[S_PILE_END + 3] = 8
    for i in range(3):                       # the hand: the deck's top 3
        c = s[S_DECK + i]
        s[S_HAND + (c >> 2)] |= 1 << (c & 3)
    s[S_HAND_N] = 3
    s[S_DECK_HEAD] = 3
    s[S_DECK_N] = 13
    s[S_FACE_UP] = (1 << N_PORTS) - 1
    s[S_BOAT] = 0
    s[S_HEADING] = RIGHT
    s[S_END] = -1


@njit(cache=True, inline="always")
def place_boat(s, left):
    if left:
        s[S_BOAT] = 0
        s[S_HEADING] = RIGHT
    else:
        s[S_BOAT] = N_PORTS - 1
        s[S_HEADING] = LEFT


# ================================================================ movement (spec §4.1, §7)


@njit(cache=True)
def _nothing_ahead(cc, fu, pos, h):
    if cc:
        q = pos + h
        return not (0 <= q < N_PORTS)
    i = pos + h
    while 0 <= i < N_PORTS:
        if (fu >> i) & 1:
            return False
        i += h
    return True


@njit(cache=True)
def _next_space(cc, wrap, fu, pos, h):
    if cc:
        return (pos + h + N_PORTS) % N_PORTS
    for k in range(1, N_PORTS):
        q = pos + h * k
        i = (q + 2 * N_PORTS) % N_PORTS
        if wrap or 0 <= q < N_PORTS:
            if (fu >> i) & 1:
                return i
    return pos


@njit(cache=True)
def course(s, fu, pos, h, steps):
    """reference.course: (port, heading) after sailing ``steps`` spaces."""
    wrap = s[S_RULES + R.wrap]
    cc = s[S_RULES + R.flipped_ports_count_as_spaces]
    if cc and not wrap and not s[S_RULES + R.stop_at_end]:
        # closed form (spec §4.1): the unfolded coordinate u on a cycle of C = 30
        # (u = 30 for "at 0 heading left" is the same point as u = 0)
        u = (pos if h > 0 else CYCLE - pos) + steps
        while u >= CYCLE:
            u -= CYCLE
        return (u if u < N_PORTS else CYCLE - u), (RIGHT if u < N_PORTS - 1 else LEFT)
    stop = s[S_RULES + R.stop_at_end]
    for _ in range(steps):
        if wrap:
            pos = _next_space(cc, wrap, fu, pos, h)
            continue
        if _nothing_ahead(cc, fu, pos, h):
            if stop:
                break
            if _nothing_ahead(cc, fu, pos, -h):
                break  # no other open port anywhere: the boat stays
            h = -h
        pos = _next_space(cc, wrap, fu, pos, h)
    if not wrap:
        if pos == 0:
            h = RIGHT
        elif pos == N_PORTS - 1:
            h = LEFT
        elif _nothing_ahead(cc, fu, pos, h) and not _nothing_ahead(cc, fu, pos, -h):
            h = -h
    return pos, h


@njit(cache=True, inline="always")
def sail(s, steps):
    pos, h = course(s, s[S_FACE_UP], s[S_BOAT], s[S_HEADING], steps)
    s[S_BOAT] = pos
    s[S_HEADING] = h


# ================================================================ deck and discard


@njit(cache=True)
def push_deck(s, c, batch):
    """Put card ``c`` under the bottom of the movement deck."""
    h = s[S_DECK_HEAD]
    n = s[S_DECK_N]
    if h + n >= 16:
        for i in range(n):
            s[S_DECK + i] = s[S_DECK + h + i]
            s[S_DECK_BATCH + i] = s[S_DECK_BATCH + h + i]
        h = 0
        s[S_DECK_HEAD] = 0
    s[S_DECK + h + n] = c
    s[S_DECK_BATCH + h + n] = batch
    s[S_DECK_N] = n + 1


@njit(cache=True)
def take_from_deck(s, wr):
    """reference.take_from_deck: the top card (-1 if none), reshuffling the discard if allowed."""
    if s[S_DECK_N] == 0 and s[S_RULES + R.reshuffle_discard_when_deck_empty] and s[S_DISC_N] > 0:
        dn = s[S_DISC_N]
        rng_shuffle(wr, s, S_DISC, dn)
        s[S_BATCHES] += 1
        b = s[S_BATCHES]
        for i in range(dn):
            s[S_DECK + i] = s[S_DISC + i]
            s[S_DECK_BATCH + i] = b
        s[S_DECK_HEAD] = 0
        s[S_DECK_N] = dn
        s[S_DISC_N] = 0
    n = s[S_DECK_N]
    if n == 0:
        return -1
    h = s[S_DECK_HEAD]
    c = s[S_DECK + h]
    if n == 1:
        s[S_DECK_HEAD] = 0
    else:
        s[S_DECK_HEAD] = h + 1
    s[S_DECK_N] = n - 1
    return c


@njit(cache=True, inline="always")
def can_draw(s):
    available = s[S_DECK_N]
    if s[S_RULES + R.reshuffle_discard_when_deck_empty]:
        available += s[S_DISC_N]
    needed = s[S_RULES + R.draw_count] if s[S_RULES + R.draw_when_short] else 1
    return available >= needed


# ================================================================ landing (spec §4.3)


@njit(cache=True)
def collect(s, wr, port):
    """reference.collect: the pile's top, or movement cards from the deck if it is exhausted."""
    p = s[S_PORT_PILE + port]
    top = s[S_PILE_TOP + p]
    if top < s[S_PILE_END + p]:
        add_card(s, s[S_PILE + 8 * p + top])
        s[S_PILE_TOP + p] = top + 1
        refresh_score(s)
        return
    s[S_EXHAUSTED] += 1
    took = False
    for _ in range(s[S_RULES + R.exhausted_pile_take]):
        c = take_from_deck(s, wr)
        if c < 0:
            break
        add_card(s, c)
        took = True
    if took:
        refresh_score(s)


@njit(cache=True)
def replenish(s, wr, move_value, just_played):
    """reference.replenish: shuffle the discard; its first n cards go under the deck."""
    amount = s[S_RULES + R.replenish_amount]
    if amount == 0:
        wanted = move_value
    elif amount == 1:
        wanted = s[S_STEPS_TURN]
    else:
        wanted = s[S_CARDS_TURN]
    dn = s[S_DISC_N]
    if s[S_RULES + R.replenish_includes_played_card]:
        pool = dn
    else:
        pool = dn - just_played if dn > just_played else 0
    n = min(wanted, pool)
    rng_shuffle(wr, s, S_DISC, pool)
    s[S_BATCHES] += 1
    b = s[S_BATCHES]
    for i in range(n):
        push_deck(s, s[S_DISC + i], b)
    for i in range(n, dn):  # discard = pool[n:] + kept
        s[S_DISC + i - n] = s[S_DISC + i]
    s[S_DISC_N] = dn - n


@njit(cache=True)
def land(s, wr, move_value, just_played):
    """reference.land."""
    port = s[S_BOAT]
    s[S_LANDINGS] += 1
    if (s[S_FACE_UP] >> port) & 1:
        collect(s, wr, port)
        return
    s[S_REPLEN] += 1
    effect = s[S_RULES + R.flipped_port_effect]
    if effect == 1:
        collect(s, wr, port)
    if effect != 2:
        replenish(s, wr, move_value, just_played)


# ================================================================ the turn (spec §4.2)


@njit(cache=True, inline="always")
def begin_turn(s):
    s[S_TURN] += 1
    s[S_STEPS_TURN] = 0
    s[S_CARDS_TURN] = 0


@njit(cache=True, inline="always")
def hand_values(s):
    """The values 2..5 in the hand, bit v - 2."""
    vals = 0
    for i in range(4):
        if s[S_HAND + i] != 0:
            vals |= 1 << i
    return vals


@njit(cache=True, inline="always")
def has_value(vals, v):
    """Value ``v`` is in the value mask ``vals`` (bit v - 2)."""
    return (vals >> (v - 2)) & 1 != 0


# ---------------------------------------------------------------- restricted play


@njit(cache=True)
def kept_actions(s, cd):
    """D2's legal options narrowed by engines._restrict (reference: ``t.kept`` of the legal
    actions): (DRAW kept, the values whose plays are kept, bit v - 2). PASS is neither."""
    vals = hand_values(s)
    forbid = s[S_FORBID]
    force = s[S_FORCE]
    if forbid == 0 and force == 0:
        return cd, vals
    forced_any = cd and is_forced_fast(K_DRAW, force)
    allowed_any = cd and is_allowed_fast(K_DRAW, forbid)
    for i in range(4):
        if (vals >> i) & 1:
            forced_any = forced_any or is_forced_fast(K_PLAY + i, force)
            allowed_any = allowed_any or is_allowed_fast(K_PLAY + i, forbid)
    dk = cd and keeps_fast(K_DRAW, forbid, force, forced_any, allowed_any)
    kept = 0
    for i in range(4):
        if (vals >> i) & 1 != 0 and keeps_fast(K_PLAY + i, forbid, force, forced_any,
                                                allowed_any):
            kept |= 1 << i
    return dk, kept


@njit(cache=True, inline="always")
def chain_rule(s):
    """D3 (engines._restrict.kept_binary_fast of chain): 1 must continue, 0 must stop, -1
    the policy chooses."""
    return kept_binary_fast(K_CHAIN, s[S_FORBID], s[S_FORCE])


@njit(cache=True)
def kept_flips(s, cand):
    """D4's candidates (a port mask) narrowed by engines._restrict: a port's kind is the pile
    it pays from."""
    forbid = s[S_FORBID]
    force = s[S_FORCE]
    if forbid == 0 and force == 0:
        return cand
    forced_any = False
    allowed_any = False
    for p in range(4):
        if cand & s[S_PILE_PORTS + p] != 0:
            forced_any = forced_any or is_forced_fast(K_CLOSE + p, force)
            allowed_any = allowed_any or is_allowed_fast(K_CLOSE + p, forbid)
    kept = 0
    for p in range(4):
        ports = cand & s[S_PILE_PORTS + p]
        if ports != 0 and keeps_fast(K_CLOSE + p, forbid, force, forced_any, allowed_any):
            kept |= ports
    return kept


@njit(cache=True)
def kept_starts(s):
    """D1's ends narrowed by engines._restrict: (left kept, right kept)."""
    forbid = s[S_FORBID]
    force = s[S_FORCE]
    forced_any = is_forced_fast(K_START_LEFT, force) or is_forced_fast(K_START_RIGHT, force)
    allowed_any = is_allowed_fast(K_START_LEFT, forbid) or is_allowed_fast(K_START_RIGHT, forbid)
    return (keeps_fast(K_START_LEFT, forbid, force, forced_any, allowed_any),
            keeps_fast(K_START_RIGHT, forbid, force, forced_any, allowed_any))


@njit(cache=True, inline="always")
def took_action(s, kind, v):
    """The seat takes D2's action: DRAW, or PLAY of value v (PASS has no kind)."""
    if kind == A_DRAW:
        s[S_TOOK + K_DRAW] += 1
    elif kind == A_PLAY:
        s[S_TOOK + K_PLAY + v - 2] += 1


@njit(cache=True, inline="always")
def close_port(s, port):
    """T4's flip of ``port``, counted by the pile it pays from."""
    s[S_TOOK + K_CLOSE + s[S_PORT_PILE + port]] += 1
    s[S_FACE_UP] &= ~(1 << port)


@njit(cache=True, inline="always")
def n_action_options(s, dk, vals):
    """len of D2's kept options unless it is [PASS] (then 0)."""
    n = 1 if dk else 0
    if s[S_RULES + R.multi_card_mode]:
        for v in range(2, 6):
            if has_value(vals, v):
                n += _popcount(s[S_HAND + v - 2])
        return n
    return n + _popcount(vals)


@njit(cache=True, inline="always")
def first_value(vals):
    for v in range(2, 6):
        if has_value(vals, v):
            return v
    return 0


@njit(cache=True)
def do_draw(s, wr):
    """T2."""
    s[S_DRAWS] += 1
    for _ in range(s[S_RULES + R.draw_count]):
        c = take_from_deck(s, wr)
        if c < 0:
            break
        s[S_HAND + (c >> 2)] |= 1 << (c & 3)
        s[S_HAND_N] += 1


@njit(cache=True)
def play_move(s, wr, v, k):
    """T3 a-c: discard k lowest-suit cards of value v, sail v*k, land."""
    dn = s[S_DISC_N]
    m = s[S_HAND + v - 2]
    for _ in range(k):
        low = m & -m
        m ^= low
        s[S_DISC + dn] = (v - 2) * 4 + _low_index4(low)
        dn += 1
    s[S_HAND + v - 2] = m
    s[S_HAND_N] -= k
    s[S_DISC_N] = dn
    steps = v * k
    s[S_CARDS_TURN] += k
    s[S_STEPS_TURN] += steps
    sail(s, steps)
    land(s, wr, steps, k)


@njit(cache=True, inline="always")
def turn_flips(s, kind):
    if kind == A_PLAY:
        return True
    if kind == A_DRAW:
        return s[S_RULES + R.flip_after_draw] != 0
    return s[S_RULES + R.flip_on_pass] != 0


@njit(cache=True, inline="always")
def flip_candidates(s):
    return s[S_FACE_UP] & ~(1 << s[S_BOAT])


@njit(cache=True)
def check_end(s):
    """T5 a-c, in that order."""
    fu = s[S_FACE_UP]
    if fu == 0:
        s[S_END] = 0
    elif (s[S_RULES + R.end_on_stranded] and s[S_HAND_N] == 0 and not can_draw(s)
          and (not s[S_RULES + R.flip_on_pass] or flip_candidates(s) == 0)):
        s[S_END] = 1
    elif s[S_TURN] >= s[S_RULES + R.max_turns]:
        s[S_END] = 2


@njit(cache=True)
def finish(s):
    """End of game: the hand joins the collection if hand_scores; returns the score."""
    if s[S_RULES + R.hand_scores] and s[S_HAND_N] > 0:
        for v in range(2, 6):
            m = s[S_HAND + v - 2]
            for suit in range(4):
                if (m >> suit) & 1:
                    add_card(s, (v - 2) * 4 + suit)
            s[S_HAND + v - 2] = 0
        s[S_HAND_N] = 0
        refresh_score(s)
    return s[S_SCORE]


# ================================================================ greedy (P2)


@njit(cache=True)
def pile_value(s, p):
    """policies.collect_value of a port paying from pile ``p``: the score gain of the pile's
    top, or 3.5 a card taken when the pile is exhausted."""
    top = s[S_PILE_TOP + p]
    if top < s[S_PILE_END + p]:
        return float(score_plus(s, s[S_PILE + 8 * p + top]) - s[S_SCORE])
    return EXHAUSTED_CARD_VALUE * min(s[S_RULES + R.exhausted_pile_take], s[S_DECK_N])


@njit(cache=True, inline="always")
def collect_value(s, port):
    """policies.collect_value."""
    return pile_value(s, s[S_PORT_PILE + port])


@njit(cache=True)
def gain(s, v, k, w, boat, heading):
    """policies.gain: immediate gain of playing k cards of value v from (boat, heading)."""
    steps = v * k
    port, _ = course(s, s[S_FACE_UP], boat, heading, steps)
    if (s[S_FACE_UP] >> port) & 1:
        return collect_value(s, port)
    effect = s[S_RULES + R.flipped_port_effect]
    if effect == 2:
        return 0.0
    amount_rule = s[S_RULES + R.replenish_amount]
    if amount_rule == 0:
        amount = steps
    elif amount_rule == 1:
        amount = s[S_STEPS_TURN] + steps
    else:
        amount = s[S_CARDS_TURN] + k
    pool = s[S_DISC_N] + (k if s[S_RULES + R.replenish_includes_played_card] else 0)
    value_of_replenish = w * min(amount, pool)
    if effect == 1:
        return collect_value(s, port) + value_of_replenish
    return value_of_replenish


@njit(cache=True)
def best_play(s, w, boat, heading, vals):
    """policies.best_play: max of (gain, v*k, v) over the play options in canonical order, of
    the values in ``vals`` (bit v - 2)."""
    combined = s[S_RULES + R.multi_card_mode]
    bv = 0
    bk = 0
    bg = 0.0
    for v in range(2, 6):
        m = s[S_HAND + v - 2]
        if m == 0 or not has_value(vals, v):
            continue
        top_k = _popcount(m) if combined else 1
        for k in range(1, top_k + 1):
            g = gain(s, v, k, w, boat, heading)
            if bv == 0 or g > bg or (g == bg and (v * k > bv * bk
                                                  or (v * k == bv * bk and v > bv))):
                bv = v
                bk = k
                bg = g
    return bv, bk, bg


@njit(cache=True)
def greedy_start(s, w):
    """D1: True for the left end."""
    _, _, left = best_play(s, w, 0, RIGHT, HAND_VALUES)
    _, _, right = best_play(s, w, N_PORTS - 1, LEFT, HAND_VALUES)
    return not (right > left)


@njit(cache=True)
def greedy_flip(s, cand):
    """D4: the candidate port with the smallest (collect_value, index).

    A port's value depends only on its pile, so each pile with a candidate is
    valued once and stands for its lowest-index candidate.
    """
    best = -1
    best_value = 0.0
    for p in range(4):
        ports = cand & s[S_PILE_PORTS + p]
        if ports != 0:
            value = pile_value(s, p)
            i = _ctz(ports)
            if best < 0 or value < best_value or (value == best_value and i < best):
                best = i
                best_value = value
    return best


@njit(cache=True)
def greedy_play_cards(s, wr, v, k, w):
    """reference.play_cards with greedy's D3: continue iff gain(v) > 0."""
    play_move(s, wr, v, k)
    if s[S_RULES + R.multi_card_mode]:
        return
    while s[S_HAND + v - 2] != 0:
        must = chain_rule(s)
        if must == 0 or (must < 0 and not gain(s, v, 1, w, s[S_BOAT], s[S_HEADING]) > 0):
            break
        s[S_TOOK + K_CHAIN] += 1
        play_move(s, wr, v, 1)


@njit(cache=True)
def greedy_end_turn(s, kind):
    """reference.end_turn with greedy's D4."""
    if turn_flips(s, kind):
        cand = flip_candidates(s)
        if cand != 0:
            cand = kept_flips(s, cand)
            if cand & (cand - 1) == 0:
                port = _ctz(cand)
            else:
                port = greedy_flip(s, cand)
            close_port(s, port)
    check_end(s)


@njit(cache=True, inline="always")
def open_turn(s):
    """T0 and the action when it is forced: (DRAW kept, the values kept, options, kind, value,
    count), the options narrowed by the seat's restriction (``kept_actions``).

    With one kept option the policy is not asked (so it draws nothing); with
    none the turn passes; with several ``kind`` is left to the policy.
    """
    begin_turn(s)
    dk, vals = kept_actions(s, can_draw(s))
    n_opt = n_action_options(s, dk, vals)
    if n_opt == 1:
        if dk:
            return dk, vals, n_opt, A_DRAW, 0, 1
        return dk, vals, n_opt, A_PLAY, first_value(vals), 1
    return dk, vals, n_opt, A_PASS, 0, 1


@njit(cache=True)
def greedy_turn(s, wr, threshold, w):
    """One whole turn (T0-T5) played by greedy; ``wr`` makes the turn's random draws."""
    dk, vals, n_opt, kind, v, k = open_turn(s)
    if n_opt > 1:
        if s[S_HAND_N] == 0:
            kind = A_DRAW
        else:
            v, k, g = best_play(s, w, s[S_BOAT], s[S_HEADING], vals)
            kind = A_PLAY if (g >= threshold or not dk) else A_DRAW
    took_action(s, kind, v)
    if kind == A_DRAW:
        do_draw(s, wr)
    elif kind == A_PLAY:
        greedy_play_cards(s, wr, v, k, w)
    greedy_end_turn(s, kind)


@njit(cache=True)
def greedy_play_out(s, wr, threshold, w):
    while s[S_END] < 0:
        greedy_turn(s, wr, threshold, w)


# ================================================================ heuristic (greedy plus features)


@njit(cache=True, inline="always")
def heur_free(s):
    """HeuristicPolicy.free_draws: a DRAW turn closes no port."""
    return s[S_RULES + R.flip_after_draw] == 0


@njit(cache=True)
def heur_top(s, p):
    """policies.collect_features of pile ``p``'s visible top: (gain, scarce, pair)."""
    c = s[S_PILE + 8 * p + s[S_PILE_TOP + p]]
    gain = float(score_plus(s, c) - s[S_SCORE])
    scarce = 1.0 if s[S_SUIT_N + (c & 3)] == _min_suits(s) else 0.0
    held = _popcount((s[S_COLL] >> (c & ~3)) & 15)
    pair = 0.0
    if held + 1 < 4:  # another card of the rank is still unseen
        row = S_RANK_POINTS + (c >> 2) * 5 + held
        pair = float(s[row + 2] - s[row + 1])
    return gain, scarce, pair


@njit(cache=True, inline="always")
def heur_pile(s, hf, pol, p):
    """HeuristicPolicy.value of a landing that collects pile ``p``'s visible top, into ``hf``:
    ``gain + w_card + w_scarce * scarce + w_pair * pair``, the reference's sum in its order
    (its taken and returned terms are 0 times a weight, which adds nothing)."""
    if s[S_PILE_TOP + p] < s[S_PILE_END + p]:
        gain, scarce, pair = heur_top(s, p)
        hf[H_VALUE + p] = (gain + pol[HEUR.w_card] * 1 + pol[HEUR.w_scarce] * scarce
                           + pol[HEUR.w_pair] * pair)


@njit(cache=True)
def heur_piles(s, hf, pol):
    """heur_pile for every pile: the collection does not change while one decision is
    planned, so each top is valued once."""
    for p in range(4):
        heur_pile(s, hf, pol, p)


@njit(cache=True)
def heur_collect(s, port, deck, hits):
    """policies.collect_features: (gain, pile, cards, scarce, pair, taken). ``hits`` packs the
    plan's landings on each pile, 8 bits a pile."""
    p = s[S_PORT_PILE + port]
    if s[S_PILE_END + p] - s[S_PILE_TOP + p] > ((hits >> (8 * p)) & 255):
        gain, scarce, pair = heur_top(s, p)
        return gain, p, 1, scarce, pair, 0
    taken = min(s[S_RULES + R.exhausted_pile_take], deck)
    return EXHAUSTED_CARD_VALUE * taken, -1, taken, 0.0, 0.0, taken


@njit(cache=True, inline="always")
def heur_landing(s, hf, pol, free_repl, port, steps, count, pool, deck, hits, tsteps, tcards):
    """policies.landing_features valued by HeuristicPolicy.value: (value, pile, taken,
    returned), the last three for the plan's advance. The common case, a pile's top, is a
    look-up (heur_pile); the others are valued by heur_landing_rest."""
    if (s[S_FACE_UP] >> port) & 1:
        p = s[S_PORT_PILE + port]
        if s[S_PILE_END + p] - s[S_PILE_TOP + p] > ((hits >> (8 * p)) & 255):
            return hf[H_VALUE + p], p, 0, 0
    return heur_landing_rest(s, hf, pol, free_repl, port, steps, count, pool, deck, hits,
                             tsteps, tcards)


@njit(cache=True)
def heur_landing_rest(s, hf, pol, free_repl, port, steps, count, pool, deck, hits, tsteps,
                      tcards):
    """heur_landing at an exhausted pile or a closed port."""
    if (s[S_FACE_UP] >> port) & 1:
        gain, pile, cards, scarce, pair, taken = heur_collect(s, port, deck, hits)
        returned = 0
    else:
        effect = s[S_RULES + R.flipped_port_effect]
        if effect == 2:
            gain = 0.0
            pile = -1
            cards = 0
            scarce = 0.0
            pair = 0.0
            taken = 0
            returned = 0
        else:
            amount_rule = s[S_RULES + R.replenish_amount]
            if amount_rule == 0:
                amount = steps
            elif amount_rule == 1:
                amount = tsteps + steps
            else:
                amount = tcards + count
            avail = pool + (count if s[S_RULES + R.replenish_includes_played_card] else 0)
            returned = min(amount, avail)
            value_of_replenish = pol[HEUR.replenish_weight] * returned
            if effect == 1:
                gain, pile, cards, scarce, pair, taken = heur_collect(s, port, deck, hits)
                gain = gain + value_of_replenish
            else:
                gain = value_of_replenish
                pile = -1
                cards = 0
                scarce = 0.0
                pair = 0.0
                taken = 0
    value = (gain + pol[HEUR.w_card] * cards + pol[HEUR.w_scarce] * scarce
             + pol[HEUR.w_pair] * pair + pol[HEUR.w_exhausted] * taken + free_repl * returned)
    return value, pile, taken, returned


@njit(cache=True, inline="always")
def heur_stop(s, pol):
    """HeuristicPolicy.stop."""
    return pol[HEUR.w_stop] + (pol[HEUR.w_free_stop] if heur_free(s) else 0.0)


@njit(cache=True, inline="always")
def heur_course(s, fu, pos, h, steps):
    """course, its closed form inlined for the rules that have one (the heuristic's hot loop)."""
    if s[S_RULES + R.flipped_ports_count_as_spaces] and not s[S_RULES + R.wrap] \
            and not s[S_RULES + R.stop_at_end]:
        u = (pos if h > 0 else CYCLE - pos) + steps
        while u >= CYCLE:
            u -= CYCLE
        return (u if u < N_PORTS else CYCLE - u), (RIGHT if u < N_PORTS - 1 else LEFT)
    return course(s, fu, pos, h, steps)


@njit(cache=True, inline="always")
def heur_chain(s, hf, pol, free_repl, v, k, port, h, worth, pile, taken, returned):
    """HeuristicPolicy.play_value after its first landing (at ``port``, heading ``h``, worth
    ``worth``; ``pile``, ``taken``, ``returned`` for the plan): plus w_chain times the chain."""
    chain = 0.0
    wc = pol[HEUR.w_chain]
    if wc != 0.0 and not s[S_RULES + R.multi_card_mode]:
        fu = s[S_FACE_UP]
        hits = 0
        if pile >= 0:
            hits += 1 << (8 * pile)
        deck = s[S_DECK_N] + returned - taken
        pool = s[S_DISC_N] + k - returned
        tsteps = s[S_STEPS_TURN] + v * k
        tcards = s[S_CARDS_TURN] + k
        stop = heur_stop(s, pol)
        for _ in range(_popcount(s[S_HAND + v - 2]) - 1):
            port, h = heur_course(s, fu, port, h, v)
            val, pile, taken, returned = heur_landing(s, hf, pol, free_repl, port, v, 1, pool,
                                                      deck, hits, tsteps, tcards)
            if not val > stop:
                break
            chain += val
            if pile >= 0:
                hits += 1 << (8 * pile)
            deck += returned - taken
            pool += 1 - returned
            tsteps += v
            tcards += 1
    return worth + wc * chain


@njit(cache=True, inline="always")
def heur_first(s, hf, pol, free_repl, v, k, boat, heading):
    """The first landing of PLAY k cards of v: (port, heading, value, pile, taken, returned)."""
    steps = v * k
    port, h = heur_course(s, s[S_FACE_UP], boat, heading, steps)
    worth, pile, taken, returned = heur_landing(s, hf, pol, free_repl, port, steps, k,
                                                s[S_DISC_N], s[S_DECK_N], 0, s[S_STEPS_TURN],
                                                s[S_CARDS_TURN])
    return port, h, worth, pile, taken, returned


@njit(cache=True)
def heur_play_value(s, hf, pol, v, k, boat, heading):
    """HeuristicPolicy.play_value: the first landing, plus w_chain times the chain."""
    free_repl = pol[HEUR.w_free_replenish] if heur_free(s) else 0.0
    port, h, worth, pile, taken, returned = heur_first(s, hf, pol, free_repl, v, k, boat,
                                                       heading)
    return heur_chain(s, hf, pol, free_repl, v, k, port, h, worth, pile, taken, returned)


@njit(cache=True)
def heur_bounds(s, hf, pol):
    """Once a game: the most one chain landing can be worth at an exhausted pile (any take) and
    at a closed port (any return up to 5), in heur_landing_rest's own float operations, for
    heur_best's pruning. Both are at least 0."""
    free_repl = pol[HEUR.w_free_replenish] if heur_free(s) else 0.0
    wc = pol[HEUR.w_card]
    ws = pol[HEUR.w_scarce]
    wp = pol[HEUR.w_pair]
    we = pol[HEUR.w_exhausted]
    best = 0.0
    for k in range(s[S_RULES + R.exhausted_pile_take] + 1):
        value = (EXHAUSTED_CARD_VALUE * k + wc * k + ws * 0.0 + wp * 0.0 + we * k
                 + free_repl * 0)
        best = max(best, value)
    hf[H_BOUND_EXHAUSTED] = best
    best = 0.0
    for r in range(6):
        value = (pol[HEUR.replenish_weight] * r + wc * 0 + ws * 0.0 + wp * 0.0 + we * 0
                 + free_repl * r)
        best = max(best, value)
    hf[H_BOUND_CLOSED] = best


@njit(cache=True, inline="always")
def heur_prunable(s, pol):
    """heur_best may prune: a chain landing is worth at most the bound heur_best_landing finds
    (sequential moves of one card, each returning at most its value, a closed port paying
    nothing else) and w_chain is not negative."""
    return (not s[S_RULES + R.multi_card_mode] and s[S_RULES + R.flipped_port_effect] != 1
            and s[S_RULES + R.replenish_amount] == 0 and pol[HEUR.w_chain] >= 0.0)


@njit(cache=True)
def heur_best_landing(s, hf):
    """The most one landing of a chain planned now can be worth (``heur_piles`` current): a
    pile's top, an exhausted pile if one has fewer than 4 cards (a chain of at most 4 moves
    can only run those out), a closed port if there is one; at least 0."""
    bound = 0.0
    short = False
    for p in range(4):
        size = s[S_PILE_END + p] - s[S_PILE_TOP + p]
        if size > 0:
            bound = max(bound, hf[H_VALUE + p])
        if size < 4:
            short = True
    if short:
        bound = max(bound, hf[H_BOUND_EXHAUSTED])
    if s[S_FACE_UP] != (1 << N_PORTS) - 1:
        bound = max(bound, hf[H_BOUND_CLOSED])
    return bound


@njit(cache=True)
def heur_best(s, hf, pol, boat, heading, floor, vals):
    """HeuristicPolicy.best_play: max of (value, v*k, v) over the play options of the values in
    ``vals`` (bit v - 2; ``heur_piles`` must be current). Any play whose value is below
    ``floor`` may be left out: (0, 0, -inf) when every play is.

    Exact pruning (a fast-path saving; the decisions are the reference's): a play's value is
    its first landing plus w_chain times a float sum of at most copies - 1 chain landings,
    each at most ``heur_best_landing``; float addition and multiplication by w_chain >= 0
    are monotone, so the same sum of that bound is an upper bound of the value. A play whose
    bound is below the floor or below a play already valued cannot be chosen (ties are
    valued), so its chain is not planned.
    """
    combined = s[S_RULES + R.multi_card_mode]
    bv = 0
    bk = 0
    bg = -np.inf
    if not heur_prunable(s, pol):
        for v in range(2, 6):
            m = s[S_HAND + v - 2]
            if m == 0 or not has_value(vals, v):
                continue
            top_k = _popcount(m) if combined else 1
            for k in range(1, top_k + 1):
                g = heur_play_value(s, hf, pol, v, k, boat, heading)
                if bv == 0 or g > bg or (g == bg and (v * k > bv * bk
                                                      or (v * k == bv * bk and v > bv))):
                    bv = v
                    bk = k
                    bg = g
        return bv, bk, bg
    free_repl = pol[HEUR.w_free_replenish] if heur_free(s) else 0.0
    wc = pol[HEUR.w_chain]
    landing = heur_best_landing(s, hf)
    top_v = 0
    top_bound = 0.0
    for v in range(2, 6):
        m = s[S_HAND + v - 2]
        if m == 0 or not has_value(vals, v):
            continue
        port, h, first, pile, taken, returned = heur_first(s, hf, pol, free_repl, v, 1, boat,
                                                           heading)
        chain = 0.0
        for _ in range(_popcount(m) - 1):
            chain += landing
        bound = first + wc * chain
        row = H_PLAYS + 8 * (v - 2)
        hf[row] = bound
        hf[row + 1] = first
        hf[row + 2] = port
        hf[row + 3] = h
        hf[row + 4] = pile
        hf[row + 5] = taken
        hf[row + 6] = returned
        if top_v == 0 or bound > top_bound:
            top_v = v
            top_bound = bound
    if top_v == 0 or top_bound < floor:
        return bv, bk, bg
    for i in range(5):  # the play with the highest bound first, then the others in order
        v = top_v if i == 0 else i + 1
        if i > 0 and v == top_v:
            continue
        if s[S_HAND + v - 2] == 0 or not has_value(vals, v):
            continue
        row = H_PLAYS + 8 * (v - 2)
        bound = hf[row]
        if bound < floor or (bv != 0 and bound < bg):
            continue
        g = heur_chain(s, hf, pol, free_repl, v, 1, int(hf[row + 2]), int(hf[row + 3]),
                       hf[row + 1], int(hf[row + 4]), int(hf[row + 5]), int(hf[row + 6]))
        if bv == 0 or g > bg or (g == bg and v > bv):
            bv = v
            bk = 1
            bg = g
    return bv, bk, bg


@njit(cache=True)
def heur_start(s, hf, pol):
    """D1: True for the left end."""
    heur_piles(s, hf, pol)
    _, _, left = heur_best(s, hf, pol, 0, RIGHT, -np.inf, HAND_VALUES)
    _, _, right = heur_best(s, hf, pol, N_PORTS - 1, LEFT, -np.inf, HAND_VALUES)
    return not (right > left)


@njit(cache=True, inline="always")
def heur_draw_value(s, pol):
    """HeuristicPolicy.draw_value."""
    free = pol[HEUR.w_draw_free] if heur_free(s) else 0.0
    return (pol[HEUR.draw_threshold] + free + pol[HEUR.w_draw_hand] * s[S_HAND_N]
            + pol[HEUR.w_draw_open] * _popcount(s[S_FACE_UP]))


@njit(cache=True)
def heur_continue(s, hf, pol, v):
    """D3 (HeuristicPolicy.choose_continue): the next landing is worth more than the stop."""
    free_repl = pol[HEUR.w_free_replenish] if heur_free(s) else 0.0
    port, _ = heur_course(s, s[S_FACE_UP], s[S_BOAT], s[S_HEADING], v)
    heur_pile(s, hf, pol, s[S_PORT_PILE + port])  # the only pile this landing can collect from
    val, _, _, _ = heur_landing(s, hf, pol, free_repl, port, v, 1, s[S_DISC_N], s[S_DECK_N], 0,
                                s[S_STEPS_TURN], s[S_CARDS_TURN])
    return val > heur_stop(s, pol)


@njit(cache=True)
def heur_flip(s, pol, cand):
    """D4 (HeuristicPolicy.choose_flip): the candidate with the least (flip_cost, index).

    A port's cost is its pile's part plus the reach term, so each pile stands for its
    lowest-index candidate out of reach and its lowest-index candidate in reach.
    """
    free = heur_free(s)
    fu = s[S_FACE_UP]
    boat = s[S_BOAT]
    heading = s[S_HEADING]
    same_weight = pol[HEUR.w_flip_same] + (pol[HEUR.w_free_same] if free else 0.0)
    reach_weight = pol[HEUR.w_flip_reach] + (pol[HEUR.w_free_reach] if free else 0.0)
    reach = 0
    if reach_weight != 0.0:  # else every port's reach term is 0.0: no need to know them
        for v in range(2, 6):
            if s[S_HAND + v - 2] != 0:
                q, _ = heur_course(s, fu, boat, heading, v)
                reach |= 1 << q
    best = -1
    best_cost = 0.0
    for p in range(4):
        ports = cand & s[S_PILE_PORTS + p]
        if ports == 0:
            continue
        same = _popcount(fu & s[S_PILE_PORTS + p]) - 1
        left = max(0, s[S_PILE_END + p] - s[S_PILE_TOP + p] - 1)
        cost = pile_value(s, p) + same_weight * same + pol[HEUR.w_flip_left] * left
        out = ports & ~reach
        if out != 0:
            i = _ctz(out)
            c = cost + 0.0
            if best < 0 or c < best_cost or (c == best_cost and i < best):
                best = i
                best_cost = c
        inside = ports & reach
        if inside != 0:
            i = _ctz(inside)
            c = cost + reach_weight
            if best < 0 or c < best_cost or (c == best_cost and i < best):
                best = i
                best_cost = c
    return best


@njit(cache=True)
def heur_turn(s, wr, pol, hf):
    """One whole turn (T0-T5) played by the heuristic; ``wr`` makes the turn's random draws."""
    dk, vals, n_opt, kind, v, k = open_turn(s)
    if n_opt > 1:
        if s[S_HAND_N] == 0:
            kind = A_DRAW
        else:
            heur_piles(s, hf, pol)
            draw = heur_draw_value(s, pol) if dk else -np.inf
            v, k, g = heur_best(s, hf, pol, s[S_BOAT], s[S_HEADING], draw, vals)
            kind = A_PLAY if (g >= draw or not dk) else A_DRAW
    took_action(s, kind, v)
    if kind == A_DRAW:
        do_draw(s, wr)
    elif kind == A_PLAY:
        heur_play_cards(s, wr, pol, hf, v, k)
    heur_end_turn(s, pol, kind)


@njit(cache=True)
def heur_play_cards(s, wr, pol, hf, v, k):
    """reference.play_cards with the heuristic's D3."""
    play_move(s, wr, v, k)
    if not s[S_RULES + R.multi_card_mode]:
        while s[S_HAND + v - 2] != 0:
            must = chain_rule(s)
            if must == 0 or (must < 0 and not heur_continue(s, hf, pol, v)):
                break
            s[S_TOOK + K_CHAIN] += 1
            play_move(s, wr, v, 1)


@njit(cache=True)
def heur_end_turn(s, pol, kind):
    """reference.end_turn with the heuristic's D4."""
    if turn_flips(s, kind):
        cand = flip_candidates(s)
        if cand != 0:
            cand = kept_flips(s, cand)
            if cand & (cand - 1) == 0:
                port = _ctz(cand)
            else:
                port = heur_flip(s, pol, cand)
            close_port(s, port)
    check_end(s)


# ================================================================ random (P1)


@njit(cache=True)
def random_turn(s, wr, pr):
    """One whole turn played by the random policy (its choices from ``pr``)."""
    dk, vals, n_opt, kind, v, k = open_turn(s)
    if n_opt > 1:
        d = 1 if dk else 0
        n_classes = d + _popcount(vals)
        pick = rng_below(pr, n_classes) if n_classes > 1 else 0
        if pick < d:
            kind = A_DRAW
        else:
            kind = A_PLAY
            pick -= d
            for value in range(2, 6):
                if has_value(vals, value):
                    if pick == 0:
                        v = value
                        break
                    pick -= 1
            if s[S_RULES + R.multi_card_mode]:
                held = _popcount(s[S_HAND + v - 2])
                k = 1 + rng_below(pr, held) if held > 1 else 1
    took_action(s, kind, v)
    if kind == A_DRAW:
        do_draw(s, wr)
    elif kind == A_PLAY:
        play_move(s, wr, v, k)
        if not s[S_RULES + R.multi_card_mode]:
            while s[S_HAND + v - 2] != 0:
                must = chain_rule(s)
                if must == 0 or (must < 0 and rng_below(pr, 2) != 0):
                    break
                s[S_TOOK + K_CHAIN] += 1
                play_move(s, wr, v, 1)
    if turn_flips(s, kind):
        cand = flip_candidates(s)
        if cand != 0:
            cand = kept_flips(s, cand)
            n = _popcount(cand)
            port = _nth_bit(cand, rng_below(pr, n) if n > 1 else 0)
            close_port(s, port)
    check_end(s)


@njit(cache=True)
def random_play_out(s, wr, pr):
    while s[S_END] < 0:
        random_turn(s, wr, pr)


# ================================================================ rollout (P3)


@njit(cache=True, inline="always")
def _sort(a, lo, n):
    """Insertion sort of a[lo:lo+n] (card ids, so (rank, suit) order)."""
    for i in range(lo + 1, lo + n):
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def redeal_hidden(s, pr):
    """policies.redeal_hidden: the deck shuffled within each batch, each pile below its top;
    every part is put in card order first, so the re-deal never depends on the true order."""
    h = s[S_DECK_HEAD]
    n = s[S_DECK_N]
    start = 0
    while start < n:
        end = start
        b = s[S_DECK_BATCH + h + start]
        while end < n and s[S_DECK_BATCH + h + end] == b:
            end += 1
        _sort(s, S_DECK + h + start, end - start)
        rng_shuffle(pr, s, S_DECK + h + start, end - start)
        start = end
    for p in range(4):
        top = s[S_PILE_TOP + p]
        size = s[S_PILE_END + p] - top
        if size > 1:
            _sort(s, S_PILE + 8 * p + top + 1, size - 1)
            rng_shuffle(pr, s, S_PILE + 8 * p + top + 1, size - 1)


@njit(cache=True, inline="always")
def base_is_heuristic(bpol):
    """The rollout's base (its ``base`` parameter, resolved): the heuristic's code (``expert``
    is the heuristic with the trained values), else greedy."""
    return int(bpol[0]) == HEUR.CODE


@njit(cache=True)
def base_play_cards(sim, pr, bpol, hf, v, k):
    """reference.play_cards with the base policy's D3."""
    if base_is_heuristic(bpol):
        heur_play_cards(sim, pr, bpol, hf, v, k)
    else:
        greedy_play_cards(sim, pr, v, k, bpol[GREEDY.replenish_weight])


@njit(cache=True)
def base_end_turn(sim, bpol, kind):
    """reference.end_turn with the base policy's D4."""
    if base_is_heuristic(bpol):
        heur_end_turn(sim, bpol, kind)
    else:
        greedy_end_turn(sim, kind)


@njit(cache=True)
def base_play_out(sim, pr, bpol, hf):
    """reference.play_out with the base policy."""
    if base_is_heuristic(bpol):
        while sim[S_END] < 0:
            heur_turn(sim, pr, bpol, hf)
    else:
        greedy_play_out(sim, pr, bpol[GREEDY.draw_threshold], bpol[GREEDY.replenish_weight])


@njit(cache=True)
def _rollout_apply(sim, pr, bpol, hf, what, i, opt, value, cand_mask):
    if what == D_START:
        place_boat(sim, i == 0)
    elif what == D_ACTION:
        kind = opt[O_KIND + i]
        if kind == A_DRAW:
            do_draw(sim, pr)
        else:
            base_play_cards(sim, pr, bpol, hf, opt[O_VALUE + i], opt[O_COUNT + i])
        base_end_turn(sim, bpol, kind)
    elif what == D_CONTINUE:
        if i == 0:
            base_play_cards(sim, pr, bpol, hf, value, 1)
        base_end_turn(sim, bpol, A_PLAY)
    else:
        sim[S_FACE_UP] &= ~(1 << _nth_bit(cand_mask, i))
        check_end(sim)


@njit(cache=True, inline="always")
def copy_state(dst, src):
    for i in range(S_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def rollout_best(s, pr, bpol, hf, samples, what, n_opt, opt, value, cand_mask, dealt, sim):
    """RolloutPolicy._best: the option with the highest total over the samples; first wins ties.
    Each imagined game is finished by the base policy (row ``bpol``; scratch ``hf``)."""
    for i in range(n_opt):
        opt[O_TOTAL + i] = 0
    for _ in range(samples):
        copy_state(dealt, s)
        redeal_hidden(dealt, pr)
        for i in range(n_opt):
            copy_state(sim, dealt)
            _rollout_apply(sim, pr, bpol, hf, what, i, opt, value, cand_mask)
            base_play_out(sim, pr, bpol, hf)
            opt[O_TOTAL + i] += finish(sim)
    best = 0
    for i in range(1, n_opt):
        if opt[O_TOTAL + i] > opt[O_TOTAL + best]:
            best = i
    return best


@njit(cache=True)
def rollout_turn(s, wr, pr, bpol, hf, samples, opt, dealt, sim):
    """One whole turn played by the rollout policy."""
    dk, vals, n_opt, kind, v, k = open_turn(s)
    if n_opt > 1:
        n = 0
        if dk:
            opt[O_KIND] = A_DRAW
            n = 1
        for value in range(2, 6):
            m = s[S_HAND + value - 2]
            if m == 0 or not has_value(vals, value):
                continue
            top_k = _popcount(m) if s[S_RULES + R.multi_card_mode] else 1
            for count in range(1, top_k + 1):
                opt[O_KIND + n] = A_PLAY
                opt[O_VALUE + n] = value
                opt[O_COUNT + n] = count
                n += 1
        i = rollout_best(s, pr, bpol, hf, samples, D_ACTION, n, opt, 0, 0, dealt, sim)
        kind = opt[O_KIND + i]
        v = opt[O_VALUE + i]
        k = opt[O_COUNT + i]
    took_action(s, kind, v)
    if kind == A_DRAW:
        do_draw(s, wr)
    elif kind == A_PLAY:
        play_move(s, wr, v, k)
        if not s[S_RULES + R.multi_card_mode]:
            while s[S_HAND + v - 2] != 0:
                must = chain_rule(s)
                if must == 0 or (must < 0 and rollout_best(s, pr, bpol, hf, samples, D_CONTINUE,
                                                           2, opt, v, 0, dealt, sim) != 0):
                    break
                s[S_TOOK + K_CHAIN] += 1
                play_move(s, wr, v, 1)
    if turn_flips(s, kind):
        cand = flip_candidates(s)
        if cand != 0:
            cand = kept_flips(s, cand)
            n = _popcount(cand)
            if n == 1:
                port = _ctz(cand)
            else:
                port = _nth_bit(cand, rollout_best(s, pr, bpol, hf, samples, D_FLIP, n, opt, 0,
                                                   cand, dealt, sim))
            close_port(s, port)
    check_end(s)


# ================================================================ one game, many games


@njit(cache=True)
def play_one(ints, floats, rng, g, f, pol, P, seed, game, cap, out):
    """Game ``game`` of ``seed`` (the ``engines._fast`` contract): played in ``ints``, the
    outcome row written to ``out[0:14]``, then the took columns (one a choice).

    ``ints`` holds the state and, after it, the rollout policy's buffers (``sizes``);
    ``rng`` the world stream, then the seat's; ``pol`` the seat's encoded policy, then (row
    ``P``) the row of the policy its ``base`` names (the rollout's playouts); ``floats`` the
    heuristic's scratch.
    """
    size = state_size(g)
    s = ints
    dealt = offset(ints, size)
    sim = offset(ints, 2 * size)
    opt = offset(ints, 3 * size)
    wr = rng
    pr = offset(rng, 4)
    code = int(pol[0])
    bpol = offset(pol, P * POLICY_WIDTH)  # seat 0's base policy row (a search's playouts)
    deal(s, wr)
    s[S_FORBID] = int(pol[FORBID_COLUMN])  # the seat's own row, never its playouts' row
    s[S_FORCE] = int(pol[FORCE_COLUMN])
    if code == ROLLOUT.CODE and base_is_heuristic(bpol):
        heur_bounds(s, floats, bpol)  # the playouts' heuristic scratch, once a game
    elif code == HEUR.CODE:
        heur_bounds(s, floats, pol)   # the heuristic's scratch, once a game
    start_end = s[S_RULES + R.start_end]
    if start_end == 0:           # D1
        left_kept, right_kept = kept_starts(s)
        if left_kept != right_kept:
            left = left_kept
        elif code == RANDOM.CODE:
            left = rng_below(pr, 2) == 0
        elif code == GREEDY.CODE:
            left = greedy_start(s, pol[GREEDY.replenish_weight])
        elif code == HEUR.CODE:
            left = heur_start(s, floats, pol)
        else:
            left = rollout_best(s, pr, bpol, floats, int(pol[ROLLOUT.samples]), D_START, 2,
                                opt, 0, 0, dealt, sim) == 0
        s[S_TOOK + (K_START_LEFT if left else K_START_RIGHT)] += 1
    elif start_end == 3:
        left = rng_below(wr, 2) == 0
    else:
        left = start_end == 1
    place_boat(s, left)
    if code == RANDOM.CODE:
        random_play_out(s, wr, pr)
    elif code == GREEDY.CODE:
        greedy_play_out(s, wr, pol[GREEDY.draw_threshold], pol[GREEDY.replenish_weight])
    elif code == HEUR.CODE:
        while s[S_END] < 0:
            heur_turn(s, wr, pol, floats)
    else:
        samples = int(pol[ROLLOUT.samples])
        while s[S_END] < 0:
            rollout_turn(s, wr, pr, bpol, floats, samples, opt, dealt, sim)
    final = finish(s)
    band = 0
    for e in range(5):
        edge = s[S_RULES + R.score_band_edges + e]
        if (final > edge) if s[S_RULES + R.score_band_edge_rule] else (final >= edge):
            band += 1
    out[0] = game
    out[1] = 1
    out[2] = final
    out[3] = 1.0 if final >= s[S_RULES + R.win_threshold] else 0.0
    out[4] = band
    out[5] = s[S_TURN]
    out[6] = s[S_END]
    out[7] = s[S_COLL_N]
    out[8] = s[S_COLL_N] - s[S_COLL_MOVE]
    out[9] = s[S_COLL_MOVE]
    out[10] = s[S_LANDINGS]
    out[11] = s[S_REPLEN]
    out[12] = s[S_EXHAUSTED]
    out[13] = s[S_DRAWS]
    for i in range(N_CHOICES):
        out[14 + i] = s[S_TOOK + i]
    return True


@njit(cache=True, inline="always")
def state_size(g):
    """Slots of one game state: the exclusive-sets scoring DP needs scratch after it."""
    return S_SIZE + (2 * DP_STATES if g[R.suit_set_mode] else 0)


@njit(cache=True)
def init_rules(s, g):
    """Write the rules vector and the rank-points table they imply into a state buffer."""
    for i in range(R.SIZE):
        s[S_RULES + i] = g[i]
    for rank in range(2, 11):
        for n in range(5):
            s[S_RANK_POINTS + (rank - 2) * 5 + n] = rank_points(rank, n, g[R.pair_rule])


@njit(cache=True)
def setup_block(ints, floats, g, f, pol, P, cap):
    """Once per block: the rules into the state (its copies get them with the state)."""
    init_rules(ints, g)


def sizes(g: np.ndarray, players: int, cap: int) -> tuple[int, int]:
    """The work buffers of one game: the state, the rollout's two copies, its options; the
    heuristic's scratch."""
    return 3 * state_size(g) + O_SIZE, H_SIZE


FAST = fast_path(__name__, play_one, sizes, setup_block=setup_block)


@njit(cache=True)
def score_cards(rules, cards):
    """Scores after adding each of ``cards`` (ids 0..35) to an empty collection, through the
    fast path's own scoring (incremental add_card + refresh_score). For tests; not hot."""
    buf = np.zeros(S_SIZE + 2 * DP_STATES, dtype=np.int64)
    s = ptr(buf)
    init_rules(s, ptr(rules))
    scores = np.zeros(len(cards), dtype=np.int64)
    for i in range(len(cards)):
        predicted = score_plus(s, cards[i])
        add_card(s, cards[i])
        refresh_score(s)
        scores[i] = s[S_SCORE] if predicted == s[S_SCORE] else -(1 << 40)
    buf[0] = rules[0]  # the last uses of the owners: the pointers are valid until here
    return scores
