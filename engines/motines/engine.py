"""21 Motines, the Numba fast path: the same games as ``reference.py``, draw for draw.

A whole game lives in ONE int64 buffer ``s``: the game state proper at the
offsets ``S_*`` below ``S_GAME_END`` (scalars, the players' blocks at
``S_PLAYER``, this round's pawns, the display, the Indiscriminate pile, the
shoal, the fish discard and the treasure deck), so that a look-ahead policy
(``rollout``) can copy it and play on from the copy: every step reads and
writes only through ``s`` at these offsets, so a second area of the same
layout (``sizes`` returning twice the words, the block's tables copied too,
``S_CODE`` set to the rollout's base policy for the playouts) runs with the
same functions.
After it come what is the same for every game of a block and is set by
``setup_block``: the rules vector (``R = Rules.slots()``, read as
``s[S_RULES + R.<option>]``), the icons per colour, the gifts in ascending
PV, each seat's policy code and ice-target slack; then the scratch lists
(decision options, offered treasures, a sale) and the cache of best sales.
The one float table, the chance of a treasure at each position, is in the
float buffer ``fb`` at ``F_CHANCE``.

Restricted play (``reference.py``'s docstring): each seat's masks are read once per block
from its own row into ``S_FORBID`` / ``S_FORCE`` (copied with the per-block tables into the
playout state), ``narrow`` keeps the D1/D2/D9 options at ``S_OPT`` the seat may choose
before any policy decides, ``offer_sale`` applies ``sell``, and ``S_TOOK`` (game state,
so a playout's copy counts its own) counts each seat's pawns by box and its sales.

Replay contract (``reference.py`` and ``policies.py`` docstrings): the world
stream (rng words 0-3) shuffles the fish deck and then the treasure deck at
set-up, rolls the Ice Factory (one or two dice) and every Treasures roll
(die A, then die B), reshuffles the fish discard into the shoal, and places
a returned blind fish under ``if_return_to=shuffle_in``. Seat ``p``'s stream
(``offset(rng, 4 * (1 + p))``) makes the random policy's choices, in the
reference's order of decisions, with the same option lists in the same
order (D1/D2/D9 boxes IF .. MUT with their slots ascending; sales by
combination, colour counts red, blue, purple, yellow ascending, then ice).
A decision with one legal option draws nothing.

Valuations (greedy, planner, heuristic). Greedy's and the planner's Phi is a
sum of multiples of 1/4 (PV, $/2, fish/2, ice, sale gains in halves, treasure
values in quarters), so it is computed exactly as an integer number of
quarters (``phi_q``; ``phi`` returns it as a float, exactly) and every
difference of two Phis is exact. The heuristic's weighted Phi (``phi_h``,
before the free round) is float64 added in the order of
``policies.HeuristicPolicy.phi``; at its default weights every term is a
multiple of 1/4 again, so its values are greedy's exactly. The few inexact
steps (the expected value of a blind fish, an Ice Factory share, a
treasure's mean value, a treasure chance, the planner's and the heuristic's
denial terms) are done in float64 in the order of ``policies.py``, so the
values, and with the tolerance 1e-9 the choices, are the reference's bit for
bit. A sale's gain ``0.5 price + x - 0.5 cards`` is
kept doubled (``g2``, an integer). The best sale of each combination (and of
all six) for a hand depends on colour counts, wild fish and ice only up to 4
each (a sale uses at most 4 cards and 4 ice), so it is cached per block, with
its number of options, in a small direct-mapped table keyed by combination
and hand (``memo_combo``, ``memo_all``; a collision only recomputes).
"""

from __future__ import annotations

import numpy as np

from engines._fast import as_words, fast_path
from engines._fast import offset as _padd
from engines._game import FORBID_COLUMN, FORCE_COLUMN, POLICY_WIDTH
from engines._jit import njit
from engines._restrict import is_allowed_fast, is_forced_fast, keeps_fast, kept_binary_fast
from engines._rng import rng_below, rng_next, rng_seed, rng_shuffle
from engines._standings import lead_story_at
from engines.motines import BOX_CHOICE, CHOICES, POLICIES, SELL
from engines.motines.rules import BY_RULE, R

TOL = 1e-9                 # policies.TOL
PW = POLICY_WIDTH
N_CHOICES = len(CHOICES)   # a seat's restriction's kinds (engines.motines.CHOICES)

# ---------------------------------------------------------------- codes (data.py)
IF, SF, ICE, TR, FM, SO, SUB, MUT = 0, 1, 2, 3, 4, 5, 6, 7
RED, BLUE, PURPLE, YELLOW, JOKER = 0, 1, 2, 3, 4
T_JOKER, T_ICE, T_FISH, T_MARKET, T_2PV, T_2MONEY, T_4PV_FOR_4 = 0, 1, 2, 3, 4, 5, 6
SO_2PV, SO_FISHING, SO_ICE, SO_TREASURE, SO_MARKET = 0, 1, 2, 3, 4
GIFT_MONEY, GIFT_TREASURE, GIFT_ICE, GIFT_FISH = 0, 1, 2, 3
COMBO_CARDS = (2, 3, 4, 3, 4, 4)
COMBO_KIND = (0, 0, 0, 1, 2, 1)    # any, same colour, two pairs
ANY_KIND, SAME_KIND, PAIRS_KIND = 0, 1, 2
TV_Q = (3, 0, 3, 4, 8, 4, 8)       # TREASURE_VALUE in quarters
FOUR_PV_LOW_Q = 4                  # FOUR_PV_UNAFFORDABLE_VALUE in quarters
FOUR_PV_PRICE = 4
FOUR_PV_GAIN = 4
TWO_PV = 2
TWO_MONEY = 2
SO_2PV_PRICE = 2
SO_2PV_GAIN = 2
SO_LAST_PV = 1
SF_PICKS = 4
MUTINY_SPACES = 4
MUTINY_ZERO_MONEY = 1
FINAL_FISH_PRICE = 1
SUB_VALUE = 1.0
MODIFIED_VALUE = 1.5               # MODIFIED_PV + 0.5 * MODIFIED_MONEY
COIN_CHANCE = 25 / 36.0            # policies: COIN_PAIRS / 36.0 (the Captain's coin)
MODIFIED_PV = 1                    # a replaced treasure: +1 PV ...
MODIFIED_MONEY = 1                 # ... and +1$

NORMAL, LAST_CAPTAIN, FREE, OVER = 0, 1, 2, 3
NO_ACTION = -1
NO_SLOT = -1
EMPTY = -1                         # an empty display index
BLIND = -1                         # the D7 option "a free blind fish"

# the policies: their codes and their parameters' columns in a seat's row
RANDOM = POLICIES["random"].slots().CODE
GREEDY_AT = POLICIES["greedy"].slots()
PLANNER_AT = POLICIES["planner"].slots()
ROLLOUT_AT = POLICIES["rollout"].slots()
HEUR_AT = POLICIES["heuristic"].slots()
HEURISTIC = HEUR_AT.CODE
GREEDY = GREEDY_AT.CODE
PLANNER = PLANNER_AT.CODE
ROLLOUT = ROLLOUT_AT.CODE
MAX_SAMPLES = 256          # rollout's samples (its declared bound)
MAX_OPTIONS = 32

MAX_P = 5
MAX_DISPLAY = 8
MAX_DECK = 200             # 5 colours x 40
MAX_TDECK = 144            # 7 types x 20
MAX_IFP = 32               # the pile never exceeds if_pile_size (<= 20)

# ---------------------------------------------------------------- a player's block
PL_MONEY = 0
PL_PV = 1
PL_ICE = 2
PL_HAND = 3                # 5: fish cards per colour
PL_TR = 8                  # 7: treasures per type
PL_GIFT = 15               # 4: gifts had
PL_SALES = 19
PL_CAPR = 20               # captain rounds
PL_MUT = 21                # Mutiny pawns resolved
PL_LEFT = 22               # leftover 1$ at the end
PL_ENDM = 23               # $ when the free round ended
PL_KNOWN = 24              # 5: fish everyone knows it holds (reference Player.known)
PL_SIZE = 29

# ---------------------------------------------------------------- a pawn
PN_SEAT = 0
PN_BOX = 1
PN_SLOT = 2
PN_POS = 3
PN_DONE = 4
PN_SIZE = 5

# ---------------------------------------------------------------- the sale cache
MEMO_N = 5 ** 6            # hand keys (memo_key)
FULL_BITS = 17             # a cached word: combination (6: all) x MEMO_N + hand key ...
FULL_MASK = (1 << FULL_BITS) - 1
BEST_MASK = (1 << 30) - 1  # ... then the best sale (30 bits) and the number of options
CACHE_N = 8192
CACHE_MASK = CACHE_N - 1

# ---------------------------------------------------------------- the game state (copyable)
S_P = 0
S_SUPPLY = 1               # ice in the supply
S_MARKER = 2
S_CAPTAIN = 3
S_PREV_ACTION = 4
S_PREV_CAPTAIN = 5
S_ROUND = 6
S_NORMAL = 7               # normal rounds played
S_PHASE = 8
S_MUTINIES = 9
S_MUT_ACTIONS = 10
S_TRUNCATED = 11
S_D = 12                   # display size
S_IFP_N = 13               # cards in the Indiscriminate pile
S_SH_HEAD = 14             # the shoal is S_SHOAL[head:end], top first
S_SH_END = 15
S_DISC_N = 16              # cards in the fish discard
S_TD_HEAD = 17             # the treasure deck is S_TDECK[head:end], top first
S_TD_END = 18
S_NPAWNS = 19
S_TIED = 20
S_CHOICES = 24             # 6: rounds in which the Captain chose each action
S_TDISC = 30               # 7: used treasures per type
S_DISC_CNT = 37            # 5: the fish discard per colour
S_BOX_N = 42               # 8: pawns in each box this round
S_TAKEN = 50               # 8: each box's slots taken this round, bit slot + 1
S_PAWN = 58                # MAX_P pawns, placement order
S_PLAYER = S_PAWN + MAX_P * PN_SIZE
S_DISPLAY = S_PLAYER + MAX_P * PL_SIZE
S_IFP = S_DISPLAY + MAX_DISPLAY
S_SHOAL = S_IFP + MAX_IFP
S_DISCARD = S_SHOAL + MAX_DECK
S_TDECK = S_DISCARD + MAX_DECK
S_TOOK = S_TDECK + MAX_TDECK           # MAX_P x N_CHOICES: times each seat took each choice
S_GAME_END = S_TOOK + MAX_P * N_CHOICES

# ---------------------------------------------------------------- per block (setup_block)
S_RULES = S_GAME_END                  # R.SIZE: Rules.encode()
S_ICONS = S_RULES + R.SIZE            # 5: ice icons per colour
S_GIFT_N = S_ICONS + 5                # gifts in ascending PV
S_GIFT_PV = S_GIFT_N + 1              # 4
S_GIFT_KIND = S_GIFT_PV + 4           # 4
S_CODE = S_GIFT_KIND + 4              # 5: each seat's policy code
S_SLACK = S_CODE + MAX_P              # 5: planner ice_target_slack (as int)
S_FORBID = S_SLACK + MAX_P            # 5: each seat's restriction (engines._restrict), read
S_FORCE = S_FORBID + MAX_P            # 5: from its own row: choices forbidden, forced
# ---------------------------------------------------------------- scratch
S_OPT = S_FORCE + MAX_P               # 32: options of D1/D2/D9, box * 16 + slot + 1
S_OPT2 = S_OPT + 32                   # 32: the planner's follower slots
S_SOOPT = S_OPT2 + 32                 # 16: D7 options
S_OFFER = S_SOOPT + 16                # 160: treasures offered at a window
S_USE = S_OFFER + 160                 # 160: treasures to use
S_SALE = S_USE + 160                  # 7: a sale (combo, r, b, p, y, j, x)
S_UNSEEN = S_SALE + 8                 # 7: unseen fish or treasures
S_FBASE = S_UNSEEN + 8                # 5: followers' Phi (planner D1)
S_GEN = S_FBASE + 5                   # the decision under way (``fresh``), for the caches:
S_BLIND_KEY = S_GEN + 1               # MAX_P: per seat, whose blind-fish value F_BLIND holds
S_DISP_KEY = S_BLIND_KEY + MAX_P      # MAX_P x MAX_DISPLAY: and whose display-card value
S_POOL = S_DISP_KEY + MAX_P * MAX_DISPLAY  # MAX_DECK: a rollout's re-dealt cards
S_RO_SAMPLES = S_POOL + MAX_DECK      # 5: each seat's rollout samples
S_RO_WIDTH = S_RO_SAMPLES + MAX_P     # 5: and width
S_CACHE = S_RO_WIDTH + MAX_P          # CACHE_N: best sales, direct-mapped (memo_look)
S_SIZE = S_CACHE + CACHE_N

# ---------------------------------------------------------------- the policies' floats
F_CHANCE = 0               # 5: P(a treasure) at positions 1-5
F_BLIND = 5                # MAX_P: each seat's blind-fish value in this decision
F_DISP = F_BLIND + MAX_P   # MAX_P x MAX_DISPLAY: each seat's display-card values in it
F_GAME = F_DISP + MAX_P * MAX_DISPLAY  # the floats above are a game's own; a playout has
#                                        its own (the chances copied)
F_GPOL = F_GAME            # MAX_P x PW: the seats' rows, a rollout seat's its base's
F_POPOL = F_GPOL + MAX_P * PW  # MAX_P x PW: a rollout's playouts: every seat its base
F_RO_W = F_POPOL + MAX_P * PW  # 5: each seat's rollout score_weight
F_RO_PRIOR = F_RO_W + MAX_P    # 5: each seat's rollout prior
F_RO_VAL = F_RO_PRIOR + MAX_P  # MAX_OPTIONS: greedy's values of a rollout's options
F_RO_WIN = F_RO_VAL + MAX_OPTIONS  # MAX_P: a playout's win shares
F_COPY = F_RO_WIN + MAX_P      # F_GAME: the playout's own floats (chances, blind value)
F_SIZE = F_COPY + F_GAME

# after the state: the rollout's playout state (the same layout), then its scratch
S_COPY = S_SIZE
S_RO_PICK = 2 * S_SIZE         # MAX_OPTIONS: options played out
S_RO_WORDS = S_RO_PICK + MAX_OPTIONS  # MAX_SAMPLES: the playouts' seeds
S_RO_RNG = S_RO_WORDS + MAX_SAMPLES   # 4: a playout's world stream (uint64 words)
N_INT = S_RO_RNG + 4
# then the leader after each round 1..rounds (reference.leader), the game's own: at most
# max_rounds normal rounds, the last Captain round and the free round (``sizes``)
S_LEAD = N_INT


# ================================================================ small helpers


@njit(cache=True, inline="always")
def _pl(seat):
    return S_PLAYER + seat * PL_SIZE


@njit(cache=True, inline="always")
def _pn(i):
    return S_PAWN + i * PN_SIZE


@njit(cache=True, inline="always")
def _seat_rng(rng, seat):
    """Seat ``seat``'s policy stream (the world stream is rng[0:4])."""
    return _padd(rng, 4 * (1 + seat))


@njit(cache=True, inline="always")
def _opt_box(o):
    return o >> 4


@njit(cache=True, inline="always")
def _opt_slot(o):
    return (o & 15) - 1


@njit(cache=True, inline="always")
def _opt(box, slot):
    return box * 16 + slot + 1


@njit(cache=True, inline="always")
def modified(s):
    """Treasures are replaced by +1$ +1 PV (marker below the rule, or the deck is empty)."""
    return (s[S_MARKER] < s[S_RULES + R.treasure_modified_until_marker]
            or s[S_TD_HEAD] == s[S_TD_END])


@njit(cache=True, inline="always")
def blind_available(s):
    return s[S_IFP_N] > 0 or s[S_SH_HEAD] < s[S_SH_END] or s[S_DISC_N] > 0


@njit(cache=True, inline="always")
def market_price(s, combo, x):
    level = 0 if x <= 1 else x - 1
    return s[S_RULES + R.market_table + 4 * combo + level]


# ================================================================ set-up (spec §3)


@njit(cache=True)
def setup(s, rng, P):
    """reference.setup: money, ice, the fish deck and the treasure deck, both shuffled."""
    for i in range(S_GAME_END):
        s[i] = 0
    r = S_RULES
    s[S_P] = P
    start_ice = s[r + R.start_ice]
    first = s[r + R.first_captain_seat]
    for seat in range(P):
        pb = _pl(seat)
        by_seat = s[r + R.start_money_by_seat + seat]
        if by_seat != BY_RULE:
            money = by_seat
        elif seat == first:
            money = s[r + R.start_money_captain]
        else:
            money = s[r + R.start_money_other]
        s[pb + PL_MONEY] = money
        s[pb + PL_ICE] = start_ice
    s[S_SUPPLY] = s[r + R.ice_supply] - start_ice * P
    n = 0
    for c in range(5):
        for _ in range(s[r + R.deck_counts + c]):
            s[S_SHOAL + n] = c
            n += 1
    rng_shuffle(rng, s, S_SHOAL, n)
    d = s[r + R.sf_display_size + P - 3]
    s[S_D] = d
    for i in range(MAX_DISPLAY):
        s[S_DISPLAY + i] = EMPTY
    for i in range(d):
        s[S_DISPLAY + i] = s[S_SHOAL + i]
    k = s[r + R.if_pile_size]
    for i in range(k):
        s[S_IFP + i] = s[S_SHOAL + d + i]
    s[S_IFP_N] = k
    s[S_SH_HEAD] = d + k
    s[S_SH_END] = n
    m = 0
    for kind in range(7):
        for _ in range(s[r + R.treasure_counts + kind]):
            s[S_TDECK + m] = kind
            m += 1
    rng_shuffle(rng, s, S_TDECK, m)
    s[S_TD_HEAD] = 0
    s[S_TD_END] = m
    s[S_CAPTAIN] = first
    s[S_PREV_ACTION] = NO_ACTION
    s[S_PREV_CAPTAIN] = -1
    s[S_PHASE] = NORMAL


# ================================================================ fish flow (spec §4.5)


@njit(cache=True)
def reshuffle_discard(s, rng):
    """The fish discard, in discard order, shuffled, becomes the shoal."""
    n = s[S_DISC_N]
    for i in range(n):
        s[S_SHOAL + i] = s[S_DISCARD + i]
    s[S_SH_HEAD] = 0
    s[S_SH_END] = n
    s[S_DISC_N] = 0
    for c in range(5):
        s[S_DISC_CNT + c] = 0
    rng_shuffle(rng, s, S_SHOAL, n)


@njit(cache=True)
def draw_blind(s, rng):
    """The top card of the Indiscriminate pile (refilled from the shoal), or -1."""
    if s[S_IFP_N] == 0:
        if s[S_SH_HEAD] == s[S_SH_END] and s[S_DISC_N] > 0:
            reshuffle_discard(s, rng)
        head = s[S_SH_HEAD]
        k = min(s[S_RULES + R.if_pile_size], s[S_SH_END] - head)
        for i in range(k):
            s[S_IFP + i] = s[S_SHOAL + head + i]
        s[S_SH_HEAD] = head + k
        s[S_IFP_N] = k
    n = s[S_IFP_N]
    if n == 0:
        return -1
    c = s[S_IFP]
    for i in range(n - 1):
        s[S_IFP + i] = s[S_IFP + i + 1]
    s[S_IFP_N] = n - 1
    return c


@njit(cache=True)
def take_blind(s, rng, seat):
    c = draw_blind(s, rng)
    if c >= 0:
        s[_pl(seat) + PL_HAND + c] += 1


@njit(cache=True)
def refill_display(s, rng):
    """Empty display indices, ascending, from the shoal (the discard reshuffled when empty)."""
    for i in range(s[S_D]):
        if s[S_DISPLAY + i] != EMPTY:
            continue
        if s[S_SH_HEAD] == s[S_SH_END] and s[S_DISC_N] > 0:
            reshuffle_discard(s, rng)
        if s[S_SH_HEAD] == s[S_SH_END]:
            break
        s[S_DISPLAY + i] = s[S_SHOAL + s[S_SH_HEAD]]
        s[S_SH_HEAD] += 1


@njit(cache=True, inline="always")
def discard_fish(s, c, n):
    for _ in range(n):
        s[S_DISCARD + s[S_DISC_N]] = c
        s[S_DISC_N] += 1
    s[S_DISC_CNT + c] += n


# ================================================================ gains (spec §4.7-4.10)


@njit(cache=True, inline="always")
def gain_ice(s, seat, n):
    got = min(n, s[S_SUPPLY])
    s[S_SUPPLY] -= got
    s[_pl(seat) + PL_ICE] += got
    return got


@njit(cache=True, inline="always")
def return_ice(s, seat, n):
    s[_pl(seat) + PL_ICE] -= n
    s[S_SUPPLY] += n


@njit(cache=True, inline="always")
def discard_treasure(s, seat, kind):
    s[_pl(seat) + PL_TR + kind] -= 1
    s[S_TDISC + kind] += 1


@njit(cache=True)
def gift_effect(s, rng, seat, kind):
    """Gift ``kind``'s effect: (True, the PV before) when a treasure replaced by +1$ +1 PV
    raised the PV (the rise can bring further gifts), else (False, 0)."""
    pb = _pl(seat)
    if kind == GIFT_MONEY:
        s[pb + PL_MONEY] += 1
    elif kind == GIFT_TREASURE:
        if modified(s):
            s[pb + PL_MONEY] += 1
            before = s[pb + PL_PV]
            s[pb + PL_PV] = before + 1
            return True, before
        s[pb + PL_TR + s[S_TDECK + s[S_TD_HEAD]]] += 1
        s[S_TD_HEAD] += 1
    elif kind == GIFT_ICE:
        gain_ice(s, seat, 1)
    else:
        take_blind(s, rng, seat)
    return False, 0


@njit(cache=True)
def gifts_inner(s, rng, seat, before, after):
    """The gifts of a rise caused by a gift (reference.gifts one level down)."""
    pb = _pl(seat)
    once = s[S_RULES + R.gift_once_per_player] != 0
    for i in range(s[S_GIFT_N]):
        pv = s[S_GIFT_PV + i]
        kind = s[S_GIFT_KIND + i]
        if not (before < pv <= after):
            continue
        if once and s[pb + PL_GIFT + kind] != 0:
            continue
        s[pb + PL_GIFT + kind] = 1
        # the treasure gift, the only gift that raises PV, brought this rise from the end
        # of the outer one, at or above its own PV: it cannot fire here, nothing nests deeper
        gift_effect(s, rng, seat, kind)


@njit(cache=True)
def gifts(s, rng, seat, before, after):
    """Each gift whose PV lies in (before, after], in ascending PV (reference.gifts)."""
    pb = _pl(seat)
    once = s[S_RULES + R.gift_once_per_player] != 0
    for i in range(s[S_GIFT_N]):
        pv = s[S_GIFT_PV + i]
        kind = s[S_GIFT_KIND + i]
        if not (before < pv <= after):
            continue
        if once and s[pb + PL_GIFT + kind] != 0:
            continue
        s[pb + PL_GIFT + kind] = 1
        rose, pv_before = gift_effect(s, rng, seat, kind)
        if rose:
            gifts_inner(s, rng, seat, pv_before, pv_before + 1)


@njit(cache=True)
def gain_pv(s, rng, seat, n):
    """PV change by ``n``; a rise brings the gifts it reaches (the floor for a fall)."""
    pb = _pl(seat)
    before = s[pb + PL_PV]
    after = before + n
    if n < 0 and s[S_RULES + R.pv_floor] == 1:
        after = max(0, after)
    s[pb + PL_PV] = after
    if n > 0:
        gifts(s, rng, seat, before, after)


@njit(cache=True)
def gain_treasure(s, rng, seat):
    """The top treasure card, or +1$ +1 PV while treasures are modified or the deck is empty."""
    pb = _pl(seat)
    if modified(s):
        s[pb + PL_MONEY] += 1
        gain_pv(s, rng, seat, 1)
        return
    s[pb + PL_TR + s[S_TDECK + s[S_TD_HEAD]]] += 1
    s[S_TD_HEAD] += 1


# ================================================================ sales (spec §2.4, §6 D6)


@njit(cache=True, inline="always")
def makes(kind, r, b, p, y, j):
    """reference.makes for a tuple of the combination's size."""
    if kind == SAME_KIND:
        return (r > 0) + (b > 0) + (p > 0) + (y > 0) <= 1
    if kind == PAIRS_KIND:
        return (r & 1) + (b & 1) + (p & 1) + (y & 1) <= j
    return True


@njit(cache=True, inline="always")
def _pack(found, g2, x, w, r, b, p, y, combo):
    """A sale in 30 bits (0: none): found, x, wild, red, blue, purple, yellow, combination,
    g2 + 16 (g2 = twice the gain, -4 .. 105)."""
    if not found:
        return 0
    return (1 | (x << 1) | (w << 4) | (r << 7) | (b << 10) | (p << 13) | (y << 16)
            | (combo << 19) | ((g2 + 16) << 22))


@njit(cache=True, inline="always")
def e_g2(e):
    return (e >> 22) - 16


@njit(cache=True, inline="always")
def e_x(e):
    return (e >> 1) & 7


@njit(cache=True, inline="always")
def e_w(e):
    return (e >> 4) & 7


@njit(cache=True)
def combo_pick(s, combo, h0, h1, h2, h3, jk, ice, filt, floor):
    """policies.pick_sale over the options of one combination (those the planner's sale
    floor allows when ``filt``): the packed best (0 when there is none; gains doubled),
    and the number of options (all of them)."""
    n = COMBO_CARDS[combo]
    kind = COMBO_KIND[combo]
    cap = s[S_RULES + R.market_ice_cap]
    i0 = s[S_ICONS]
    i1 = s[S_ICONS + 1]
    i2 = s[S_ICONS + 2]
    i3 = s[S_ICONS + 3]
    i4 = s[S_ICONS + 4]
    best = 0
    bg2 = 0
    bw = 0
    count = 0
    for r in range(min(n, h0) + 1):
        for b in range(min(n - r, h1) + 1):
            for p in range(min(n - r - b, h2) + 1):
                for y in range(min(n - r - b - p, h3) + 1):
                    j = n - r - b - p - y
                    if j > jk or not makes(kind, r, b, p, y, j):
                        continue
                    top = min(cap, r * i0 + b * i1 + p * i2 + y * i3 + j * i4, ice)
                    count += top + 1
                    for x in range(top + 1):
                        price = market_price(s, combo, x)
                        if filt and not (price >= floor or x >= 2):
                            continue
                        g2 = price + 2 * x - n
                        if best == 0 or g2 > bg2 or (g2 == bg2 and j < bw):
                            best = _pack(True, g2, x, j, r, b, p, y, combo)
                            bg2 = g2
                            bw = j
    return best, count


@njit(cache=True, inline="always")
def memo_key(h0, h1, h2, h3, jk, ice):
    """A hand's key: its sale options depend on each count, the wild fish and the ice only
    up to 4 (a sale uses at most 4 cards and 4 ice)."""
    return (((((min(h0, 4) * 5 + min(h1, 4)) * 5 + min(h2, 4)) * 5 + min(h3, 4)) * 5
             + min(jk, 4)) * 5 + min(ice, 4))


@njit(cache=True, inline="always")
def _unkey(key):
    """The clamped counts (h0, h1, h2, h3, jokers, ice) of a hand key."""
    ice = key % 5
    key //= 5
    jk = key % 5
    key //= 5
    h3 = key % 5
    key //= 5
    h2 = key % 5
    key //= 5
    return key // 5, key % 5, h2, h3, jk, ice


@njit(cache=True, inline="always")
def memo_look(s, full):
    """The cached payload of ``full`` = combination (6: all) x MEMO_N + hand key, or -1."""
    w = s[S_CACHE + (full & CACHE_MASK)]
    if w >= 0 and (w & FULL_MASK) == full:
        return w >> FULL_BITS
    return -1


@njit(cache=True)
def memo_combo(s, combo, key):
    """The unfiltered best sale of one combination for a hand key, and its number of
    options: best | count << 30 (cached)."""
    full = combo * MEMO_N + key
    payload = memo_look(s, full)
    if payload < 0:
        h0, h1, h2, h3, jk, ice = _unkey(key)
        best, count = combo_pick(s, combo, h0, h1, h2, h3, jk, ice, False, 0.0)
        payload = best | (count << 30)
        s[S_CACHE + (full & CACHE_MASK)] = full | (payload << FULL_BITS)
    return payload


@njit(cache=True, inline="always")
def better(e, best):
    """Whether a combination's best ``e`` replaces ``best`` in pick_sale's scan order."""
    if e == 0:
        return False
    if best == 0:
        return True
    g = e_g2(e)
    bg = e_g2(best)
    return g > bg or (g == bg and e_w(e) < e_w(best))


@njit(cache=True)
def memo_all(s, key):
    """The unfiltered best sale of any combination (policies.best_sale) for a hand key,
    and the number of options: best | count << 30 (cached)."""
    full = 6 * MEMO_N + key
    payload = memo_look(s, full)
    if payload < 0:
        e = 0
        count = 0
        for combo in range(6):
            c = memo_combo(s, combo, key)
            count += c >> 30
            c &= BEST_MASK
            if better(c, e):
                e = c
        payload = e | (count << 30)
        s[S_CACHE + (full & CACHE_MASK)] = full | (payload << FULL_BITS)
    return payload


@njit(cache=True)
def hand_key(s, seat):
    pb = _pl(seat)
    return memo_key(s[pb + PL_HAND], s[pb + PL_HAND + 1], s[pb + PL_HAND + 2],
                    s[pb + PL_HAND + 3], s[pb + PL_HAND + 4] + s[pb + PL_TR + T_JOKER],
                    s[pb + PL_ICE])


@njit(cache=True)
def memo_of(s, seat, lo, hi):
    """The cached payload of combinations lo..lo+1 or all six for the seat's hand."""
    key = hand_key(s, seat)
    if hi - lo == 6:
        return memo_all(s, key)
    return memo_combo(s, lo, key)


@njit(cache=True)
def best_of(s, seat, lo, hi, filt, floor):
    """The best sale of combinations lo..hi-1 from the seat's hand (0 when none)."""
    if not filt:
        return memo_of(s, seat, lo, hi) & BEST_MASK
    h0, h1, h2, h3, jk, ice = _unkey(hand_key(s, seat))
    e = 0
    for combo in range(lo, hi):
        c, _ = combo_pick(s, combo, h0, h1, h2, h3, jk, ice, True, floor)
        if better(c, e):
            e = c
    return e


@njit(cache=True)
def sale_count(s, seat, lo, hi):
    """The number of sale options of combinations lo..hi-1 (lo..lo+1 or all six)."""
    return memo_of(s, seat, lo, hi) >> 30


@njit(cache=True)
def sale_nth(s, seat, lo, hi, target):
    """The canonical sale options of combinations lo..hi-1, in the reference order: their
    number, and option ``target`` (if >= 0) written to S_SALE."""
    pb = _pl(seat)
    h0 = s[pb + PL_HAND]
    h1 = s[pb + PL_HAND + 1]
    h2 = s[pb + PL_HAND + 2]
    h3 = s[pb + PL_HAND + 3]
    jk = s[pb + PL_HAND + 4] + s[pb + PL_TR + T_JOKER]
    ice = s[pb + PL_ICE]
    cap = s[S_RULES + R.market_ice_cap]
    i0 = s[S_ICONS]
    i1 = s[S_ICONS + 1]
    i2 = s[S_ICONS + 2]
    i3 = s[S_ICONS + 3]
    i4 = s[S_ICONS + 4]
    count = 0
    for combo in range(lo, hi):
        n = COMBO_CARDS[combo]
        kind = COMBO_KIND[combo]
        for r in range(min(n, h0) + 1):
            for b in range(min(n - r, h1) + 1):
                for p in range(min(n - r - b, h2) + 1):
                    for y in range(min(n - r - b - p, h3) + 1):
                        j = n - r - b - p - y
                        if j > jk or not makes(kind, r, b, p, y, j):
                            continue
                        top = min(cap, r * i0 + b * i1 + p * i2 + y * i3 + j * i4, ice)
                        if count <= target < count + top + 1:
                            s[S_SALE] = combo
                            s[S_SALE + 1] = r
                            s[S_SALE + 2] = b
                            s[S_SALE + 3] = p
                            s[S_SALE + 4] = y
                            s[S_SALE + 5] = j
                            s[S_SALE + 6] = target - count
                            return count + top + 1
                        count += top + 1
    return count


@njit(cache=True)
def make_sale(s, seat, combo, r, b, p, y, j, x):
    """Sell: cards to the discard (joker cards before joker treasures), ice to the supply."""
    pb = _pl(seat)
    s[pb + PL_HAND + RED] -= r
    s[pb + PL_KNOWN + RED] = max(0, s[pb + PL_KNOWN + RED] - r)
    discard_fish(s, RED, r)
    s[pb + PL_HAND + BLUE] -= b
    s[pb + PL_KNOWN + BLUE] = max(0, s[pb + PL_KNOWN + BLUE] - b)
    discard_fish(s, BLUE, b)
    s[pb + PL_HAND + PURPLE] -= p
    s[pb + PL_KNOWN + PURPLE] = max(0, s[pb + PL_KNOWN + PURPLE] - p)
    discard_fish(s, PURPLE, p)
    s[pb + PL_HAND + YELLOW] -= y
    s[pb + PL_KNOWN + YELLOW] = max(0, s[pb + PL_KNOWN + YELLOW] - y)
    discard_fish(s, YELLOW, y)
    cards = min(j, s[pb + PL_HAND + JOKER])
    s[pb + PL_HAND + JOKER] -= cards
    s[pb + PL_KNOWN + JOKER] = max(0, s[pb + PL_KNOWN + JOKER] - cards)
    discard_fish(s, JOKER, cards)
    for _ in range(j - cards):
        discard_treasure(s, seat, T_JOKER)
    return_ice(s, seat, x)
    s[pb + PL_MONEY] += market_price(s, combo, x)
    s[pb + PL_SALES] += 1
    s[S_TOOK + seat * N_CHOICES + SELL] += 1


@njit(cache=True)
def make_packed_sale(s, seat, e):
    combo = (e >> 19) & 7
    r = (e >> 7) & 7
    b = (e >> 10) & 7
    p = (e >> 13) & 7
    y = (e >> 16) & 7
    make_sale(s, seat, combo, r, b, p, y, COMBO_CARDS[combo] - r - b - p - y, e_x(e))


@njit(cache=True, inline="always")
def planner_filter(s, ps):
    """Whether the planner's sale floor applies (phase NORMAL) for policy seat ``ps``."""
    return s[S_CODE + ps] == PLANNER and s[S_PHASE] == NORMAL


@njit(cache=True, inline="always")
def sale_floor(s, pol, ps):
    """A heuristic seat's optional sale needs a gain above this (sell_min in normal rounds)."""
    return pol[ps * PW + HEUR_AT.sell_min] if s[S_PHASE] == NORMAL else 0.0


@njit(cache=True)
def offer_sale(s, pol, rng, seat, lo, hi, optional):
    """D6 (reference.offer_sale): the seat sells one of combinations lo..hi-1, or not."""
    if optional:  # the seat's restriction: selling is the "yes" of a yes/no decision
        must = kept_binary_fast(SELL, s[S_FORBID + seat], s[S_FORCE + seat])
        if must == 0:
            return False
        optional = must < 0
    code = s[S_CODE + seat]
    if code == RANDOM:
        n = sale_count(s, seat, lo, hi)
        if n == 0:
            return False
        if n == 1 and not optional:
            sale_nth(s, seat, lo, hi, 0)
        else:
            i = rng_below(_seat_rng(rng, seat), n + (1 if optional else 0))
            if i == n:
                return False
            sale_nth(s, seat, lo, hi, i)
        make_sale(s, seat, s[S_SALE], s[S_SALE + 1], s[S_SALE + 2], s[S_SALE + 3],
                  s[S_SALE + 4], s[S_SALE + 5], s[S_SALE + 6])
        return True
    e = best_of(s, seat, lo, hi, False, 0.0)
    if e == 0:
        return False  # no option at all
    if optional:
        if code == HEURISTIC:
            if 0.5 * e_g2(e) <= sale_floor(s, pol, seat) + TOL:
                return False
        else:
            if planner_filter(s, seat):
                e = best_of(s, seat, lo, hi, True, pol[seat * PW + PLANNER_AT.sell_floor])
            if e == 0 or e_g2(e) <= 0:
                return False
    make_packed_sale(s, seat, e)
    return True


@njit(cache=True)
def sale_value(s, pol, ps, seat, lo, hi):
    """policies.sale_value: the gain of the sale policy ``ps`` would make (0 if none)."""
    e = best_of(s, seat, lo, hi, False, 0.0)
    if e == 0:
        return 0.0
    if hi - lo == 1 and s[S_RULES + R.sale_optional] == 0:
        return 0.5 * e_g2(e)
    if s[S_CODE + ps] == HEURISTIC:
        g = 0.5 * e_g2(e)
        return 0.0 if g <= sale_floor(s, pol, ps) + TOL else g
    if planner_filter(s, ps):
        e = best_of(s, seat, lo, hi, True, pol[ps * PW + PLANNER_AT.sell_floor])
    if e == 0 or e_g2(e) <= 0:
        return 0.0
    return 0.5 * e_g2(e)


# ================================================================ the valuation Phi (§6.1)


@njit(cache=True)
def phi_q(s, ps, seat, dpv, dmoney, dice, colour):
    """4 x Phi of ``seat``'s holding plus the deltas (and one fish of ``colour`` if >= 0),
    as policy seat ``ps`` values it (greedy or planner)."""
    pb = _pl(seat)
    money = s[pb + PL_MONEY] + dmoney
    ice = s[pb + PL_ICE] + dice
    h0 = s[pb + PL_HAND]
    h1 = s[pb + PL_HAND + 1]
    h2 = s[pb + PL_HAND + 2]
    h3 = s[pb + PL_HAND + 3]
    h4 = s[pb + PL_HAND + 4]
    if colour == 0:
        h0 += 1
    elif colour == 1:
        h1 += 1
    elif colour == 2:
        h2 += 1
    elif colour == 3:
        h3 += 1
    elif colour == 4:
        h4 += 1
    q = 4 * (s[pb + PL_PV] + dpv) + 2 * money + 2 * (h0 + h1 + h2 + h3 + h4)
    if s[S_PHASE] == FREE and s[pb + PL_TR + T_MARKET] == 0:
        q -= 4 * ice
    else:
        jk = h4 + s[pb + PL_TR + T_JOKER]
        key = memo_key(h0, h1, h2, h3, jk, ice)
        e = memo_look(s, 6 * MEMO_N + key)
        if e < 0:
            e = memo_all(s, key)
        e &= BEST_MASK
        if s[S_CODE + ps] == PLANNER:
            icons = (h0 * s[S_ICONS] + h1 * s[S_ICONS + 1] + h2 * s[S_ICONS + 2]
                     + h3 * s[S_ICONS + 3] + jk * s[S_ICONS + 4])
            target = max(0, min(s[S_RULES + R.market_ice_cap], icons) + s[S_SLACK + ps])
            q += 3 * min(ice, target) - 4 * max(0, ice - target)
            if e != 0 and e_g2(e) > 0:
                q += 2 * e_g2(e) - 4 * e_x(e)
        else:
            q -= 4 * ice
            if e != 0 and e_g2(e) > 0:
                q += 2 * e_g2(e)
    tr = pb + PL_TR
    q += (3 * s[tr + T_JOKER] + 3 * s[tr + T_FISH] + 4 * s[tr + T_MARKET] + 8 * s[tr + T_2PV]
          + 4 * s[tr + T_2MONEY])
    q += s[tr + T_4PV_FOR_4] * (FOUR_PV_LOW_Q if money < FOUR_PV_PRICE else TV_Q[T_4PV_FOR_4])
    return q


@njit(cache=True, inline="always")
def money_value(pol, ps, m):
    """A heuristic seat's worth of holding ``m`` $: w_money m + w_cash min(m, cash_target)."""
    w = ps * PW
    v = pol[w + HEUR_AT.w_money] * m
    v += pol[w + HEUR_AT.w_cash] * min(m, pol[w + HEUR_AT.cash_target])
    return v


@njit(cache=True)
def money_gain(s, pol, ps, m, d):
    """What ``d`` $ more are worth to a holder of ``m`` $, as policy seat ``ps`` values it
    (0.5 a $ but for a heuristic seat before the free round)."""
    if s[S_CODE + ps] != HEURISTIC or s[S_PHASE] == FREE:
        return 0.5 * d
    return money_value(pol, ps, m + d) - money_value(pol, ps, m)


@njit(cache=True)
def phi_h(s, pol, ps, seat, dpv, dmoney, dice, colour):
    """HeuristicPolicy.phi before the free round: the weighted valuation, in its order."""
    pb = _pl(seat)
    money = s[pb + PL_MONEY] + dmoney
    ice = s[pb + PL_ICE] + dice
    h0 = s[pb + PL_HAND]
    h1 = s[pb + PL_HAND + 1]
    h2 = s[pb + PL_HAND + 2]
    h3 = s[pb + PL_HAND + 3]
    h4 = s[pb + PL_HAND + 4]
    if colour == 0:
        h0 += 1
    elif colour == 1:
        h1 += 1
    elif colour == 2:
        h2 += 1
    elif colour == 3:
        h3 += 1
    elif colour == 4:
        h4 += 1
    jk = h4 + s[pb + PL_TR + T_JOKER]
    w = ps * PW
    v = float(s[pb + PL_PV] + dpv)
    v += money_value(pol, ps, money)
    v += pol[w + HEUR_AT.w_fish] * (h0 + h1 + h2 + h3 + h4)
    v -= pol[w + HEUR_AT.w_ice] * ice
    icons = (h0 * s[S_ICONS] + h1 * s[S_ICONS + 1] + h2 * s[S_ICONS + 2]
             + h3 * s[S_ICONS + 3] + jk * s[S_ICONS + 4])
    v -= pol[w + HEUR_AT.ice_excess] * max(0, ice - min(s[S_RULES + R.market_ice_cap], icons))
    key = memo_key(h0, h1, h2, h3, jk, ice)
    e = memo_look(s, 6 * MEMO_N + key)
    if e < 0:
        e = memo_all(s, key)
    e &= BEST_MASK
    if e != 0 and e_g2(e) > 0:
        v += pol[w + HEUR_AT.w_sale] * (0.5 * e_g2(e))
    tr = pb + PL_TR
    tq = (3 * s[tr + T_JOKER] + 3 * s[tr + T_FISH] + 4 * s[tr + T_MARKET] + 8 * s[tr + T_2PV]
          + 4 * s[tr + T_2MONEY])
    tq += s[tr + T_4PV_FOR_4] * (FOUR_PV_LOW_Q if money < FOUR_PV_PRICE else TV_Q[T_4PV_FOR_4])
    v += pol[w + HEUR_AT.w_treasure] * (tq * 0.25)
    return v


@njit(cache=True)
def phi(s, pol, ps, seat, dpv, dmoney, dice, colour):
    """Phi of ``seat``'s holding plus the deltas, as policy seat ``ps`` values it: greedy's
    and the planner's exactly (4 Phi is an integer, ``phi_q``), a heuristic seat's weighted
    before the free round."""
    if s[S_CODE + ps] == HEURISTIC and s[S_PHASE] != FREE:
        return phi_h(s, pol, ps, seat, dpv, dmoney, dice, colour)
    return phi_q(s, ps, seat, dpv, dmoney, dice, colour) * 0.25


@njit(cache=True)
def unseen_fish(s, seat):
    """Colours ``seat`` has not seen into S_UNSEEN; their number (positive entries)."""
    hidden = s[S_RULES + R.hidden_hands] != 0
    P = s[S_P]
    for c in range(5):
        n = s[S_RULES + R.deck_counts + c] - s[S_DISC_CNT + c]
        if hidden:
            n -= s[_pl(seat) + PL_HAND + c]
        else:
            for q in range(P):
                n -= s[_pl(q) + PL_HAND + c]
        s[S_UNSEEN + c] = n
    for i in range(s[S_D]):
        c = s[S_DISPLAY + i]
        if c != EMPTY:
            s[S_UNSEEN + c] -= 1
    total = 0
    for c in range(5):
        if s[S_UNSEEN + c] > 0:
            total += s[S_UNSEEN + c]
    return total


@njit(cache=True)
def blind_value_now(s, pol, ps, seat, dice, base):
    """E[Phi gain] of a blind fish to the holding + ``dice`` ice (whose Phi is ``base``)."""
    total = unseen_fish(s, seat)
    if total <= 0:
        return 0.0
    acc = 0.0
    for c in range(5):
        n = s[S_UNSEEN + c]
        if n > 0:
            acc += n * (phi(s, pol, ps, seat, 0, 0, dice, c) - base)
    return acc / total


@njit(cache=True)
def blind_value(s, fb, pol, ps, seat, dice, base):
    """``blind_value_now``, kept for the rest of the decision (see ``fresh``) under
    (ps, dice), one per seat: the options of one decision value the same blind fish."""
    key = (s[S_GEN] * 8 + ps) * 8 + dice
    if s[S_BLIND_KEY + seat] == key:
        return fb[F_BLIND + seat]
    value = blind_value_now(s, pol, ps, seat, dice, base)
    s[S_BLIND_KEY + seat] = key
    fb[F_BLIND + seat] = value
    return value


@njit(cache=True, inline="always")
def fresh(s):
    """A decision starts: values kept from an earlier state (in this decision's caches,
    ``blind_value`` and ``display_value``, keyed by S_GEN) are forgotten. Only a decision's
    valuation of its options reads the caches; nothing changes the table meanwhile."""
    s[S_GEN] += 1


@njit(cache=True)
def treasure_value(s, pol, ps, seat, money):
    """A treasure about to be gained: 1.5 while replaced, else the mean tv unseen (a
    heuristic seat before the free round: 1 PV + its 1$ while replaced, else w_treasure x
    the mean)."""
    heur = s[S_CODE + ps] == HEURISTIC and s[S_PHASE] != FREE
    replaced = MODIFIED_PV + money_gain(s, pol, ps, money, MODIFIED_MONEY) if heur \
        else MODIFIED_VALUE
    if modified(s):
        return replaced
    hidden = s[S_RULES + R.hidden_hands] != 0
    P = s[S_P]
    total = 0
    acc = 0
    for kind in range(7):
        n = s[S_RULES + R.treasure_counts + kind] - s[S_TDISC + kind]
        if hidden:
            n -= s[_pl(seat) + PL_TR + kind]
        else:
            for q in range(P):
                n -= s[_pl(q) + PL_TR + kind]
        if n > 0:
            total += n
            if kind == T_4PV_FOR_4 and money < FOUR_PV_PRICE:
                acc += n * FOUR_PV_LOW_Q
            else:
                acc += n * TV_Q[kind]
    if total <= 0:
        return replaced
    if heur:
        return pol[ps * PW + HEUR_AT.w_treasure] * ((acc * 0.25) / total)
    return (acc * 0.25) / total


@njit(cache=True)
def ice_share(s, pol, ps, seat, base, position, n):
    """E[Phi gain] at ``position`` of an Ice Factory with ``n`` pawns (policies.ice_share)."""
    g = S_RULES + R.ice_factory_gifts
    mode = s[S_RULES + R.ice_factory_roll]
    money = s[g + 2 * (position - 1) + 1]
    # the direct gains (the same for every roll), then the hand-out: given = min(roll,
    # supply left) ice one at a time from position 1, cycling, so position k gets one for
    # each of 0 .. given - 1 that is k - 1 modulo n
    supply = s[S_SUPPLY]
    direct = 0
    for q in range(1, n + 1):
        got = min(s[g + 2 * (q - 1)], supply)
        supply -= got
        if q == position:
            direct = got
    acc = 0.0
    weights = 0
    last_mine = -1
    qv = 0.0
    lo = 3 if mode == 0 else 2
    hi = 8 if mode == 0 else (7 if mode == 1 else 12)
    for roll in range(lo, hi + 1):
        w = 1 if mode != 2 else 6 - abs(roll - 7)
        given = min(roll, supply)
        mine = direct + ((given - position + n) // n if given >= position else 0)
        if mine != last_mine:  # the same ice, the same Phi
            qv = phi(s, pol, ps, seat, 0, money, mine, -1)
            last_mine = mine
        acc += w * (qv - base)
        weights += w
    return acc / weights


@njit(cache=True, inline="always")
def can_pay(s, seat, colour):
    pb = _pl(seat)
    return (s[pb + PL_ICE] >= s[S_RULES + R.fish_prices + 2 * colour]
            and s[pb + PL_MONEY] >= s[S_RULES + R.fish_prices + 2 * colour + 1])


@njit(cache=True)
def display_value_now(s, pol, ps, seat, base, index):
    """(affordable, Phi gain) of buying display card ``index``."""
    colour = s[S_DISPLAY + index]
    if colour == EMPTY or not can_pay(s, seat, colour):
        return False, 0.0
    ice = s[S_RULES + R.fish_prices + 2 * colour]
    money = s[S_RULES + R.fish_prices + 2 * colour + 1]
    return True, phi(s, pol, ps, seat, 0, -money, -ice, colour) - base


@njit(cache=True)
def display_value(s, fb, pol, ps, seat, base, index):
    """``display_value_now``, kept for the rest of the decision (see ``fresh``) under ps,
    one per seat and card: Selective fishing and Special Offers value the same cards."""
    colour = s[S_DISPLAY + index]
    if colour == EMPTY or not can_pay(s, seat, colour):
        return False, 0.0
    at = seat * MAX_DISPLAY + index
    key = s[S_GEN] * 8 + ps
    if s[S_DISP_KEY + at] == key:
        return True, fb[F_DISP + at]
    ok, value = display_value_now(s, pol, ps, seat, base, index)
    s[S_DISP_KEY + at] = key
    fb[F_DISP + at] = value
    return True, value


@njit(cache=True)
def is_reserved(s, index):
    """Display card ``index`` is picked by a Selective fishing pawn not yet resolved."""
    for i in range(s[S_NPAWNS]):
        pn = _pn(i)
        if s[pn + PN_BOX] == SF and s[pn + PN_SLOT] == index and s[pn + PN_DONE] == 0:
            return True
    return False


@njit(cache=True)
def best_display(s, fb, pol, ps, seat, base):
    """(found, gain) of the best affordable, unreserved display card (ties: lowest index)."""
    found = False
    best_v = 0.0
    for i in range(s[S_D]):
        if is_reserved(s, i):
            continue
        ok, v = display_value(s, fb, pol, ps, seat, base, i)
        if ok and (not found or v > best_v + TOL):
            found = True
            best_v = v
    return found, best_v


@njit(cache=True)
def offer_value(s, fb, pol, ps, seat, base, offer):
    pb = _pl(seat)
    if offer == SO_2PV:
        if s[pb + PL_MONEY] < SO_2PV_PRICE:
            return 0.0
        return phi(s, pol, ps, seat, SO_2PV_GAIN, -SO_2PV_PRICE, 0, -1) - base
    if offer == SO_FISHING:
        found, best = best_display(s, fb, pol, ps, seat, base)
        blind = blind_value(s, fb, pol, ps, seat, 0, base) if blind_available(s) else 0.0
        return blind if (not found or blind > best + TOL) else best
    if offer == SO_ICE:
        if s[S_SUPPLY] > 0:
            return phi(s, pol, ps, seat, 0, 0, 1, -1) - base
        return 0.0
    if offer == SO_TREASURE:
        return treasure_value(s, pol, ps, seat, s[pb + PL_MONEY])
    return sale_value(s, pol, ps, seat, 0, 6)


@njit(cache=True)
def action_value(s, fb, pol, ps, seat, base, box, slot, position, n_ice):
    """policies.action_value: E[Phi gain] to ``seat`` of a pawn on (box, slot) at
    ``position``, valued by policy seat ``ps``; ``base`` is Phi of the seat's holding."""
    rr = S_RULES
    if box == IF:
        free = min(s[rr + R.if_ice_gift + position - 1], s[S_SUPPLY])
        q1 = base if free == 0 else phi(s, pol, ps, seat, 0, 0, free, -1)
        value = q1 - base
        price = s[rr + R.if_prices + position - 1]
        money = s[_pl(seat) + PL_MONEY]
        if money >= price and blind_available(s):
            e = blind_value(s, fb, pol, ps, seat, free, q1)
            cost = money_gain(s, pol, ps, money - price, price)
            if e > cost + TOL:
                value += e - cost
        return value
    if box == SF:
        if slot == NO_SLOT:
            return blind_value(s, fb, pol, ps, seat, 0, base) if blind_available(s) else 0.0
        ok, value = display_value(s, fb, pol, ps, seat, base, slot)
        if not ok:
            return 0.0
        if s[rr + R.sf_buy_mandatory] != 0:
            return value
        return max(value, 0.0)
    if box == ICE:
        return ice_share(s, pol, ps, seat, base, position, n_ice)
    if box == TR:
        free = min(s[rr + R.treasure_ice_gift + position - 1], s[S_SUPPLY])
        q1 = base if free == 0 else phi(s, pol, ps, seat, 0, 0, free, -1)
        value = q1 - base
        money = s[_pl(seat) + PL_MONEY]
        value += fb[F_CHANCE + position - 1] * treasure_value(s, pol, ps, seat, money)
        if position == 1 and s[rr + R.treasure_captain_coin] != 0:
            value += COIN_CHANCE * money_gain(s, pol, ps, money, 1)
        return value
    if box == FM:
        return sale_value(s, pol, ps, seat, slot, slot + 1)
    if box == SO:
        value = offer_value(s, fb, pol, ps, seat, base, slot)
        return value + SO_LAST_PV if position == 5 else value
    if box == SUB:
        return sub_value(s, pol, ps, seat)
    return mutiny_value(s, pol, ps, seat, slot)


@njit(cache=True)
def mutiny_value(s, pol, ps, seat, m):
    money = MUTINY_ZERO_MONEY if m == 0 else -m
    return s[S_RULES + R.mutiny_pv + m] + money_gain(s, pol, ps, s[_pl(seat) + PL_MONEY], money)


@njit(cache=True)
def sub_value(s, pol, ps, seat):
    """Subvention: its PV (a heuristic seat: the better of its 1 PV and its 1$)."""
    if s[S_CODE + ps] != HEURISTIC:
        return SUB_VALUE
    return max(SUB_VALUE, money_gain(s, pol, ps, s[_pl(seat) + PL_MONEY], 1))


# ================================================================ option lists (D1, D2, D9)


@njit(cache=True, inline="always")
def taken(s, box, slot):
    return (s[S_TAKEN + box] >> (slot + 1)) & 1 != 0


@njit(cache=True)
def join_slots(s, at, box, position, free):
    """reference.join_slots written as options at s[at:]: their number."""
    rr = S_RULES
    n = 0
    if box == SF:
        if position > SF_PICKS and s[rr + R.sf_fifth_gets_blind] != 0:
            s[at] = _opt(SF, NO_SLOT)
            return 1
        for i in range(s[S_D]):
            if s[S_DISPLAY + i] != EMPTY and not taken(s, SF, i):
                s[at + n] = _opt(SF, i)
                n += 1
        return n
    if box == FM:
        exclusive = s[rr + R.market_slots_exclusive] != 0 and (
            not free or s[rr + R.free_round_slots_exclusive] != 0)
        for c in range(6):
            if not exclusive or not taken(s, FM, c):
                s[at + n] = _opt(FM, c)
                n += 1
        return n
    if box == SO:
        exclusive = not free or s[rr + R.free_round_slots_exclusive] != 0
        for o in range(5):
            if not exclusive or not taken(s, SO, o):
                s[at + n] = _opt(SO, o)
                n += 1
        return n
    s[at] = _opt(box, NO_SLOT)
    return 1


@njit(cache=True)
def mutiny_spaces(s, at, seat):
    check = s[S_RULES + R.mutiny_money_check] == 0
    money = s[_pl(seat) + PL_MONEY]
    n = 0
    for m in range(MUTINY_SPACES):
        if not check or money >= m:
            s[at + n] = _opt(MUT, m)
            n += 1
    return n


@njit(cache=True)
def captain_options(s):
    rule = s[S_RULES + R.previous_action_rule]
    banned = s[S_PREV_ACTION]
    if rule == 2 or (rule == 1 and s[S_CAPTAIN] != s[S_PREV_CAPTAIN]):
        banned = NO_ACTION
    n = 0
    for box in range(6):
        if box != banned:
            n += join_slots(s, S_OPT + n, box, 1, False)
    return n


@njit(cache=True)
def follower_options(s, seat, box):
    n = join_slots(s, S_OPT, box, s[S_BOX_N + box] + 1, False)
    s[S_OPT + n] = _opt(SUB, NO_SLOT)
    n += 1
    if s[S_BOX_N + MUT] == 0 and not (
            s[S_PHASE] == LAST_CAPTAIN and s[S_RULES + R.last_captain_mutiny] == 1):
        n += mutiny_spaces(s, S_OPT + n, seat)
    return n


@njit(cache=True)
def free_options(s, seat):
    n = 0
    for box in range(7):
        n += join_slots(s, S_OPT + n, box, s[S_BOX_N + box] + 1, True)
    n += mutiny_spaces(s, S_OPT + n, seat)
    return n


@njit(cache=True)
def place(s, seat, box, slot):
    pn = _pn(s[S_NPAWNS])
    s[pn + PN_SEAT] = seat
    s[pn + PN_BOX] = box
    s[pn + PN_SLOT] = slot
    s[pn + PN_POS] = s[S_BOX_N + box] + 1
    s[pn + PN_DONE] = 0
    s[S_BOX_N + box] += 1
    s[S_TAKEN + box] |= 1 << (slot + 1)
    s[S_NPAWNS] += 1
    s[S_TOOK + seat * N_CHOICES + BOX_CHOICE[box]] += 1


@njit(cache=True)
def narrow(s, seat, n):
    """reference.choose's restriction: the n options at S_OPT narrowed, in order, to those
    ``seat`` may choose (each of its box's choice; engines._restrict): their number."""
    forbid = s[S_FORBID + seat]
    force = s[S_FORCE + seat]
    if forbid == 0 and force == 0:
        return n
    forced_any = False
    allowed_any = False
    for i in range(n):
        kind = BOX_CHOICE[_opt_box(s[S_OPT + i])]
        forced_any = forced_any or is_forced_fast(kind, force)
        allowed_any = allowed_any or is_allowed_fast(kind, forbid)
    m = 0
    for i in range(n):
        o = s[S_OPT + i]
        if keeps_fast(BOX_CHOICE[_opt_box(o)], forbid, force, forced_any, allowed_any):
            s[S_OPT + m] = o
            m += 1
    return m


# ================================================================ greedy and planner choices


@njit(cache=True)
def greedy_captain(s, fb, pol, seat, n):
    """GreedyPolicy.captain_action over the options at S_OPT: the index chosen."""
    fresh(s)
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    P = s[S_P]
    best = 0
    best_v = 0.0
    for i in range(n):
        o = s[S_OPT + i]
        v = action_value(s, fb, pol, seat, seat, base, _opt_box(o), _opt_slot(o), 1, P)
        if i == 0 or v > best_v + TOL:
            best = i
            best_v = v
    return best


@njit(cache=True)
def planner_captain(s, fb, pol, seat, n):
    """PlannerPolicy.captain_action: own gain less lam x the followers' mean denied gain."""
    fresh(s)
    P = s[S_P]
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    for i in range(P - 1):
        s[S_FBASE + i] = phi_q(s, seat, (seat + 1 + i) % P, 0, 0, 0, -1)
    lam = pol[seat * PW + PLANNER_AT.lam]
    best = 0
    best_v = 0.0
    for k in range(n):
        o = s[S_OPT + k]
        box = _opt_box(o)
        slot = _opt_slot(o)
        own = action_value(s, fb, pol, seat, seat, base, box, slot, 1, P)
        denied = 0.0
        for i in range(P - 1):
            f = (seat + 1 + i) % P
            m = join_slots(s, S_OPT2, box, i + 2, False)
            found = False
            fbest = 0.0
            for j in range(m):
                sl = _opt_slot(s[S_OPT2 + j])
                if sl != NO_SLOT and sl == slot:
                    continue
                v = action_value(s, fb, pol, seat, f, s[S_FBASE + i] * 0.25, box, sl, i + 2,
                                 P)
                if not found or v > fbest + TOL:
                    found = True
                    fbest = v
            if found:
                denied += max(0.0, fbest - SUB_VALUE)
        v = own - lam * (denied / (P - 1))
        if k == 0 or v > best_v + TOL:
            best = k
            best_v = v
    return best


@njit(cache=True)
def greedy_bonus(s, pol, seat):
    if s[S_PHASE] == LAST_CAPTAIN:
        return 0.0
    return pol[seat * PW + GREEDY_AT.captain_bonus]


@njit(cache=True)
def follow_bonus(s, pol, seat, still):
    """The Mutiny bonus of a follower's choice (``still``: followers after it)."""
    if s[S_CODE + seat] != HEURISTIC:
        return greedy_bonus(s, pol, seat)
    w = seat * PW
    if s[S_PHASE] == LAST_CAPTAIN:
        stage = 0.0
    elif s[S_MARKER] >= s[S_RULES + R.num_mutinies] - s[S_P]:
        stage = pol[w + HEUR_AT.captain_bonus_late]
    elif s[S_MARKER] < s[S_RULES + R.treasure_modified_until_marker]:
        stage = pol[w + HEUR_AT.captain_bonus_early]
    else:
        stage = pol[w + HEUR_AT.captain_bonus]
    return stage + pol[w + HEUR_AT.mutiny_denial] * still


@njit(cache=True)
def planner_bonus(s, pol, seat):
    if s[S_PHASE] == LAST_CAPTAIN:
        return 0.0
    if s[S_MARKER] <= s[S_RULES + R.num_mutinies] - 2:
        return pol[seat * PW + PLANNER_AT.captain_bonus]
    return pol[seat * PW + PLANNER_AT.captain_bonus_late]


@njit(cache=True)
def greedy_follower(s, fb, pol, seat, n, bonus_on):
    """GreedyPolicy.follower_choice (and free_round_choice without the bonus)."""
    fresh(s)
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    still = s[S_P] - s[S_NPAWNS] - 1
    bonus = follow_bonus(s, pol, seat, still) if bonus_on else 0.0
    best = 0
    best_v = 0.0
    for i in range(n):
        o = s[S_OPT + i]
        box = _opt_box(o)
        k = s[S_BOX_N + box]
        v = action_value(s, fb, pol, seat, seat, base, box, _opt_slot(o), k + 1, k + 1 + still)
        if bonus_on and box == MUT:
            v = v + bonus
        if i == 0 or v > best_v + TOL:
            best = i
            best_v = v
    return best


@njit(cache=True)
def planner_follower(s, fb, pol, seat, n):
    """PlannerPolicy.follower_choice: mutiny only by the margin; JOIN if worth SUB."""
    fresh(s)
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    still = s[S_P] - s[S_NPAWNS] - 1
    join = -1
    join_v = 0.0
    mut = -1
    mut_v = 0.0
    sub = -1
    for i in range(n):
        o = s[S_OPT + i]
        box = _opt_box(o)
        if box == SUB:
            sub = i
            continue
        k = s[S_BOX_N + box]
        v = action_value(s, fb, pol, seat, seat, base, box, _opt_slot(o), k + 1, k + 1 + still)
        if box == MUT:
            if mut < 0 or v > mut_v + TOL:
                mut = i
                mut_v = v
        elif join < 0 or v > join_v + TOL:
            join = i
            join_v = v
    margin = pol[seat * PW + PLANNER_AT.margin]
    if mut >= 0:  # the rivals: JOIN and Subvention, as far as the options hold them
        if join < 0 and sub < 0:
            return mut
        rival = SUB_VALUE if join < 0 else (max(join_v, SUB_VALUE) if sub >= 0 else join_v)
        if mut_v + planner_bonus(s, pol, seat) >= rival + margin - TOL:
            return mut
    if join >= 0 and (sub < 0 or join_v >= SUB_VALUE - TOL):
        return join
    return sub


@njit(cache=True)
def joiner(s, seat):
    """HeuristicPolicy.joiner: the first follower of Captain ``seat`` expected to join, the
    followers clockwise but the first who can pay a Mutiny (1$) when one may be taken."""
    P = s[S_P]
    skip = not (s[S_PHASE] == LAST_CAPTAIN and s[S_RULES + R.last_captain_mutiny] == 1)
    for i in range(1, P):
        f = (seat + i) % P
        if skip and s[_pl(f) + PL_MONEY] >= 1:
            skip = False
            continue
        return f
    return (seat + 1) % P


@njit(cache=True)
def heuristic_captain(s, fb, pol, seat, n):
    """HeuristicPolicy.captain_action: greedy's when lam = 0, else the own gain less lam x
    the joiner's best JOIN gain (at position 2) above its Subvention. The joiner's best
    (and best but for the best's slot) is found once per box, an exact maximum either way,
    and only for a box one of whose options could still win the scan: the denial term is
    never negative (lam >= 0), so an option whose own gain is not above the incumbent's
    value by more than TOL cannot replace it whatever its denial term (the choice is the
    full computation's)."""
    lam = pol[seat * PW + HEUR_AT.lam]
    if lam == 0.0:
        return greedy_captain(s, fb, pol, seat, n)
    fresh(s)
    P = s[S_P]
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    f = joiner(s, seat)
    fbase = phi(s, pol, seat, f, 0, 0, 0, -1)
    fsub = sub_value(s, pol, seat, f)
    fm_exclusive = s[S_RULES + R.market_slots_exclusive] != 0
    at_box = -1
    found = 0
    b1 = 0.0
    b2 = 0.0
    b1slot = -2
    best = 0
    best_v = 0.0
    for k in range(n):
        o = s[S_OPT + k]
        box = _opt_box(o)
        slot = _opt_slot(o)
        own = action_value(s, fb, pol, seat, seat, base, box, slot, 1, P)
        if k > 0 and own <= best_v + TOL:
            continue  # it cannot win: its value is at most its own gain
        if box != at_box:
            at_box = box
            m = join_slots(s, S_OPT2, box, 2, False)
            found = 0
            b1 = 0.0
            b2 = 0.0
            b1slot = -2
            for j in range(m):
                sl = _opt_slot(s[S_OPT2 + j])
                v = action_value(s, fb, pol, seat, f, fbase, box, sl, 2, P)
                if (found & 1) == 0 or v > b1:
                    if found & 1:
                        b2 = b1
                        found |= 2
                    b1 = v
                    b1slot = sl
                    found |= 1
                elif (found & 2) == 0 or v > b2:
                    b2 = v
                    found |= 2
        exclusive = box == SF or box == SO or (box == FM and fm_exclusive)
        denied = 0.0
        if exclusive and slot != NO_SLOT and slot == b1slot:
            if found & 2:
                denied = max(0.0, b2 - fsub)
        elif found & 1:
            denied = max(0.0, b1 - fsub)
        v = own - lam * denied
        if k == 0 or v > best_v + TOL:
            best = k
            best_v = v
    return best


@njit(cache=True)
def decide_captain(s, fb, pol, rng, seat, n):
    if s[S_RO_SAMPLES + seat] > 0:
        return rollout_decide(s, fb, pol, rng, seat, n, 0)
    code = s[S_CODE + seat]
    if code == RANDOM:
        return rng_below(_seat_rng(rng, seat), n)
    if code == PLANNER:
        return planner_captain(s, fb, pol, seat, n)
    if code == HEURISTIC:
        return heuristic_captain(s, fb, pol, seat, n)
    return greedy_captain(s, fb, pol, seat, n)


@njit(cache=True)
def decide_follower(s, fb, pol, rng, seat, n):
    if s[S_RO_SAMPLES + seat] > 0:
        return rollout_decide(s, fb, pol, rng, seat, n, 1)
    code = s[S_CODE + seat]
    if code == RANDOM:
        return rng_below(_seat_rng(rng, seat), n)
    if code == PLANNER:
        return planner_follower(s, fb, pol, seat, n)
    return greedy_follower(s, fb, pol, seat, n, True)


@njit(cache=True)
def decide_free(s, fb, pol, rng, seat, n):
    if s[S_RO_SAMPLES + seat] > 0:
        return rollout_decide(s, fb, pol, rng, seat, n, 2)
    if s[S_CODE + seat] == RANDOM:
        return rng_below(_seat_rng(rng, seat), n)
    return greedy_follower(s, fb, pol, seat, n, False)


# ================================================================ D3-D8


@njit(cache=True)
def ask_if_buy(s, pol, rng, seat, price):
    if s[S_CODE + seat] == RANDOM:
        return rng_below(_seat_rng(rng, seat), 2) == 0
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    money = s[_pl(seat) + PL_MONEY]
    return blind_value_now(s, pol, seat, seat, 0, base) > \
        money_gain(s, pol, seat, money - price, price) + TOL


@njit(cache=True)
def ask_if_keep(s, pol, rng, seat, colour, price):
    if s[S_CODE + seat] == RANDOM:
        return rng_below(_seat_rng(rng, seat), 2) == 0
    gain = phi(s, pol, seat, seat, 0, 0, 0, colour) - phi(s, pol, seat, seat, 0, 0, 0, -1)
    return gain > money_gain(s, pol, seat, s[_pl(seat) + PL_MONEY], price) + TOL


@njit(cache=True)
def ask_sf_buy(s, pol, rng, seat, index):
    if s[S_CODE + seat] == RANDOM:
        return rng_below(_seat_rng(rng, seat), 2) == 0
    ok, v = display_value_now(s, pol, seat, seat, phi(s, pol, seat, seat, 0, 0, 0, -1), index)
    return ok and v > TOL


@njit(cache=True)
def ask_sub_money(s, pol, rng, seat):
    if s[S_CODE + seat] == RANDOM:
        return rng_below(_seat_rng(rng, seat), 2) == 1
    pb = _pl(seat)
    money = s[pb + PL_MONEY]
    if money == 0 or (money < 2 and s[pb + PL_TR + T_4PV_FOR_4] > 0):
        return True
    return s[S_CODE + seat] == HEURISTIC and money_gain(s, pol, seat, money, 1) > SUB_VALUE + TOL


@njit(cache=True)
def ask_so_fishing(s, pol, rng, seat, n):
    """D7 over the options at S_SOOPT (display indices, then BLIND)."""
    if s[S_CODE + seat] == RANDOM:
        return s[S_SOOPT + rng_below(_seat_rng(rng, seat), n)]
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    best = BLIND
    best_v = 0.0
    for k in range(n):
        i = s[S_SOOPT + k]
        if i == BLIND:
            continue
        ok, v = display_value_now(s, pol, seat, seat, base, i)
        if best == BLIND or v > best_v + TOL:
            best = i
            best_v = v
    blind = blind_value_now(s, pol, seat, seat, 0, base) if blind_available(s) else 0.0
    if best == BLIND or blind > best_v + TOL:
        return BLIND
    return best


@njit(cache=True)
def usable(s, seat, kind):
    pb = _pl(seat)
    if s[pb + PL_TR + kind] == 0:
        return False
    if kind == T_ICE:
        return s[S_SUPPLY] > 0
    if kind == T_MARKET:
        fish = 0
        for c in range(5):
            fish += s[pb + PL_HAND + c]
        return fish + s[pb + PL_TR + T_JOKER] >= 2
    if kind == T_4PV_FOR_4:
        return s[pb + PL_MONEY] >= FOUR_PV_PRICE
    if kind == T_FISH or kind == T_2PV or kind == T_2MONEY:
        return s[S_RULES + R.auto_use_simple_treasures] == 0
    return False


@njit(cache=True)
def use_treasure(s, pol, rng, seat, kind):
    pb = _pl(seat)
    if kind == T_MARKET:
        if offer_sale(s, pol, rng, seat, 0, 6, True):
            discard_treasure(s, seat, T_MARKET)
        return
    discard_treasure(s, seat, kind)
    if kind == T_ICE:
        gain_ice(s, seat, s[S_RULES + R.treasure_ice_amount])
    elif kind == T_FISH:
        take_blind(s, rng, seat)
    elif kind == T_2PV:
        gain_pv(s, rng, seat, TWO_PV)
    elif kind == T_2MONEY:
        s[pb + PL_MONEY] += TWO_MONEY
    elif kind == T_4PV_FOR_4:
        s[pb + PL_MONEY] -= FOUR_PV_PRICE
        gain_pv(s, rng, seat, FOUR_PV_GAIN)


@njit(cache=True)
def decide_treasures(s, pol, rng, seat, n_off):
    """D8 over the entries at S_OFFER: the kinds to use, in order, at S_USE; their number."""
    n = 0
    code = s[S_CODE + seat]
    if code == RANDOM:
        pr = _seat_rng(rng, seat)
        for i in range(n_off):
            if rng_below(pr, 2) == 0:
                s[S_USE + n] = s[S_OFFER + i]
                n += 1
        return n
    pb = _pl(seat)
    has_ice = False
    has_market = False
    has_four = False
    for i in range(n_off):
        kind = s[S_OFFER + i]
        has_ice = has_ice or kind == T_ICE
        has_market = has_market or kind == T_MARKET
        has_four = has_four or kind == T_4PV_FOR_4
    if has_ice and s[S_PHASE] != FREE:
        icons = 0
        for c in range(5):
            icons += s[pb + PL_HAND + c] * s[S_ICONS + c]
        icons += s[pb + PL_TR + T_JOKER] * s[S_ICONS + JOKER]
        if min(s[S_RULES + R.market_ice_cap], icons) > s[pb + PL_ICE]:
            s[S_USE + n] = T_ICE
            n += 1
    if has_market and sale_value(s, pol, seat, seat, 0, 6) >= 1.0 - TOL:
        s[S_USE + n] = T_MARKET
        n += 1
    reserve = pol[seat * PW + (PLANNER_AT.money_reserve if code == PLANNER
                               else HEUR_AT.money_reserve if code == HEURISTIC
                               else GREEDY_AT.money_reserve)]
    if has_four and s[pb + PL_MONEY] >= FOUR_PV_PRICE + reserve:
        s[S_USE + n] = T_4PV_FOR_4
        n += 1
    for i in range(n_off):
        kind = s[S_OFFER + i]
        if kind != T_ICE and kind != T_MARKET and kind != T_4PV_FOR_4:
            s[S_USE + n] = kind
            n += 1
    return n


@njit(cache=True)
def window(s, pol, rng, seat):
    """A treasure-use window: simple treasures first (when auto-used), then D8."""
    pb = _pl(seat)
    auto = s[S_RULES + R.auto_use_simple_treasures] != 0
    simple = s[pb + PL_TR + T_FISH] + s[pb + PL_TR + T_2PV] + s[pb + PL_TR + T_2MONEY]
    if auto and simple:
        for kind in (T_FISH, T_2PV, T_2MONEY):
            while s[pb + PL_TR + kind] > 0:
                use_treasure(s, pol, rng, seat, kind)
    if s[pb + PL_TR + T_ICE] + s[pb + PL_TR + T_MARKET] + s[pb + PL_TR + T_4PV_FOR_4] == 0 and (
            auto or s[pb + PL_TR + T_FISH] + s[pb + PL_TR + T_2PV] + s[pb + PL_TR + T_2MONEY]
            == 0):
        return  # nothing usable (a shortcut of the loop below)
    n_off = 0
    for kind in (T_ICE, T_MARKET, T_4PV_FOR_4, T_FISH, T_2PV, T_2MONEY):
        if usable(s, seat, kind):
            for _ in range(s[pb + PL_TR + kind]):
                s[S_OFFER + n_off] = kind
                n_off += 1
    if n_off == 0:
        return
    n = decide_treasures(s, pol, rng, seat, n_off)
    for i in range(n):
        kind = s[S_USE + i]
        if usable(s, seat, kind):
            use_treasure(s, pol, rng, seat, kind)


# ================================================================ the boxes (spec §4.3)


@njit(cache=True)
def fishing_blind(s, pol, rng, seat, k):
    """Indiscriminate fishing: free ice, then buy a blind fish, keep it or return it."""
    rr = S_RULES
    pb = _pl(seat)
    free = s[rr + R.if_ice_gift + k - 1]
    if free:
        gain_ice(s, seat, free)
    price = s[rr + R.if_prices + k - 1]
    if s[pb + PL_MONEY] < price or not blind_available(s):
        return
    if not ask_if_buy(s, pol, rng, seat, price):
        return
    s[pb + PL_MONEY] -= price
    colour = draw_blind(s, rng)
    if ask_if_keep(s, pol, rng, seat, colour, price):
        s[pb + PL_HAND + colour] += 1
        return
    mode = s[rr + R.if_return_to]
    n = s[S_IFP_N]
    at = n
    if mode == 1:
        at = 0
    elif mode == 2:
        at = rng_below(rng, n + 1)
    for i in range(n, at, -1):
        s[S_IFP + i] = s[S_IFP + i - 1]
    s[S_IFP + at] = colour
    s[S_IFP_N] = n + 1
    s[pb + PL_MONEY] += price


@njit(cache=True)
def buy_display(s, seat, index):
    colour = s[S_DISPLAY + index]
    pb = _pl(seat)
    return_ice(s, seat, s[S_RULES + R.fish_prices + 2 * colour])
    s[pb + PL_MONEY] -= s[S_RULES + R.fish_prices + 2 * colour + 1]
    s[pb + PL_HAND + colour] += 1
    s[pb + PL_KNOWN + colour] += 1
    s[S_DISPLAY + index] = EMPTY


@njit(cache=True)
def fishing_selective(s, pol, rng, seat, slot):
    if slot == NO_SLOT:
        take_blind(s, rng, seat)
        return
    colour = s[S_DISPLAY + slot]
    if colour == EMPTY or not can_pay(s, seat, colour):
        return
    if s[S_RULES + R.sf_buy_mandatory] == 0 and not ask_sf_buy(s, pol, rng, seat, slot):
        return
    buy_display(s, seat, slot)


@njit(cache=True)
def ice_direct(s, seat, position):
    g = S_RULES + R.ice_factory_gifts + 2 * (position - 1)
    if s[g]:
        gain_ice(s, seat, s[g])
    if s[g + 1]:
        s[_pl(seat) + PL_MONEY] += s[g + 1]


@njit(cache=True)
def ice_hand_out(s, rng):
    """Roll, then N ice one at a time to the Ice Factory pawns in position order, cycling."""
    mode = s[S_RULES + R.ice_factory_roll]
    if mode == 2:
        n = 1 + rng_below(rng, 6)
        n += 1 + rng_below(rng, 6)
    else:
        n = 1 + rng_below(rng, 6) + (2 if mode == 0 else 1)
    m = s[S_BOX_N + ICE]
    given = 0
    while given < n and s[S_SUPPLY] > 0:
        i = given % m
        # the i-th Ice Factory pawn in placement order
        seen = 0
        for q in range(s[S_NPAWNS]):
            pn = _pn(q)
            if s[pn + PN_BOX] == ICE:
                if seen == i:
                    gain_ice(s, s[pn + PN_SEAT], 1)
                    break
                seen += 1
        given += 1


@njit(cache=True)
def treasure_hunt(s, rng, seat, k):
    rr = S_RULES
    free = s[rr + R.treasure_ice_gift + k - 1]
    if free:
        gain_ice(s, seat, free)
    a = 1 + rng_below(rng, 6)
    b = 1 + rng_below(rng, 6)
    threshold = s[rr + R.treasure_thresholds + k - 1]
    mode = s[rr + R.treasure_roll_mode]
    if mode == 0:
        found = a > threshold
    elif mode == 1:
        found = max(a, b) > threshold
    else:
        found = a + b > 2 * threshold
    if found:
        gain_treasure(s, rng, seat)
    if k == 1 and s[rr + R.treasure_captain_coin] != 0 and a > 1 and b > 1:
        s[_pl(seat) + PL_MONEY] += 1


@njit(cache=True)
def special_offer(s, pol, rng, seat, offer, position):
    pb = _pl(seat)
    if offer == SO_2PV:
        if s[pb + PL_MONEY] >= SO_2PV_PRICE:
            s[pb + PL_MONEY] -= SO_2PV_PRICE
            gain_pv(s, rng, seat, SO_2PV_GAIN)
    elif offer == SO_FISHING:
        n = 0
        for i in range(s[S_D]):
            c = s[S_DISPLAY + i]
            if c != EMPTY and not is_reserved(s, i) and can_pay(s, seat, c):
                s[S_SOOPT + n] = i
                n += 1
        s[S_SOOPT + n] = BLIND
        n += 1
        choice = BLIND if n == 1 else ask_so_fishing(s, pol, rng, seat, n)
        if choice == BLIND:
            take_blind(s, rng, seat)
        else:
            buy_display(s, seat, choice)
            refill_display(s, rng)
    elif offer == SO_ICE:
        gain_ice(s, seat, 1)
    elif offer == SO_TREASURE:
        gain_treasure(s, rng, seat)
    else:
        offer_sale(s, pol, rng, seat, 0, 6, True)
    if position == 5:
        gain_pv(s, rng, seat, SO_LAST_PV)


@njit(cache=True)
def mutiny(s, rng, seat, m):
    pb = _pl(seat)
    if s[pb + PL_MONEY] < m:
        m = 0
    pv = s[S_RULES + R.mutiny_pv + m]
    if m:
        s[pb + PL_MONEY] -= m
    gain_pv(s, rng, seat, pv)
    if m == 0:
        s[pb + PL_MONEY] += MUTINY_ZERO_MONEY
    s[pb + PL_MUT] += 1
    s[S_MUT_ACTIONS] += 1


@njit(cache=True)
def step(s, pol, rng, i):
    """Pawn i's own resolution step (not the Ice Factory, which is shared)."""
    pn = _pn(i)
    seat = s[pn + PN_SEAT]
    box = s[pn + PN_BOX]
    slot = s[pn + PN_SLOT]
    k = s[pn + PN_POS]
    if box == IF:
        fishing_blind(s, pol, rng, seat, k)
    elif box == SF:
        fishing_selective(s, pol, rng, seat, slot)
    elif box == TR:
        treasure_hunt(s, rng, seat, k)
    elif box == FM:
        offer_sale(s, pol, rng, seat, slot, slot + 1, s[S_RULES + R.sale_optional] != 0)
    elif box == SO:
        special_offer(s, pol, rng, seat, slot, k)
    elif box == SUB:
        if ask_sub_money(s, pol, rng, seat):
            s[_pl(seat) + PL_MONEY] += 1
        else:
            gain_pv(s, rng, seat, 1)
    else:
        mutiny(s, rng, seat, slot)


@njit(cache=True)
def resolve_pawn(s, pol, rng, i):
    """Window, the pawn's own step, window."""
    seat = s[_pn(i) + PN_SEAT]
    window(s, pol, rng, seat)
    step(s, pol, rng, i)
    s[_pn(i) + PN_DONE] = 1
    window(s, pol, rng, seat)


@njit(cache=True)
def resolve_box(s, pol, rng, box):
    """One box's pawns in position order; the Ice Factory's shared step; the refill."""
    npawns = s[S_NPAWNS]
    if s[S_BOX_N + box] == 0:
        return
    if box == ICE:
        for i in range(npawns):
            if s[_pn(i) + PN_BOX] == ICE:
                window(s, pol, rng, s[_pn(i) + PN_SEAT])
        for i in range(npawns):
            if s[_pn(i) + PN_BOX] == ICE:
                ice_direct(s, s[_pn(i) + PN_SEAT], s[_pn(i) + PN_POS])
        ice_hand_out(s, rng)
        for i in range(npawns):
            if s[_pn(i) + PN_BOX] == ICE:
                s[_pn(i) + PN_DONE] = 1
        for i in range(npawns):
            if s[_pn(i) + PN_BOX] == ICE:
                window(s, pol, rng, s[_pn(i) + PN_SEAT])
        return
    for i in range(npawns):
        if s[_pn(i) + PN_BOX] == box:
            resolve_pawn(s, pol, rng, i)
    if box == SF:
        refill_display(s, rng)


# ================================================================ rounds (spec §4.2, §4.4)


@njit(cache=True)
def new_round(s):
    s[S_ROUND] += 1
    s[S_NPAWNS] = 0
    for b in range(8):
        s[S_BOX_N + b] = 0
        s[S_TAKEN + b] = 0


@njit(cache=True)
def place_captain(s, box, slot):
    """reference.place_captain: the Captain's pawn at position 1 of the chosen action."""
    C = s[S_CAPTAIN]
    s[S_CHOICES + box] += 1
    s[_pl(C) + PL_CAPR] += 1
    place(s, C, box, slot)


@njit(cache=True)
def play_round(s, fb, pol, rng):
    """One normal or last-Captain round: choices, resolution, captaincy."""
    P = s[S_P]
    C = s[S_CAPTAIN]
    new_round(s)
    n = narrow(s, C, captain_options(s))
    k = 0 if n == 1 else decide_captain(s, fb, pol, rng, C, n)
    o = s[S_OPT + k]
    box = _opt_box(o)
    place_captain(s, box, _opt_slot(o))
    for i in range(1, P):
        seat = (C + i) % P
        n = narrow(s, seat, follower_options(s, seat, box))
        k = 0 if n == 1 else decide_follower(s, fb, pol, rng, seat, n)
        o = s[S_OPT + k]
        place(s, seat, _opt_box(o), _opt_slot(o))
    resolve_round(s, pol, rng)


@njit(cache=True)
def resolve_round(s, pol, rng):
    """The placed round resolved: the Captain's box, Subvention, the mutineer; captaincy."""
    C = s[S_CAPTAIN]
    box = s[_pn(0) + PN_BOX]
    resolve_box(s, pol, rng, box)
    npawns = s[S_NPAWNS]
    for i in range(npawns):
        if s[_pn(i) + PN_BOX] == SUB:
            resolve_pawn(s, pol, rng, i)
    mutineer = -1
    for i in range(npawns):
        if s[_pn(i) + PN_BOX] == MUT:
            resolve_pawn(s, pol, rng, i)
            if mutineer < 0:
                mutineer = s[_pn(i) + PN_SEAT]
    if s[S_PHASE] == NORMAL:
        s[S_NORMAL] += 1
        if mutineer >= 0:
            s[S_CAPTAIN] = mutineer
            s[S_MARKER] += 1
            s[S_MUTINIES] += 1
        s[S_PREV_ACTION] = box
        s[S_PREV_CAPTAIN] = C
        if s[S_MARKER] >= s[S_RULES + R.num_mutinies]:
            s[S_PHASE] = LAST_CAPTAIN
        elif s[S_NORMAL] >= s[S_RULES + R.max_rounds]:
            s[S_PHASE] = FREE
            s[S_TRUNCATED] = 1
    else:
        s[S_PREV_ACTION] = box
        s[S_PREV_CAPTAIN] = C
        s[S_PHASE] = FREE


@njit(cache=True)
def play_free_round(s, fb, pol, rng):
    """The free round: everyone, from the Captain clockwise, places anywhere (spec §4.4)."""
    P = s[S_P]
    new_round(s)
    for i in range(P):
        seat = (s[S_CAPTAIN] + i) % P
        n = narrow(s, seat, free_options(s, seat))
        k = 0 if n == 1 else decide_free(s, fb, pol, rng, seat, n)
        o = s[S_OPT + k]
        place(s, seat, _opt_box(o), _opt_slot(o))
    resolve_free_round(s, pol, rng)


@njit(cache=True)
def resolve_free_round(s, pol, rng):
    """The placed free round resolved, box by box or pawn by pawn."""
    if s[S_RULES + R.free_round_resolution] == 0:
        for box in range(8):
            resolve_box(s, pol, rng, box)
    else:
        npawns = s[S_NPAWNS]
        for i in range(npawns):
            pn = _pn(i)
            box = s[pn + PN_BOX]
            seat = s[pn + PN_SEAT]
            last = True
            for q in range(i + 1, npawns):
                if s[_pn(q) + PN_BOX] == box:
                    last = False
            if box == ICE:
                window(s, pol, rng, seat)
                ice_direct(s, seat, s[pn + PN_POS])
                if last:
                    ice_hand_out(s, rng)
                s[pn + PN_DONE] = 1
                window(s, pol, rng, seat)
                continue
            resolve_pawn(s, pol, rng, i)
            if box == SF and last:
                refill_display(s, rng)
    s[S_PHASE] = OVER


# ================================================================ rollout (policies.RolloutPolicy)
# A rollout seat's S_CODE and its row in F_GPOL are its base policy's (greedy or the
# heuristic: its valuation and its D3-D8); S_RO_SAMPLES > 0 marks it a rollout (decide_*).
# A playout runs on the copy at S_COPY with every seat the deciding seat's base (its code in
# the copy's S_CODE, its row P times at F_POPOL); its rounds are the base_* drivers below,
# which never reach a rollout decision (no recursion).


@njit(cache=True)
def base_captain(s, fb, pol, seat, n):
    """A playout Captain's choice: HeuristicPolicy.captain_action or greedy's."""
    if s[S_CODE + seat] == HEURISTIC:
        return heuristic_captain(s, fb, pol, seat, n)
    return greedy_captain(s, fb, pol, seat, n)


@njit(cache=True)
def base_finish_round(s, fb, pol, rng, start):
    """reference.finish_round with every seat the base: followers from ``start``, then
    resolution (greedy_follower is the heuristic's follower choice too)."""
    P = s[S_P]
    C = s[S_CAPTAIN]
    box = s[_pn(0) + PN_BOX]
    for i in range(start, P):
        seat = (C + i) % P
        n = narrow(s, seat, follower_options(s, seat, box))
        k = 0 if n == 1 else greedy_follower(s, fb, pol, seat, n, True)
        o = s[S_OPT + k]
        place(s, seat, _opt_box(o), _opt_slot(o))
    resolve_round(s, pol, rng)


@njit(cache=True)
def base_finish_free(s, fb, pol, rng, start):
    """reference.finish_free_round with every seat the base."""
    P = s[S_P]
    for i in range(start, P):
        seat = (s[S_CAPTAIN] + i) % P
        n = narrow(s, seat, free_options(s, seat))
        k = 0 if n == 1 else greedy_follower(s, fb, pol, seat, n, False)
        o = s[S_OPT + k]
        place(s, seat, _opt_box(o), _opt_slot(o))
    resolve_free_round(s, pol, rng)


@njit(cache=True)
def base_play_on(s, fb, pol, rng):
    """reference.play_on with every seat the base, then final scoring."""
    while s[S_PHASE] == NORMAL or s[S_PHASE] == LAST_CAPTAIN:
        new_round(s)
        n = narrow(s, s[S_CAPTAIN], captain_options(s))
        k = 0 if n == 1 else base_captain(s, fb, pol, s[S_CAPTAIN], n)
        o = s[S_OPT + k]
        place_captain(s, _opt_box(o), _opt_slot(o))
        base_finish_round(s, fb, pol, rng, 1)
    if s[S_PHASE] == FREE:
        new_round(s)
        base_finish_free(s, fb, pol, rng, 0)
    final_scoring(s, pol, rng)


@njit(cache=True)
def resample(s, seat, rng):
    """policies.resample: what ``seat`` cannot see, re-dealt from ``rng``."""
    P = s[S_P]
    hidden = s[S_RULES + R.hidden_hands] != 0
    n = 0
    if hidden:
        unseen_fish(s, seat)
        for c in range(5):
            k = s[S_UNSEEN + c]
            for q in range(P):
                if q != seat:
                    k -= s[_pl(q) + PL_KNOWN + c]
            for _ in range(k):
                s[S_POOL + n] = c
                n += 1
    else:
        for c in range(5):
            k = 0
            for i in range(s[S_IFP_N]):
                k += s[S_IFP + i] == c
            for i in range(s[S_SH_HEAD], s[S_SH_END]):
                k += s[S_SHOAL + i] == c
            for _ in range(k):
                s[S_POOL + n] = c
                n += 1
    rng_shuffle(rng, s, S_POOL, n)
    at = 0
    if hidden:
        for q in range(P):
            if q == seat:
                continue
            pb = _pl(q)
            unknown = 0
            for c in range(5):
                unknown += s[pb + PL_HAND + c] - s[pb + PL_KNOWN + c]
                s[pb + PL_HAND + c] = s[pb + PL_KNOWN + c]
            for _ in range(unknown):
                s[pb + PL_HAND + s[S_POOL + at]] += 1
                at += 1
    for i in range(s[S_IFP_N]):
        s[S_IFP + i] = s[S_POOL + at]
        at += 1
    for i in range(n - at):
        s[S_SHOAL + i] = s[S_POOL + at + i]
    s[S_SH_HEAD] = 0
    s[S_SH_END] = n - at
    m = 0
    for kind in range(7):
        if hidden:
            k = s[S_RULES + R.treasure_counts + kind] - s[S_TDISC + kind] \
                - s[_pl(seat) + PL_TR + kind]
        else:
            k = 0
            for i in range(s[S_TD_HEAD], s[S_TD_END]):
                k += s[S_TDECK + i] == kind
        for _ in range(k):
            s[S_POOL + m] = kind
            m += 1
    rng_shuffle(rng, s, S_POOL, m)
    at = 0
    if hidden:
        for q in range(P):
            if q == seat:
                continue
            pb = _pl(q)
            held = 0
            for kind in range(7):
                held += s[pb + PL_TR + kind]
                s[pb + PL_TR + kind] = 0
            for _ in range(held):
                s[pb + PL_TR + s[S_POOL + at]] += 1
                at += 1
    for i in range(m - at):
        s[S_TDECK + i] = s[S_POOL + at + i]
    s[S_TD_HEAD] = 0
    s[S_TD_END] = m - at


@njit(cache=True)
def playout(s, fb, seat, o, decision, word):
    """One game finished from here after option ``o``, every seat the base: its worth."""
    c = _padd(s, S_COPY)
    for i in range(S_GAME_END):
        c[i] = s[i]
    rng = as_words(_padd(s, S_RO_RNG))
    rng_seed(rng, np.uint64(word), np.uint64(0), np.uint64(0))
    resample(c, seat, rng)
    pp = _padd(fb, F_POPOL)
    cf = _padd(fb, F_COPY)
    for i in range(F_GAME):
        cf[i] = fb[i]
    box = _opt_box(o)
    slot = _opt_slot(o)
    if decision == 0:
        place_captain(c, box, slot)
        base_finish_round(c, cf, pp, rng, 1)
        base_play_on(c, cf, pp, rng)
    elif decision == 1:
        place(c, seat, box, slot)
        base_finish_round(c, cf, pp, rng, c[S_NPAWNS])
        base_play_on(c, cf, pp, rng)
    else:
        place(c, seat, box, slot)
        base_finish_free(c, cf, pp, rng, c[S_NPAWNS])
        final_scoring(c, pp, rng)
    win = _padd(fb, F_RO_WIN)
    winners(c, win)
    best_other = -(1 << 40)
    for q in range(c[S_P]):
        if q != seat:
            best_other = max(best_other, c[_pl(q) + PL_PV])
    return win[seat] + fb[F_RO_W + seat] * (c[_pl(seat) + PL_PV] - best_other)


@njit(cache=True)
def rollout_decide(s, fb, pol, rng, seat, n, decision):
    """RolloutPolicy.decide over the options at S_OPT (decision 0: D1, 1: D2, 2: D9): the
    base's values (``pol`` holds its row for ``seat``, S_CODE its code), its ``width`` best
    played out with every seat the base."""
    fresh(s)
    P = s[S_P]
    base = phi(s, pol, seat, seat, 0, 0, 0, -1)
    still = P - s[S_NPAWNS] - 1
    bonus = follow_bonus(s, pol, seat, still) if decision == 1 else 0.0
    for i in range(n):
        o = s[S_OPT + i]
        box = _opt_box(o)
        if decision == 0:
            v = action_value(s, fb, pol, seat, seat, base, box, _opt_slot(o), 1, P)
        else:
            k = s[S_BOX_N + box]
            v = action_value(s, fb, pol, seat, seat, base, box, _opt_slot(o), k + 1,
                             k + 1 + still)
            if decision == 1 and box == MUT:
                v = v + bonus
        fb[F_RO_VAL + i] = v
        s[S_RO_PICK + i] = 0
    width = min(s[S_RO_WIDTH + seat], n)
    top = -1  # the base's best option: the first of the largest values
    for _ in range(width):  # the largest values, ties to the earlier (a stable sort)
        best = -1
        for i in range(n):
            if s[S_RO_PICK + i] == 0 and (best < 0 or fb[F_RO_VAL + i] > fb[F_RO_VAL + best]):
                best = i
        s[S_RO_PICK + best] = 1
        if top < 0:
            top = best
    if width == 1:
        for i in range(n):
            if s[S_RO_PICK + i]:
                return i
    samples = s[S_RO_SAMPLES + seat]
    # the playouts' seats: the deciding seat's base, its code and row for every seat
    code = s[S_CODE + seat]
    for q in range(P):
        s[S_COPY + S_CODE + q] = code
        for j in range(PW):
            fb[F_POPOL + q * PW + j] = pol[seat * PW + j]
    own = _seat_rng(rng, seat)
    for j in range(samples):
        s[S_RO_WORDS + j] = np.int64(rng_next(own))
    best = -1
    best_v = 0.0
    for i in range(n):
        if s[S_RO_PICK + i] == 0:
            continue
        total = fb[F_RO_PRIOR + seat] * samples if i == top else 0.0
        for j in range(samples):
            total += playout(s, fb, seat, s[S_OPT + i], decision, s[S_RO_WORDS + j])
        if best < 0 or total > best_v + TOL:
            best = i
            best_v = total
    return best


# ================================================================ the end (spec §5)


@njit(cache=True)
def final_scoring(s, pol, rng):
    P = s[S_P]
    floor = s[S_RULES + R.pv_floor] == 1
    for seat in range(P):
        pb = _pl(seat)
        s[pb + PL_ENDM] = s[pb + PL_MONEY]
        if s[S_RULES + R.final_market_sales] != 0:
            for _ in range(s[pb + PL_TR + T_MARKET]):
                if offer_sale(s, pol, rng, seat, 0, 6, True):
                    discard_treasure(s, seat, T_MARKET)
        s[pb + PL_PV] += TWO_PV * s[pb + PL_TR + T_2PV]
        s[pb + PL_MONEY] += TWO_MONEY * s[pb + PL_TR + T_2MONEY]
        fish = s[pb + PL_TR + T_FISH] + s[pb + PL_TR + T_JOKER]
        for c in range(5):
            fish += s[pb + PL_HAND + c]
        s[pb + PL_MONEY] += FINAL_FISH_PRICE * fish
        for _ in range(s[pb + PL_TR + T_4PV_FOR_4]):
            if s[pb + PL_MONEY] >= FOUR_PV_PRICE:
                s[pb + PL_MONEY] -= FOUR_PV_PRICE
                s[pb + PL_PV] += FOUR_PV_GAIN
        money = s[pb + PL_MONEY]
        s[pb + PL_PV] += money // 2
        s[pb + PL_LEFT] = money % 2
        s[pb + PL_PV] -= s[pb + PL_ICE]
        if floor:
            s[pb + PL_PV] = max(0, s[pb + PL_PV])


@njit(cache=True)
def winners(s, out_win):
    """Win shares into out_win[0:P] (reference.winners); the number tied on top."""
    P = s[S_P]
    best = s[_pl(0) + PL_PV]
    for p in range(1, P):
        best = max(best, s[_pl(p) + PL_PV])
    tied = 0
    coin = 0
    for p in range(P):
        if s[_pl(p) + PL_PV] == best:
            tied += 1
            if s[_pl(p) + PL_LEFT] == 1:
                coin += 1
    rule = s[S_RULES + R.final_tiebreak]
    use_coin = rule != 2 and coin > 0
    fewest = 1 << 40
    if rule == 1:
        for p in range(P):
            if s[_pl(p) + PL_PV] == best and (not use_coin or s[_pl(p) + PL_LEFT] == 1):
                fewest = min(fewest, s[_pl(p) + PL_ICE])
    k = 0
    for p in range(P):
        win = s[_pl(p) + PL_PV] == best and (not use_coin or s[_pl(p) + PL_LEFT] == 1) and (
            rule != 1 or s[_pl(p) + PL_ICE] == fewest)
        out_win[p] = 1.0 if win else 0.0
        if win:
            k += 1
    for p in range(P):
        if out_win[p] != 0.0:
            out_win[p] = 1.0 / k
    return tied


@njit(cache=True)
def leader(s):
    """reference.leader of the PV track: the one seat with the most PV; -1 when shared."""
    best = s[_pl(0) + PL_PV]
    who = 0
    for p in range(1, s[S_P]):
        v = s[_pl(p) + PL_PV]
        if v > best:
            best = v
            who = p
        elif v == best:
            who = -1
    return who


# ================================================================ one game, many games


@njit(cache=True)
def play_one(ints, floats, rng, g, f, pol, P, seed, game, cap, out):
    """Game ``game`` of ``seed`` (the ``engines._fast`` contract); its row to out[0:17 + (7 + N_CHOICES)P]."""
    s = ints
    fb = floats
    gp = _padd(fb, F_GPOL)  # the seats' rows, a rollout seat's its base's (setup_block)
    setup(s, rng, P)
    while s[S_PHASE] == NORMAL or s[S_PHASE] == LAST_CAPTAIN:
        play_round(s, fb, gp, rng)
        s[S_LEAD + s[S_ROUND] - 1] = leader(s)
    play_free_round(s, fb, gp, rng)
    final_scoring(s, gp, rng)
    rounds = s[S_ROUND]
    s[S_LEAD + rounds - 1] = leader(s)  # the free round's standing is the final PV
    out[0] = game
    out[1] = P
    c = 2
    for p in range(P):
        out[c + p] = s[_pl(p) + PL_PV]
    c += P
    tied = winners(s, _padd(out, c))
    c += P
    for field in (PL_CAPR, PL_ENDM, PL_ICE, PL_SALES, PL_MUT):
        for p in range(P):
            out[c + p] = s[_pl(p) + field]
        c += P
    out[c] = s[S_ROUND]
    out[c + 1] = s[S_NORMAL]
    out[c + 2] = s[S_MUTINIES]
    out[c + 3] = s[S_MUT_ACTIONS]
    out[c + 4] = s[S_TRUNCATED]
    out[c + 5] = s[S_RULES + R.first_captain_seat]
    out[c + 6] = tied
    c += 7
    for b in range(6):
        out[c + b] = s[S_CHOICES + b]
    c += 6
    changes, half = lead_story_at(s, S_LEAD, rounds)
    out[c] = changes
    out[c + 1] = half
    c += 2
    for k in range(N_CHOICES):  # took_<choice>_<seat>, by choice then seat
        for p in range(P):
            out[c + p] = s[S_TOOK + p * N_CHOICES + k]
        c += P
    return True


@njit(cache=True)
def setup_block(ints, floats, g, f, pol, P, cap):
    """Once per block: the rules, icons, gift order, seats' policies, chances; memo cleared."""
    s = ints
    for i in range(R.SIZE):
        s[S_RULES + i] = g[i]
    for c in range(5):
        if g[R.fish_icons_rule] == 0:
            s[S_ICONS + c] = g[R.fish_prices + 2 * c]
        else:
            s[S_ICONS + c] = g[R.fish_icons + c]
    n = 0
    for kind in range(4):
        pv = g[R.gift_thresholds + kind]
        if pv:
            j = n
            while j > 0 and s[S_GIFT_PV + j - 1] > pv:
                s[S_GIFT_PV + j] = s[S_GIFT_PV + j - 1]
                s[S_GIFT_KIND + j] = s[S_GIFT_KIND + j - 1]
                j -= 1
            s[S_GIFT_PV + j] = pv
            s[S_GIFT_KIND + j] = kind
            n += 1
    s[S_GIFT_N] = n
    for p in range(P):
        code = int(pol[p * PW])
        s[S_CODE + p] = code
        s[S_SLACK + p] = int(pol[p * PW + PLANNER_AT.ice_target_slack]) if code == PLANNER else 0
        # the seat's restriction, from its own row (never a rollout's base row): the playout
        # state's copy of these tables carries it into every playout
        s[S_FORBID + p] = int(pol[p * PW + FORBID_COLUMN])
        s[S_FORCE + p] = int(pol[p * PW + FORCE_COLUMN])
    mode = g[R.treasure_roll_mode]
    for k in range(5):
        threshold = g[R.treasure_thresholds + k]
        hits = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if mode == 0:
                    found = a > threshold
                elif mode == 1:
                    found = max(a, b) > threshold
                else:
                    found = a + b > 2 * threshold
                if found:
                    hits += 1
        floats[F_CHANCE + k] = hits / 36.0
    for i in range(CACHE_N):
        s[S_CACHE + i] = -1
    s[S_GEN] = 0
    for i in range(MAX_P):
        s[S_BLIND_KEY + i] = -1
    for i in range(MAX_P * MAX_DISPLAY):
        s[S_DISP_KEY + i] = -1
    # rollout: its parameters (samples > 0 marks the seat a rollout), its base's code and
    # row (pol's row P + p) for its own valuations and other decisions, and the playout
    # state's copy of the per-block tables (its seats' codes set by each rollout_decide)
    for p in range(P):
        code = int(pol[p * PW])
        rollout = code == ROLLOUT
        s[S_RO_SAMPLES + p] = int(pol[p * PW + ROLLOUT_AT.samples]) if rollout else 0
        s[S_RO_WIDTH + p] = int(pol[p * PW + ROLLOUT_AT.width]) if rollout else 0
        floats[F_RO_W + p] = pol[p * PW + ROLLOUT_AT.score_weight] if rollout else 0.0
        floats[F_RO_PRIOR + p] = pol[p * PW + ROLLOUT_AT.prior] if rollout else 0.0
        row = (P + p) * PW if rollout else p * PW
        if rollout:
            s[S_CODE + p] = int(pol[row])
        for j in range(PW):
            floats[F_GPOL + p * PW + j] = pol[row + j]
    for i in range(S_GAME_END, S_SIZE):
        s[S_COPY + i] = s[i]
    for p in range(P):
        s[S_COPY + S_SLACK + p] = 0
        s[S_COPY + S_RO_SAMPLES + p] = 0


def sizes(g: np.ndarray, players: int, cap: int) -> tuple[int, int]:
    """The state with the per-block tables and scratch, the rollout's playout state and
    scratch, the leaders of at most max_rounds + 2 rounds, and the policies' floats."""
    return N_INT + int(g[R.max_rounds]) + 2, F_SIZE


FAST = fast_path(__name__, play_one, sizes, setup_block=setup_block)
