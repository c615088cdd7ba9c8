"""Rum & Pirates, the Numba fast path: the same games as ``reference.py``, draw for draw.

A whole game lives in ONE int64 buffer ``s`` (the game state at the offsets
``S_*`` below ``S_GAME_END``: scalars and counters, the eleven stacks, the
displays, the assembled board with its owners, the mast and the players'
blocks at ``S_PL``), followed by what a block sets once (``setup_block``: the
rules vector at ``S_RULES``, read as ``s[S_RULES + R.<option>]``, and each
seat's policy code) and by scratch (options of a decision, a pub's matching
tiles, a bunk column). A rollout decision copies the state to a second area of
the same layout (``S_COPY``) and plays on from there with the playout drivers
(``*_playout`` below: greedy or heuristic decisions by each row's code), which
never reach a rollout decision: no recursion.

The float buffer ``fb`` holds the host's exact sting chance per player count
and threshold (``F_Q0``, spec 8.4), a decision's per-corner-class values, and
the seats' policy rows: ``F_POL`` (a rollout seat's row is its base policy's row,
row P + p of the encoded policies: greedy's defaults or the expert's heuristic
row, with the rollout's ``reroll_can_win``: what it ranks its moves by and plays
outside D1/D2; a heuristic row holds the coin, rum and rendezvous worth of the
current round, rewritten from ``F_HBASE`` at every round start) and
``F_POPOL`` (a playout's: every seat the deciding seat's base row as declared,
``F_PBASE``, at the playout's round). A playout has its own copy of the float
scratch at ``F_COPY``.

The heuristic (``policies.HeuristicPolicy``) is greedy's row plus feature
weights: greedy's every decision reads its row where it reads greedy's, and
its D1 / D2 add the features to greedy's net (``heur_move``), from every corner class's
value at once (``all_class_values``) and the seat's guard value by hand (``guard_table``);
values that change only with parts of the state (supplies, maps, pubs, guards) are kept per
seat with what they were computed from (``F_SUP`` ...).

Replay contract (``READINGS.md`` beside this file, spec §4, §8.2): the world stream
(rng words 0-3) draws the layout (unless the ``layout`` option fixes it), then
shuffles the eleven stacks in ``data.STACKS`` order, then every die roll in
event order. Seat ``p``'s stream (``offset(rng, 4 * (1 + p))``) makes the
random policy's choices, one ``below(n)`` per decision with n >= 2 options in
the option order of spec §8.2, and the rollout's words.
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
from engines.rum_and_pirates import ACTION_CHOICE, CHOICES, POLICIES, data
from engines.rum_and_pirates.rules import R

TOL = 1e-9
PW = POLICY_WIDTH
RANDOM = POLICIES["random"].slots().CODE
GREEDY_AT = POLICIES["greedy"].slots()
ROLLOUT_AT = POLICIES["rollout"].slots()
HEUR_AT = POLICIES["heuristic"].slots()
GREEDY = GREEDY_AT.CODE
ROLLOUT = ROLLOUT_AT.CODE
HEUR = HEUR_AT.CODE
# the heuristic's row starts with greedy's row: every greedy read of G_* serves it too
assert all(getattr(HEUR_AT, p.name) == getattr(GREEDY_AT, p.name)
           for p in POLICIES["greedy"].params)
H_DENY = HEUR_AT.w_deny
H_CONT = HEUR_AT.w_cont
H_BUNKB = HEUR_AT.w_bunk_boarded
H_BUNKA = HEUR_AT.w_bunk_active
H_COINR = HEUR_AT.coin_round
H_COINL = HEUR_AT.coin_last
H_RUML = HEUR_AT.rum_last
H_RDVR = HEUR_AT.rdv_round
H_MAPODD = HEUR_AT.map_odd
H_TAUB = HEUR_AT.tau_boarded
G_WCOIN = GREEDY_AT.w_coin
G_WRUM = GREEDY_AT.w_rum
G_WHAND = GREEDY_AT.w_hand
G_TAU = GREEDY_AT.tau
G_PRDV = GREEDY_AT.p_rdv
G_WREC = GREEDY_AT.w_recruit
G_SHARE = GREEDY_AT.pub_join_share
G_RCW = GREEDY_AT.reroll_can_win
_GREEDY_PARAMS = [float(p.default) for p in POLICIES["greedy"].params]
GREEDY_ROW = tuple([float(GREEDY), *_GREEDY_PARAMS] + [0.0] * (PW - 1 - len(_GREEDY_PARAMS)))
MAX_SAMPLES = 256

# ---------------------------------------------------------------- the fixed tables (data.py)
COIN, HQ, PIRATE, SUPPLIES, RENDEZVOUS, MAP, PUB, CHEST, RUM, GUARD = range(10)
HQ_CORNER = data.HQ_CORNER
NR = data.N_ROADS
ND = data.N_DARKS
NC = data.N_CORNERS
ACTION = np.array(data.CORNER_ACTION, dtype=np.int64)
COLOUR = np.array(data.CORNER_COLOUR, dtype=np.int64)
CTILE = np.array(data.CORNER_TILE, dtype=np.int64)
COIN_CORNER = np.array(data.COIN_CORNER_OF_TILE, dtype=np.int64)
_IR = np.array([[t, data.cid(t, a), data.cid(t, b), s] for t, a, b, s in data.INTERNAL_ROADS],
               dtype=np.int64)
IR_U = _IR[:, 1].copy()
IR_V = _IR[:, 2].copy()
IR_S = _IR[:, 3].copy()
IR_START = np.array([0] + [int(np.flatnonzero(_IR[:, 0] == t)[0]) for t in range(1, 10)],
                    dtype=np.int64)
IR_N = np.array([0] + [int((_IR[:, 0] == t).sum()) for t in range(1, 10)], dtype=np.int64)
PORT_C = np.array([data.port(t, k)[0] for t in range(1, 10) for k in range(8)], dtype=np.int64)
PORT_S = np.array([data.port(t, k)[1] for t in range(1, 10) for k in range(8)], dtype=np.int64)

# corner classes: what a greedy value depends on (the action, and the colour of maps/pubs)
CL_COIN, CL_HQ, CL_PIRATE, CL_SUP, CL_RDV, CL_MAP_R, CL_MAP_G, CL_MAP_Y, CL_PUB_R, CL_PUB_B, \
    CL_PUB_G, CL_CHEST, CL_RUM, CL_GUARD = range(14)
N_CL = 14


def _class(corner):
    a, c = data.CORNERS[corner]
    if a == data.MAP:
        return {data.RED: CL_MAP_R, data.GREEN: CL_MAP_G, data.YELLOW: CL_MAP_Y}[c]
    if a == data.PUB:
        return {data.RED: CL_PUB_R, data.BLUE: CL_PUB_B, data.GREEN: CL_PUB_G}[c]
    return {data.COIN: CL_COIN, data.HQ: CL_HQ, data.PIRATE: CL_PIRATE,
            data.SUPPLIES: CL_SUP, data.RENDEZVOUS: CL_RDV, data.CHEST: CL_CHEST,
            data.RUM: CL_RUM, data.GUARD: CL_GUARD}[a]


CLASS = np.array([_class(c) for c in range(NC)], dtype=np.int64)
# rendezvous target -> the classes it matches; its VP
RDV_VP = np.array([t[3] for t in data.RDV_TARGETS], dtype=np.int64)
_RM = np.zeros((9, N_CL), dtype=np.int64)
for _t in range(9):
    for _c in range(NC):
        if data.rdv_matches(_t, _c):
            _RM[_t, CLASS[_c]] = 1
RDV_MATCH = _RM.ravel().copy()
RDV_CMASK = np.array([sum(1 << c for c in range(N_CL) if _RM[t, c]) for t in range(9)],
                     dtype=np.int64)   # target -> the classes it matches, as bits
N_RDV_TILES = 18
RDV_MEAN = data.RDV_MEAN_VALUE

# the stacks, in data.STACKS order, as the arrays the shuffles start from
ST_PUBS, ST_MAPS, ST_CHESTS, ST_SCORPS, ST_BIG, ST_SMALL, ST_SUP, ST_RDV, ST_BUNK, ST_HAMMOCK, \
    ST_BEDROLL = range(11)
_INIT = data.initial_stacks()
STK_SIZE = np.array([len(_INIT[k]) for k in data.STACKS], dtype=np.int64)
STK_OFF = np.array([0] + list(np.cumsum(STK_SIZE)[:-1]), dtype=np.int64)
STK_INIT = np.array([x for k in data.STACKS for x in _INIT[k]], dtype=np.int64)
STK_TOTAL = int(STK_SIZE.sum())
# supplies by 4-bit masks (bit b = value b + 2): the sum of the values present; the best one
SUP_SUM4 = np.array([sum(b + 2 for b in range(4) if m >> b & 1) for m in range(16)],
                    dtype=np.int64)
SUP_BEST4 = np.array([max([b + 2 for b in range(4) if m >> b & 1], default=0)
                      for m in range(16)], dtype=np.int64)
MAP_COL_IDX = np.array([0, -1, 1, 2], dtype=np.int64)   # map colour code -> 0..2 (red green yellow)
SUP_CODES = np.array(_INIT["supplies"], dtype=np.int64)   # ascending: bit i of a mask = code i

# restricted play: the declared choices' bits (__init__.CHOICES), a road move's by the action
# of the corner it reaches (reference.option_kind)
N_CHOICES = len(CHOICES)
_KIND = {c.name: i for i, c in enumerate(CHOICES)}
ACTION_KIND = np.array([_KIND[name] for name in ACTION_CHOICE], dtype=np.int64)
K_DARK = _KIND["dark_road"]
K_REST = _KIND["rest"]
K_BOARD = _KIND["board"]
K_REROLL = _KIND["reroll"]
K_JOIN = _KIND["pub_join"]
NO_KIND = -1

# option codes of D1/D2 (moves are a road id, or 64 + 24 x + y)
O_DARK = NR
O_REST = 10000
O_BOARD = 10001
O_STOP = 10002
MAX_OPT = 80

MAX_P = 5
MAX_HAND = 16   # hands 0-15 (data.PIRATES_PER_PLAYER pirates a player)
assert data.PIRATES_PER_PLAYER < MAX_HAND

# ---------------------------------------------------------------- a player's block
PL_HAND = 0
PL_RESERVE = 1
PL_COINS = 2
PL_RUM = 3
PL_BOARDED = 4
PL_MAST = 5
PL_VP_PUBS = 6
PL_VP_CHESTS = 7
PL_N_SCORP = 8
PL_VP_GUARDS = 9
PL_VP_SLEEP = 10
PL_N_SLEEP = 11
PL_N_PUBS = 12
PL_N_MAPS = 13
PL_SUP_KEPT = 14           # bit i: SUP_CODES[i] kept
PL_SUP_DRAWN = 15          # bit i: SUP_CODES[i] drawn by this player (kept or sold)
PL_N_RDV = 16
PL_RDV = 17                # 18: targets in holding order
PL_RDVF = PL_RDV + N_RDV_TILES   # 18: fulfilled flags
PL_MAPS = PL_RDVF + N_RDV_TILES  # 12: map counts, colour index x (value - 3)
PL_SIZE = PL_MAPS + 12


def _layout(fields):
    at = 0
    out = {}
    for name, n in fields:
        out[name] = at
        at += n
    return out, at


_S, _S_GAME_END = _layout([
    ("P", 1), ("ROUND", 1), ("CAPTAIN", 1), ("CUR", 1), ("RTURNS", 1), ("COIN_BANK", 1),
    ("RUM_BANK", 1), ("CHEST", 1), ("SCORP", 1), ("FAIL", 1), ("NROWS", 1), ("SLEEP_UP", 3),
    # counters (outcome columns)
    ("TURNS", 1), ("TURNS_R", 5), ("MAXRT", 1), ("MOVES", 1), ("DARKM", 1), ("FORCED", 1),
    ("RESTS", 1), ("DEADEND", 1), ("HQV", 1), ("RECRUITS", 1), ("SCONT", 1), ("ROLLS", 1),
    ("REROLLS", 1), ("BREROLLS", 1), ("BHOPE", 1), ("CAGAIN", 1), ("CDARK", 1), ("CREST", 1),
    ("PUBFEES", 1), ("TOOK", N_CHOICES * MAX_P),
    ("STK", STK_TOTAL), ("STKN", 11),
    ("PUBD", 4), ("NPUBD", 1), ("MAPD", 4), ("NMAPD", 1),
    ("LAYOUT", 18), ("RU", NR), ("RV", NR), ("RL", NR), ("DC", ND), ("DL", ND), ("DPOS", ND),
    ("DG", ND), ("CR", NC * 5), ("NCR", NC), ("CRF", NC * 5), ("CD", NC * 3), ("NCD", NC),
    ("ROWN", NR), ("DOWN", ND), ("DPART", ND),
    ("ROWS", MAX_P),
    ("PL", MAX_P * PL_SIZE),
])
S_P = _S["P"]
S_ROUND = _S["ROUND"]
S_CAPTAIN = _S["CAPTAIN"]
S_CUR = _S["CUR"]
S_RTURNS = _S["RTURNS"]
S_COIN_BANK = _S["COIN_BANK"]
S_RUM_BANK = _S["RUM_BANK"]
S_CHEST = _S["CHEST"]
S_SCORP = _S["SCORP"]
S_FAIL = _S["FAIL"]
S_NROWS = _S["NROWS"]
S_SLEEP_UP = _S["SLEEP_UP"]
S_TURNS = _S["TURNS"]
S_TURNS_R = _S["TURNS_R"]
S_MAXRT = _S["MAXRT"]
S_MOVES = _S["MOVES"]
S_DARKM = _S["DARKM"]
S_FORCED = _S["FORCED"]
S_RESTS = _S["RESTS"]
S_DEADEND = _S["DEADEND"]
S_HQV = _S["HQV"]
S_RECRUITS = _S["RECRUITS"]
S_SCONT = _S["SCONT"]
S_ROLLS = _S["ROLLS"]
S_REROLLS = _S["REROLLS"]
S_BREROLLS = _S["BREROLLS"]
S_BHOPE = _S["BHOPE"]
S_CAGAIN = _S["CAGAIN"]
S_CDARK = _S["CDARK"]
S_CREST = _S["CREST"]
S_PUBFEES = _S["PUBFEES"]
S_TOOK = _S["TOOK"]       # choice k, seat p at k * MAX_P + p: the options of kind k p took
S_STK = _S["STK"]
S_STKN = _S["STKN"]
S_PUBD = _S["PUBD"]
S_NPUBD = _S["NPUBD"]
S_MAPD = _S["MAPD"]
S_NMAPD = _S["NMAPD"]
S_LAYOUT = _S["LAYOUT"]
S_RU = _S["RU"]
S_RV = _S["RV"]
S_RL = _S["RL"]
S_DC = _S["DC"]
S_DL = _S["DL"]
S_DPOS = _S["DPOS"]
S_DG = _S["DG"]
S_CR = _S["CR"]
S_NCR = _S["NCR"]
S_CRF = _S["CRF"]     # the far corner of each road in S_CR (same slots)
S_CD = _S["CD"]
S_NCD = _S["NCD"]
S_ROWN = _S["ROWN"]
S_DOWN = _S["DOWN"]
S_DPART = _S["DPART"]
S_ROWS = _S["ROWS"]
S_PL = _S["PL"]
S_GAME_END = _S_GAME_END

# per block (setup_block), then scratch: the same layout in a playout's copy
_B, _S_SIZE = _layout([
    ("RULES", R.SIZE), ("CODE", MAX_P), ("FORBID", MAX_P), ("FORCE", MAX_P),
    ("RO_SAMPLES", MAX_P), ("RO_WIDTH", MAX_P),
    ("RO_HORIZON", MAX_P),
    ("OPT", MAX_OPT), ("OCOST", MAX_OPT), ("OCOIN", MAX_OPT), ("FORCEDF", 1),
    ("M", 12), ("NM", 1), ("PART", MAX_P), ("ELIG", 12),
    ("BC", MAX_P), ("BV", MAX_P), ("BR", MAX_P), ("ALIVE", MAX_P), ("CNT", MAX_P),
    ("CROSS", MAX_P), ("LAST", MAX_P), ("PSTART", MAX_P), ("OUT", MAX_P), ("ELIM", MAX_P),
    ("GSTART", MAX_P + 1), ("RANK", MAX_P), ("TMP", 16), ("PC", 72), ("PS", 72),
    ("POOL", 24), ("CVOK", N_CL), ("TIED", MAX_P), ("LEAD", 5),
    ("DSTAMP", 1), ("ODEST", MAX_OPT), ("HQC", 8),
])
S_RULES = S_GAME_END + _B["RULES"]
S_CODE = S_GAME_END + _B["CODE"]
S_FORBID = S_GAME_END + _B["FORBID"]   # each seat's restriction, from its own row
S_FORCE = S_GAME_END + _B["FORCE"]
S_RO_SAMPLES = S_GAME_END + _B["RO_SAMPLES"]
S_RO_WIDTH = S_GAME_END + _B["RO_WIDTH"]
S_RO_HORIZON = S_GAME_END + _B["RO_HORIZON"]
S_OPT = S_GAME_END + _B["OPT"]
S_OCOST = S_GAME_END + _B["OCOST"]
S_OCOIN = S_GAME_END + _B["OCOIN"]
S_FORCEDF = S_GAME_END + _B["FORCEDF"]
S_M = S_GAME_END + _B["M"]
S_NM = S_GAME_END + _B["NM"]
S_PART = S_GAME_END + _B["PART"]
S_ELIG = S_GAME_END + _B["ELIG"]
S_BC = S_GAME_END + _B["BC"]
S_BV = S_GAME_END + _B["BV"]
S_BR = S_GAME_END + _B["BR"]
S_ALIVE = S_GAME_END + _B["ALIVE"]
S_CNT = S_GAME_END + _B["CNT"]
S_CROSS = S_GAME_END + _B["CROSS"]
S_LAST = S_GAME_END + _B["LAST"]
S_PSTART = S_GAME_END + _B["PSTART"]
S_OUT = S_GAME_END + _B["OUT"]
S_ELIM = S_GAME_END + _B["ELIM"]
S_GSTART = S_GAME_END + _B["GSTART"]
S_RANK = S_GAME_END + _B["RANK"]
S_TMP = S_GAME_END + _B["TMP"]
S_PC = S_GAME_END + _B["PC"]
S_PS = S_GAME_END + _B["PS"]
S_POOL = S_GAME_END + _B["POOL"]
S_CVOK = S_GAME_END + _B["CVOK"]
S_TIED = S_GAME_END + _B["TIED"]
S_LEAD = S_GAME_END + _B["LEAD"]    # the leader after each round (reference.leader)
# a D1/D2 decision's number (prep_values): S_CVOK and S_HQC hold the number of the decision
# they were computed for, so a new decision starts without clearing them
S_DSTAMP = S_GAME_END + _B["DSTAMP"]
S_ODEST = S_GAME_END + _B["ODEST"]   # the destination corner of each move at S_OPT
# hq_best's part that does not depend on the move (hq_own): decision number, seat, longest own
# road, the two longest own dark halves and their count, the longest own pair
S_HQC = S_GAME_END + _B["HQC"]
S_SIZE = S_GAME_END + _S_SIZE

# after the state: a playout's copy (same layout), then the rollout's own scratch
S_COPY = S_SIZE
S_RO_PICK = 2 * S_SIZE               # 2 x MAX_OPT: picked moves, then the candidates
S_RO_WORDS = S_RO_PICK + 2 * MAX_OPT  # MAX_SAMPLES: the playouts' seeds
S_RO_RNG = S_RO_WORDS + MAX_SAMPLES  # 4: a playout's world stream
S_RO_DEALT = S_RO_RNG + 4             # 4: that stream just after a sample's re-deal
S_SAMPLE = S_RO_DEALT + 4             # S_SIZE: a sample's re-dealt state (same layout)
N_INT = S_SAMPLE + S_SIZE
# the board (layout, roads, dark halves, corner tables) is set up once a game and never
# changes: a decision copies it once, its playouts only the rest of the state
S_BOARD_LO = S_LAYOUT
S_BOARD_HI = S_ROWN

# ---------------------------------------------------------------- floats
F_Q0 = 0                    # 6 x 22: host's sting chance by (players, threshold)
F_CV = F_Q0 + 6 * 22        # N_CL: a decision's value of each corner class
F_RB = F_CV + N_CL          # N_CL: the open rendezvous a class would fulfil (its VP)
F_NET = F_RB + N_CL         # MAX_OPT: nets of a decision's moves (the rollout's)
F_SCR = F_NET + MAX_OPT     # 8: misc
# a seat's values that outlive a decision, each with what it was computed from (its key; -1:
# none, memo_reset): the SUPPLIES value (value, kept and drawn masks, w_coin: sup_value);
# the MAP values (display, own maps, w_coin, 3 values: map_values); the PUB values (display
# and who is active, w_coin, 3 values: pub_values); the GUARD value by hand (both guard
# stacks, w_coin, hands 0-15: guard_table)
F_SUP = F_SCR + 8           # 3 x MAX_P
F_MAPM = F_SUP + 3 * MAX_P  # 6 a seat
F_PUBM = F_MAPM + 6 * MAX_P  # 5 a seat
F_GVM = F_PUBM + 5 * MAX_P  # 19 a seat
F_HALF = F_GVM + 19 * MAX_P  # the floats above are a state's own; a playout has a copy
F_COPY = F_HALF
F_POL = 2 * F_HALF          # MAX_P x PW: the seats' rows (a rollout seat's: its base's)
F_POPOL = F_POL + MAX_P * PW  # MAX_P x PW: a playout's rows (every seat the searcher's base)
F_RO_SUM = F_POPOL + MAX_P * PW  # MAX_OPT: a rollout's sums per candidate
F_HBASE = F_RO_SUM + MAX_OPT  # MAX_P x PW: the seats' declared rows (a heuristic's F_POL row
#                                holds its weights of the current round: heur_round_weights)
F_PBASE = F_HBASE + MAX_P * PW  # MAX_P x PW: a rollout seat's base row as declared (playouts)
F_SIZE = F_PBASE + MAX_P * PW


# ================================================================ small helpers


@njit(cache=True, inline="always")
def _pl(p):
    return S_PL + p * PL_SIZE


@njit(cache=True, inline="always")
def _seat_rng(rng, seat):
    return _padd(rng, 4 * (1 + seat))


@njit(cache=True, inline="always")
def _rule(s, k):
    return s[S_RULES + k]


@njit(cache=True, inline="always")
def st_n(s, k):
    return s[S_STKN + k]


@njit(cache=True, inline="always")
def st_top(s, k):
    return s[S_STK + STK_OFF[k] + s[S_STKN + k] - 1]


@njit(cache=True, inline="always")
def st_pop(s, k):
    n = s[S_STKN + k] - 1
    s[S_STKN + k] = n
    return s[S_STK + STK_OFF[k] + n]


@njit(cache=True)
def st_under(s, k, v):
    """Put tile ``v`` under stack ``k`` (index 0)."""
    base = S_STK + STK_OFF[k]
    n = s[S_STKN + k]
    for i in range(n, 0, -1):
        s[base + i] = s[base + i - 1]
    s[base] = v
    s[S_STKN + k] = n + 1


@njit(cache=True, inline="always")
def dice(s, rng):
    s[S_ROLLS] += 1
    return 1 + rng_below(rng, 6)


@njit(cache=True, inline="always")
def gain_coins(s, p, n):
    if s[S_RULES + R.coin_supply] >= 0:
        n = min(n, s[S_COIN_BANK])
        s[S_COIN_BANK] -= n
    s[_pl(p) + PL_COINS] += n


@njit(cache=True, inline="always")
def pay_coins(s, p, n):
    s[_pl(p) + PL_COINS] -= n
    s[S_COIN_BANK] += n


@njit(cache=True, inline="always")
def gain_rum(s, p, n):
    if s[S_RULES + R.rum_supply] >= 0:
        n = min(n, s[S_RUM_BANK])
        s[S_RUM_BANK] -= n
    s[_pl(p) + PL_RUM] += n


@njit(cache=True, inline="always")
def is_active(s, p):
    pb = _pl(p)
    if s[pb + PL_BOARDED]:
        return False
    if s[pb + PL_HAND] >= 1:
        return True
    return s[S_RULES + R.zero_hand_may_rest] != 0 and s[pb + PL_COINS] >= s[S_RULES + R.rest_coin]


@njit(cache=True, inline="always")
def took(s, p, k):
    """Seat ``p`` took an option of choice ``k`` (nothing for NO_KIND)."""
    if k != NO_KIND:
        s[S_TOOK + k * MAX_P + p] += 1


@njit(cache=True, inline="always")
def must_say(s, p, k):
    """A yes/no decision of ``p`` whose yes is of choice ``k`` (D7, D9): 1 its restriction
    says yes, 0 no, -1 it chooses (reference.choose_yes)."""
    return kept_binary_fast(k, s[S_FORBID + p], s[S_FORCE + p])


@njit(cache=True, inline="always")
def ask(s, rng, p, n):
    """A random seat's choice among n >= 2 options (one draw), or -1 for a non-random seat."""
    if s[S_CODE + p] == RANDOM:
        return rng_below(_seat_rng(rng, p), n)
    return -1


# ================================================================ the board (spec §3.6, §3.7)


@njit(cache=True)
def gen_layout(s, rng):
    """data.generate_layout into s[S_LAYOUT:+18] (tile, rot by position)."""
    t = S_TMP
    if s[S_RULES + R.hq_tile_position] == 1:
        for i in range(8):
            s[t + i] = i + 2
        rng_shuffle(rng, s, t, 8)
        for i in range(4):
            s[S_LAYOUT + 2 * i] = s[t + i]
        s[S_LAYOUT + 8] = 1
        for i in range(4, 8):
            s[S_LAYOUT + 2 * (i + 1)] = s[t + i]
    else:
        for i in range(9):
            s[t + i] = i + 1
        rng_shuffle(rng, s, t, 9)
        for i in range(9):
            s[S_LAYOUT + 2 * i] = s[t + i]
    turn = s[S_RULES + R.tile_rotation] == 0
    for i in range(9):
        s[S_LAYOUT + 2 * i + 1] = rng_below(rng, 4) if turn else 0


@njit(cache=True)
def assemble(s):
    """data.assemble on s[S_LAYOUT]: roads and dark halves in id order, each corner's lists."""
    nr = 0
    for pos in range(9):
        t = s[S_LAYOUT + 2 * pos]
        rot = s[S_LAYOUT + 2 * pos + 1]
        for i in range(IR_START[t], IR_START[t] + IR_N[t]):
            s[S_RU + nr] = IR_U[i]
            s[S_RV + nr] = IR_V[i]
            s[S_RL + nr] = IR_S[i]
            nr += 1
        for k in range(8):
            g = (k + 2 * rot) % 8
            s[S_PC + pos * 8 + g] = PORT_C[(t - 1) * 8 + k]
            s[S_PS + pos * 8 + g] = PORT_S[(t - 1) * 8 + k]
    nd = 0
    for pos in range(9):
        row = pos // 3
        col = pos % 3
        for g in range(8):
            c = s[S_PC + pos * 8 + g]
            sp = s[S_PS + pos * 8 + g]
            if (g == 2 or g == 3) and col < 2:
                q = (pos + 1) * 8 + 9 - g
                s[S_RU + nr] = c
                s[S_RV + nr] = s[S_PC + q]
                s[S_RL + nr] = sp + 1 + s[S_PS + q]
                nr += 1
            elif (g == 6 or g == 7) and col > 0:
                pass
            elif (g == 4 or g == 5) and row < 2:
                q = (pos + 3) * 8 + 5 - g
                s[S_RU + nr] = c
                s[S_RV + nr] = s[S_PC + q]
                s[S_RL + nr] = sp + 1 + s[S_PS + q]
                nr += 1
            elif (g == 0 or g == 1) and row > 0:
                pass
            else:
                s[S_DC + nd] = c
                s[S_DL + nd] = sp + 1
                s[S_DPOS + nd] = pos
                s[S_DG + nd] = g
                nd += 1
    for c in range(NC):
        s[S_NCR + c] = 0
        s[S_NCD + c] = 0
    for r in range(NR):
        u = s[S_RU + r]
        v = s[S_RV + r]
        s[S_CR + u * 5 + s[S_NCR + u]] = r
        s[S_NCR + u] += 1
        s[S_CR + v * 5 + s[S_NCR + v]] = r
        s[S_NCR + v] += 1
    for d in range(ND):
        c = s[S_DC + d]
        s[S_CD + c * 3 + s[S_NCD + c]] = d
        s[S_NCD + c] += 1
    for c in range(NC):
        for k in range(s[S_NCR + c]):
            r = s[S_CR + c * 5 + k]
            s[S_CRF + c * 5 + k] = s[S_RV + r] if s[S_RU + r] == c else s[S_RU + r]


# ================================================================ set-up (spec §4)


@njit(cache=True)
def _sort_stack(s, k, descending):
    base = S_STK + STK_OFF[k]
    n = s[S_STKN + k]
    for i in range(1, n):
        v = s[base + i]
        j = i
        while j > 0 and ((s[base + j - 1] < v) if descending else (s[base + j - 1] > v)):
            s[base + j] = s[base + j - 1]
            j -= 1
        s[base + j] = v


@njit(cache=True)
def setup(s, rng, P):
    for i in range(S_GAME_END):
        s[i] = 0
    s[S_P] = P
    if s[S_RULES + R.layout] == -1:
        gen_layout(s, rng)
    else:
        for i in range(18):
            s[S_LAYOUT + i] = s[S_RULES + R.layout + i]
    assemble(s)
    for k in range(11):
        base = S_STK + STK_OFF[k]
        n = STK_SIZE[k]
        for i in range(n):
            s[base + i] = STK_INIT[STK_OFF[k] + i]
        s[S_STKN + k] = n
        rng_shuffle(rng, s, base, n)
    order = s[S_RULES + R.sleeping_tile_order]
    if order != 0:
        for k in range(ST_BUNK, ST_BEDROLL + 1):
            _sort_stack(s, k, order == 1)   # ascending reveal: values descending, top last
    for i in range(4):
        s[S_PUBD + i] = st_pop(s, ST_PUBS)
    s[S_NPUBD] = 4
    for i in range(4):
        s[S_MAPD + i] = st_pop(s, ST_MAPS)
    s[S_NMAPD] = 4
    s[S_CHEST] = st_pop(s, ST_CHESTS)
    s[S_SCORP] = st_pop(s, ST_SCORPS)
    if places(s) == 2:
        s[S_STKN + ST_BEDROLL] = 0   # out of the game
    held = 0
    hand = s[S_RULES + R.starting_hand]
    for p in range(P):
        pb = _pl(p)
        s[pb + PL_HAND] = hand
        s[pb + PL_RESERVE] = data.PIRATES_PER_PLAYER - hand
        c = s[S_RULES + R.starting_coins_by_seat + p]
        s[pb + PL_COINS] = c
        held += c
    s[S_COIN_BANK] = s[S_RULES + R.coin_supply] - held
    s[S_RUM_BANK] = s[S_RULES + R.rum_supply]
    s[S_CAPTAIN] = HQ_CORNER
    for r in range(NR):
        s[S_ROWN + r] = -1
    for d in range(ND):
        s[S_DOWN + d] = -1
        s[S_DPART + d] = -1


@njit(cache=True, inline="always")
def places(s):
    P = s[S_P]
    return 3 if (P >= 4 or s[S_RULES + R.bedroll_with_2_3_players] != 0) else 2


# ================================================================ moves (spec §5.3, §5.4)


@njit(cache=True)
def enum_moves(s, p, again, at):
    """The moves affordable for ``p`` with ``again`` coins, from index ``at`` of S_OPT (roads by
    id, then dark moves by exit then entry id); their pirates and coins; returns the count."""
    c = s[S_CAPTAIN]
    pb = _pl(p)
    hand = s[pb + PL_HAND]
    coins = s[pb + PL_COINS]
    n = at
    if hand <= 0:
        return 0
    free_road = False
    free_aff = False
    for i in range(s[S_NCR + c]):
        r = s[S_CR + c * 5 + i]
        if s[S_ROWN + r] == -1:
            free_road = True
            if s[S_RL + r] <= hand:
                free_aff = True
    forced = (not free_road) or (s[S_RULES + R.forced_dark_by_affordability] != 0
                                 and not free_aff)
    s[S_FORCEDF] = 1 if forced else 0
    dcoin = 0 if (forced and s[S_RULES + R.forced_dark_free] != 0) else s[S_RULES + R.dark_coin]
    if again <= coins:
        for i in range(s[S_NCR + c]):
            r = s[S_CR + c * 5 + i]
            if s[S_ROWN + r] == -1 and s[S_RL + r] <= hand:
                s[S_OPT + n] = r
                s[S_OCOST + n] = s[S_RL + r]
                s[S_OCOIN + n] = 0
                s[S_ODEST + n] = s[S_CRF + c * 5 + i]
                n += 1
    if dcoin + again <= coins and s[S_NCD + c] > 0:
        same = s[S_RULES + R.dark_same_corner] != 0
        for i in range(s[S_NCD + c]):
            x = s[S_CD + c * 3 + i]
            if s[S_DOWN + x] != -1:
                continue
            lx = s[S_DL + x]
            for y in range(ND):   # written at n always, kept (n + 1) when legal
                ok = (y != x) & (s[S_DOWN + y] == -1) & (same | (s[S_DC + y] != c)) & \
                    (lx + s[S_DL + y] <= hand)
                s[S_OPT + n] = O_DARK + x * ND + y
                s[S_OCOST + n] = lx + s[S_DL + y]
                s[S_OCOIN + n] = dcoin
                s[S_ODEST + n] = s[S_DC + y]
                n += 1 if ok else 0
    return n - at


@njit(cache=True)
def has_legal_move(s, d):
    """Board-level: does corner ``d`` have a legal move (dead_end_rule)?"""
    for i in range(s[S_NCR + d]):
        if s[S_ROWN + s[S_CR + d * 5 + i]] == -1:
            return True
    half_rule = s[S_RULES + R.dead_end_rule] == 1
    same = s[S_RULES + R.dark_same_corner] != 0
    for i in range(s[S_NCD + d]):
        x = s[S_CD + d * 3 + i]
        if s[S_DOWN + x] != -1:
            continue
        if half_rule:
            return True
        for y in range(ND):
            if y != x and s[S_DOWN + y] == -1 and (same or s[S_DC + y] != d):
                return True
    return False


@njit(cache=True, inline="always")
def dest_of(s, o):
    if o < O_DARK:
        r = o
        c = s[S_CAPTAIN]
        return s[S_RV + r] if s[S_RU + r] == c else s[S_RU + r]
    return s[S_DC + (o - O_DARK) % ND]


@njit(cache=True)
def move_kind(s, i):
    """The declared choice of move i at S_OPT (reference.option_kind): dark_road, or by the
    action of the corner a road reaches."""
    if s[S_OPT + i] >= O_DARK:
        return K_DARK
    return ACTION_KIND[ACTION[s[S_ODEST + i]]]


@njit(cache=True)
def narrow(s, p, n, ka, a_ok, kb, b_ok):
    """Seat ``p``'s restriction on a D1 / D2 (engines._restrict; reference.choose with
    option_kind): of the moves S_OPT[0:n] and the two options after them (of kinds ``ka``,
    ``kb``; offered when ``a_ok``, ``b_ok``: D1 REST and BOARD, D2 STOP and BOARD), those
    it may choose, the kept moves at the front of S_OPT in their order. Returns (the moves
    kept, a kept, b kept)."""
    forbid = s[S_FORBID + p]
    force = s[S_FORCE + p]
    if forbid == 0 and force == 0:
        return n, a_ok, b_ok
    forced_any = (a_ok and is_forced_fast(ka, force)) or (b_ok and is_forced_fast(kb, force))
    allowed_any = (a_ok and is_allowed_fast(ka, forbid)) or \
        (b_ok and is_allowed_fast(kb, forbid))
    for i in range(n):
        k = move_kind(s, i)
        forced_any = forced_any or is_forced_fast(k, force)
        allowed_any = allowed_any or is_allowed_fast(k, forbid)
    m = 0
    for i in range(n):
        if keeps_fast(move_kind(s, i), forbid, force, forced_any, allowed_any):
            s[S_OPT + m] = s[S_OPT + i]
            s[S_OCOST + m] = s[S_OCOST + i]
            s[S_OCOIN + m] = s[S_OCOIN + i]
            s[S_ODEST + m] = s[S_ODEST + i]
            m += 1
    a = a_ok and keeps_fast(ka, forbid, force, forced_any, allowed_any)
    b = b_ok and keeps_fast(kb, forbid, force, forced_any, allowed_any)
    return m, a, b


@njit(cache=True)
def board_player(s, p):
    pb = _pl(p)
    s[pb + PL_BOARDED] = 1
    s[pb + PL_MAST] = s[pb + PL_HAND]
    s[pb + PL_HAND] = 0
    s[S_ROWS + s[S_NROWS]] = p
    s[S_NROWS] += 1


@njit(cache=True)
def rest(s, p):
    k = s[S_RULES + R.rest_coin]
    pay_coins(s, p, k)
    s[S_CREST] += k
    s[S_RESTS] += 1


@njit(cache=True)
def do_move(s, fb, pp, rng, p, i, again):
    """Option i of S_OPT for ``p`` (M1-M6); True if the Captain was relocated from a dead end."""
    o = s[S_OPT + i]
    cost = s[S_OCOST + i]
    dcoin = s[S_OCOIN + i]
    pb = _pl(p)
    pay_coins(s, p, again + dcoin)
    s[S_CAGAIN] += again
    s[S_CDARK] += dcoin
    s[S_MOVES] += 1
    s[pb + PL_HAND] -= cost
    if o < O_DARK:
        d = dest_of(s, o)
        s[S_ROWN + o] = p
    else:
        x = (o - O_DARK) // ND
        y = (o - O_DARK) % ND
        s[S_DOWN + x] = p
        s[S_DOWN + y] = p
        s[S_DPART + x] = y
        s[S_DPART + y] = x
        d = s[S_DC + y]
        s[S_DARKM] += 1
        if s[S_FORCEDF]:
            s[S_FORCED] += 1
    s[S_CAPTAIN] = d
    # M4: one open rendezvous of p matching d
    cl = CLASS[d]
    for j in range(s[pb + PL_N_RDV]):
        if s[pb + PL_RDVF + j] == 0 and RDV_MATCH[s[pb + PL_RDV + j] * N_CL + cl]:
            s[pb + PL_RDVF + j] = 1
            break
    # M5
    action(s, fb, pp, rng, p, d)
    # M6
    if has_legal_move(s, d):
        return False
    t = CTILE[d]
    for k in range(1, 10):
        t2 = ((t - 1 + k) % 9) + 1
        c2 = COIN_CORNER[t2]
        if has_legal_move(s, c2):
            s[S_CAPTAIN] = c2
            s[S_DEADEND] += 1
            return True
    return False


# ================================================================ corner actions (spec §6)


@njit(cache=True)
def action(s, fb, pp, rng, p, d):
    a = ACTION[d]
    pb = _pl(p)
    if a == COIN:
        gain_coins(s, p, 1)
    elif a == HQ:
        s[S_HQV] += 1
        act_hq(s, fb, pp, rng, p)
    elif a == PIRATE:
        if s[pb + PL_RESERVE] >= 1:
            s[pb + PL_RESERVE] -= 1
            s[pb + PL_HAND] += 1
            s[S_RECRUITS] += 1
    elif a == SUPPLIES:
        act_supplies(s, fb, pp, rng, p)
    elif a == RENDEZVOUS:
        if st_n(s, ST_RDV) > 0:
            n = s[pb + PL_N_RDV]
            s[pb + PL_RDV + n] = st_pop(s, ST_RDV)
            s[pb + PL_RDVF + n] = 0
            s[pb + PL_N_RDV] = n + 1
    elif a == MAP:
        act_map(s, fb, pp, rng, p, COLOUR[d])
    elif a == PUB:
        act_pub(s, fb, pp, rng, p, COLOUR[d])
    elif a == CHEST:
        act_chest(s, fb, pp, rng, p)
    elif a == RUM:
        gain_rum(s, p, s[S_RULES + R.rum_per_visit])
    else:
        act_guard(s, fb, pp, rng, p)


@njit(cache=True)
def hq_options(s, p):
    """D6's options after NONE into S_OPT: own roads by id (code r), then own dark pairs
    x < y in lexicographic order (code 64 + 24 x + y); their pirates in S_OCOST. Count."""
    n = 0
    for r in range(NR):
        if s[S_ROWN + r] == p:
            s[S_OPT + n] = r
            s[S_OCOST + n] = s[S_RL + r]
            n += 1
    anyp = s[S_RULES + R.hq_dark_pair_any] != 0
    for x in range(ND):
        if s[S_DOWN + x] != p:
            continue
        for y in range(x + 1, ND):
            if s[S_DOWN + y] == p and (anyp or s[S_DPART + x] == y):
                s[S_OPT + n] = O_DARK + x * ND + y
                s[S_OCOST + n] = s[S_DL + x] + s[S_DL + y]
                n += 1
    return n


@njit(cache=True)
def act_hq(s, fb, pp, rng, p):
    n = hq_options(s, p)
    if n == 0:
        return
    k = ask(s, rng, p, n + 1)
    if k == 0:
        return
    if k > 0:
        i = k - 1
    else:
        i = 0
        for j in range(1, n):   # most pirates; roads come first, then pairs in order
            if s[S_OCOST + j] > s[S_OCOST + i]:
                i = j
    o = s[S_OPT + i]
    s[_pl(p) + PL_HAND] += s[S_OCOST + i]
    if o < O_DARK:
        s[S_ROWN + o] = -1
    else:
        x = (o - O_DARK) // ND
        y = (o - O_DARK) % ND
        s[S_DOWN + x] = -1
        s[S_DOWN + y] = -1
        s[S_DPART + x] = -1
        s[S_DPART + y] = -1


@njit(cache=True)
def supply_score(s, mask):
    """The supplies part of the score of the kept tiles ``mask`` (supply_scoring)."""
    if s[S_RULES + R.supply_scoring] == 0:
        values = 0
        for k in range(5):
            values |= (mask >> (4 * k)) & 15
        return SUP_SUM4[values]
    total = 0
    for k in range(5):
        total += SUP_BEST4[(mask >> (4 * k)) & 15]
    return total


@njit(cache=True, inline="always")
def sup_index(code):
    return (code // 10) * 4 + code % 10 - 2


@njit(cache=True)
def act_supplies(s, fb, pp, rng, p):
    if st_n(s, ST_SUP) == 0:
        return
    code = st_pop(s, ST_SUP)
    pb = _pl(p)
    i = sup_index(code)
    s[pb + PL_SUP_DRAWN] |= 1 << i
    k = ask(s, rng, p, 2)
    sell = s[S_RULES + R.supply_sell_coins]
    if k < 0:
        mask = s[pb + PL_SUP_KEPT]
        gain = supply_score(s, mask | (1 << i)) - supply_score(s, mask)
        k = 0 if gain >= sell * pp[p * PW + G_WCOIN] - TOL else 1
    if k == 0:
        s[pb + PL_SUP_KEPT] |= 1 << i
    else:
        gain_coins(s, p, sell)


@njit(cache=True)
def map_score_colour(s, pb, ci, extra):
    """Paired score of colour index ``ci`` of player block ``pb``, with one more tile of value
    ``extra`` (0: none)."""
    k = 0
    for v in range(3, 7):
        k += s[pb + PL_MAPS + ci * 4 + v - 3]
    if extra:
        k += 1
    limit = 2 * (k // 2)
    total = 0
    taken = 0
    for v in range(6, 2, -1):
        cnt = s[pb + PL_MAPS + ci * 4 + v - 3] + (1 if extra == v else 0)
        for _ in range(cnt):
            if taken < limit:
                total += v
                taken += 1
    return total


@njit(cache=True)
def map_expr(s, pp, p, code):
    """Greedy's MAP value of taking display tile ``code``: the paired score of its colour
    with the tile less without it (map_score_colour's difference in closed form: with k tiles
    held, the least of value m, it is 0 for k = 0, v + m for k odd, max(0, v - m) for k even),
    plus the unpaired share when the count becomes odd."""
    pb = _pl(p)
    base = pb + PL_MAPS + MAP_COL_IDX[code // 10] * 4
    v = code % 10
    k = 0
    m = 0
    for w in range(6, 2, -1):
        c = s[base + w - 3]
        if c > 0:
            k += c
            m = w
    if k == 0:
        gain = 0
    elif k % 2 == 1:
        gain = v + m
    else:
        gain = max(0, v - m)
    val = float(gain)
    if k % 2 == 0:
        odd = pp[p * PW + H_MAPODD] if pp[p * PW] == HEUR else 0.4
        val += odd * v
    return val


@njit(cache=True)
def act_map(s, fb, pp, rng, p, colour):
    pb = _pl(p)
    price = s[S_RULES + R.map_price]
    n = 0
    if s[pb + PL_COINS] >= price:
        for i in range(s[S_NMAPD]):
            if s[S_MAPD + i] // 10 == colour:
                s[S_TMP + n] = i
                n += 1
    if n == 0:
        return
    k = ask(s, rng, p, n + 1)
    if k == n:
        return
    if k < 0:
        k = 0
        bv = map_expr(s, pp, p, s[S_MAPD + s[S_TMP]])
        for j in range(1, n):
            v = map_expr(s, pp, p, s[S_MAPD + s[S_TMP + j]])
            if v > bv + TOL:
                bv = v
                k = j
    at = s[S_TMP + k]
    code = s[S_MAPD + at]
    for i in range(at, s[S_NMAPD] - 1):
        s[S_MAPD + i] = s[S_MAPD + i + 1]
    s[S_NMAPD] -= 1
    pay_coins(s, p, price)
    s[pb + PL_MAPS + MAP_COL_IDX[code // 10] * 4 + code % 10 - 3] += 1
    s[pb + PL_N_MAPS] += 1
    while s[S_NMAPD] < 4 and st_n(s, ST_MAPS) > 0:
        s[S_MAPD + s[S_NMAPD]] = st_pop(s, ST_MAPS)
        s[S_NMAPD] += 1


# ---------------------------------------------------------------- rolls (spec 5.5 ROLL)

CTX_PUB = 0
CTX_SCORP = 1


@njit(cache=True)
def wants_reroll(s, pp, rng, p, ctx, v, total, thr):
    say = must_say(s, p, K_REROLL)
    if say >= 0:
        return say == 1
    k = ask(s, rng, p, 2)
    if k >= 0:
        return k == 0
    if ctx == CTX_PUB:
        for i in range(s[S_NM]):
            if s[S_M + i] % 10 < v:
                return False
        return True
    return total + v >= thr and thr - total >= 2


@njit(cache=True)
def roll(s, pp, rng, p, ctx, total, thr):
    """ROLL for a pub or the scorpion contest: a die, then re-rolls while p wants and can."""
    v = dice(s, rng)
    pb = _pl(p)
    free = 0
    two = s[S_RULES + R.rerolls_per_rum] == 2
    while free > 0 or s[pb + PL_RUM] >= 1:
        if not wants_reroll(s, pp, rng, p, ctx, v, total, thr):
            break
        took(s, p, K_REROLL)
        if free > 0:
            free = 0
        else:
            s[pb + PL_RUM] -= 1
            s[S_RUM_BANK] += 1
            if two:
                free = 1
        s[S_REROLLS] += 1
        v = dice(s, rng)
    return v


@njit(cache=True)
def pub_value_of(s, pp, p, total, n):
    """Greedy's value of a pub with ``n`` matching tiles worth ``total``, and who joins."""
    P = s[S_P]
    w = pp[p * PW + G_WCOIN]
    share = pp[p * PW + G_SHARE] * w
    only_active = s[S_RULES + R.pub_join_requires_active] != 0
    part = 1
    for k in range(1, P):
        q = (p + k) % P
        if only_active and not is_active(s, q):
            continue
        if total / (part + 1) > share:
            part += 1
    J = part - 1
    return total / (1 + J) + J * w


@njit(cache=True)
def act_pub(s, fb, pp, rng, p, colour):
    P = s[S_P]
    nm = 0
    keep = 0
    for i in range(s[S_NPUBD]):
        code = s[S_PUBD + i]
        if code // 10 == colour:
            s[S_M + nm] = code
            nm += 1
        else:
            s[S_PUBD + keep] = code
            keep += 1
    if nm == 0:
        return
    s[S_NPUBD] = keep
    s[S_NM] = nm
    total = 0
    for i in range(nm):
        total += s[S_M + i] % 10
    only_active = s[S_RULES + R.pub_join_requires_active] != 0
    s[S_PART] = p
    npart = 1
    for k in range(1, P):
        q = (p + k) % P
        if only_active and not is_active(s, q):
            continue
        if s[_pl(q) + PL_COINS] < 1:
            continue
        say = must_say(s, q, K_JOIN)
        if say >= 0:
            join = say == 1
        else:
            j = ask(s, rng, q, 2)
            if j < 0:
                join = total / (npart + 1) > pp[q * PW + G_SHARE] * pp[q * PW + G_WCOIN]
            else:
                join = j == 0
        if join:
            took(s, q, K_JOIN)
            s[_pl(q) + PL_COINS] -= 1
            s[_pl(p) + PL_COINS] += 1
            s[S_PUBFEES] += 1
            s[S_PART + npart] = q
            npart += 1
    if npart == 1:
        pb = _pl(p)
        for i in range(nm):
            s[pb + PL_VP_PUBS] += s[S_M + i] % 10
        s[pb + PL_N_PUBS] += nm
        s[S_NM] = 0
    else:
        rule = s[S_RULES + R.pub_take_rule]
        turn = 0
        while s[S_NM] > 0:
            q = s[S_PART + turn % npart]
            turn += 1
            v = roll(s, pp, rng, q, CTX_PUB, 0, 0)
            ne = 0
            for i in range(s[S_NM]):
                if s[S_M + i] % 10 < v:
                    s[S_ELIG + ne] = i
                    ne += 1
            if ne == 0:
                continue
            qb = _pl(q)
            if rule == 2:     # all_below: every eligible tile
                for e in range(ne):
                    s[qb + PL_VP_PUBS] += s[S_M + s[S_ELIG + e]] % 10
                    s[qb + PL_N_PUBS] += 1
                    s[S_M + s[S_ELIG + e]] = -1
            else:
                k = -1
                if rule == 0 and ne >= 2:
                    k = ask(s, rng, q, ne)
                if k < 0:
                    k = 0
                    for e in range(1, ne):
                        if s[S_M + s[S_ELIG + e]] % 10 > s[S_M + s[S_ELIG + k]] % 10:
                            k = e
                at = s[S_ELIG + k]
                s[qb + PL_VP_PUBS] += s[S_M + at] % 10
                s[qb + PL_N_PUBS] += 1
                s[S_M + at] = -1
            m = 0
            for i in range(s[S_NM]):
                if s[S_M + i] >= 0:
                    s[S_M + m] = s[S_M + i]
                    m += 1
            s[S_NM] = m
    while s[S_NPUBD] < 4 and st_n(s, ST_PUBS) > 0:
        s[S_PUBD + s[S_NPUBD]] = st_pop(s, ST_PUBS)
        s[S_NPUBD] += 1


@njit(cache=True)
def act_chest(s, fb, pp, rng, p):
    P = s[S_P]
    if s[S_CHEST] >= 0:
        s[_pl(p) + PL_VP_CHESTS] += s[S_CHEST]
        s[S_CHEST] = -1
    if s[S_SCORP] >= 0:
        thr = s[S_SCORP]
        s[S_SCONT] += 1
        total = 0
        k = 0
        while True:
            q = (p + k) % P
            total += roll(s, pp, rng, q, CTX_SCORP, total, thr)
            if total >= thr:
                s[_pl(q) + PL_N_SCORP] += 1
                break
            k += 1
        s[S_SCORP] = -1
    s[S_CHEST] = st_pop(s, ST_CHESTS) if st_n(s, ST_CHESTS) > 0 else -1
    s[S_SCORP] = st_pop(s, ST_SCORPS) if st_n(s, ST_SCORPS) > 0 else -1


@njit(cache=True, inline="always")
def beats(s, h, g):
    if s[S_RULES + R.guard_win_rule] == 0:
        return h > g
    return h >= g


@njit(cache=True)
def guard_e(s, pp, p, k, h):
    """Greedy's E_s of guard stack ``k`` with hand ``h`` (0 for an empty stack)."""
    n = st_n(s, k)
    if n == 0:
        return 0.0
    w = pp[p * PW + G_WCOIN]
    base = S_STK + STK_OFF[k]
    if s[S_RULES + R.guard_stack_visible] != 0:
        g = s[base + n - 1]
        coin = 1 if (k == ST_SMALL and g <= 2) else 0
        return (g + coin * w) if beats(s, h, g) else 0.0
    total = 0.0
    for i in range(n):
        g = s[base + i]
        if beats(s, h, g):
            coin = 1 if (k == ST_SMALL and g <= 2) else 0
            total += g + coin * w
    return total / n


@njit(cache=True)
def act_guard(s, fb, pp, rng, p):
    nb = st_n(s, ST_BIG)
    ns = st_n(s, ST_SMALL)
    if nb == 0 and ns == 0:
        return
    pb = _pl(p)
    h = s[pb + PL_HAND]
    if nb > 0 and ns > 0:
        k = ask(s, rng, p, 2)
        if k < 0:
            k = 1 if guard_e(s, pp, p, ST_SMALL, h) > guard_e(s, pp, p, ST_BIG, h) + TOL else 0
        stack = ST_BIG if k == 0 else ST_SMALL
    else:
        stack = ST_BIG if nb > 0 else ST_SMALL
    g = st_pop(s, stack)
    if beats(s, h, g):
        s[pb + PL_VP_GUARDS] += g
        if stack == ST_SMALL and g <= 2:
            gain_coins(s, p, 1)
    else:
        st_under(s, stack, g)


# ================================================================ the bunk fight (spec 5.5)


@njit(cache=True)
def hopeless(s, i, nC):
    """Another contender's current roll beats a 6 of contender i (bunk_tie_rule)."""
    tie = s[S_RULES + R.bunk_tie_rule]
    if tie == 2:
        return False
    for j in range(nC):
        if j != i and s[S_BR + j] and s[S_BV + j] == 6:
            if tie == 0 and j < i:
                return True
            if tie == 1 and j > i:
                return True
    return False


@njit(cache=True)
def winning(s, i, nC):
    """Is contender i at the top of this column round (reference.column_winner)?"""
    tie = s[S_RULES + R.bunk_tie_rule]
    top = 0
    for j in range(nC):
        if s[S_BR + j]:
            top = max(top, s[S_BV + j])
    if s[S_BV + i] != top:
        return False
    if tie == 2:
        return True
    for j in range(nC):
        if s[S_BR + j] and s[S_BV + j] == top:
            if tie == 0:
                return j == i
            last = j
    return last == i


@njit(cache=True)
def bunk_wants(s, pp, rng, i, nC, imm):
    p = s[S_BC + i]
    say = must_say(s, p, K_REROLL)
    if say >= 0:
        return say == 1
    k = ask(s, rng, p, 2)
    if k >= 0:
        return k == 0
    v = s[S_BV + i]
    if imm:
        anyp = False
        top = 0
        for j in range(nC):
            if j != i and s[S_BR + j]:
                anyp = True
                top = max(top, s[S_BV + j])
        if not anyp:
            want = v <= 3
        elif s[S_RULES + R.bunk_tie_rule] == 0:
            want = v <= top
        else:
            want = v < top
    else:
        want = not winning(s, i, nC)
    if want and pp[p * PW + G_RCW] != 0 and hopeless(s, i, nC):
        want = False
    return want


@njit(cache=True)
def bunk_reroll_loop(s, pp, rng, i, nC, imm):
    """Contender i's re-rolls after a roll (D9 while they can); True if they re-rolled."""
    p = s[S_BC + i]
    pb = _pl(p)
    free = 0
    two = s[S_RULES + R.rerolls_per_rum] == 2
    did = False
    while free > 0 or s[pb + PL_RUM] >= 1:
        if not bunk_wants(s, pp, rng, i, nC, imm):
            break
        took(s, p, K_REROLL)
        if free > 0:
            free = 0
        else:
            s[pb + PL_RUM] -= 1
            s[S_RUM_BANK] += 1
            if two:
                free = 1
        if hopeless(s, i, nC):
            s[S_BHOPE] += 1
        s[S_REROLLS] += 1
        s[S_BREROLLS] += 1
        s[S_BV + i] = dice(s, rng)
        did = True
    return did


@njit(cache=True)
def column_rolls(s, pp, rng, nC):
    """The contenders of S_BC[0:nC] in this column round (S_TIED) roll once each, with the
    re-rolls reroll_window allows (reference.roll_column)."""
    imm = s[S_RULES + R.reroll_window] == 0
    for i in range(nC):
        s[S_BR + i] = 0
    for i in range(nC):
        if not s[S_TIED + i]:
            continue
        s[S_BV + i] = dice(s, rng)
        s[S_BR + i] = 1
        if imm:
            bunk_reroll_loop(s, pp, rng, i, nC, True)
    if not imm:
        again = True
        while again:
            again = False
            for i in range(nC):
                if s[S_TIED + i] and bunk_reroll_loop(s, pp, rng, i, nC, False):
                    again = True


@njit(cache=True)
def fight_column(s, pp, rng, nC):
    """The rolls of one shared column (tied re-rolls among the tied); the winner's index."""
    for i in range(nC):
        s[S_TIED + i] = 1
    tie = s[S_RULES + R.bunk_tie_rule]
    while True:
        column_rolls(s, pp, rng, nC)
        top = 0
        for i in range(nC):
            if s[S_TIED + i]:
                top = max(top, s[S_BV + i])
        first = -1
        last = -1
        cnt = 0
        for i in range(nC):
            if s[S_TIED + i] and s[S_BV + i] == top:
                cnt += 1
                if first < 0:
                    first = i
                last = i
        if cnt == 1 or tie == 0:
            return first
        if tie == 1:
            return last
        for i in range(nC):
            s[S_TIED + i] = 1 if (s[S_TIED + i] and s[S_BV + i] == top) else 0


@njit(cache=True)
def bunk_fight(s, pp, rng):
    """The fight on the mast; the ranking (seats) into S_RANK; returns its length."""
    nrows = s[S_NROWS]
    if nrows == 0:
        return 0
    if nrows == 1:
        s[S_RANK] = s[S_ROWS]
        return 1
    order = s[S_RULES + R.bunk_elimination_order]
    na = nrows
    for r in range(nrows):
        s[S_ALIVE + r] = r
        s[S_CNT + r] = s[_pl(s[S_ROWS + r]) + PL_MAST]
    ne = 0
    ng = 0
    while na >= 2:
        mx = 0
        for a in range(na):
            r = s[S_ALIVE + a]
            s[S_CROSS + r] = 0
            s[S_PSTART + r] = s[S_CNT + r]
            mx = max(mx, s[S_CNT + r])
        for j in range(mx, 0, -1):
            nC = 0
            for a in range(na):
                r = s[S_ALIVE + a]
                if s[S_CNT + r] >= j:
                    s[S_TMP + nC] = r
                    s[S_BC + nC] = s[S_ROWS + r]
                    nC += 1
            if nC == 1:
                s[S_CROSS + s[S_TMP]] += 1
                continue
            w = fight_column(s, pp, rng, nC)
            s[S_CROSS + s[S_TMP + w]] += 1
            for i in range(nC):
                s[S_LAST + s[S_TMP + i]] = s[S_BV + i]
        # the knocked out, ranked; the others stay alive
        start = ne
        keep = 0
        for a in range(na):
            r = s[S_ALIVE + a]
            if s[S_CROSS + r] == 0:
                # insert r into this pass's group by its key
                j = ne
                while j > start and _elim_before(s, order, r, s[S_ELIM + j - 1]):
                    s[S_ELIM + j] = s[S_ELIM + j - 1]
                    j -= 1
                s[S_ELIM + j] = r
                ne += 1
            else:
                s[S_ALIVE + keep] = r
                keep += 1
        if ne > start:   # a pass knocks out a group (or nobody)
            s[S_GSTART + ng] = start
            ng += 1
        na = keep
        for a in range(na):
            r = s[S_ALIVE + a]
            s[S_CNT + r] = s[S_CROSS + r]
    s[S_GSTART + ng] = ne
    n = 0
    for a in range(na):
        s[S_RANK + n] = s[S_ROWS + s[S_ALIVE + a]]
        n += 1
    for g in range(ng - 1, -1, -1):
        for e in range(s[S_GSTART + g], s[S_GSTART + g + 1]):
            s[S_RANK + n] = s[S_ROWS + s[S_ELIM + e]]
            n += 1
    return n


@njit(cache=True, inline="always")
def _elim_before(s, order, r, q):
    """Does knocked-out row r rank before row q (r has the higher row index when equal)?"""
    if order == 0:
        if s[S_LAST + r] != s[S_LAST + q]:
            return s[S_LAST + r] > s[S_LAST + q]
    elif order == 2:
        if s[S_PSTART + r] != s[S_PSTART + q]:
            return s[S_PSTART + r] > s[S_PSTART + q]
    return r < q


# ================================================================ rounds (spec §5)


@njit(cache=True)
def begin_round(s):
    P = s[S_P]
    s[S_ROUND] += 1
    for k in range(places(s)):
        s[S_SLEEP_UP + k] = st_pop(s, ST_BUNK + k)
    for p in range(P):
        pb = _pl(p)
        s[pb + PL_HAND] = data.PIRATES_PER_PLAYER - s[pb + PL_RESERVE]
        s[pb + PL_BOARDED] = 0
        s[pb + PL_MAST] = 0
    for r in range(NR):
        s[S_ROWN + r] = -1
    for d in range(ND):
        s[S_DOWN + d] = -1
        s[S_DPART + d] = -1
    s[S_NROWS] = 0
    s[S_CUR] = (s[S_RULES + R.first_start_seat] + s[S_ROUND] - 1) % P
    s[S_RTURNS] = 0


@njit(cache=True)
def end_round(s, pp, rng):
    n = bunk_fight(s, pp, rng)
    back = s[S_RULES + R.unawarded_sleeping_tiles] == 1
    for k in range(places(s)):
        v = s[S_SLEEP_UP + k]
        if k < n:
            pb = _pl(s[S_RANK + k])
            s[pb + PL_VP_SLEEP] += v
            s[pb + PL_N_SLEEP] += 1
        elif back:
            st_under(s, ST_BUNK + k, v)
    r = s[S_ROUND]
    s[S_TURNS_R + r - 1] = s[S_RTURNS]
    s[S_MAXRT] = max(s[S_MAXRT], s[S_RTURNS])


@njit(cache=True, inline="always")
def again_coin(s, lone, free_next):
    if free_next or (lone and s[S_RULES + R.lone_player_free_moves] != 0):
        return 0
    return s[S_RULES + R.move_again_coin]


@njit(cache=True)
def end_move_turn(s, p):
    if s[S_RULES + R.stop_after_move_boards] != 0 and s[_pl(p) + PL_HAND] >= 1:
        board_player(s, p)


@njit(cache=True, inline="always")
def count_active(s):
    n = 0
    for p in range(s[S_P]):
        if is_active(s, p):
            n += 1
    return n


# ================================================================ greedy (spec 8.4, contract)


@njit(cache=True)
def sting_chance(fb, P, thr):
    return fb[F_Q0 + P * 22 + thr]


@njit(cache=True)
def prep_values(s, fb, pp, p):
    """A new D1/D2 decision of ``p``: its class and guard values are computed when needed.
    Returns the decision's number: what S_CVOK and S_HQC hold where they are valid for this
    decision (so nothing needs clearing)."""
    k = s[S_DSTAMP] + 1
    s[S_DSTAMP] = k
    return k


@njit(cache=True)
def sup_value(s, fb, pp, p):
    """Greedy's SUPPLIES value for ``p``: the mean over the tiles p has not drawn of
    max(gain, supply_sell_coins * w_coin), summed in code order (0 if the stack is empty).
    Remembered per seat (F_SUP) with what it reads: the kept and drawn masks and w_coin."""
    if st_n(s, ST_SUP) == 0:
        return 0.0
    pb = _pl(p)
    mask = s[pb + PL_SUP_KEPT]
    drawn = s[pb + PL_SUP_DRAWN]
    w_coin = pp[p * PW + G_WCOIN]
    key = float(mask | (drawn << 20))
    if fb[F_SUP + MAX_P + p] == key and fb[F_SUP + 2 * MAX_P + p] == w_coin:
        return fb[F_SUP + p]
    floor = s[S_RULES + R.supply_sell_coins] * w_coin
    total = 0.0
    cnt = 0
    if s[S_RULES + R.supply_scoring] == 0:
        # supply_score = SUP_SUM4 of the values present over all kinds
        values = 0
        for k in range(5):
            values |= (mask >> (4 * k)) & 15
        base = SUP_SUM4[values]
        for i in range(20):
            if drawn >> i & 1:
                continue
            gain = SUP_SUM4[values | (1 << (i & 3))] - base
            total += max(gain, floor)
            cnt += 1
    else:
        # best per kind: only tile i's kind changes
        for i in range(20):
            if drawn >> i & 1:
                continue
            nib = (mask >> (4 * (i >> 2))) & 15
            gain = SUP_BEST4[nib | (1 << (i & 3))] - SUP_BEST4[nib]
            total += max(gain, floor)
            cnt += 1
    v = total / cnt if cnt > 0 else 0.0
    fb[F_SUP + p] = v
    fb[F_SUP + MAX_P + p] = key
    fb[F_SUP + 2 * MAX_P + p] = w_coin
    return v


@njit(cache=True)
def map_class_value(s, pp, p, ci):
    """Greedy's MAP value of the map corners of colour index ``ci`` (affordability aside): the
    best displayed tile of that colour (the first within TOL), less map_price coins; 0: none."""
    colour = 0 if ci == 0 else ci + 1
    price = s[S_RULES + R.map_price] * pp[p * PW + G_WCOIN]
    v = 0.0
    found = False
    for i in range(s[S_NMAPD]):
        code = s[S_MAPD + i]
        if code // 10 == colour:
            x = map_expr(s, pp, p, code) - price
            if not found or x > v + TOL:
                v = x
                found = True
    return v


@njit(cache=True)
def pub_class_value(s, pp, p, colour):
    """Greedy's PUB value of the pub corners of ``colour`` (0: no matching tile shown)."""
    total = 0
    n = 0
    for i in range(s[S_NPUBD]):
        if s[S_PUBD + i] // 10 == colour:
            total += s[S_PUBD + i] % 10
            n += 1
    if n > 0:
        return pub_value_of(s, pp, p, total, n)
    return 0.0


@njit(cache=True)
def memo_reset(fb):
    """Forget every seat's remembered values (F_SUP, F_MAPM, F_PUBM, F_GVM)."""
    for p in range(MAX_P):
        fb[F_SUP + MAX_P + p] = -1.0
        fb[F_MAPM + 6 * p] = -1.0
        fb[F_PUBM + 5 * p] = -1.0
        fb[F_GVM + 19 * p] = -1.0


@njit(cache=True)
def map_values(s, fb, pp, p):
    """map_class_value of the three colours for ``p`` into F_MAPM[6p + 3 + ci], recomputed
    when the display, p's maps or w_coin differ from what they were computed from."""
    b = F_MAPM + 6 * p
    nd = s[S_NMAPD]
    k1 = nd
    for i in range(nd):
        k1 |= s[S_MAPD + i] << (3 + 6 * i)     # codes < 64
    pb = _pl(p)
    k2 = 0
    for j in range(12):
        k2 |= s[pb + PL_MAPS + j] << (4 * j)   # counts < 16
    w = pp[p * PW + G_WCOIN]
    if fb[b] == float(k1) and fb[b + 1] == float(k2) and fb[b + 2] == w:
        return
    for ci in range(3):
        fb[b + 3 + ci] = map_class_value(s, pp, p, ci)
    fb[b] = float(k1)
    fb[b + 1] = float(k2)
    fb[b + 2] = w


@njit(cache=True)
def pub_values(s, fb, pp, p):
    """pub_class_value of the three colours for ``p`` into F_PUBM[5p + 2 + colour],
    recomputed when the display, who is active (pub_join_requires_active) or w_coin differ."""
    b = F_PUBM + 5 * p
    nd = s[S_NPUBD]
    k = nd
    for i in range(nd):
        k |= s[S_PUBD + i] << (3 + 5 * i)      # codes < 32
    if s[S_RULES + R.pub_join_requires_active] != 0:
        for q in range(s[S_P]):
            if is_active(s, q):
                k |= 1 << (23 + q)
    w = pp[p * PW + G_WCOIN]
    if fb[b] == float(k) and fb[b + 1] == w:
        return
    for colour in range(3):
        fb[b + 2 + colour] = pub_class_value(s, pp, p, colour)
    fb[b] = float(k)
    fb[b + 1] = w


@njit(cache=True)
def guard_table(s, fb, pp, p):
    """Greedy's GUARD value max(E_big(h), E_small(h), 0) of ``p`` for every hand h in 0-15, at
    F_GVM[19p + 3 + h] (returned: the offset of h = 0), recomputed when either guard stack
    (tiles in order) or w_coin differ. guard_e runs once per distinct set of beaten tiles: a
    hand beats the same tiles as the hand one less unless a tile sits at the threshold."""
    b = F_GVM + 19 * p
    nb = st_n(s, ST_BIG)
    ns = st_n(s, ST_SMALL)
    kb = nb
    base = S_STK + STK_OFF[ST_BIG]
    for i in range(nb):
        kb |= s[base + i] << (4 + 3 * i)        # values < 8
    ks = ns
    base = S_STK + STK_OFF[ST_SMALL]
    for i in range(ns):
        ks |= s[base + i] << (4 + 3 * i)
    w = pp[p * PW + G_WCOIN]
    if fb[b] == float(kb) and fb[b + 1] == float(ks) and fb[b + 2] == w:
        return b + 3
    ge = s[S_RULES + R.guard_win_rule] != 0
    visible = s[S_RULES + R.guard_stack_visible] != 0
    for h in range(MAX_HAND):
        fb[b + 3 + h] = 0.0
    for kk in range(2):
        k = ST_BIG if kk == 0 else ST_SMALL
        n = st_n(s, k)
        if n == 0:
            continue
        base = S_STK + STK_OFF[k]
        seen = 0      # the tile values guard_e reads
        for i in range(n - 1 if visible else 0, n):
            seen |= 1 << s[base + i]
        e = 0.0
        for h in range(MAX_HAND):
            t = h if ge else h - 1    # the value a hand of h beats that h - 1 does not
            if h == 0 or (t >= 0 and (seen >> t) & 1):
                e = guard_e(s, pp, p, k, h)
            fb[b + 3 + h] = max(fb[b + 3 + h], e) if k == ST_SMALL else e
    for h in range(MAX_HAND):
        fb[b + 3 + h] = max(fb[b + 3 + h], 0.0)
    fb[b] = float(kb)
    fb[b + 1] = float(ks)
    fb[b + 2] = w
    return b + 3


@njit(cache=True)
def chest_class_value(s, fb):
    v = float(s[S_CHEST]) if s[S_CHEST] >= 0 else 0.0
    if s[S_SCORP] >= 0:
        v += s[S_RULES + R.scorpion_value] * sting_chance(fb, s[S_P], s[S_SCORP])
    return v


@njit(cache=True)
def class_value(s, fb, pp, p, cl):
    """Greedy's value of arriving at a corner of class ``cl`` (F_CV; guards and HQ depend on
    the move: move_net), and the open rendezvous of ``p`` it fulfils (F_RB)."""
    pb = _pl(p)
    row = p * PW
    v = 0.0
    if cl == CL_COIN:
        v = pp[row + G_WCOIN]
    elif cl == CL_PIRATE:
        R_left = s[S_RULES + R.num_rounds] - s[S_ROUND] + 1
        v = (pp[row + G_WREC] * R_left + pp[row + G_WHAND]) if s[pb + PL_RESERVE] >= 1 else 0.0
    elif cl == CL_SUP:
        v = sup_value(s, fb, pp, p)
    elif cl == CL_RDV:
        if st_n(s, ST_RDV) > 0:
            v = RDV_MEAN * pp[row + G_PRDV]
            if s[S_ROUND] == s[S_RULES + R.num_rounds]:
                v = v / 2
    elif CL_MAP_R <= cl <= CL_MAP_Y:
        map_values(s, fb, pp, p)
        v = fb[F_MAPM + 6 * p + 3 + cl - CL_MAP_R]
    elif CL_PUB_R <= cl <= CL_PUB_G:
        pub_values(s, fb, pp, p)
        v = fb[F_PUBM + 5 * p + 2 + cl - CL_PUB_R]
    elif cl == CL_CHEST:
        v = chest_class_value(s, fb)
    elif cl == CL_RUM:
        v = s[S_RULES + R.rum_per_visit] * pp[row + G_WRUM]
    fb[F_CV + cl] = v
    b = 0.0
    for j in range(s[pb + PL_N_RDV]):
        if s[pb + PL_RDVF + j] == 0 and RDV_MATCH[s[pb + PL_RDV + j] * N_CL + cl]:
            b = float(RDV_VP[s[pb + PL_RDV + j]])
            break
    fb[F_RB + cl] = b
    s[S_CVOK + cl] = s[S_DSTAMP]


@njit(cache=True)
def all_class_values(s, fb, pp, p):
    """class_value of every class at once (the heuristic's D1/D2: its features reach corners
    two roads away); the same values, the open rendezvous in one pass over p's tiles."""
    pb = _pl(p)
    row = p * PW
    fb[F_CV + CL_COIN] = pp[row + G_WCOIN]
    fb[F_CV + CL_HQ] = 0.0
    R_left = s[S_RULES + R.num_rounds] - s[S_ROUND] + 1
    fb[F_CV + CL_PIRATE] = (pp[row + G_WREC] * R_left + pp[row + G_WHAND]) \
        if s[pb + PL_RESERVE] >= 1 else 0.0
    fb[F_CV + CL_SUP] = sup_value(s, fb, pp, p)
    v = 0.0
    if st_n(s, ST_RDV) > 0:
        v = RDV_MEAN * pp[row + G_PRDV]
        if s[S_ROUND] == s[S_RULES + R.num_rounds]:
            v = v / 2
    fb[F_CV + CL_RDV] = v
    map_values(s, fb, pp, p)
    pub_values(s, fb, pp, p)
    for ci in range(3):
        fb[F_CV + CL_MAP_R + ci] = fb[F_MAPM + 6 * p + 3 + ci]
        fb[F_CV + CL_PUB_R + ci] = fb[F_PUBM + 5 * p + 2 + ci]
    fb[F_CV + CL_CHEST] = chest_class_value(s, fb)
    fb[F_CV + CL_RUM] = s[S_RULES + R.rum_per_visit] * pp[row + G_WRUM]
    fb[F_CV + CL_GUARD] = 0.0
    # the first open rendezvous (holding order) matching each class
    for cl in range(N_CL):
        fb[F_RB + cl] = 0.0
    unset = (1 << N_CL) - 1
    for j in range(s[pb + PL_N_RDV]):
        if unset == 0:
            break
        if s[pb + PL_RDVF + j] == 0:
            t = s[pb + PL_RDV + j]
            m = RDV_CMASK[t] & unset
            if m != 0:
                vp = float(RDV_VP[t])
                for cl in range(N_CL):
                    if m >> cl & 1:
                        fb[F_RB + cl] = vp
                unset &= ~m
    k = s[S_DSTAMP]
    for cl in range(N_CL):
        s[S_CVOK + cl] = k


@njit(cache=True)
def hq_own(s, p):
    """What hq_best reads of p's own roads and halves, once per decision (S_HQC)."""
    k = s[S_DSTAMP]
    if s[S_HQC] == k and s[S_HQC + 1] == p:
        return
    road = 0
    for r in range(NR):
        if s[S_ROWN + r] == p and s[S_RL + r] > road:
            road = s[S_RL + r]
    a = 0
    b = 0
    cnt = 0
    pair = 0
    if s[S_RULES + R.hq_dark_pair_any] != 0:
        for d in range(ND):
            if s[S_DOWN + d] == p:
                v = s[S_DL + d]
                cnt += 1
                if v > a:
                    b = a
                    a = v
                elif v > b:
                    b = v
    else:
        for d in range(ND):
            e = s[S_DPART + d]
            if s[S_DOWN + d] == p and e > d and s[S_DOWN + e] == p:
                if s[S_DL + d] + s[S_DL + e] > pair:
                    pair = s[S_DL + d] + s[S_DL + e]
    s[S_HQC] = k
    s[S_HQC + 1] = p
    s[S_HQC + 2] = road
    s[S_HQC + 3] = a
    s[S_HQC + 4] = b
    s[S_HQC + 5] = cnt
    s[S_HQC + 6] = pair


@njit(cache=True)
def hq_best(s, p, o):
    """Most pirates one legal reclaim returns after move ``o`` of ``p`` is placed (p's own part
    from hq_own; the move's road or halves are free, so they add to it)."""
    hq_own(s, p)
    best = s[S_HQC + 2]
    if o < O_DARK:
        if s[S_RL + o] > best:
            best = s[S_RL + o]
        if s[S_RULES + R.hq_dark_pair_any] != 0:
            if s[S_HQC + 5] >= 2 and s[S_HQC + 3] + s[S_HQC + 4] > best:
                best = s[S_HQC + 3] + s[S_HQC + 4]
        elif s[S_HQC + 6] > best:
            best = s[S_HQC + 6]
        return best
    lx = s[S_DL + (o - O_DARK) // ND]
    ly = s[S_DL + (o - O_DARK) % ND]
    if s[S_RULES + R.hq_dark_pair_any] != 0:
        a = s[S_HQC + 3]
        b = s[S_HQC + 4]
        for v in (lx, ly):
            if v > a:
                b = a
                a = v
            elif v > b:
                b = v
        if a + b > best:     # at least the move's two halves
            best = a + b
    else:
        if lx + ly > best:
            best = lx + ly
        if s[S_HQC + 6] > best:
            best = s[S_HQC + 6]
    return best


@njit(cache=True)
def move_net(s, fb, pp, p, i, again):
    cost = s[S_OCOST + i]
    row = p * PW
    cl = CLASS[s[S_ODEST + i]]
    if s[S_CVOK + cl] != s[S_DSTAMP]:
        class_value(s, fb, pp, p, cl)
    if cl == CL_GUARD:
        v = fb[guard_table(s, fb, pp, p) + s[_pl(p) + PL_HAND] - cost]
    elif cl == CL_HQ:
        v = pp[row + G_WHAND] * hq_best(s, p, s[S_OPT + i])
    elif CL_MAP_R <= cl <= CL_MAP_Y and \
            s[_pl(p) + PL_COINS] - s[S_OCOIN + i] - again < s[S_RULES + R.map_price]:
        v = 0.0
    else:
        v = fb[F_CV + cl]
    v = v + fb[F_RB + cl]
    return v - pp[row + G_WHAND] * cost - pp[row + G_WCOIN] * (s[S_OCOIN + i] + again)


@njit(cache=True)
def greedy_move(s, fb, pp, p, n, again, must):
    """Greedy's best move among S_OPT[0:n] (-1 if its net is below tau, unless it ``must``
    move: its restriction left only moves)."""
    prep_values(s, fb, pp, p)
    best = -1
    bv = 0.0
    for i in range(n):
        v = move_net(s, fb, pp, p, i, again)
        if best < 0 or v > bv + TOL:
            best = i
            bv = v
    if best >= 0 and (must or bv >= pp[p * PW + G_TAU] - TOL):
        return best
    return -1


# ================================================================ heuristic (policies.HeuristicPolicy)


@njit(cache=True)
def round_weights(s, fb, b, row):
    """The heuristic row at ``fb[b:]``'s coin, rum and new-rendezvous worth in this round,
    into the row at ``fb[row:]``."""
    r = s[S_ROUND]
    rounds = s[S_RULES + R.num_rounds]
    last = r == rounds
    fb[row + G_WCOIN] = fb[b + G_WCOIN] + fb[b + H_COINR] * (r - 1) + \
        (fb[b + H_COINL] if last else 0.0)
    fb[row + G_WRUM] = fb[b + G_WRUM] + (fb[b + H_RUML] if last else 0.0)
    fb[row + G_PRDV] = fb[b + G_PRDV] + fb[b + H_RDVR] * (rounds - r)


@njit(cache=True)
def heur_round_weights(s, fb, P):
    """A heuristic seat's (or a rollout seat's over the expert's) coin, rum and new-rendezvous
    worth in this round, into its F_POL row (from its declared row at F_HBASE): what every
    greedy read of them then sees."""
    for p in range(P):
        if fb[F_HBASE + p * PW] != HEUR:
            continue
        round_weights(s, fb, F_HBASE + p * PW, F_POL + p * PW)


@njit(cache=True)
def playout_rows(s, fb, p):
    """A playout of ``p``'s decision: every seat's row (F_POPOL) is p's base row, a heuristic
    one at the weights of the round ``s`` is in."""
    b = F_PBASE + p * PW
    heur = fb[b] == HEUR
    for q in range(s[S_P]):
        row = F_POPOL + q * PW
        for j in range(PW):
            fb[row + j] = fb[b + j]
        if heur:
            round_weights(s, fb, b, row)


@njit(cache=True)
def heur_gift(s, fb, d, road, hand, w_hand, gt):
    """HeuristicPolicy.gift of a move to ``d`` along ``road`` (-1: a dark move) for a next
    player with ``hand`` pirates: the best (at least 0) corner_value - w_hand * len over the
    free roads at d but ``road`` that the hand pays. corner_value from the decision's class
    values (F_CV, HQ 0) and the mover's guard table ``gt``; no branch on the roads."""
    best = 0.0
    for j in range(s[S_NCR + d]):
        r = s[S_CR + d * 5 + j]
        n = s[S_RL + r]
        cl = CLASS[s[S_CRF + d * 5 + j]]
        gv = fb[gt + max(hand - n, 0)]
        cv = fb[F_CV + cl]
        x = (gv if cl == CL_GUARD else cv) - w_hand * n
        ok = (r != road) & (s[S_ROWN + r] == -1) & (n <= hand) & (x > best)
        best = x if ok else best
    return best


@njit(cache=True)
def heur_cont(s, fb, d, road, hand, again_next, w_hand, w_coin, gt):
    """HeuristicPolicy.cont of a move to ``d`` along ``road`` (-1: dark) leaving me ``hand``
    pirates (the coin test is the caller's): my best next road from d with its rendezvous
    bonus, less the move-again coin, at least 0. As heur_gift."""
    best = 0.0
    for j in range(s[S_NCR + d]):
        r = s[S_CR + d * 5 + j]
        n = s[S_RL + r]
        cl = CLASS[s[S_CRF + d * 5 + j]]
        gv = fb[gt + max(hand - n, 0)]
        cv = fb[F_CV + cl]
        x = ((gv if cl == CL_GUARD else cv) + fb[F_RB + cl]) - w_hand * n - w_coin * again_next
        ok = (r != road) & (s[S_ROWN + r] == -1) & (n <= hand) & (x > best)
        best = x if ok else best
    return best


@njit(cache=True)
def heur_move(s, fb, pp, p, n, again, lone, must):
    """The heuristic's best move among S_OPT[0:n] (-1 if its net is below its threshold,
    unless it ``must`` move: its restriction left only moves).

    The nets are HeuristicPolicy.net's, in its float order, scanned as greedy scans (a later
    move must be better by more than TOL). Every class value is computed up front
    (all_class_values) and every guard value read from the seat's table (guard_table), so
    a move's net and features are table look-ups without branches on the corners."""
    prep_values(s, fb, pp, p)
    P = s[S_P]
    row = p * PW
    w_deny = pp[row + H_DENY]
    w_cont = pp[row + H_CONT]
    w_bb = pp[row + H_BUNKB]
    w_ba = pp[row + H_BUNKA]
    w_hand = pp[row + G_WHAND]
    w_coin = pp[row + G_WCOIN]
    # the situation (HeuristicPolicy.situation)
    boarded = 0
    longest = 0
    largest = 0
    for q in range(P):
        if q == p:
            continue
        qb = _pl(q)
        if s[qb + PL_BOARDED]:
            boarded += 1
            longest = max(longest, s[qb + PL_MAST])
        elif is_active(s, q):
            largest = max(largest, s[qb + PL_HAND])
    nxt = -1
    for k in range(1, P):
        q = (p + k) % P
        if is_active(s, q):
            nxt = q
            break
    gift_on = w_deny != 0.0 and nxt >= 0     # no next player: a gift of 0 (v - w_deny * 0)
    hand_nxt = s[_pl(nxt) + PL_HAND] if nxt >= 0 else 0
    again_next = again_coin(s, lone, False)
    pb = _pl(p)
    h = s[pb + PL_HAND]
    coins = s[pb + PL_COINS]
    recruit = 1 if s[pb + PL_RESERVE] >= 1 else 0
    price = s[S_RULES + R.map_price]
    all_class_values(s, fb, pp, p)
    gt = guard_table(s, fb, pp, p)
    lim_b = longest + 1
    lim_a = largest + 1
    best = -1
    bv = 0.0
    for i in range(n):
        d = s[S_ODEST + i]
        o = s[S_OPT + i]
        cost = s[S_OCOST + i]
        ocoin = s[S_OCOIN + i]
        cl = CLASS[d]
        hq = hq_best(s, p, o) if cl == CL_HQ else 0
        # greedy's net (move_net)
        gv = fb[gt + h - cost]
        cv = fb[F_CV + cl]
        unaffordable = (cl >= CL_MAP_R) & (cl <= CL_MAP_Y) & (coins - ocoin - again < price)
        v = gv if cl == CL_GUARD else (w_hand * hq if cl == CL_HQ else
                                      (0.0 if unaffordable else cv))
        v = v + fb[F_RB + cl]
        v = v - w_hand * cost - w_coin * (ocoin + again)
        # the features (HeuristicPolicy.net)
        road = o if o < O_DARK else -1
        if w_deny != 0.0:
            g = heur_gift(s, fb, d, road, hand_nxt, w_hand, gt) if gift_on else 0.0
            v = v - w_deny * g
        if w_cont != 0.0:
            c = 0.0 if coins - ocoin - again < again_next else \
                heur_cont(s, fb, d, road, h - cost, again_next, w_hand, w_coin, gt)
            v = v + w_cont * c
        if w_bb != 0.0 or w_ba != 0.0:
            # HeuristicPolicy.hand_after: the pirates paid, a recruit, HQ's largest reclaim
            h2 = h - cost + (recruit if cl == CL_PIRATE else 0) + hq
            if w_bb != 0.0:
                v = v + w_bb * (min(h2, lim_b) - min(h, lim_b))
            if w_ba != 0.0:
                v = v + w_ba * (min(h2, lim_a) - min(h, lim_a))
        fb[F_NET + i] = v   # the rollout ranks its candidates by them
        better = (best < 0) | (v > bv + TOL)
        best = i if better else best
        bv = v if better else bv
    tau = pp[row + G_TAU] + pp[row + H_TAUB] * boarded
    if best >= 0 and (must or bv >= tau - TOL):
        return best
    return -1


@njit(cache=True)
def d1_heur(s, fb, pp, p, n, rest_ok, board_ok, lone):
    k = heur_move(s, fb, pp, p, n, 0, lone, not (rest_ok or board_ok)) if n > 0 else -1
    if k >= 0:
        return k
    return no_move(n, rest_ok, board_ok)


@njit(cache=True)
def d2_heur(s, fb, pp, p, n, again, stop_ok, board_opt, lone):
    k = heur_move(s, fb, pp, p, n, again, lone, not (stop_ok or board_opt)) if n > 0 else -1
    if k >= 0:
        return k
    return no_move(n, stop_ok, board_opt)


# ================================================================ turns (spec 5.2)


@njit(cache=True)
def d1_options(s, p):
    """D1 of ``p``: (moves, rest legal, board legal)."""
    pb = _pl(p)
    n = enum_moves(s, p, 0, 0)
    rest_ok = s[pb + PL_COINS] >= s[S_RULES + R.rest_coin]
    board_ok = s[pb + PL_HAND] >= 1
    return n, rest_ok, board_ok


@njit(cache=True, inline="always")
def no_move(n, a_ok, board_ok):
    """D1 / D2 when no move is worth making (policies.GreedyPolicy.no_move): BOARD, else the
    option after the moves (D1 REST, D2 STOP)."""
    if board_ok:
        return n + (1 if a_ok else 0)
    return n


@njit(cache=True)
def d1_greedy(s, fb, pp, p, n, rest_ok, board_ok):
    k = greedy_move(s, fb, pp, p, n, 0, not (rest_ok or board_ok)) if n > 0 else -1
    if k >= 0:
        return k
    return no_move(n, rest_ok, board_ok)


@njit(cache=True)
def d2_options(s, p, again):
    n = enum_moves(s, p, again, 0)
    board_opt = s[S_RULES + R.board_after_move_same_turn] != 0 and s[_pl(p) + PL_HAND] >= 1
    return n, board_opt


@njit(cache=True)
def d2_greedy(s, fb, pp, p, n, again, stop_ok, board_opt):
    k = greedy_move(s, fb, pp, p, n, again, not (stop_ok or board_opt)) if n > 0 else -1
    if k >= 0:
        return k
    return no_move(n, stop_ok, board_opt)


@njit(cache=True)
def apply_d1(s, p, k, n, rest_ok):
    """REST or BOARD of D1 (k >= n)."""
    if rest_ok and k == n:
        rest(s, p)
    else:
        board_player(s, p)


@njit(cache=True)
def d1_options_kept(s, p):
    """D1 of ``p`` as its restriction leaves it: (moves, rest kept, board kept)."""
    n, rest_ok, board_ok = d1_options(s, p)
    return narrow(s, p, n, K_REST, rest_ok, K_BOARD, board_ok)


@njit(cache=True)
def took_d1(s, p, k, n, rest_ok):
    """Count option ``k`` of a D1 (moves, REST when ``rest_ok``, BOARD)."""
    if k < n:
        took(s, p, move_kind(s, k))
    elif rest_ok and k == n:
        took(s, p, K_REST)
    else:
        took(s, p, K_BOARD)


# ---- the real game's drivers (every policy)


@njit(cache=True)
def after_move(s, fb, pp, rng, p, lone, free_next):
    while True:
        again = again_coin(s, lone, free_next)
        n, board_opt = d2_options(s, p, again)
        if n == 0 and not board_opt:
            break
        n, stop_ok, board_opt = narrow(s, p, n, NO_KIND, True, K_BOARD, board_opt)
        nopt = n + (1 if stop_ok else 0) + (1 if board_opt else 0)
        code = s[S_CODE + p]
        if nopt == 1:
            k = 0
        elif code == RANDOM:
            k = rng_below(_seat_rng(rng, p), nopt)
        elif code == ROLLOUT:
            k = rollout_decide(s, fb, pp, rng, p, n, 1, again, lone, stop_ok, board_opt)
        elif code == HEUR:
            k = d2_heur(s, fb, pp, p, n, again, stop_ok, board_opt, lone)
        else:
            k = d2_greedy(s, fb, pp, p, n, again, stop_ok, board_opt)
        if k < n:
            took(s, p, move_kind(s, k))
            free_next = do_move(s, fb, pp, rng, p, k, again) and \
                s[S_RULES + R.dead_end_next_move_free] != 0
            continue
        if stop_ok and k == n:
            break
        took(s, p, K_BOARD)
        board_player(s, p)
        return
    end_move_turn(s, p)


@njit(cache=True)
def turn(s, fb, pp, rng, p, lone):
    n, rest_ok, board_ok = d1_options_kept(s, p)
    nopt = n + (1 if rest_ok else 0) + (1 if board_ok else 0)
    if nopt == 1:
        k = 0
    else:
        code = s[S_CODE + p]
        if code == RANDOM:
            k = rng_below(_seat_rng(rng, p), nopt)
        elif code == ROLLOUT:
            k = rollout_decide(s, fb, pp, rng, p, n, 0, 0, lone, rest_ok, board_ok)
        elif code == HEUR:
            k = d1_heur(s, fb, pp, p, n, rest_ok, board_ok, lone)
        else:
            k = d1_greedy(s, fb, pp, p, n, rest_ok, board_ok)
    took_d1(s, p, k, n, rest_ok)
    if k < n:
        fn = do_move(s, fb, pp, rng, p, k, 0) and s[S_RULES + R.dead_end_next_move_free] != 0
        after_move(s, fb, pp, rng, p, lone, fn)
    else:
        apply_d1(s, p, k, n, rest_ok)


@njit(cache=True)
def action_phase(s, fb, pp, rng):
    """The turns of this round from S_CUR on, until nobody is active (False: too many turns)."""
    P = s[S_P]
    limit = s[S_RULES + R.max_turns_per_round]
    while True:
        n = count_active(s)
        if n == 0:
            return True
        cur = s[S_CUR]
        if not is_active(s, cur):
            s[S_CUR] = (cur + 1) % P
            continue
        if s[S_RTURNS] >= limit:
            s[S_FAIL] = 1
            return False
        s[S_RTURNS] += 1
        s[S_TURNS] += 1
        turn(s, fb, pp, rng, cur, n == 1)
        if s[S_FAIL]:
            return False
        s[S_CUR] = (cur + 1) % P


# ---- a playout's drivers (every seat greedy or heuristic, as its row's code says: never a
# rollout decision)


@njit(cache=True)
def after_move_playout(s, fb, pp, rng, p, lone, free_next):
    heur = pp[p * PW] == HEUR
    while True:
        again = again_coin(s, lone, free_next)
        n, board_opt = d2_options(s, p, again)
        if n == 0 and not board_opt:
            break
        n, stop_ok, board_opt = narrow(s, p, n, NO_KIND, True, K_BOARD, board_opt)
        if n + (1 if stop_ok else 0) + (1 if board_opt else 0) == 1:
            k = 0
        elif heur:
            k = d2_heur(s, fb, pp, p, n, again, stop_ok, board_opt, lone)
        else:
            k = d2_greedy(s, fb, pp, p, n, again, stop_ok, board_opt)
        if k < n:
            took(s, p, move_kind(s, k))
            free_next = do_move(s, fb, pp, rng, p, k, again) and \
                s[S_RULES + R.dead_end_next_move_free] != 0
            continue
        if stop_ok and k == n:
            break
        took(s, p, K_BOARD)
        board_player(s, p)
        return
    end_move_turn(s, p)


@njit(cache=True)
def action_phase_playout(s, fb, pp, rng):
    P = s[S_P]
    limit = s[S_RULES + R.max_turns_per_round]
    while True:
        na = count_active(s)
        if na == 0:
            return True
        cur = s[S_CUR]
        if not is_active(s, cur):
            s[S_CUR] = (cur + 1) % P
            continue
        if s[S_RTURNS] >= limit:
            s[S_FAIL] = 1
            return False
        s[S_RTURNS] += 1
        s[S_TURNS] += 1
        n, rest_ok, board_ok = d1_options_kept(s, cur)
        nopt = n + (1 if rest_ok else 0) + (1 if board_ok else 0)
        if nopt == 1:
            k = 0
        elif pp[cur * PW] == HEUR:
            k = d1_heur(s, fb, pp, cur, n, rest_ok, board_ok, na == 1)
        else:
            k = d1_greedy(s, fb, pp, cur, n, rest_ok, board_ok)
        took_d1(s, cur, k, n, rest_ok)
        if k < n:
            fn = do_move(s, fb, pp, rng, cur, k, 0) and \
                s[S_RULES + R.dead_end_next_move_free] != 0
            after_move_playout(s, fb, pp, rng, cur, na == 1, fn)
        else:
            apply_d1(s, cur, k, n, rest_ok)
        s[S_CUR] = (cur + 1) % P


# ================================================================ rollout (spec 8.5, contract)


@njit(cache=True)
def resample(s, seat, rng):
    """policies.resample: what ``seat`` cannot see, re-dealt from ``rng``."""
    P = s[S_P]
    # (a) supplies
    drawn = s[_pl(seat) + PL_SUP_DRAWN]
    n = 0
    for i in range(20):
        if not drawn >> i & 1:
            s[S_POOL + n] = i
            n += 1
    rng_shuffle(rng, s, S_POOL, n)
    at = 0
    for q in range(P):
        if q == seat:
            continue
        qb = _pl(q)
        mask = s[qb + PL_SUP_KEPT]
        sold = s[qb + PL_SUP_DRAWN] & ~mask
        k = 0
        for i in range(20):
            k += mask >> i & 1
        new = 0
        for _ in range(k):
            new |= 1 << s[S_POOL + at]
            at += 1
        s[qb + PL_SUP_KEPT] = new
        s[qb + PL_SUP_DRAWN] = new | sold
    base = S_STK + STK_OFF[ST_SUP]
    for i in range(st_n(s, ST_SUP)):
        s[base + i] = SUP_CODES[s[S_POOL + at]]
        at += 1
    # (b) rendezvous: 18 targets ascending less seat's own and others' fulfilled ones
    for t in range(9):
        s[S_TMP + t] = 2
    sb = _pl(seat)
    for j in range(s[sb + PL_N_RDV]):
        s[S_TMP + s[sb + PL_RDV + j]] -= 1
    for q in range(P):
        if q == seat:
            continue
        qb = _pl(q)
        for j in range(s[qb + PL_N_RDV]):
            if s[qb + PL_RDVF + j]:
                s[S_TMP + s[qb + PL_RDV + j]] -= 1
    n = 0
    for t in range(9):
        for _ in range(s[S_TMP + t]):
            s[S_POOL + n] = t
            n += 1
    rng_shuffle(rng, s, S_POOL, n)
    at = 0
    for q in range(P):
        if q == seat:
            continue
        qb = _pl(q)
        for j in range(s[qb + PL_N_RDV]):
            if not s[qb + PL_RDVF + j]:
                s[qb + PL_RDV + j] = s[S_POOL + at]
                at += 1
    base = S_STK + STK_OFF[ST_RDV]
    for i in range(st_n(s, ST_RDV)):
        s[base + i] = s[S_POOL + at]
        at += 1
    # (c) the other stacks, shuffled in place
    for k in range(11):
        if k == ST_SUP or k == ST_RDV:
            continue
        rng_shuffle(rng, s, S_STK + STK_OFF[k], st_n(s, k))


@njit(cache=True)
def copy_state(src, dst):
    """The state but the board (S_BOARD_LO .. S_BOARD_HI), from ``src`` to ``dst``."""
    for i in range(S_BOARD_LO):
        dst[i] = src[i]
    for i in range(S_BOARD_HI, S_GAME_END):
        dst[i] = src[i]


@njit(cache=True)
def playout(s, fb, p, k, decision, n, again, lone, a_ok):
    """One playout of candidate ``k`` of decision 0 (D1) or 1 (D2) of ``p`` from the re-dealt
    sample at S_SAMPLE (its world stream at S_RO_DEALT); its value (``a_ok``: the option
    after the moves, D1 REST or D2 STOP, is one of the seat's options). The playout's floats
    (F_COPY) keep their remembered values from playout to playout of a decision: each is
    keyed by what it reads of the state, and every seat's row is the same all decision."""
    c = _padd(s, S_COPY)
    copy_state(_padd(s, S_SAMPLE), c)
    for i in range(n):
        c[S_OPT + i] = s[S_OPT + i]
        c[S_OCOST + i] = s[S_OCOST + i]
        c[S_OCOIN + i] = s[S_OCOIN + i]
    c[S_FORCEDF] = s[S_FORCEDF]
    rng = as_words(_padd(s, S_RO_RNG))
    dealt = as_words(_padd(s, S_RO_DEALT))
    for i in range(4):
        rng[i] = dealt[i]
    cf = _padd(fb, F_COPY)
    pp = _padd(fb, F_POPOL)
    heur = fb[F_PBASE + p * PW] == HEUR
    if heur:   # a horizon-1 playout left the rows at a later round's weights
        playout_rows(c, fb, p)
    P = c[S_P]
    if decision == 0:
        if k < n:
            fn = do_move(c, cf, pp, rng, p, k, 0) and c[S_RULES + R.dead_end_next_move_free] != 0
            after_move_playout(c, cf, pp, rng, p, lone, fn)
        else:
            apply_d1(c, p, k, n, a_ok)
    else:
        if k < n:
            fn = do_move(c, cf, pp, rng, p, k, again) and \
                c[S_RULES + R.dead_end_next_move_free] != 0
            after_move_playout(c, cf, pp, rng, p, lone, fn)
        elif a_ok and k == n:
            end_move_turn(c, p)
        else:
            board_player(c, p)
    c[S_CUR] = (p + 1) % P
    horizon = s[S_RO_HORIZON + p]
    while True:
        if not action_phase_playout(c, cf, pp, rng):
            s[S_FAIL] = 1
            return 0.0
        end_round(c, pp, rng)
        if horizon == 0 or c[S_ROUND] >= c[S_RULES + R.num_rounds]:
            break
        begin_round(c)
        if heur:
            playout_rows(c, fb, p)
    extras = horizon == 0
    own = playout_side(c, pp, p, extras)
    best = 0.0
    first = True
    for q in range(P):
        if q != p:
            v = playout_side(c, pp, q, extras)
            if first or v > best:
                best = v
                first = False
    return own - best


@njit(cache=True)
def playout_side(c, pp, q, extras):
    """q's worth at the end of a playout: its score, at horizon 0 (``extras``) plus its coins,
    rum and open rendezvous at the base's weights of the round (greedy's: its defaults)."""
    v = float(score_of(c, q))
    if extras:
        pb = _pl(q)
        open_v = 0
        for j in range(c[pb + PL_N_RDV]):
            if c[pb + PL_RDVF + j] == 0:
                open_v += RDV_VP[c[pb + PL_RDV + j]]
        row = q * PW
        v += pp[row + G_WCOIN] * c[pb + PL_COINS] + pp[row + G_WRUM] * c[pb + PL_RUM] \
            + pp[row + G_PRDV] * open_v
    return v


@njit(cache=True)
def rollout_decide(s, fb, pp, rng, p, n, decision, again, lone, a_ok, board_ok):
    """RolloutPolicy at D1 (decision 0) or D2 (1) over the n moves at S_OPT, then the option
    after them when ``a_ok`` (D1 REST, D2 STOP), then BOARD when ``board_ok`` (D2: under
    board_after_move_same_turn), each as the seat's restriction leaves them; the chosen
    option's index in the decision's option order."""
    # the base's nets (its own row: F_POL holds a rollout seat's base row)
    if n > 0:
        if pp[p * PW] == HEUR:
            heur_move(s, fb, pp, p, n, again, lone, False)
        else:
            prep_values(s, fb, pp, p)
            for i in range(n):
                fb[F_NET + i] = move_net(s, fb, pp, p, i, again)
    for i in range(n):
        s[S_RO_PICK + i] = 0
    width = min(s[S_RO_WIDTH + p], n)
    for _ in range(width):
        best = -1
        for i in range(n):
            if s[S_RO_PICK + i] == 0 and (best < 0 or fb[F_NET + i] > fb[F_NET + best]):
                best = i
        s[S_RO_PICK + best] = 1
    # the candidates: the chosen moves, REST (D1) or STOP (D2), BOARD (READINGS.md "further
    # readings" 8: D2's STOP and BOARD both)
    nc = 0
    for i in range(n):
        if s[S_RO_PICK + i]:
            s[S_RO_PICK + MAX_OPT + nc] = i
            nc += 1
    if a_ok:
        s[S_RO_PICK + MAX_OPT + nc] = n
        nc += 1
    if board_ok:
        s[S_RO_PICK + MAX_OPT + nc] = n + (1 if a_ok else 0)
        nc += 1
    if nc == 1:
        return s[S_RO_PICK + MAX_OPT]
    playout_rows(s, fb, p)
    samples = s[S_RO_SAMPLES + p]
    own = _seat_rng(rng, p)
    for j in range(samples):
        s[S_RO_WORDS + j] = np.int64(rng_next(own))
    # each word's re-deal is made once and played from by every candidate in turn (common
    # random numbers); a candidate's sum adds its playouts in word order
    sample = _padd(s, S_SAMPLE)
    copy = _padd(s, S_COPY)
    for i in range(S_BOARD_LO, S_BOARD_HI):
        sample[i] = s[i]
        copy[i] = s[i]
    memo_reset(_padd(fb, F_COPY))   # the playouts' players are not the game's
    for ci in range(nc):
        fb[F_RO_SUM + ci] = 0.0
    world = as_words(_padd(s, S_RO_RNG))
    for j in range(samples):
        copy_state(s, sample)
        rng_seed(world, np.uint64(s[S_RO_WORDS + j]), np.uint64(0), np.uint64(0))
        resample(sample, p, world)
        dealt = as_words(_padd(s, S_RO_DEALT))
        for i in range(4):
            dealt[i] = world[i]
        for ci in range(nc):
            k = s[S_RO_PICK + MAX_OPT + ci]
            fb[F_RO_SUM + ci] += playout(s, fb, p, k, decision, n, again, lone, a_ok)
    best = -1
    best_v = 0.0
    for ci in range(nc):
        total = fb[F_RO_SUM + ci]
        if best < 0 or total > best_v + TOL:
            best = s[S_RO_PICK + MAX_OPT + ci]
            best_v = total
    return best


# ================================================================ scoring (spec §7)


@njit(cache=True)
def score_of(s, p):
    """p's score; its categories into S_TMP[0:8] (CATEGORIES order)."""
    pb = _pl(p)
    t = S_TMP
    s[t + 0] = s[pb + PL_VP_PUBS]
    s[t + 1] = s[pb + PL_VP_CHESTS]
    s[t + 2] = s[pb + PL_N_SCORP] * s[S_RULES + R.scorpion_value]
    s[t + 3] = s[pb + PL_VP_GUARDS]
    s[t + 4] = s[pb + PL_VP_SLEEP]
    s[t + 5] = supply_score(s, s[pb + PL_SUP_KEPT])
    rdv = 0
    for j in range(s[pb + PL_N_RDV]):
        if s[pb + PL_RDVF + j]:
            rdv += RDV_VP[s[pb + PL_RDV + j]]
    s[t + 6] = rdv
    maps = 0
    for ci in range(3):
        maps += map_score_colour(s, pb, ci, 0)
    s[t + 7] = maps
    total = 0
    for i in range(8):
        total += s[t + i]
    return total


# ================================================================ the lead, round by round


@njit(cache=True)
def round_leader(s, P):
    """reference.leader of the scores now: the one seat on top, -1 when the top is shared."""
    best = -(1 << 40)
    seat = -1
    for p in range(P):
        sc = score_of(s, p)
        if sc > best:
            best = sc
            seat = p
        elif sc == best:
            seat = -1
    return seat



# ================================================================ one game


@njit(cache=True)
def play_one(ints, floats, rng, g, f, pol, P, seed, game, cap, out):
    """Game ``game`` of ``seed`` (the ``engines._fast`` contract); its row to ``out``."""
    s = ints
    fb = floats
    pp = _padd(fb, F_POL)
    setup(s, rng, P)
    for r in range(s[S_RULES + R.num_rounds]):
        begin_round(s)
        heur_round_weights(s, fb, P)
        if not action_phase(s, fb, pp, rng):
            return False
        end_round(s, pp, rng)
        s[S_LEAD + r] = round_leader(s, P)
    # the row: game, players, per seat blocks, game columns (GAME.columns order)
    out[0] = game
    out[1] = P
    c = 2
    best = -(1 << 40)
    for p in range(P):
        sc = score_of(s, p)
        out[c + p] = sc
        best = max(best, sc)
        for k in range(8):
            out[c + (2 + k) * P + p] = s[S_TMP + k]
    tied = 0
    for p in range(P):
        s[S_TIED + p] = 1 if out[c + p] == best else 0
        tied += s[S_TIED + p]
    rule = s[S_RULES + R.tiebreak]
    if rule >= 1:
        mc = -1
        for p in range(P):
            if s[S_TIED + p]:
                mc = max(mc, s[_pl(p) + PL_COINS])
        for p in range(P):
            if s[S_TIED + p] and s[_pl(p) + PL_COINS] != mc:
                s[S_TIED + p] = 0
        if rule == 2:
            mr = -1
            for p in range(P):
                if s[S_TIED + p]:
                    mr = max(mr, s[_pl(p) + PL_RUM])
            for p in range(P):
                if s[S_TIED + p] and s[_pl(p) + PL_RUM] != mr:
                    s[S_TIED + p] = 0
    k = 0
    for p in range(P):
        k += s[S_TIED + p]
    for p in range(P):
        out[c + P + p] = 1.0 / k if s[S_TIED + p] else 0.0
    c += 10 * P
    for field in (PL_N_SLEEP, PL_N_PUBS, PL_N_MAPS, PL_N_SCORP, PL_COINS, PL_RUM):
        for p in range(P):
            out[c + p] = s[_pl(p) + field]
        c += P
    out[c] = s[S_RULES + R.first_start_seat]
    out[c + 1] = s[S_ROUND]
    out[c + 2] = s[S_TURNS]
    for r in range(5):
        out[c + 3 + r] = s[S_TURNS_R + r]
    c += 8
    for field in (S_MAXRT, S_MOVES, S_DARKM, S_FORCED, S_RESTS, S_DEADEND, S_HQV, S_RECRUITS,
                  S_SCONT, S_ROLLS, S_REROLLS, S_BREROLLS, S_BHOPE, S_CAGAIN, S_CDARK, S_CREST,
                  S_PUBFEES):
        out[c] = s[field]
        c += 1
    out[c] = 1 if s[S_CHEST] < 0 else 0
    out[c + 1] = 1 if st_n(s, ST_PUBS) == 0 else 0
    out[c + 2] = 1 if st_n(s, ST_BIG) == 0 else 0
    out[c + 3] = tied
    changes, half = lead_story_at(s, S_LEAD, s[S_ROUND])
    out[c + 4] = changes
    out[c + 5] = half
    c += 6
    # took_<choice>_<seat>, by choice then seat (GameInfo.columns)
    for k in range(N_CHOICES):
        for p in range(P):
            out[c] = s[S_TOOK + k * MAX_P + p]
            c += 1
    return True


@njit(cache=True)
def setup_block(ints, floats, g, f, pol, P, cap):
    """Once per block: the rules, the seats' policies and rows, the sting chances."""
    s = ints
    for i in range(R.SIZE):
        s[S_RULES + i] = g[i]
    for p in range(P):
        code = int(pol[p * PW])
        s[S_CODE + p] = code
        # the seat's restriction, from its own row (never its search's base row)
        s[S_FORBID + p] = int(pol[p * PW + FORBID_COLUMN])
        s[S_FORCE + p] = int(pol[p * PW + FORCE_COLUMN])
        ro = code == ROLLOUT
        s[S_RO_SAMPLES + p] = int(pol[p * PW + ROLLOUT_AT.samples]) if ro else 0
        s[S_RO_WIDTH + p] = int(pol[p * PW + ROLLOUT_AT.width]) if ro else 0
        s[S_RO_HORIZON + p] = int(pol[p * PW + ROLLOUT_AT.horizon]) if ro else 0
        # a rollout seat plays its base (row P + p of pol) with its own reroll_can_win
        for j in range(PW):
            base = pol[(P + p) * PW + j] if ro else GREEDY_ROW[j]
            if ro:
                v = pol[p * PW + ROLLOUT_AT.reroll_can_win] if j == G_RCW else base
            else:
                v = pol[p * PW + j]
            floats[F_POL + p * PW + j] = v
            floats[F_POPOL + p * PW + j] = GREEDY_ROW[j]
            floats[F_HBASE + p * PW + j] = v
            floats[F_PBASE + p * PW + j] = base
    memo_reset(floats)
    # the host's sting chance (spec 8.4 programme) for every player count and threshold
    dist = np.zeros(64)
    new = np.zeros(64)
    for n in range(2, 6):
        for thr in range(22):
            floats[F_Q0 + n * 22 + thr] = sting_dp(dist, new, n, thr)
    for i in range(F_HALF):
        floats[F_COPY + i] = floats[i]
    for i in range(S_GAME_END, S_SIZE):
        s[S_COPY + i] = s[i]
        s[S_SAMPLE + i] = s[i]
    for p in range(P):
        s[S_COPY + S_CODE + p] = GREEDY
        s[S_SAMPLE + S_CODE + p] = GREEDY


@njit(cache=True)
def sting_dp(dist, new, n, thr):
    if thr <= 0:
        return 1.0
    for t in range(64):
        dist[t] = 0.0
    dist[0] = 1.0
    lo = 0
    hi = 0
    q0 = 0.0
    k = 0
    while lo <= hi:
        for t in range(64):
            new[t] = 0.0
        nlo = 64
        nhi = -1
        for total in range(lo, hi + 1):
            pr = dist[total]
            if pr == 0.0:
                continue
            for face in range(1, 7):
                if total + face >= thr:
                    if k % n == 0:
                        q0 += pr / 6
                else:
                    new[total + face] += pr / 6
                    nlo = min(nlo, total + face)
                    nhi = max(nhi, total + face)
        for t in range(64):
            dist[t] = new[t]
        lo = nlo
        hi = nhi
        k += 1
    return q0


def sizes(g: np.ndarray, players: int, cap: int) -> tuple[int, int]:
    """The state with its per-block tables and scratch, a playout's copy and the rollout's
    scratch; the floats."""
    return N_INT, F_SIZE


FAST = fast_path(__name__, play_one, sizes, setup_block=setup_block)
