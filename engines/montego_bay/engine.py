"""Montego Bay, the Numba fast path: the same games as ``reference.py``, draw for draw.

This module owns the flat-state engine. A whole game lives in ONE int64 array
``s`` at the named offsets ``S_*`` below (board, figures, rail, harbour,
stacks, VP, coins, stocks, counters, the rules vector, the tile and ship
tables, and the look-ahead's scratch); the policies' floats (room values,
load gains, per-card values of opponent figures, vector totals) live in one
float64 array ``fb`` at the offsets ``F_*``. Small ``@njit`` functions each
do one rule step (set-up, a move, a barrel, a sail, a phase) or one policy
decision; ``play_one`` strings the six phases together; ``engines._fast``
runs blocks of games in parallel with per-block buffers and no allocation
inside the game loop (``FAST`` at the end of this module). The rules are read
at the indices ``R = Rules.slots()`` from the copy ``setup_block`` puts into
the state at ``S_RULES``; the policies' parameters at the columns their
``PolicySpec.slots()`` name.

Replay contract (see ``reference.py`` and ``policies.py``): the world stream
deals tiles, orientations, ships and the rail, breaks Lazy Jack ties under
``lazy_jack_tiebreak=random`` (fixed-price offer only) and re-draws the rail; seat ``p``'s stream
``POLICY + p`` makes that seat's random choices and the sampler's opponent
profiles, in the reference order. Option lists, tie-breaks (tolerance 1e-9)
and the float arithmetic of room values, load values and vector totals
follow ``policies.py`` operation for operation.

Representation notes:

* locations: a path index >= 0, or ``LEFT_PUB``/``RIGHT_PUB``/``SUPPLY``/
  ``WITH_COMPANION`` (``board.py``); figure ids are the workers in canonical
  order (seat by seat: big, small, extra) and Lazy Jack = the number of
  workers. The real position block at ``S_POS`` is ``loc[MAX_F]`` followed by
  ``at[MAX_L]`` (the figure on each path index, or -1).
* VP are kept times 12 (``VP_SCALE``): tied shares are k/t with t <= 4, so
  exact_fraction scores stay integers, and vp/12.0 is the correctly rounded
  float that ``float(Fraction)`` gives.
* a *harbour* (``H_*`` layout) holds the piers in order, pier 1 first: the
  real one at ``S_HARB`` and the sampler's copy at ``S_HCOPY``.
* the greedy and sampler look-ahead (``imagine_all``) plays every own card
  vector through an imagined Phase 3 on a *packed position*: one int64 with
  each figure's location in 5 bits plus one int64 occupancy mask, so a
  position is two registers. It walks the own movers depth first in movement
  order (nested loops over their cards), each level starting from the
  position its parent reached, so figures moving before a changed card are
  not moved again; the totals are indexed by the vector's base-5 digits and
  read back in the reference's lexicographic vector order (``best_vector``).
  Each total still receives exactly one addition per profile, in profile
  order, so the sums are the reference's floats.
* the heuristic (``policies.HeuristicPolicy``) walks the same look-ahead with
  one value table per own figure (``prepare_h``: room values plus its
  features, at ``F_OWNT``) and, when ``deny_move`` is not 0, subtracts the
  others' room values where the imagined movement leaves them
  (``leaf_value``); its D4/D5 value a barrel with ``heur_load_value`` /
  ``heur_unload_cost``. A term whose weight is 0 is skipped on both paths.
  Speed only, same floats: a pier's load value is kept between barrels until
  its ship changes (``heur_choose``), and a seat's load gains and unload costs
  of its D1 serve its D3 of the same round.
* restricted play (``engines._restrict``): each seat's masks are read once from its own
  row (``read_restrictions``, never a search's base row) into ``S_FORBID``/``S_FORCE``,
  with the card values its figures may play as bit sets (``S_KEEP``, one per value Lazy
  Jack may not play). D1 is ``decide_hire`` (a forced or forbidden hire is not asked; a
  look-ahead seat that hires unasked finds its companion and bid as the reference's
  ``GreedyPolicy._hire`` does, ``hire_gain_this_round``); in D3 the random policy draws over
  the kept values, the look-ahead still totals every vector and ``best_vector`` reads only
  the kept ones (``vector_kept``), and a seat left with one vector plays it unasked.
  ``S_TOOK`` counts every yes and every card played, by kind.
* the sampler over the expert (``sampler:base=expert``,
  ``policies.SampledHeuristicPolicy``) is the heuristic's look-ahead and D4/D5
  read from its base row (after the seats' rows, ``valued_by``) with the
  sampler's ``n_samples`` sampled profiles; ``base=greedy`` reads the sampler's
  own row as before.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.extending import intrinsic

from engines._fast import fast_path
from engines._fast import offset as _padd
from engines._game import FORBID_COLUMN, FORCE_COLUMN, POLICY_WIDTH
from engines._jit import njit
from engines._restrict import is_allowed_fast, is_forced_fast, keeps_fast, kept_binary_fast
from engines._rng import rng_below, rng_shuffle, rng_uniform
from engines._standings import lead_story_at
from engines.montego_bay import CARD_VALUES, CHOICE, CHOICES, POLICIES
from engines.montego_bay.rules import R, Rules, encode_ships

TOL = 1e-9                 # policies.TOL
VP_SCALE = 12              # VP are stored times 12 (lcm of the tie sizes 1..4)
LEFT_PUB = -1              # board.LEFT_PUB etc.
RIGHT_PUB = -2
SUPPLY = -3
WITH_COMPANION = -4

MAX_L = 20                 # path length: 2 * 8 warehouses + 2 * 2 end spaces
MAX_W = 8                  # workers in play
MAX_F = MAX_W + 1          # figures: workers and Lazy Jack
MAX_USED = 15              # freight ships in a game
# rounds in a game: at most Rules.max_rounds = freight_ships + 2 - end_threshold, so at
# most this (15) within the options' bounds (S_LEAD)
MAX_ROUNDS = Rules.option("freight_ships").high + 2 - Rules.option("end_threshold").low
N_TILES = 8
TILE_FIELDS = 6
SHIP_FIELDS = 7
PW = POLICY_WIDTH          # one encoded policy: code, then its parameters
MAX_VECTORS = 625          # 5 ** 4: three own workers and Lazy Jack
ONES5 = 0x10842108421      # 1 in each 5-bit field of a packed position (9 figures)
HIGH5 = ONES5 << 4         # the top bit of each field
CODE_LEFT = 20             # packed location codes of the look-ahead (path indices are 0..19)
CODE_RIGHT = 21
CODE_SUPPLY = 22

# the kinds of option a restriction narrows (engines.montego_bay.CHOICES): D1's hire and
# D3's card values, whose kinds run consecutively from card 1's
N_CHOICES = len(CHOICES)
LAZY_JACK = CHOICE["lazy_jack"]
CARD_1 = CHOICE["card_1"]
N_CARDS = len(CARD_VALUES)
assert CARD_VALUES == tuple(range(1, N_CARDS + 1))
assert all(CHOICE[f"card_{k}"] == CARD_1 + k - 1 for k in CARD_VALUES)

# the policies: their codes and their parameters' columns in a seat's row (PolicySpec.slots)
RANDOM = POLICIES["random"].slots().CODE
GREEDY_AT = POLICIES["greedy"].slots()
SAMPLER_AT = POLICIES["sampler"].slots()
HEUR_AT = POLICIES["heuristic"].slots()
GREEDY = GREEDY_AT.CODE
SAMPLER = SAMPLER_AT.CODE
HEUR = HEUR_AT.CODE
# heuristic shares greedy's first five columns, so policy_params reads them for both
assert (HEUR_AT.gamma, HEUR_AT.hire_threshold, HEUR_AT.w_g, HEUR_AT.w_c, HEUR_AT.w_x) == (
    GREEDY_AT.gamma, GREEDY_AT.hire_threshold, GREEDY_AT.w_g, GREEDY_AT.w_c, GREEDY_AT.w_x)

# ---------------------------------------------------------------- a harbour (piers 1..4 in order)
H_N = 0                    # ships at the piers
H_CAP = 1                  # 4: capacity (0 for the pilot boat)
H_PILOT = 5                # 4: 1 for the pilot boat
H_V = 9                    # 4 x 3: VP for ranks 1-3 on this player count's side
H_CNT = 21                 # 4 x 4: barrels of each seat aboard
H_LOAD = 37                # 4: barrels aboard
H_SIZE = 41

# ---------------------------------------------------------------- a position block
POS_LOC = 0                # MAX_F: location of each figure
POS_AT = MAX_F             # MAX_L: figure on each path index, -1 if none
POS_SIZE = MAX_F + MAX_L

# ---------------------------------------------------------------- the flat state
S_P = 0                    # players
S_W = 1                    # warehouses
S_E = 2                    # end spaces at each end
S_L = 3                    # path length
S_NW = 4                   # workers in play; also Lazy Jack's figure id
S_NOWN = 5                 # workers per seat
S_ENTRY_LEFT = 6           # index a value-1 card from the left pub lands on
S_ENTRY_RIGHT = 7
S_NRES = 8                 # room spaces in the Tally-Man's order
S_MAX_GOOD = 9             # most good barrels in any room
S_ROUND = 10
S_BANK = 11
S_HIRER = 12               # seat that hired Lazy Jack this round, -1 if none
S_COMPANION = 13           # his companion's figure id, -1 if none
S_PENDING = 14             # reshuffle_pending
S_RESHUFFLES = 15
S_B_DRAWN = 16             # stack B drawn from at least once
S_SAILED = 17              # ships_sailed_full
S_SCORED = 18              # ships_scored_total
S_BLOCKED = 19             # lazy_jack_blocked
S_RESH_ROUND = 20          # reshuffle_round
S_FIRST_SEAT = 21          # first_rail_seat
S_NEXT_SHIP = 22           # next used ship to draw (stack A = 3 .. split-1, stack B = split ..)
S_SPLIT = 23
S_N_USED = 24              # freight ships in this game
S_GOOD = 32                # MAX_L: good barrels of the room each path index faces
S_BROKEN = S_GOOD + MAX_L
S_COIN = S_BROKEN + MAX_L
S_OPP = S_COIN + MAX_L     # the space across the warehouse, -1 for end spaces
S_RES = S_OPP + MAX_L      # the Tally-Man's order (S_NRES entries)
S_WSEAT = S_RES + MAX_L    # MAX_W: seat of each worker
S_WPUB = S_WSEAT + MAX_W   # MAX_W: each worker's pub
S_USED_CAP = S_WPUB + MAX_W            # MAX_USED: capacity of each used ship (deal order)
S_USED_V = S_USED_CAP + MAX_USED       # MAX_USED x 3: its VP for ranks 1-3
S_HARB = S_USED_V + 3 * MAX_USED       # the real harbour
S_HCOPY = S_HARB + H_SIZE              # the sampler's copy (load_gains)
S_POS = S_HCOPY + H_SIZE               # the real position block
S_RAIL = S_POS + POS_SIZE              # MAX_W: worker at rail position 1, 2, ...
S_VP = S_RAIL + MAX_W                  # 4: VP times VP_SCALE
S_COINS = S_VP + 4
S_STOCK = S_COINS + 4
S_HIRES = S_STOCK + 4
S_FIRST_POS = S_HIRES + 4
S_CARDS = S_FIRST_POS + 4              # MAX_F: this round's card of each figure
S_ORDER = S_CARDS + MAX_F              # 4: Lazy Jack priority order
S_BIDS = S_ORDER + 4                   # 4: auction bids (0 = none)
S_EARLIEST = S_BIDS + 4                # 4: rail position of each seat's earliest worker
S_HIRE_COMP = S_EARLIEST + 4           # 4: companion found by each seat's last D1
S_VALS = S_HIRE_COMP + 4               # MAX_F: cards of an imagined Phase 3
S_MORD = S_VALS + MAX_F                # MAX_F: its movement order
S_OWN_POS = S_MORD + MAX_F             # 4: position in S_MORD of each own mover
S_OWN_FIG = S_OWN_POS + 4              # 4: its figure
S_OWN_W = S_OWN_FIG + 4                # 4: its weight in the vector's index (5 ** digits after it)
S_LJ_PACK = S_OWN_W + 4                # 15: position after Lazy Jack's move, per (companion, card)
S_LJ_OCC = S_LJ_PACK + 15              # 15: its occupied path indices
S_LJ_LEAD = S_LJ_OCC + 15              # 15: the first (companion, card) reaching the same
S_PACK = S_LJ_LEAD + 15                   # the real position packed for the look-ahead
S_OCC = S_PACK + 1                     # and its occupied path indices
S_TMP = S_OCC + 1                    # 16: set-up scratch (tile order, orientations)
S_LEAD = S_TMP + 16                    # MAX_ROUNDS: the leader after each round (leader)
S_HC_ROUND = S_LEAD + MAX_ROUNDS       # 4: round whose harbour the heuristic's F_LGC/F_UNLC hold
S_FORBID = S_HC_ROUND + 4              # 4: each seat's restriction: choices it may never take
S_FORCE = S_FORBID + 4                 # 4: and those it must take when it can
S_KEEP = S_FORCE + 4                   # 4 x 6: cards a figure of the seat may play (bit k - 1
#                                        for value k) when value x (1..5; 0: none) is not legal
S_HIRE_ROUND = S_KEEP + 4 * 6          # 4: round of each seat's last D1 look-ahead (hire_gain)
S_TOOK = S_HIRE_ROUND + 4              # 4 x N_CHOICES: times each seat took each kind
S_RULES = S_TOOK + 4 * N_CHOICES       # R.SIZE: Rules.encode()
S_TILES = S_RULES + R.warehouse_tiles  # N_TILES x 6 (part of the rules vector)
S_SHIPTAB = S_RULES + R.SIZE           # n x 7: encode_ships, then n: the deal


def state_size(n_ships: int) -> int:
    return S_SHIPTAB + (SHIP_FIELDS + 1) * n_ships


# ---------------------------------------------------------------- the policies' floats
F_RVW = 0                  # MAX_L: RV of an own worker on each index
F_RVLJ = F_RVW + MAX_L     # MAX_L: RV of own Lazy Jack
F_GAIN_AT = F_RVLJ + MAX_L  # MAX_L: load_gain of the room on each index (sampler)
F_LG = F_GAIN_AT + MAX_L   # 5: load_gain(g), g = 0..4
F_RVCARD = F_LG + 5        # MAX_F x 5: RV of an opponent figure's landing per card
F_TMP = F_RVCARD + 5 * MAX_F  # MAX_L: an opponent's room values
F_HIRE_GAIN = F_TMP + MAX_L   # 4: gain found by each seat's last D1
F_TOT = F_HIRE_GAIN + 4    # 4 x MAX_VECTORS: totals without Lazy Jack, then per companion
F_SHARED = F_TOT + 4 * MAX_VECTORS  # 125: worker-vector values of a shared Lazy Jack position
# the heuristic's tables (policies.HeuristicLookahead)
F_OWNT = F_SHARED + 125    # 3 x MAX_L: value of each own worker (canonical index) on each index
F_OPPT = F_OWNT + 3 * MAX_L  # 4 x MAX_L: room values of each seat's workers (the others' RV)
F_OPPLJ = F_OPPT + 4 * MAX_L  # MAX_L: room values of an opponent's Lazy Jack
F_HRVLJ = F_OPPLJ + MAX_L  # MAX_L: own Lazy Jack's room values (before the features)
F_LATE = F_HRVLJ + MAX_L   # MAX_L: place in the Tally-Man's walk, 0 first .. < 1
F_UNL = F_LATE + MAX_L     # 3: unload cost of 0, 1, 2 broken barrels
F_PREW = F_UNL + 3         # MAX_L: the terms every own worker's table shares
F_PRELJ = F_PREW + MAX_L   # MAX_L: those of own Lazy Jack's table
F_LGC = F_PRELJ + MAX_L    # 4 x 5: each seat's load gains, kept from its D1 for its D3
F_UNLC = F_LGC + 20        # 4 x 3: its unload costs, likewise
F_PV = F_UNLC + 12         # 4: the heuristic's load value of each pier (kept while valid)
F_SIZE = F_PV + 4


# ================================================================ pointers


@intrinsic
def _ctz(typingctx, x):
    """Index of the lowest set bit (LLVM cttz; x must not be 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return x(x), codegen


@intrinsic
def _clz(typingctx, x):
    """Leading zero bits (LLVM ctlz; x must not be 0)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return x(x), codegen


@njit(cache=True, inline="always")
def _pow5(e):
    x = 1
    for _ in range(e):
        x *= 5
    return x


@njit(cache=True, inline="always")
def _seat_rng(rng, seat):
    """Seat ``seat``'s policy stream (the world stream is rng[0:4])."""
    return _padd(rng, 4 * (1 + seat))


# ================================================================ majority scoring (§4)


@njit(cache=True, inline="always")
def _div_small(x, t):
    """x // t for x >= 0 and a group size t in 1..4 (no hardware division)."""
    if t == 1:
        return x
    if t == 2:
        return x >> 1
    if t == 4:
        return x >> 2
    return x // 3


@njit(cache=True, inline="always")
def _group_total(s, v, higher, t, lower):
    """v_r + ... + v_{r+t-1} for a group of t below ``higher`` loaders (reference.score_ship);
    majority_zero_mode=lowest_loader_zero gives the last of two or more groups 0."""
    if s[S_RULES + R.majority_zero_mode] == 1 and higher > 0 and lower == 0:
        return 0
    total = 0
    for r in range(higher, min(higher + t, 3)):
        total += s[v + r]
    return total


@njit(cache=True, inline="always")
def _as_share(s, total, t):
    """float(total / t rounded as tie_rounding says), as policies.share gives it."""
    rounding = s[S_RULES + R.tie_rounding]
    if rounding == 0:
        return float(_div_small(total + t - 1, t))
    if rounding == 1:
        return float(_div_small(total, t))
    return total / t


@njit(cache=True)
def share_pair(s, h, j, seat, delta):
    """policies.share of ``seat`` on pier j of harbour h: (as loaded, with its count + delta)."""
    P = s[S_P]
    cnt = h + H_CNT + 4 * j
    c0 = s[cnt + seat]
    c1 = c0 + delta
    h0 = 0
    t0 = 1
    l0 = 0
    h1 = 0
    t1 = 1
    l1 = 0
    for p in range(P):
        if p != seat:
            x = s[cnt + p]
            if x > c0:
                h0 += 1
            elif x == c0:
                t0 += 1
            elif x > 0:
                l0 += 1
            if x > c1:
                h1 += 1
            elif x == c1:
                t1 += 1
            elif x > 0:
                l1 += 1
    v = h + H_V + 3 * j
    before = _as_share(s, _group_total(s, v, h0, t0, l0), t0) if c0 > 0 else 0.0
    after = _as_share(s, _group_total(s, v, h1, t1, l1), t1) if c1 > 0 else 0.0
    return before, after


@njit(cache=True)
def points12(s, h, j, seat):
    """VP_SCALE times what ``seat`` scores from pier j of harbour h (reference.score_ship)."""
    P = s[S_P]
    cnt = h + H_CNT + 4 * j
    c = s[cnt + seat]
    if c <= 0:
        return 0
    higher = 0
    t = 1
    lower = 0
    for p in range(P):
        if p != seat:
            x = s[cnt + p]
            if x > c:
                higher += 1
            elif x == c:
                t += 1
            elif x > 0:
                lower += 1
    total = _group_total(s, h + H_V + 3 * j, higher, t, lower)
    rounding = s[S_RULES + R.tie_rounding]
    if rounding == 0:
        return VP_SCALE * _div_small(total + t - 1, t)
    if rounding == 1:
        return VP_SCALE * _div_small(total, t)
    return _div_small(VP_SCALE * total, t)


# ================================================================ harbours


@njit(cache=True)
def put_ship(s, h, cap, pilot, v1, v2, v3):
    """A ship into the highest empty pier of harbour h (empty hold)."""
    j = s[h + H_N]
    s[h + H_CAP + j] = cap
    s[h + H_PILOT + j] = pilot
    s[h + H_V + 3 * j] = v1
    s[h + H_V + 3 * j + 1] = v2
    s[h + H_V + 3 * j + 2] = v3
    for p in range(4):
        s[h + H_CNT + 4 * j + p] = 0
    s[h + H_LOAD + j] = 0
    s[h + H_N] = j + 1


@njit(cache=True)
def pop_pier(s, h, j):
    """The ship at pier j leaves harbour h; the ships behind it move down one pier."""
    n = s[h + H_N]
    for i in range(j, n - 1):
        s[h + H_CAP + i] = s[h + H_CAP + i + 1]
        s[h + H_PILOT + i] = s[h + H_PILOT + i + 1]
        for r in range(3):
            s[h + H_V + 3 * i + r] = s[h + H_V + 3 * i + 3 + r]
        for p in range(4):
            s[h + H_CNT + 4 * i + p] = s[h + H_CNT + 4 * i + 4 + p]
        s[h + H_LOAD + i] = s[h + H_LOAD + i + 1]
    s[h + H_N] = n - 1


@njit(cache=True)
def copy_harbour(s, dst, src):
    for i in range(H_SIZE):
        s[dst + i] = s[src + i]


@njit(cache=True, inline="always")
def loadable(s, h, j):
    return s[h + H_PILOT + j] == 0 and s[h + H_LOAD + j] < s[h + H_CAP + j]


@njit(cache=True)
def aboard(s, h, seat):
    n = 0
    for j in range(s[h + H_N]):
        n += s[h + H_CNT + 4 * j + seat]
    return n


# ================================================================ set-up (§3)


@njit(cache=True)
def setup(s, wr, P):
    """reference.setup, drawing from the world stream ``wr`` in the documented order."""
    r = S_RULES
    for i in range(S_RULES):
        s[i] = 0
    W = 8 if P == 4 else 7
    e = s[r + R.path_end_spaces]
    L = 2 * W + 2 * e
    s[S_P] = P
    s[S_W] = W
    s[S_E] = e
    s[S_L] = L
    for q in range(MAX_L):
        s[S_OPP + q] = -1
    for slot in range(W):
        south = W + e + (W - 1 - slot)
        s[S_OPP + slot] = south
        s[S_OPP + south] = slot
    s[S_ENTRY_LEFT] = 0 if s[r + R.pub_entry] == 0 else W + e + W - 1
    s[S_ENTRY_RIGHT] = W + e
    n = 0
    if s[r + R.resolution_order] == 0:
        for q in range(L - 1, -1, -1):
            if q < W or (W + e <= q < 2 * W + e):
                s[S_RES + n] = q
                n += 1
    else:
        for slot in range(W):
            s[S_RES + n] = slot
            s[S_RES + n + 1] = W + e + (W - 1 - slot)
            n += 2
    s[S_NRES] = n

    # 1. Warehouse tiles in random order, each randomly oriented.
    for i in range(W):
        s[S_TMP + i] = i
    rng_shuffle(wr, s, S_TMP, W)
    for slot in range(W):
        s[S_TMP + 8 + slot] = (rng_below(wr, 2) == 1) if s[r + R.tile_orientation_random] else 0
    for slot in range(W):
        tile = S_TILES + TILE_FIELDS * s[S_TMP + slot]
        a_south = s[S_TMP + 8 + slot]
        north = tile + 3 if a_south else tile
        south = tile if a_south else tile + 3
        qn = slot
        qs = W + e + (W - 1 - slot)
        s[S_GOOD + qn] = s[north]
        s[S_BROKEN + qn] = s[north + 1]
        s[S_COIN + qn] = s[north + 2]
        s[S_GOOD + qs] = s[south]
        s[S_BROKEN + qs] = s[south + 1]
        s[S_COIN + qs] = s[south + 2]
    best = 0
    for q in range(L):
        if s[S_GOOD + q] > best:
            best = s[S_GOOD + q]
    s[S_MAX_GOOD] = best

    # 2-3. Workers in canonical order, each in its pub; Lazy Jack in the supply; stocks.
    nown = s[r + R.workers_per_player_2p] if P == 2 else 2
    extra = s[r + R.two_player_extra_workers]
    nw = 0
    for seat in range(P):
        for i in range(nown):
            if i == 0:
                pub = LEFT_PUB
            elif i == 1:
                pub = RIGHT_PUB
            elif extra == 0:
                pub = LEFT_PUB if seat == 0 else RIGHT_PUB
            elif extra == 1:
                pub = LEFT_PUB
            else:
                pub = RIGHT_PUB
            s[S_WSEAT + nw] = seat
            s[S_WPUB + nw] = pub
            nw += 1
    s[S_NW] = nw
    s[S_NOWN] = nown
    for q in range(MAX_L):
        s[S_POS + POS_AT + q] = -1
    for f in range(nw):
        s[S_POS + f] = s[S_WPUB + f]
    s[S_POS + nw] = SUPPLY
    for seat in range(P):
        s[S_STOCK + seat] = s[r + R.barrels_per_player]

    # 5. Ships: the pilot boat, three freight ships, stacks A and B.
    n_ships = s[r + R.n_ships]
    deal = S_SHIPTAB + SHIP_FIELDS * n_ships
    for i in range(n_ships):
        s[deal + i] = i
    rng_shuffle(wr, s, deal, n_ships)
    freight = s[r + R.freight_ships]
    side = 4 if P == 4 else 1
    for i in range(freight):
        row = S_SHIPTAB + SHIP_FIELDS * s[deal + i]
        s[S_USED_CAP + i] = s[row]
        for k in range(3):
            s[S_USED_V + 3 * i + k] = s[row + side + k]
    put_ship(s, S_HARB, 0, 1, 0, 0, 0)
    for i in range(3):
        put_ship(s, S_HARB, s[S_USED_CAP + i], 0, s[S_USED_V + 3 * i],
                 s[S_USED_V + 3 * i + 1], s[S_USED_V + 3 * i + 2])
    s[S_NEXT_SHIP] = 3
    s[S_SPLIT] = freight - s[r + R.stack_b_size]
    s[S_N_USED] = freight

    # 6. The rail.
    for i in range(nw):
        s[S_RAIL + i] = i
    rng_shuffle(wr, s, S_RAIL, nw)

    s[S_HIRER] = -1
    s[S_COMPANION] = -1
    s[S_FIRST_SEAT] = s[S_WSEAT + s[S_RAIL]]
    earliest_positions(s)
    for seat in range(P):
        s[S_FIRST_POS + seat] = s[S_EARLIEST + seat]

    # 4. Coins out of the bank, once the rail is known: the seat's, plus its rail place's
    # (place k: the k-th seat met walking the rail from position 1, the order of S_FIRST_POS).
    for seat in range(P):
        s[S_COINS + seat] = s[r + R.start_coins_by_seat + seat]
    place = 0
    for i in range(nw):
        seat = s[S_WSEAT + s[S_RAIL + i]]
        if s[S_EARLIEST + seat] == i + 1:
            s[S_COINS + seat] += s[r + R.start_coins_by_place + place]
            place += 1
    taken = 0
    for seat in range(P):
        taken += s[S_COINS + seat]
    s[S_BANK] = s[r + R.bank_coins] - taken


@njit(cache=True)
def earliest_positions(s):
    """S_EARLIEST[seat] = 1-based rail position of the seat's earliest worker."""
    for seat in range(4):
        s[S_EARLIEST + seat] = 0
    for i in range(s[S_NW]):
        seat = s[S_WSEAT + s[S_RAIL + i]]
        if s[S_EARLIEST + seat] == 0:
            s[S_EARLIEST + seat] = i + 1


# ================================================================ ships leaving and arriving


@njit(cache=True)
def draw_new(s):
    """reference.draw_new: stack A first, then stack B (which may set reshuffle_pending)."""
    i = s[S_NEXT_SHIP]
    if i >= s[S_N_USED]:
        return
    if i >= s[S_SPLIT]:
        rule = s[S_RULES + R.reshuffle_rule]
        if (rule == 0 and s[S_B_DRAWN] == 0) or rule == 1:
            s[S_PENDING] = 1
        s[S_B_DRAWN] = 1
    s[S_NEXT_SHIP] = i + 1
    put_ship(s, S_HARB, s[S_USED_CAP + i], 0, s[S_USED_V + 3 * i], s[S_USED_V + 3 * i + 1],
             s[S_USED_V + 3 * i + 2])


@njit(cache=True)
def score_and_clear(s, j):
    """reference.score_and_clear for the ship at pier j of the real harbour."""
    h = S_HARB
    if s[h + H_PILOT + j] != 0 or s[h + H_LOAD + j] == 0:
        return
    s[S_SCORED] += 1
    P = s[S_P]
    for seat in range(P):
        s[S_VP + seat] += points12(s, h, j, seat)
    for seat in range(P):
        s[S_STOCK + seat] += s[h + H_CNT + 4 * j + seat]
        s[h + H_CNT + 4 * j + seat] = 0
    s[h + H_LOAD + j] = 0


@njit(cache=True)
def sail_full(s, j, filler):
    s[S_SAILED] += 1
    s[S_VP + filler] += VP_SCALE * s[S_RULES + R.fill_bonus]
    score_and_clear(s, j)
    pop_pier(s, S_HARB, j)
    draw_new(s)


# ================================================================ movement (§4 Phase 3)


@njit(cache=True, inline="always")
def move(s, pos, f, k, lj, companion, blocked_place):
    """reference.move (and one step of policies.imagine_movement) on the position block ``pos``.

    Lazy Jack (``lj``) starts from ``companion``'s location; left at his start he goes to
    ``blocked_place``. Returns 0 lands, 1 pushes, 2 falls back, 3 blocked.
    """
    L = s[S_L]
    at = pos + POS_AT
    if f == lj:
        start = s[pos + companion]
    else:
        start = s[pos + f]
        if start >= 0:
            s[at + start] = -1  # the mover's own start counts as free
    if start >= 0:
        target = start + k
    elif start == LEFT_PUB:
        target = s[S_ENTRY_LEFT] + k - 1
    else:
        target = s[S_ENTRY_RIGHT] + k - 1
    if target >= L:
        target -= L
    g = s[at + target]
    if g < 0:
        s[at + target] = f
        s[pos + f] = target
        return 0
    across = s[S_OPP + target]
    if across >= 0 and s[at + across] < 0:
        s[at + across] = g
        s[pos + g] = across
        s[at + target] = f
        s[pos + f] = target
        return 1
    for d in range(1, k):
        q = target - d
        if q < 0:
            q += L
        if s[at + q] < 0:
            s[at + q] = f
            s[pos + f] = q
            return 2
    if f == lj:
        s[pos + f] = blocked_place
    elif start >= 0:
        s[at + start] = f
    return 3


# ================================================================ policy parameters


# ================================================================ restricted play


@njit(cache=True)
def keep_mask(forbid, force, excl):
    """The card values (bit k - 1 for value k) a figure may play among 1..5 other than
    ``excl`` (0: every value legal): reference.card_options as a bit set."""
    forced_any = False
    allowed_any = False
    for k in range(1, N_CARDS + 1):
        if k != excl:
            forced_any = forced_any or is_forced_fast(CARD_1 + k - 1, force)
            allowed_any = allowed_any or is_allowed_fast(CARD_1 + k - 1, forbid)
    mask = 0
    for k in range(1, N_CARDS + 1):
        if k != excl and keeps_fast(CARD_1 + k - 1, forbid, force, forced_any, allowed_any):
            mask |= 1 << (k - 1)
    return mask


@njit(cache=True)
def read_restrictions(s, pol, P):
    """Each seat's masks, once, from its own row (never a search's base row), and the card
    values each seat's figures may play."""
    for seat in range(P):
        forbid = int(pol[seat * PW + FORBID_COLUMN])
        force = int(pol[seat * PW + FORCE_COLUMN])
        s[S_FORBID + seat] = forbid
        s[S_FORCE + seat] = force
        for excl in range(N_CARDS + 1):
            s[S_KEEP + 6 * seat + excl] = keep_mask(forbid, force, excl)


@njit(cache=True, inline="always")
def card_keep(s, seat, excl):
    """The card values ``seat``'s figures may play when ``excl`` is not legal (0: none)."""
    return s[S_KEEP + 6 * seat + excl]


@njit(cache=True, inline="always")
def n_cards(mask):
    n = 0
    for k in range(N_CARDS):
        n += (mask >> k) & 1
    return n


@njit(cache=True, inline="always")
def nth_card(mask, i):
    """The (i + 1)-th smallest value in ``mask``."""
    for k in range(N_CARDS):
        if (mask >> k) & 1:
            if i == 0:
                return k + 1
            i -= 1
    return 0


@njit(cache=True)
def draw_card(pr, mask):
    """RandomPolicy.pick: uniform over the values in ``mask``; one value: no draw."""
    n = n_cards(mask)
    if n == 1:
        return nth_card(mask, 0)
    return nth_card(mask, rng_below(pr, n))


@njit(cache=True)
def lazy_jack_excl(s, companion_value):
    """The value Lazy Jack may not play beside a companion playing this one (0: none)."""
    return companion_value if s[S_RULES + R.lazy_jack_distinct_card] != 0 else 0


@njit(cache=True)
def vector_kept(s, seat, idx, m, comp_canon):
    """Whether the vector with base-5 digits ``idx`` (m digits; Lazy Jack last beside the
    worker of canonical index ``comp_canon``, -1: none) is among reference.card_vectors."""
    nown = m - 1 if comp_canon >= 0 else m
    wmask = card_keep(s, seat, 0)
    for c in range(nown):
        if not (wmask >> ((idx // _pow5(m - 1 - c)) % 5)) & 1:
            return False
    if comp_canon < 0:
        return True
    companion_value = (idx // _pow5(m - 1 - comp_canon)) % 5 + 1
    return (card_keep(s, seat, lazy_jack_excl(s, companion_value)) >> (idx % 5)) & 1 == 1


@njit(cache=True, inline="always")
def restricted(s, seat):
    return s[S_FORBID + seat] != 0 or s[S_FORCE + seat] != 0


@njit(cache=True)
def policy_params(pol, seat):
    """(code, gamma, hire_threshold, w_g, w_c, w_x, n_samples, q_myopic, lambda_load) of a
    look-ahead seat. Greedy is the sampler's special case: one profile of myopic opponents
    and no loading gain of the rooms reached."""
    row = seat * PW
    code = int(pol[row])
    if code == SAMPLER:
        at = SAMPLER_AT
        return (code, pol[row + at.gamma], pol[row + at.hire_threshold], pol[row + at.w_g],
                pol[row + at.w_c], pol[row + at.w_x], int(pol[row + at.n_samples]),
                pol[row + at.q_myopic], pol[row + at.lambda_load])
    at = GREEDY_AT
    return (code, pol[row + at.gamma], pol[row + at.hire_threshold], pol[row + at.w_g],
            pol[row + at.w_c], pol[row + at.w_x], 1, 0.0, 0.0)


@njit(cache=True, inline="always")
def valued_by(s, pol, seat):
    """(pol, code) as a seat's options are valued: a sampler over the expert (``base=expert``)
    values them as its base, whose row the driver puts after the seats' rows (seat s's at
    row P + s), so the returned pointer starts P rows on and is read at the seat's own row;
    every other seat as itself (the greedy-based sampler keeps its own parameters)."""
    code = int(pol[seat * PW])
    if code == SAMPLER:
        b = _padd(pol, s[S_P] * PW)
        if int(b[seat * PW]) == HEUR:
            return b, HEUR
    return pol, code


@njit(cache=True, inline="always")
def look_ahead_param(pol, seat, greedy_column, sampler_column):
    """A look-ahead seat's parameter, at the column its policy declares for it."""
    row = seat * PW
    return pol[row + (sampler_column if int(pol[row]) == SAMPLER else greedy_column)]


@njit(cache=True, inline="always")
def policy_gamma(pol, seat):
    return look_ahead_param(pol, seat, GREEDY_AT.gamma, SAMPLER_AT.gamma)


@njit(cache=True, inline="always")
def hire_threshold(pol, seat):
    return look_ahead_param(pol, seat, GREEDY_AT.hire_threshold, SAMPLER_AT.hire_threshold)


# ================================================================ loading values (§6.1)


@njit(cache=True)
def load_value(s, h, j, seat, gamma):
    """policies.load_value_on for pier j (0-based) of harbour h."""
    before, after = share_pair(s, h, j, seat, 1)
    w = 1.0 if j == 0 else gamma
    if s[h + H_LOAD + j] + 1 >= s[h + H_CAP + j]:
        return s[S_RULES + R.fill_bonus] + after - w * before
    return w * (after - before)


@njit(cache=True)
def best_load_pier(s, h, seat, gamma):
    """policies.best_load_pier: (pier, value); pier -2 when no ship can load, -1 for STOP."""
    best = -2
    best_value = 0.0
    for j in range(s[h + H_N]):
        if loadable(s, h, j):
            v = load_value(s, h, j, seat, gamma)
            if best < 0 or v > best_value + TOL:
                best = j
                best_value = v
    if best >= 0 and s[S_RULES + R.must_load_all] == 0 and best_value < -TOL:
        return -1, 0.0
    return best, best_value


@njit(cache=True)
def best_unload_pier(s, seat, gamma):
    """policies.best_unload_pier: the pier minimising unload_cost, ties to the higher pier."""
    h = S_HARB
    best = -1
    best_cost = 0.0
    for j in range(s[h + H_N] - 1, -1, -1):
        if s[h + H_CNT + 4 * j + seat] > 0:
            before, after = share_pair(s, h, j, seat, -1)
            w = 1.0 if j == 0 else gamma
            c = w * (before - after)
            if best < 0 or c < best_cost - TOL:
                best = j
                best_cost = c
    return best


# ================================================================ Phase 4 (§4)


@njit(cache=True)
def load_barrels(s, fb, pol, rng, seat, good):
    """reference.load_barrels: one barrel at a time; a ship that fills sails at once."""
    h = S_HARB
    dirty = 15  # the heuristic's piers to value again (heur_choose)
    vp, code = valued_by(s, pol, seat)
    must_all = s[S_RULES + R.must_load_all] != 0
    n = good
    if s[S_RULES + R.load_count] == 0 and s[S_STOCK + seat] < good:
        n = s[S_STOCK + seat]
    for _ in range(n):
        if s[S_STOCK + seat] == 0:
            break
        n_opt = 0
        first = -1
        for j in range(s[h + H_N]):
            if loadable(s, h, j):
                if first < 0:
                    first = j
                n_opt += 1
        if n_opt == 0:
            break
        total_opt = n_opt if must_all else n_opt + 1
        if total_opt == 1:
            pier = first
        elif code == RANDOM:
            pick = rng_below(_seat_rng(rng, seat), total_opt)
            pier = -1
            if pick < n_opt:
                for j in range(s[h + H_N]):
                    if loadable(s, h, j):
                        if pick == 0:
                            pier = j
                            break
                        pick -= 1
        elif code == HEUR:
            pier, _ = heur_choose(s, fb, h, seat, vp, dirty)
            dirty = 0
        else:
            pier, _ = best_load_pier(s, h, seat, policy_gamma(pol, seat))
        if pier < 0:
            break
        s[h + H_CNT + 4 * pier + seat] += 1
        s[h + H_LOAD + pier] += 1
        s[S_STOCK + seat] -= 1
        if s[h + H_LOAD + pier] >= s[h + H_CAP + pier]:
            sail_full(s, pier, seat)
            dirty = 15
        else:
            dirty |= 1 << pier


@njit(cache=True)
def remove_broken(s, pol, rng, seat, broken):
    """reference.remove_broken: own barrels off ships of the player's choice."""
    h = S_HARB
    n = aboard(s, h, seat)
    if broken < n:
        n = broken
    vp, code = valued_by(s, pol, seat)
    for _ in range(n):
        n_opt = 0
        first = -1
        for j in range(s[h + H_N]):
            if s[h + H_CNT + 4 * j + seat] > 0:
                if first < 0:
                    first = j
                n_opt += 1
        if n_opt == 1:
            pier = first
        elif code == RANDOM:
            pick = rng_below(_seat_rng(rng, seat), n_opt)
            pier = -1
            for j in range(s[h + H_N]):
                if s[h + H_CNT + 4 * j + seat] > 0:
                    if pick == 0:
                        pier = j
                        break
                    pick -= 1
        elif code == HEUR:
            pier, _ = heur_best_unload_pier(s, S_HARB, seat, vp)
        else:
            pier = best_unload_pier(s, seat, policy_gamma(pol, seat))
        s[h + H_CNT + 4 * pier + seat] -= 1
        s[h + H_LOAD + pier] -= 1
        s[S_STOCK + seat] += 1


@njit(cache=True)
def resolve_room(s, fb, pol, rng, f, q):
    lj = f == s[S_NW]
    seat = s[S_HIRER] if lj else s[S_WSEAT + f]
    if s[S_COIN + q] != 0 and ((not lj) or s[S_RULES + R.lazy_jack_collects_coin] != 0):
        if s[S_BANK] >= 1:
            s[S_BANK] -= 1
            s[S_COINS + seat] += 1
    if s[S_GOOD + q] > 0:
        load_barrels(s, fb, pol, rng, seat, s[S_GOOD + q])
    if s[S_BROKEN + q] > 0 and not lj:
        remove_broken(s, pol, rng, seat, s[S_BROKEN + q])


@njit(cache=True)
def phase_tally_man(s, fb, pol, rng):
    at = S_POS + POS_AT
    for i in range(s[S_NRES]):
        q = s[S_RES + i]
        f = s[at + q]
        if f >= 0:
            resolve_room(s, fb, pol, rng, f, q)


# ================================================================ the look-ahead (§6.2)


@njit(cache=True)
def room_values(s, fb, out, seat, is_lj, w_g, w_c, w_x):
    """policies.room_values into fb[out : out + L]."""
    L = s[S_L]
    stock = s[S_STOCK + seat]
    on_ships = aboard(s, S_HARB, seat)
    coin_ok = s[S_BANK] > 0 and ((not is_lj) or s[S_RULES + R.lazy_jack_collects_coin] != 0)
    for q in range(L):
        g = s[S_GOOD + q]
        v = w_g * min(g, stock) + (w_c * s[S_COIN + q] if coin_ok else 0.0)
        if not is_lj:
            v -= w_x * min(s[S_BROKEN + q], on_ships)
        fb[out + q] = v


@njit(cache=True)
def load_gains(s, fb, seat, gamma):
    """policies.load_gains for g = 0..max good into fb[F_LG:], on the copy S_HCOPY.

    Each g replays the same greedy placements from a fresh copy, so load_gain(g) is the
    running total after min(g, stock) placements (or where the placements stopped).
    """
    h = S_HCOPY
    copy_harbour(s, h, S_HARB)
    stock = s[S_STOCK + seat]
    total = 0.0
    fb[F_LG] = 0.0
    active = True
    for g in range(1, s[S_MAX_GOOD] + 1):
        if active and g <= stock:
            j, value = best_load_pier(s, h, seat, gamma)
            if j < 0:
                active = False
            else:
                total += value
                s[h + H_CNT + 4 * j + seat] += 1
                s[h + H_LOAD + j] += 1
                if s[h + H_LOAD + j] >= s[h + H_CAP + j]:
                    pop_pier(s, h, j)
        fb[F_LG + g] = total


@njit(cache=True)
def landing(s, f, k):
    """policies.landing: where f ends playing k with every other figure standing still."""
    lj = s[S_NW]
    at = S_POS + POS_AT
    L = s[S_L]
    start = s[S_POS + s[S_COMPANION]] if f == lj else s[S_POS + f]
    if start >= 0:
        target = start + k
    elif start == LEFT_PUB:
        target = s[S_ENTRY_LEFT] + k - 1
    else:
        target = s[S_ENTRY_RIGHT] + k - 1
    if target >= L:
        target -= L
    g = s[at + target]
    if g < 0 or g == f:  # f's own start counts as free
        return target
    across = s[S_OPP + target]
    if across >= 0 and (s[at + across] < 0 or s[at + across] == f):
        return target
    for d in range(1, k):
        q = target - d
        if q < 0:
            q += L
        if s[at + q] < 0 or s[at + q] == f:
            return q
    return SUPPLY if f == lj else start


@njit(cache=True)
def opponent_cards(s, fb, f, table):
    """RV (table at fb[table:]) of f's landing for each card 1..5 into fb[F_RVCARD + 5 f:]."""
    for k in range(1, 6):
        q = landing(s, f, k)
        fb[F_RVCARD + 5 * f + k - 1] = fb[table + q] if q >= 0 else 0.0


@njit(cache=True)
def prepare(s, fb, seat, w_g, w_c, w_x, sampler, gamma):
    """What policies.Lookahead.__init__ computes: own room values, load gains, opponents' RV."""
    room_values(s, fb, F_RVW, seat, False, w_g, w_c, w_x)
    room_values(s, fb, F_RVLJ, seat, True, w_g, w_c, w_x)
    s[S_PACK], s[S_OCC] = packed_position(s)
    L = s[S_L]
    if sampler:
        load_gains(s, fb, seat, gamma)
        for q in range(L):
            fb[F_GAIN_AT + q] = fb[F_LG + s[S_GOOD + q]]
    P = s[S_P]
    nown = s[S_NOWN]
    hirer = s[S_HIRER]
    for s2 in range(P):
        if s2 == seat:
            continue
        room_values(s, fb, F_TMP, s2, False, w_g, w_c, w_x)
        for i in range(nown):
            opponent_cards(s, fb, s2 * nown + i, F_TMP)
        if hirer == s2:
            room_values(s, fb, F_TMP, s2, True, w_g, w_c, w_x)
            opponent_cards(s, fb, s[S_NW], F_TMP)


# ================================================================ the heuristic (policies.HeuristicPolicy)


@njit(cache=True, inline="always")
def heur_param(pol, seat, column):
    return pol[seat * PW + column]


@njit(cache=True)
def progress(s):
    """policies.progress: share of the stacks' ships drawn so far (0 at the start, 1 empty)."""
    return (s[S_NEXT_SHIP] - 3) / (s[S_N_USED] - 3)


@njit(cache=True)
def hire_threshold_now(s, pol, seat):
    """The hire threshold of a look-ahead seat when asked (heuristic: plus hire_late x
    progress)."""
    if int(pol[seat * PW]) == HEUR:
        return (heur_param(pol, seat, HEUR_AT.hire_threshold)
                + heur_param(pol, seat, HEUR_AT.hire_late) * progress(s))
    return hire_threshold(pol, seat)


@njit(cache=True)
def heur_weight(s, pol, seat, j):
    """HeuristicPolicy.pier_weight of pier j (0-based): 1 for pier 1, else gamma + gamma_far
    x (pier - 2) + gamma_end x [stacks empty]."""
    if j == 0:
        return 1.0
    empty = 1.0 if s[S_NEXT_SHIP] >= s[S_N_USED] else 0.0
    return (heur_param(pol, seat, HEUR_AT.gamma) + heur_param(pol, seat, HEUR_AT.gamma_far)
            * (j - 1) + heur_param(pol, seat, HEUR_AT.gamma_end) * empty)


@njit(cache=True, inline="always")
def _share_beside(s, v, higher, t, lower, k):
    """A share from a seat's rank among the others (higher, t tied, lower) once one more seat
    is counted where k says: 0 above, 1 tied, 2 below with barrels, 3 without barrels."""
    if k == 0:
        higher += 1
    elif k == 1:
        t += 1
    elif k == 2:
        lower += 1
    return _as_share(s, _group_total(s, v, higher, t, lower), t)


@njit(cache=True)
def others_gain(s, h, j, seat, delta, w, fill):
    """What the other seats gain on pier j of harbour h when ``seat`` has delta more barrels:
    the sum over them, ascending, of a - w b when the ship sails full now, else a - b (b, a:
    share before and after; policies.HeuristicPolicy.others_gain). Each other seat's rank
    among the rest is counted once, then against ``seat`` before and after; a seat without
    barrels gains 0 and is skipped."""
    P = s[S_P]
    cnt = h + H_CNT + 4 * j
    v = h + H_V + 3 * j
    c0 = s[cnt + seat]
    c1 = c0 + delta
    out = 0.0
    for p in range(P):
        if p == seat:
            continue
        c = s[cnt + p]
        if c <= 0:
            continue
        higher = 0
        t = 1
        lower = 0
        for p2 in range(P):
            if p2 != p and p2 != seat:
                x = s[cnt + p2]
                if x > c:
                    higher += 1
                elif x == c:
                    t += 1
                elif x > 0:
                    lower += 1
        # seat against p: 0 above, 1 tied, 2 below with barrels, 3 without (before, after)
        k0 = 0 if c0 > c else (1 if c0 == c else (2 if c0 > 0 else 3))
        k1 = 0 if c1 > c else (1 if c1 == c else (2 if c1 > 0 else 3))
        if k0 == k1 and not fill:
            continue  # p's share does not change: a - b = 0
        b = _share_beside(s, v, higher, t, lower, k0)
        a = b if k1 == k0 else _share_beside(s, v, higher, t, lower, k1)
        if fill:
            out += a - w * b
        else:
            out += a - b
    return out


@njit(cache=True)
def heur_load_value(s, h, j, seat, pol):
    """HeuristicPolicy.load_value_on for pier j (0-based) of harbour h."""
    w = heur_weight(s, pol, seat, j)
    before, after = share_pair(s, h, j, seat, 1)
    fill = s[h + H_LOAD + j] + 1 >= s[h + H_CAP + j]
    if fill:
        v = s[S_RULES + R.fill_bonus] + after - w * before
    else:
        v = w * (after - before)
    deny = heur_param(pol, seat, HEUR_AT.deny_load)
    if deny != 0.0:
        opp = others_gain(s, h, j, seat, 1, w, fill)
        if not fill:
            opp = w * opp
        v -= deny * opp
    risk = heur_param(pol, seat, HEUR_AT.fill_risk)
    if risk != 0.0 and not fill and s[h + H_LOAD + j] + 2 == s[h + H_CAP + j]:
        v -= risk
    return v


@njit(cache=True)
def heur_unload_cost(s, h, j, seat, pol):
    """HeuristicPolicy.unload_cost_on for pier j (0-based) of harbour h."""
    w = heur_weight(s, pol, seat, j)
    before, after = share_pair(s, h, j, seat, -1)
    c = w * (before - after)
    deny = heur_param(pol, seat, HEUR_AT.deny_load)
    if deny != 0.0:
        c += deny * (w * others_gain(s, h, j, seat, -1, w, False))
    return c


@njit(cache=True)
def heur_best_unload_pier(s, h, seat, pol):
    """HeuristicPolicy's D5: (pier minimising its unload cost, ties to the higher pier; cost)."""
    best = -1
    best_cost = 0.0
    for j in range(s[h + H_N] - 1, -1, -1):
        if s[h + H_CNT + 4 * j + seat] > 0:
            c = heur_unload_cost(s, h, j, seat, pol)
            if best < 0 or c < best_cost - TOL:
                best = j
                best_cost = c
    return best, best_cost


@njit(cache=True)
def heur_choose(s, fb, h, seat, pol, dirty):
    """HeuristicPolicy.best_load (D4): (pier, value); pier -2 when no ship can load, -1 for
    STOP. Each pier's value is kept in fb[F_PV:] between barrels: only the piers in the bit
    mask ``dirty`` are valued again (a pier's value depends on its own ship alone, and on its
    place: after a sail every pier is dirty)."""
    best = -2
    best_value = 0.0
    for j in range(s[h + H_N]):
        if loadable(s, h, j):
            if (dirty >> j) & 1:
                fb[F_PV + j] = heur_load_value(s, h, j, seat, pol)
            v = fb[F_PV + j]
            if best < 0 or v > best_value + TOL:
                best = j
                best_value = v
    if best >= 0 and s[S_RULES + R.must_load_all] == 0 and best_value < -TOL:
        return -1, 0.0
    return best, best_value


@njit(cache=True)
def heur_load_gains(s, fb, seat, pol):
    """HeuristicLookahead's load_gain(g), g = 0..max good, into fb[F_LG:] (as load_gains,
    with the heuristic's D4)."""
    h = S_HCOPY
    copy_harbour(s, h, S_HARB)
    stock = s[S_STOCK + seat]
    total = 0.0
    fb[F_LG] = 0.0
    active = True
    dirty = 15
    for g in range(1, s[S_MAX_GOOD] + 1):
        if active and g <= stock:
            j, value = heur_choose(s, fb, h, seat, pol, dirty)
            if j < 0:
                active = False
            else:
                total += value
                s[h + H_CNT + 4 * j + seat] += 1
                s[h + H_LOAD + j] += 1
                if s[h + H_LOAD + j] >= s[h + H_CAP + j]:
                    pop_pier(s, h, j)
                    dirty = 15
                else:
                    dirty = 1 << j
        fb[F_LG + g] = total


@njit(cache=True)
def heur_unload_costs(s, fb, seat, pol):
    """HeuristicLookahead's unload_loss(b), b = 0..2, into fb[F_UNL:]: the heuristic's D5
    played on a copy of the harbour, min(b, barrels aboard) times."""
    h = S_HCOPY
    copy_harbour(s, h, S_HARB)
    total = 0.0
    fb[F_UNL] = 0.0
    for b in range(1, 3):
        j, c = heur_best_unload_pier(s, h, seat, pol)
        if j >= 0:
            total += c
            s[h + H_CNT + 4 * j + seat] -= 1
            s[h + H_LOAD + j] -= 1
        fb[F_UNL + b] = total


@njit(cache=True)
def reach_count(s, fb, out, f):
    """Adds 1 to fb[out + q] for each space q figure f would land on with a card 1..5 from
    where it stands (its bare targets: nobody else moving, no pushes)."""
    L = s[S_L]
    start = s[S_POS + f]
    for k in range(1, 6):
        if start >= 0:
            q = start + k
        elif start == LEFT_PUB:
            q = s[S_ENTRY_LEFT] + k - 1
        else:
            q = s[S_ENTRY_RIGHT] + k - 1
        if q >= L:
            q -= L
        fb[out + q] += 1.0


@njit(cache=True)
def heur_table(s, fb, pol, seat, out, rv, prefix, later_than, worker):
    """HeuristicLookahead.figure_table into fb[out:]: the room values at fb[rv:] plus the
    features of one own figure, starting from the figure kind's ``prefix`` (fb[prefix:]: the
    load gain and next-round terms); ``later_than``: its rail position, 0-based (-1 for Lazy
    Jack, who moves before every worker); ``worker``: not Lazy Jack. A term whose weight is
    0 is skipped, as in the reference."""
    L = s[S_L]
    nw = s[S_NW]
    w_risk = heur_param(pol, seat, HEUR_AT.w_risk)
    w_late = heur_param(pol, seat, HEUR_AT.w_late)
    w_unload = heur_param(pol, seat, HEUR_AT.w_unload)
    if w_risk != 0.0:
        for q in range(L):
            fb[out + q] = 0.0  # the exposure counts first
        for i in range(later_than + 1, nw):
            g = s[S_RAIL + i]
            if s[S_WSEAT + g] != seat:
                reach_count(s, fb, out, g)
    for q in range(L):
        e = fb[prefix + q]
        if w_risk != 0.0:
            o = s[S_OPP + q]
            loss = 0.0
            if o >= 0:
                d = fb[rv + q] - fb[rv + o]
                if d > 0.0:
                    loss = d
            e -= w_risk * (fb[out + q] * loss)
        if w_late != 0.0:
            e += w_late * fb[F_LATE + q]
        if worker and w_unload != 0.0:
            e -= w_unload * fb[F_UNL + s[S_BROKEN + q]]
        fb[out + q] = fb[rv + q] + e


@njit(cache=True)
def prepare_h(s, fb, pol, seat, own_lj):
    """What policies.HeuristicLookahead.__init__ computes: each own figure's table, the
    others' room values (for the myopic profile and for denial). Own Lazy Jack's table only
    when ``own_lj`` (D1, or D3 of the hirer); the load gains and unload costs of a seat's D1
    serve its D3 of the same round (nothing between them changes the harbour or stocks)."""
    w_g = heur_param(pol, seat, HEUR_AT.w_g)
    w_c = heur_param(pol, seat, HEUR_AT.w_c)
    w_x = heur_param(pol, seat, HEUR_AT.w_x)
    lam = heur_param(pol, seat, HEUR_AT.lambda_load)
    w_next = heur_param(pol, seat, HEUR_AT.w_next)
    w_coin = w_c + heur_param(pol, seat, HEUR_AT.w_c_late) * progress(s)
    room_values(s, fb, F_RVW, seat, False, w_g, w_coin, w_x)
    room_values(s, fb, F_HRVLJ, seat, True, w_g, w_coin, w_x)
    s[S_PACK], s[S_OCC] = packed_position(s)
    L = s[S_L]
    unload = heur_param(pol, seat, HEUR_AT.w_unload) != 0.0
    if s[S_HC_ROUND + seat] == s[S_ROUND]:
        for g in range(5):
            fb[F_LG + g] = fb[F_LGC + 5 * seat + g]
        for b in range(3):
            fb[F_UNL + b] = fb[F_UNLC + 3 * seat + b]
    else:
        if lam != 0.0:
            heur_load_gains(s, fb, seat, pol)
        if unload:
            heur_unload_costs(s, fb, seat, pol)
        for g in range(5):
            fb[F_LGC + 5 * seat + g] = fb[F_LG + g]
        for b in range(3):
            fb[F_UNLC + 3 * seat + b] = fb[F_UNL + b]
        s[S_HC_ROUND + seat] = s[S_ROUND]
    # the terms every own worker shares (F_PREW) and Lazy Jack's (F_PRELJ)
    for q in range(L):
        e = 0.0
        if lam != 0.0:
            e = lam * fb[F_LG + s[S_GOOD + q]]
        fb[F_PRELJ + q] = e
        if w_next != 0.0:
            best = 0.0
            for k in range(1, 6):
                r = q + k
                if r >= L:
                    r -= L
                x = fb[F_RVW + r]
                if k == 1 or x > best:
                    best = x
            e += w_next * best
        fb[F_PREW + q] = e
    nown = s[S_NOWN]
    nw = s[S_NW]
    for i in range(nw):
        f = s[S_RAIL + i]
        if s[S_WSEAT + f] == seat:
            heur_table(s, fb, pol, seat, F_OWNT + MAX_L * (f - seat * nown), F_RVW, F_PREW, i,
                       True)
    if own_lj:
        heur_table(s, fb, pol, seat, F_RVLJ, F_HRVLJ, F_PRELJ, -1, False)
    P = s[S_P]
    hirer = s[S_HIRER]
    for s2 in range(P):
        if s2 == seat:
            continue
        room_values(s, fb, F_OPPT + MAX_L * s2, s2, False, w_g, w_c, w_x)
        for i in range(nown):
            opponent_cards(s, fb, s2 * nown + i, F_OPPT + MAX_L * s2)
        if hirer == s2:
            room_values(s, fb, F_OPPLJ, s2, True, w_g, w_c, w_x)
            opponent_cards(s, fb, nw, F_OPPLJ)


@njit(cache=True)
def late_table(s, fb):
    """F_LATE: each space's place in the Tally-Man's walk, i / rooms (0 first); 0 for end
    spaces. Fixed for the game (policies.HeuristicLookahead's ``late``)."""
    for q in range(s[S_L]):
        fb[F_LATE + q] = 0.0
    n = s[S_NRES]
    for i in range(n):
        fb[F_LATE + s[S_RES + i]] = i / n


@njit(cache=True)
def look_tables(s, fb, pol, seat, code, w_g, w_c, w_x, sampler, gamma, own_lj):
    """Prepares a look-ahead seat's tables: (tb, ts, deny) for ``leaf_value`` (``own_lj``:
    the seat's own Lazy Jack is played, in D1 or as the hirer's D3)."""
    if code == HEUR:
        prepare_h(s, fb, pol, seat, own_lj)
        return F_OWNT, MAX_L, heur_param(pol, seat, HEUR_AT.deny_move)
    prepare(s, fb, seat, w_g, w_c, w_x, sampler, gamma)
    return F_RVW, 0, 0.0


@njit(cache=True)
def myopic(fb, f, excl):
    """Lookahead.myopic: the card maximising RV of f's landing, ties to the smaller; not excl."""
    base = F_RVCARD + 5 * f
    best = 0
    best_value = 0.0
    for k in range(1, 6):
        if k != excl:
            v = fb[base + k - 1]
            if best == 0 or v > best_value + TOL:
                best = k
                best_value = v
    return best


@njit(cache=True)
def opponent_profile(s, fb, seat, pr, sampled, q_myopic):
    """Lookahead.myopic_profile (sampled=False) or .sampled_profile into S_VALS."""
    P = s[S_P]
    nown = s[S_NOWN]
    hirer = s[S_HIRER]
    lj = s[S_NW]
    distinct = s[S_RULES + R.lazy_jack_distinct_card] != 0
    for s2 in range(P):
        if s2 == seat:
            continue
        for i in range(nown):
            f = s2 * nown + i
            if sampled and not (rng_uniform(pr) < q_myopic):
                v = 1 + rng_below(pr, 5)
            else:
                v = myopic(fb, f, 0)
            s[S_VALS + f] = v
        if hirer == s2:
            excl = s[S_VALS + s[S_COMPANION]] if distinct else 0
            if sampled and not (rng_uniform(pr) < q_myopic):
                pick = rng_below(pr, 4 if excl > 0 else 5)
                v = pick + 1 if (excl == 0 or pick + 1 < excl) else pick + 2
            else:
                v = myopic(fb, lj, excl)
            s[S_VALS + lj] = v


@njit(cache=True, inline="always")
def pmove(s, pack, occ, f, k, lj, companion, L, entry_left, entry_right):
    """``move`` on a packed position: (pack, occ) after f plays k (Lazy Jack blocked: supply).

    ``pack`` holds each figure's location code in 5 bits (figure f at bit 5 f; unused fields
    31), ``occ`` the occupied path indices; the same landing, push, fall-back and blocked
    cases as ``move``. The pushed figure is the lowest 5-bit field equal to the target (a
    zero-field test on pack ^ target); the fall-back space is the highest free index of the
    window below the target in a doubled occupancy mask (no loops, whose exits mispredict).
    """
    if f == lj:
        start = (pack >> (5 * companion)) & 31
    else:
        start = (pack >> (5 * f)) & 31
        if start < CODE_LEFT:
            occ &= ~(1 << start)  # the mover's own start counts as free
    if start < CODE_LEFT:
        target = start + k
    elif start == CODE_LEFT:
        target = entry_left + k - 1
    else:
        target = entry_right + k - 1
    if target >= L:
        target -= L
    rest = pack & ~(31 << (5 * f))
    if (occ >> target) & 1 == 0:
        return rest | (target << (5 * f)), occ | (1 << target)
    across = s[S_OPP + target]
    if across >= 0 and (occ >> across) & 1 == 0:
        x = pack ^ (target * ONES5)
        g5 = _ctz((x - ONES5) & ~x & HIGH5) - 4  # 5 x the figure standing on the target
        rest = (rest & ~(31 << g5)) | (across << g5)
        return rest | (target << (5 * f)), occ | (1 << across)
    free = ~occ & ((1 << L) - 1)
    window = (free | (free << L)) & (((1 << (k - 1)) - 1) << (target + L - k + 1))
    if window != 0:
        q = 63 - _clz(window)
        if q >= L:
            q -= L
        return rest | (q << (5 * f)), occ | (1 << q)
    if f == lj:
        return rest | (CODE_SUPPLY << (5 * f)), occ
    if start < CODE_LEFT:
        occ |= 1 << start
    return pack, occ


@njit(cache=True, inline="always")
def run_segment(s, pack, occ, lo, hi, lj, companion, L, entry_left, entry_right):
    """Movers S_MORD[lo:hi] play their cards S_VALS on the packed position."""
    for i in range(lo, hi):
        g = s[S_MORD + i]
        pack, occ = pmove(s, pack, occ, g, s[S_VALS + g], lj, companion, L, entry_left,
                          entry_right)
    return pack, occ


@njit(cache=True, inline="always")
def leaf_value(s, fb, pack, seat, base, nown, lj, own_lj, gains, lam, tb, ts, deny):
    """Lookahead.totals' value of one imagined Phase 3: sum RV (canonical order, Lazy Jack
    last) plus lam * sum of load gains, figures off the path worth 0.

    Own worker c reads its table at fb[tb + c * ts] (greedy and sampler: the one table
    F_RVW, ts = 0; heuristic: its own F_OWNT table); ``deny`` != 0 (heuristic) subtracts
    deny times the others' room values where they stand (HeuristicLookahead.totals).
    """
    rv = 0.0
    for c in range(nown):
        q = (pack >> (5 * (base + c))) & 31
        if q < CODE_LEFT:
            rv += fb[tb + c * ts + q]
    if own_lj:
        q = (pack >> (5 * lj)) & 31
        if q < CODE_LEFT:
            rv += fb[F_RVLJ + q]
    if gains:
        lg = 0.0
        for c in range(nown):
            q = (pack >> (5 * (base + c))) & 31
            if q < CODE_LEFT:
                lg += fb[F_GAIN_AT + q]
        if own_lj:
            q = (pack >> (5 * lj)) & 31
            if q < CODE_LEFT:
                lg += fb[F_GAIN_AT + q]
        rv += lam * lg
    if deny != 0.0:
        o = 0.0
        for s2 in range(s[S_P]):
            if s2 != seat:
                for i in range(nown):
                    q = (pack >> (5 * (s2 * nown + i))) & 31
                    if q < CODE_LEFT:
                        o += fb[F_OPPT + MAX_L * s2 + q]
        hirer = s[S_HIRER]
        if hirer >= 0 and hirer != seat:
            q = (pack >> (5 * lj)) & 31
            if q < CODE_LEFT:
                o += fb[F_OPPLJ + q]
        rv -= deny * o
    return rv


@njit(cache=True)
def packed_position(s):
    """The real position block as (pack, occ)."""
    pack = 0
    for f in range(s[S_NW] + 1, MAX_F):
        pack |= 31 << (5 * f)  # unused fields never equal a path index
    for f in range(s[S_NW] + 1):
        q = s[S_POS + f]
        if q >= 0:
            code = q
        elif q == LEFT_PUB:
            code = CODE_LEFT
        elif q == RIGHT_PUB:
            code = CODE_RIGHT
        else:
            code = CODE_SUPPLY
        pack |= code << (5 * f)
    occ = 0
    for q in range(s[S_L]):
        if s[S_POS + POS_AT + q] >= 0:
            occ |= 1 << q
    return pack, occ


@njit(cache=True)
def movement_order(s, seat, lj_moves):
    """S_MORD: Lazy Jack first (when one moves), then the rail; S_OWN_*: ``seat``'s workers
    in that order, with each one's weight 5 ** (workers after it in canonical order)."""
    nw = s[S_NW]
    nown = s[S_NOWN]
    n_ord = 0
    if lj_moves:
        s[S_MORD] = nw
        n_ord = 1
    for i in range(nw):
        s[S_MORD + n_ord] = s[S_RAIL + i]
        n_ord += 1
    d = 0
    for i in range(n_ord):
        f = s[S_MORD + i]
        if f != nw and s[S_WSEAT + f] == seat:
            s[S_OWN_POS + d] = i
            s[S_OWN_FIG + d] = f
            s[S_OWN_W + d] = _pow5(nown - 1 - (f - seat * nown))
            d += 1
    for d in range(nown, 3):
        s[S_OWN_POS + d] = n_ord
        s[S_OWN_FIG + d] = -1
        s[S_OWN_W + d] = 0
    return n_ord


@njit(cache=True)
def walk_workers(s, fb, seat, pk, oc, lo, n_ord, ljc, own_lj, out, stride, skip_f, skip_k,
                 gains, lam, tb, ts, deny):
    """Every card vector of ``seat``'s workers played on from the packed position (pk, oc)
    reached before mover S_MORD[lo] (see ``movement_order``).

    fb[out + idx * stride] += the vector's value (``leaf_value``; ``own_lj``: the seat's Lazy
    Jack, already moved, counts too), idx = the workers' cards - 1 as base-5 digits in
    canonical order; vectors where worker ``skip_f`` plays ``skip_k`` are left out. The
    workers are walked in movement order (loops k0 > k1 > k2), each level starting from the
    position its parent reached, so figures moving before a changed card are not moved again.
    """
    lj = s[S_NW]
    nown = s[S_NOWN]
    base = seat * nown
    L = s[S_L]
    el = s[S_ENTRY_LEFT]
    er = s[S_ENTRY_RIGHT]
    f0 = s[S_OWN_FIG]
    f1 = s[S_OWN_FIG + 1]
    f2 = s[S_OWN_FIG + 2]
    p0 = s[S_OWN_POS]
    p1 = s[S_OWN_POS + 1]
    p2 = s[S_OWN_POS + 2]
    w0 = s[S_OWN_W] * stride
    w1 = s[S_OWN_W + 1] * stride
    w2 = s[S_OWN_W + 2] * stride
    pk, oc = run_segment(s, pk, oc, lo, p0, lj, ljc, L, el, er)
    for k0 in range(1, 6):
        if f0 == skip_f and k0 == skip_k:
            continue
        pk1, oc1 = pmove(s, pk, oc, f0, k0, lj, ljc, L, el, er)
        pk1, oc1 = run_segment(s, pk1, oc1, p0 + 1, p1, lj, ljc, L, el, er)
        i0 = out + (k0 - 1) * w0
        for k1 in range(1, 6):
            if f1 == skip_f and k1 == skip_k:
                continue
            pk2, oc2 = pmove(s, pk1, oc1, f1, k1, lj, ljc, L, el, er)
            pk2, oc2 = run_segment(s, pk2, oc2, p1 + 1, p2, lj, ljc, L, el, er)
            i1 = i0 + (k1 - 1) * w1
            if nown == 2:
                fb[i1] += leaf_value(s, fb, pk2, seat, base, nown, lj, own_lj, gains, lam,
                                     tb, ts, deny)
                continue
            for k2 in range(1, 6):
                if f2 == skip_f and k2 == skip_k:
                    continue
                pk3, oc3 = pmove(s, pk2, oc2, f2, k2, lj, ljc, L, el, er)
                pk3, oc3 = run_segment(s, pk3, oc3, p2 + 1, n_ord, lj, ljc, L, el, er)
                fb[i1 + (k2 - 1) * w2] += leaf_value(s, fb, pk3, seat, base, nown, lj, own_lj,
                                                     gains, lam, tb, ts, deny)


@njit(cache=True)
def imagine_all(s, fb, seat, lj_companion, tot, gains, lam, tb, ts, deny):
    """Lookahead.totals for one profile without an own Lazy Jack (opponent cards in S_VALS;
    ``lj_companion``: an opponent's Lazy Jack moves first from there, -1: none)."""
    n_ord = movement_order(s, seat, lj_companion >= 0)
    walk_workers(s, fb, seat, s[S_PACK], s[S_OCC], 0, n_ord, max(lj_companion, 0), False,
                 tot, 1, -1, 0, gains, lam, tb, ts, deny)


@njit(cache=True)
def imagine_with_lj(s, fb, seat, c_first, c_count, tot, tot_step, gains, lam, tb, ts, deny):
    """Lookahead.totals for one profile with an own Lazy Jack beside each worker c_first ..
    c_first + c_count - 1 (canonical index among the seat's workers), the totals of the
    i-th at fb[tot + i * tot_step], indexed with Lazy Jack's card as the last digit.

    Lazy Jack moves first, so every (companion, card) only changes the position he reaches;
    (companion, card) pairs reaching the same position share one walk of the workers (its
    values go to each pair's totals, so each total still gets one addition per profile).
    """
    nown = s[S_NOWN]
    base = seat * nown
    lj = s[S_NW]
    n_ord = movement_order(s, seat, True)
    distinct = s[S_RULES + R.lazy_jack_distinct_card] != 0
    L = s[S_L]
    el = s[S_ENTRY_LEFT]
    er = s[S_ENTRY_RIGHT]
    pk = s[S_PACK]
    oc = s[S_OCC]
    n = 5 * c_count
    for i in range(n):
        c = base + c_first + i // 5
        s[S_LJ_PACK + i], s[S_LJ_OCC + i] = pmove(s, pk, oc, lj, i % 5 + 1, lj, c, L, el, er)
        s[S_LJ_LEAD + i] = i
        for j in range(i):
            if s[S_LJ_LEAD + j] == j and s[S_LJ_PACK + j] == s[S_LJ_PACK + i] \
                    and s[S_LJ_OCC + j] == s[S_LJ_OCC + i]:
                s[S_LJ_LEAD + i] = j
                break
    size = _pow5(nown)
    for i in range(n):
        if s[S_LJ_LEAD + i] != i:
            continue
        shared = False
        for j in range(i + 1, n):
            if s[S_LJ_LEAD + j] == i:
                shared = True
                break
        c = base + c_first + i // 5
        if not shared:
            k = i % 5 + 1
            walk_workers(s, fb, seat, s[S_LJ_PACK + i], s[S_LJ_OCC + i], 1, n_ord, c, True,
                         tot + (i // 5) * tot_step + k - 1, 5, c if distinct else -1, k,
                         gains, lam, tb, ts, deny)
            continue
        zero_totals(fb, F_SHARED, size)
        walk_workers(s, fb, seat, s[S_LJ_PACK + i], s[S_LJ_OCC + i], 1, n_ord, c, True,
                     F_SHARED, 1, -1, 0, gains, lam, tb, ts, deny)
        for j in range(i, n):
            if s[S_LJ_LEAD + j] != i:
                continue
            k = j % 5 + 1
            cj = c_first + j // 5
            out = tot + (j // 5) * tot_step + k - 1
            run_len = _pow5(nown - 1 - cj)  # the companion's card changes every run_len
            run = 0
            digit = 1
            for idx in range(size):
                if not (distinct and digit == k):
                    fb[out + 5 * idx] += fb[F_SHARED + idx]
                run += 1
                if run == run_len:
                    run = 0
                    digit = digit + 1 if digit < 5 else 1


@njit(cache=True)
def best_vector(s, fb, seat, tot, m, comp_canon, n):
    """Lookahead.best: (index, mean) of the best legal vector, ties to the smallest.

    ``comp_canon`` is the canonical index of the own Lazy Jack's companion (-1: none). The
    digits of Lazy Jack (the last) and of the companion are counted, not divided out. A
    restricted seat's vectors are those its restriction keeps (``vector_kept``).
    """
    limited = restricted(s, seat)
    distinct = comp_canon >= 0 and s[S_RULES + R.lazy_jack_distinct_card] != 0
    div = _pow5(m - 1 - comp_canon) if comp_canon >= 0 else 1
    best = -1
    best_mean = 0.0
    d_lj = 0
    d_comp = 0
    run = 0
    for idx in range(_pow5(m)):
        if not (distinct and d_lj == d_comp) and (
                not limited or vector_kept(s, seat, idx, m, comp_canon)):
            mean = fb[tot + idx] / n
            if best < 0 or mean > best_mean + TOL:
                best = idx
                best_mean = mean
        d_lj += 1
        if d_lj == 5:
            d_lj = 0
        run += 1
        if run == div:
            run = 0
            d_comp += 1
            if d_comp == 5:
                d_comp = 0
    return best, best_mean


@njit(cache=True)
def zero_totals(fb, tot, size):
    for i in range(size):
        fb[tot + i] = 0.0


@njit(cache=True)
def hire_gain(s, fb, pol, rng, seat):
    """GreedyPolicy._hire_gain / Lookahead.hire_gain: (best with LJ - best without, companion).

    Also remembered for the seat (F_HIRE_GAIN, S_HIRE_COMP) for the bid and the companion.
    """
    code, gamma, _, w_g, w_c, w_x, n, q_myopic, lam = policy_params(pol, seat)
    sampler = code == SAMPLER  # sampled opponent profiles
    vp, code = valued_by(s, pol, seat)
    gains = code == SAMPLER  # the greedy-based sampler's loading gain of the rooms reached
    tb, ts, deny = look_tables(s, fb, vp, seat, code, w_g, w_c, w_x, gains, gamma, True)
    nown = s[S_NOWN]
    base = seat * nown
    size0 = _pow5(nown)
    size1 = 5 * size0
    zero_totals(fb, F_TOT, size0)
    for c in range(nown):
        zero_totals(fb, F_TOT + (c + 1) * MAX_VECTORS, size1)
    pr = _seat_rng(rng, seat)
    for _ in range(n):
        opponent_profile(s, fb, seat, pr, sampler, q_myopic)
        imagine_all(s, fb, seat, -1, F_TOT, gains, lam, tb, ts, deny)
        imagine_with_lj(s, fb, seat, 0, nown, F_TOT + MAX_VECTORS, MAX_VECTORS, gains, lam,
                        tb, ts, deny)
    _, without = best_vector(s, fb, seat, F_TOT, nown, -1, n)
    best_c = -1
    best_with = 0.0
    for c in range(nown):
        _, value = best_vector(s, fb, seat, F_TOT + (c + 1) * MAX_VECTORS, nown + 1, c, n)
        if best_c < 0 or value > best_with + TOL:
            best_c = c
            best_with = value
    gain = best_with - without
    fb[F_HIRE_GAIN + seat] = gain
    s[S_HIRE_COMP + seat] = base + best_c
    s[S_HIRE_ROUND + seat] = s[S_ROUND]
    return gain


@njit(cache=True)
def lookahead_cards(s, fb, pol, rng, seat):
    """GreedyPolicy/SamplerPolicy.movement_cards into S_CARDS."""
    code, gamma, _, w_g, w_c, w_x, n, q_myopic, lam = policy_params(pol, seat)
    sampler = code == SAMPLER  # sampled opponent profiles
    vp, code = valued_by(s, pol, seat)
    gains = code == SAMPLER  # the greedy-based sampler's loading gain of the rooms reached
    tb, ts, deny = look_tables(s, fb, vp, seat, code, w_g, w_c, w_x, gains, gamma,
                               s[S_HIRER] == seat)
    nown = s[S_NOWN]
    base = seat * nown
    hirer = s[S_HIRER]
    companion = s[S_COMPANION] if hirer == seat else -1
    lj_companion = s[S_COMPANION] if hirer >= 0 else -1
    m = nown + (1 if companion >= 0 else 0)
    zero_totals(fb, F_TOT, _pow5(m))
    pr = _seat_rng(rng, seat)
    for _ in range(n):
        opponent_profile(s, fb, seat, pr, sampler, q_myopic)
        if companion >= 0:
            imagine_with_lj(s, fb, seat, companion - base, 1, F_TOT, 0, gains, lam, tb, ts,
                            deny)
        else:
            imagine_all(s, fb, seat, lj_companion, F_TOT, gains, lam, tb, ts, deny)
    idx, _ = best_vector(s, fb, seat, F_TOT, m, companion - base if companion >= 0 else -1, n)
    for c in range(m):
        v = (idx // _pow5(m - 1 - c)) % 5 + 1
        f = s[S_NW] if c == nown else base + c
        s[S_CARDS + f] = v


# ================================================================ Phase 1 (§4)


@njit(cache=True)
def ask_hire(s, fb, pol, rng, seat):
    """D1 lazy_jack_hire."""
    code = int(pol[seat * PW])
    if code == RANDOM:
        return rng_below(_seat_rng(rng, seat), 2) == 0
    gain = hire_gain(s, fb, pol, rng, seat)
    threshold = hire_threshold_now(s, valued_by(s, pol, seat)[0], seat)
    return gain >= threshold - TOL


@njit(cache=True)
def ask_bid(s, fb, pol, rng, seat):
    """lazy_jack_bid (only when the player has more coins than the cost)."""
    code = int(pol[seat * PW])
    cost = s[S_RULES + R.lazy_jack_cost]
    coins = s[S_COINS + seat]
    if code == RANDOM:
        return cost + rng_below(_seat_rng(rng, seat), coins - cost + 1)
    hire_gain_this_round(s, fb, pol, rng, seat)
    threshold = hire_threshold_now(s, valued_by(s, pol, seat)[0], seat)
    bid = cost + int(np.floor(fb[F_HIRE_GAIN + seat] - threshold))
    return max(cost, min(coins, bid))


@njit(cache=True)
def hire_gain_this_round(s, fb, pol, rng, seat):
    """A look-ahead seat's D1 values (gain, companion) of this round: found when it was asked
    to hire, or now when its restriction made it hire unasked (``GreedyPolicy._hire``)."""
    if s[S_HIRE_ROUND + seat] != s[S_ROUND]:
        hire_gain(s, fb, pol, rng, seat)


@njit(cache=True)
def decide_hire(s, fb, pol, rng, seat):
    """reference.wants_lazy_jack: D1 within the seat's restriction; each yes is counted."""
    must = kept_binary_fast(LAZY_JACK, s[S_FORBID + seat], s[S_FORCE + seat])
    yes = ask_hire(s, fb, pol, rng, seat) if must < 0 else must == 1
    if yes:
        s[S_TOOK + seat * N_CHOICES + LAZY_JACK] += 1
    return yes


@njit(cache=True)
def hire(s, fb, pol, rng, seat, price):
    """reference.hire_lazy_jack: pay, then choose the companion (D2)."""
    s[S_COINS + seat] -= price
    s[S_BANK] += price
    s[S_HIRES + seat] += 1
    s[S_HIRER] = seat
    nown = s[S_NOWN]
    if int(pol[seat * PW]) == RANDOM:
        s[S_COMPANION] = seat * nown + rng_below(_seat_rng(rng, seat), nown)
    else:
        hire_gain_this_round(s, fb, pol, rng, seat)
        s[S_COMPANION] = s[S_HIRE_COMP + seat]


@njit(cache=True)
def priority_order(s, wr, n):
    """reference.priority_order of the n eligible seats in S_ORDER (ascending on entry)."""
    rule = s[S_RULES + R.lazy_jack_tiebreak]
    if s[S_RULES + R.lazy_jack_allocation] == 1:
        rule = 0  # the auction breaks ties by fewest VP, then rail order (spec §7)
    earliest_positions(s)
    for i in range(1, n):  # stable insertion sort
        x = s[S_ORDER + i]
        j = i - 1
        while j >= 0:
            y = s[S_ORDER + j]
            if rule == 0:
                later = (s[S_VP + y] > s[S_VP + x]
                         or (s[S_VP + y] == s[S_VP + x]
                             and s[S_EARLIEST + y] > s[S_EARLIEST + x]))
            elif rule == 1:
                later = (s[S_VP + y] > s[S_VP + x]
                         or (s[S_VP + y] == s[S_VP + x]
                             and (s[S_COINS + y] > s[S_COINS + x]
                                  or (s[S_COINS + y] == s[S_COINS + x]
                                      and s[S_EARLIEST + y] > s[S_EARLIEST + x]))))
            else:
                later = s[S_VP + y] > s[S_VP + x]
            if not later:
                break
            s[S_ORDER + j + 1] = y
            j -= 1
        s[S_ORDER + j + 1] = x
    if rule == 2 and n >= 2:
        i = 0
        while i < n:
            j = i
            while j < n and s[S_VP + s[S_ORDER + j]] == s[S_VP + s[S_ORDER + i]]:
                j += 1
            if j - i >= 2:
                rng_shuffle(wr, s, S_ORDER + i, j - i)
            i = j


@njit(cache=True)
def phase_lazy_jack(s, fb, pol, rng):
    cost = s[S_RULES + R.lazy_jack_cost]
    n = 0
    for seat in range(s[S_P]):
        if s[S_COINS + seat] >= cost:
            s[S_ORDER + n] = seat
            n += 1
    if n == 0:
        return
    priority_order(s, rng, n)
    if s[S_RULES + R.lazy_jack_allocation] == 0:
        for i in range(n):
            seat = s[S_ORDER + i]
            if decide_hire(s, fb, pol, rng, seat):
                hire(s, fb, pol, rng, seat, cost)
                return
        return
    for i in range(n):  # sealed bids: every eligible player answers
        seat = s[S_ORDER + i]
        s[S_BIDS + seat] = 0
        if decide_hire(s, fb, pol, rng, seat):
            if s[S_COINS + seat] == cost:
                s[S_BIDS + seat] = cost
            else:
                s[S_BIDS + seat] = ask_bid(s, fb, pol, rng, seat)
    best = 0
    winner = -1
    for i in range(n):
        seat = s[S_ORDER + i]
        if s[S_BIDS + seat] > best:
            best = s[S_BIDS + seat]
            winner = seat
    if winner >= 0:
        hire(s, fb, pol, rng, winner, best)


# ================================================================ Phases 2, 3, 5, 6 (§4)


@njit(cache=True)
def phase_cards(s, fb, pol, rng):
    """D3 for every seat (the look-ahead never reads S_CARDS, so cards are set as chosen)."""
    nown = s[S_NOWN]
    lj = s[S_NW]
    for seat in range(s[S_P]):
        code = int(pol[seat * PW])
        base = seat * nown
        own_lj = s[S_HIRER] == seat
        wmask = card_keep(s, seat, 0)
        # one vector left by the restriction: played unasked (reference.phase_cards)
        only = n_cards(wmask) == 1
        if only and own_lj:
            only = n_cards(card_keep(s, seat, lazy_jack_excl(s, nth_card(wmask, 0)))) == 1
        if only:
            for i in range(nown):
                s[S_CARDS + base + i] = nth_card(wmask, 0)
            if own_lj:
                s[S_CARDS + lj] = nth_card(
                    card_keep(s, seat, lazy_jack_excl(s, nth_card(wmask, 0))), 0)
        elif code == RANDOM:
            pr = _seat_rng(rng, seat)
            for i in range(nown):
                s[S_CARDS + base + i] = draw_card(pr, wmask)
            if own_lj:
                excl = lazy_jack_excl(s, s[S_CARDS + s[S_COMPANION]])
                s[S_CARDS + lj] = draw_card(pr, card_keep(s, seat, excl))
        else:
            lookahead_cards(s, fb, pol, rng, seat)
        took = S_TOOK + seat * N_CHOICES + CARD_1 - 1
        for i in range(nown):
            s[took + s[S_CARDS + base + i]] += 1
        if own_lj:
            s[took + s[S_CARDS + lj]] += 1


@njit(cache=True)
def phase_movement(s):
    lj = s[S_NW]
    blocked_place = SUPPLY if s[S_RULES + R.lazy_jack_blocked] == 0 else WITH_COMPANION
    companion = s[S_COMPANION]
    if s[S_HIRER] >= 0:
        if move(s, S_POS, lj, s[S_CARDS + lj], lj, companion, blocked_place) == 3:
            s[S_BLOCKED] += 1
    for i in range(s[S_NW]):
        f = s[S_RAIL + i]
        move(s, S_POS, f, s[S_CARDS + f], lj, companion, blocked_place)


@njit(cache=True)
def phase_harbour(s):
    """True when the game ends; otherwise the pier-1 ship departs and a new one is drawn."""
    if s[S_HARB + H_N] <= s[S_RULES + R.end_threshold]:
        return True
    score_and_clear(s, 0)
    pop_pier(s, S_HARB, 0)
    draw_new(s)
    return False


@njit(cache=True)
def phase_rail(s, wr):
    nw = s[S_NW]
    if s[S_PENDING] != 0 and (s[S_RESHUFFLES] == 0 or s[S_RULES + R.reshuffle_rule] == 1):
        rng_shuffle(wr, s, S_RAIL, nw)
        s[S_RESHUFFLES] += 1
        if s[S_RESH_ROUND] == 0:
            s[S_RESH_ROUND] = s[S_ROUND]
    else:
        last = s[S_RAIL + nw - 1]
        for i in range(nw - 1, 0, -1):
            s[S_RAIL + i] = s[S_RAIL + i - 1]
        s[S_RAIL] = last
    s[S_PENDING] = 0
    q = s[S_POS + nw]
    if q >= 0:
        s[S_POS + POS_AT + q] = -1
    s[S_POS + nw] = SUPPLY
    s[S_HIRER] = -1
    s[S_COMPANION] = -1
    for f in range(MAX_F):
        s[S_CARDS + f] = 0


@njit(cache=True)
def leader(s, P):
    """reference.leader of the VP track: the one seat with the most VP; -1 when shared."""
    best = s[S_VP]
    who = 0
    for p in range(1, P):
        v = s[S_VP + p]
        if v > best:
            best = v
            who = p
        elif v == best:
            who = -1
    return who


# ================================================================ one game, many games


@njit(cache=True)
def play_one(ints, floats, rng, g, f, pol, P, seed, game, cap, out):
    """Game ``game`` of ``seed`` (the ``engines._fast`` contract) in the state ``ints`` and
    the policies' floats ``floats``; its outcome row goes to out[0:10 + (5 + N_CHOICES) P]."""
    s = ints
    fb = floats
    setup(s, rng, P)
    read_restrictions(s, pol, P)
    late_table(s, fb)
    max_rounds = s[S_RULES + R.max_rounds]
    while True:
        s[S_ROUND] += 1
        phase_lazy_jack(s, fb, pol, rng)
        phase_cards(s, fb, pol, rng)
        phase_movement(s)
        phase_tally_man(s, fb, pol, rng)
        if phase_harbour(s):
            break
        phase_rail(s, rng)
        if s[S_ROUND] >= max_rounds:  # unreachable: every round removes a ship (the
            break                     # reference asserts it); keeps S_LEAD in bounds
        s[S_LEAD + s[S_ROUND] - 1] = leader(s, P)
    for j in range(s[S_HARB + H_N]):
        score_and_clear(s, j)
    rounds = s[S_ROUND]
    s[S_LEAD + rounds - 1] = leader(s, P)  # the last round's standing is the final score
    # winners: most VP, then (coins_then_shared) most coins, then shared
    best = s[S_VP]
    for p in range(1, P):
        best = max(best, s[S_VP + p])
    most = -1
    tied = 0
    for p in range(P):
        if s[S_VP + p] == best:
            tied += 1
            most = max(most, s[S_COINS + p])
    by_coins = tied > 1 and s[S_RULES + R.final_tiebreak] == 0
    k = 0
    for p in range(P):
        if s[S_VP + p] == best and (not by_coins or s[S_COINS + p] == most):
            k += 1
    c = 0
    out[c] = game
    out[c + 1] = P
    c += 2
    for p in range(P):
        out[c + p] = s[S_VP + p] / 12.0
    c += P
    for p in range(P):
        win = s[S_VP + p] == best and (not by_coins or s[S_COINS + p] == most)
        out[c + p] = 1.0 / k if win else 0.0
    c += P
    out[c] = s[S_ROUND]
    out[c + 1] = s[S_SAILED]
    out[c + 2] = s[S_SCORED]
    c += 3
    for p in range(P):
        out[c + p] = s[S_HIRES + p]
    c += P
    for p in range(P):
        out[c + p] = s[S_COINS + p]
    c += P
    out[c] = s[S_FIRST_SEAT]
    c += 1
    for p in range(P):
        out[c + p] = s[S_FIRST_POS + p]
    c += P
    out[c] = s[S_BLOCKED]
    out[c + 1] = s[S_RESH_ROUND]
    changes, half = lead_story_at(s, S_LEAD, rounds)
    out[c + 2] = changes
    out[c + 3] = half
    c += 4
    for k in range(N_CHOICES):  # took_<choice>_<seat>: by choice, then seat
        for p in range(P):
            out[c + k * P + p] = s[S_TOOK + p * N_CHOICES + k]
    return True


@njit(cache=True)
def setup_block(ints, floats, g, f, pol, P, cap):
    """Once per block: the rules vector (tiles included) and the ship table into the state."""
    n = R.SIZE + SHIP_FIELDS * g[R.n_ships]
    for i in range(n):
        ints[S_RULES + i] = g[i]


def ship_data(rules, players: int) -> np.ndarray:
    """The fast path's tables after the rules vector: the ship table, row by row."""
    return encode_ships(rules).reshape(-1)


def sizes(g: np.ndarray, players: int, cap: int) -> tuple[int, int]:
    """The state (with the ship table and the deal) and the policies' floats."""
    assert g[R.max_rounds] <= MAX_ROUNDS, "S_LEAD holds the leaders of MAX_ROUNDS rounds"
    return state_size(int(g[R.n_ships])), F_SIZE


FAST = fast_path(__name__, play_one, sizes, setup_block=setup_block, data=ship_data)
