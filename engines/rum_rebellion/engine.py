"""Rum Rebellion, the Numba fast path: the same games as ``reference.py``, draw for draw.

This module owns the flat-state engine. A whole game lives in ONE int64 array
``s``: a fixed header of scalars and per-seat fields at the named offsets
``S_*`` below (``MAXP`` slots per seat field), followed by regions whose size
depends on the rules and whose offsets are stored in the header (``S_O_*``):
the Win/Lose deck, the Court Verdict deck, the Vote pack, every seat's Vote
cards and the promissory notes. ``engines._fast`` runs the games (``FAST`` at
the end of this module) and hands ``play_one`` everything as typed pointers:
the rules ``g``, read-only, ``Rules.encode()`` at the indices
``R = Rules.slots()`` followed by the printed data of :func:`encode_data`
(boards, canonical decks, the Vote cards' values and prices) at the ``G_*``
offsets; ``f``, ``Rules.encode_float()`` (``F``); ``pol``, seat p's
``Policy.encode()`` (code, risk) at ``pol[p * PW]``; ``rg``, the generator
states: words 0-3 the world stream, words ``4 + 4 * seat`` that seat's policy
stream (:func:`_pbelow` draws from it with the state in locals).

Every step of the turn (spec §4.3) is a small ``@njit`` function mirroring the
function of the same name in ``reference.py``; the replay contract (which
stream draws what, in which order) is the one in the reference's module
docstring. The containers of the reference map onto flat arrays as follows:

* Win/Lose and Court Verdict decks: a drawn card goes under the deck, so a
  deck is a ring with a head index; a shuffle first rotates the ring so the
  top is at index 0, then runs Fisher-Yates on it (the reference shuffles the
  list top first). "Cards seen since the last shuffle" (the side-bet odds) is
  two counters: after a full cycle the next card is the ring's head.
* Vote pack: ``pack[head : head + n]``, top first; cards returned after a
  failed coup go under it (the region is compacted when it reaches its end).
* A seat's Vote cards: card ids in the order received (oldest first).
* Notes: four ints each (debtor, holder (-1 = the Store), face, issued at
  pass), oldest first; the list order is the reference's note-id order, so
  "ties oldest first" is "lower index first". ``S_NOWED + p`` counts the notes
  ``p`` owes, so "owes notes" costs nothing.

Notes are the one container without a bound from the rules: the region holds
``note_cap`` notes, and a game that would write more stops and is flagged
(``S_OVERFLOW``); ``play_one`` returns False and the driver replays those
games with a larger region (``notes_capacity``), so the flag never changes a
result. After the state ``play_one`` keeps the leader of every round (``max_rounds``
slots): the half-time round is known only when the game has ended.

Speed: arrays passed between Numba functions cost an atomic reference count
on every call (measured: 70% of the run time, the shared arrays' counters
bouncing between cores); the driver's typed pointers cost nothing. The turn's
steps are inlined into ``take_turn`` (another 20%); the square handlers are
not, as that doubled the compile time for 8%.
"""

from __future__ import annotations

import numpy as np

from engines._fast import as_words, fast_path, offset
from engines._game import FORBID_COLUMN, FORCE_COLUMN, POLICY_WIDTH
from engines._jit import njit
from engines._restrict import is_forced_fast, kept_binary_fast
from engines._rng import rng_below, rng_below_words, rng_next, rng_seed, rng_uniform
from engines._standings import lead_story_at
from engines.rum_rebellion import (
    C_ANNOUNCE,
    C_BUY_VOTE,
    C_CHALLENGE,
    C_COMMISSION,
    C_CRIME,
    C_MAJOR_VOTE,
    C_PROMOTION,
    C_REDEEM,
    C_STORE_VOTE,
    C_TICKET,
    N_CHOICES,
    POLICIES,
)
from engines.rum_rebellion.data import (
    BO,
    BV,
    CH,
    CR,
    DU,
    GD,
    MAX_BOARD,
    MF,
    N_TICKETS,
    OC,
    PR,
    STARTING_CARD_VALUE,
    STARTING_VOTE_CARDS,
)
from engines.rum_rebellion.data import START as START_SQUARE
from engines.rum_rebellion.data import (
    encode_data as printed_data,
)
from engines.rum_rebellion.rules import F, R

# The turn's steps are inlined into take_turn (see "Speed" above); the square handlers are not.
STEP = {"cache": True}
STEP_INLINE = {**STEP, "inline": "always"}

MAXP = 6
STORE = -1                 # reference.STORE
NONE = -1                  # an unset announcement, owner, card
UNLIMITED = -1             # rules.UNLIMITED (bond_store_supply) and the Store's state then
DOUBLES_CHAIN_CAP = 1000   # reference.DOUBLES_CHAIN_CAP
WIN = 0                    # data.WIN_LOSE_CARDS codes
GO_FREE = 0                # data.COURT_VERDICT_CARDS codes
FINE = 1
GAOL = 2
CONVICT = 0
TICKET_OF_LEAVE = 1
RUM_CORPS = 2
NOTE_CAP = 64              # first size of the notes region (see the module docstring)

# the policies' codes and columns in a seat's row of ``pol`` (PolicySpec.slots)
PW = POLICY_WIDTH
RANDOM = POLICIES["random"].slots().CODE
THRESHOLD = POLICIES["threshold"].slots().CODE
BLOCKER = POLICIES["blocker"].slots().CODE
RISK = POLICIES["threshold"].slots().risk
assert POLICIES["blocker"].slots().risk == RISK, "both policies' risk is read at one column"
HEURISTIC = POLICIES["heuristic"].slots().CODE
_H = POLICIES["heuristic"].slots()
H_CRIME_LIMIT = _H.crime_limit
H_CRIME_GAIN = _H.crime_gain
H_CRIME_JAIL = _H.crime_jail
H_CRIME_NEED = _H.crime_need
H_CRIME_THREAT = _H.crime_threat
H_CHAL_VOTES = _H.chal_votes
H_CHAL_EDGE_THREAT = _H.chal_edge_threat
H_CHAL_BASE = _H.chal_base
H_CHAL_ODDS = _H.chal_odds
H_CHAL_THREAT = _H.chal_threat
H_CHAL_RISK = _H.chal_risk
H_CHAL_REACH = _H.chal_reach
H_CHAL_KNOCK = _H.chal_knock
H_VOTE_WORTH = _H.vote_worth
H_BUY_REACH = _H.buy_reach
H_ANN_BASE = _H.ann_base
H_ANN_ODDS = _H.ann_odds
H_ANN_LATER = _H.ann_later
H_ANN_THIN = _H.ann_thin
H_RC_RESERVE = _H.rc_reserve
HEURISTIC_RISK = 0.5       # the house-rule decisions it takes from threshold(0.5)
TOL = 1e-9                 # policies.TOL
ROLLOUT = POLICIES["rollout"].slots().CODE
RO_SAMPLES = POLICIES["rollout"].slots().samples
RO_CONFIDENCE = POLICIES["rollout"].slots().confidence
RO_FROM_LEVEL = POLICIES["rollout"].slots().from_level
MAX_SAMPLES = int(POLICIES["rollout"].params[0].high)

F_OWN = (1 + MAXP) * MAXP * PW   # floats: the seats' own rows (setup_block)
F_FIRST = F_OWN + MAXP * PW      # floats: a search's playouts of the base's answer

# where a turn is taken up again (reference.START ... reference.ANNOUNCE)
START = 0
COUP = 3
LEVEL_UP = 4
INCOME = 7
SQUARE = 8
ANNOUNCE = 9
# the rollout's searched decisions (policies.RolloutPolicy), 0: none
K_LEVEL_UP = 1
K_MAJOR = 2
K_CRIME = 3
K_CHALLENGE = 4
K_BUY = 5
K_ANNOUNCE = 6

# ---------------------------------------------------------------- the flat state: header
S_P = 0
S_ROUND = 1
S_TURN_ID = 2             # every turn started, skipped or played (coup_delay=next_turn_any)
S_ACTIVE = 3
S_MARKERS_GAINED = 4      # in the current turn (S10)
S_WINNER = 5              # -1 while nobody has won
S_CAPPED = 6
S_STORE = 7               # Bond Store barrels, UNLIMITED (-1) when it never runs out
S_SPELL = 8               # times the Store has been emptied (store_empty_vote_sale=once_per_event)
S_RAN_OUT = 9
S_TURNS = 10
S_COUPS = 11
S_CHALLENGES = 12
S_CRIMES = 13
S_NOTES_WRITTEN = 14
S_CAP_HITS = 15
S_BOND_SEAT = 16
S_N_NOTES = 17
S_WL_HEAD = 18
S_WL_SEEN = 19            # Win/Lose cards drawn since the last shuffle
S_WL_SEEN_WINS = 20       # ... of which WIN
S_CV_HEAD = 21
S_PACK_HEAD = 22
S_PACK_N = 23
S_TDECK_N = 24
S_OVERFLOW = 25           # the notes region was too small: the game stopped, replay it
S_NOTE_CAP = 26
S_O_WL = 27               # offsets of the variable regions
S_O_CV = 28
S_O_PACK = 29
S_O_HANDS = 30            # MAXP x n_cards: seat p's cards at S_O_HANDS + p * n_cards
S_O_NOTES = 31
S_N_CARDS = 32
S_TDECK = 33              # 6: the Ticket of Leave deck, top first
S_TOWNER = 39             # 7: the seat holding ticket k (1..6), -1 unsold
S_BETS = 46               # MAXP: each seat's side-bet call for the card being drawn (-1: none)
S_OFFERS = 52             # MAX_OFFERS x 4: the vote trades offered in S2: kind (0 ask,
                          # 1 offer), other seat, card, price
MAX_OFFERS = 4 * (MAXP - 1)
S_CV_SEEN = S_OFFERS + 4 * MAX_OFFERS   # Court Verdict cards drawn since the last shuffle
S_CV_SEEN_FINES = S_CV_SEEN + 1         # ... of which FINE
S_CV_SEEN_GAOLS = S_CV_SEEN + 2         # ... of which GAOL
# where play stands, so that a game can stop at a searched decision and go on from it
S_SEAT = S_CV_SEEN + 3    # whose turn (seat) in this round
S_CHAIN = S_SEAT + 1      # free turns from doubles the seat has had in this chain
S_SKIP = S_CHAIN + 1      # the next free turn skips S1 (doubles_after_penalty=take_anyway)
S_STEP = S_SKIP + 1       # the seat's turn goes on from this step (START: a new turn)
S_DOUBLES = S_STEP + 1    # the current turn's dice were doubles
S_FORCE_KIND = S_DOUBLES + 1  # a searched decision answered in advance (K_*; 0: none) ...
S_FORCED = S_FORCE_KIND + 1   # ... with this answer (consumed where it is next asked)
S_PENDING = S_FORCED + 1  # a searching seat stopped the game at this decision (K_*; 0: none)
S_PSTEP = S_PENDING + 1   # ... asked in this step
S_PBASE = S_PSTEP + 1     # ... where its base answers this
S_PLAYOUT = S_PBASE + 1   # 1 in a playout: each turn draws from its own world (turn_key) ...
S_WORD = S_PLAYOUT + 1    # ... seeded by the playout's word
S_SEATS = S_WORD + 1
# per seat: MAXP slots each
S_LEVEL = S_SEATS
S_POS = S_LEVEL + MAXP
S_BARRELS = S_POS + MAXP
S_VOTES = S_BARRELS + MAXP
S_MISSED = S_VOTES + MAXP
S_ROT = S_MISSED + MAXP           # rotations on the current level
S_PASSES = S_ROT + MAXP           # start_passes on all levels
S_MAJOR = S_PASSES + MAXP
S_ANN_ROUND = S_MAJOR + MAXP      # -1: no announcement
S_ANN_TURN = S_ANN_ROUND + MAXP
S_OFFER_SPELL = S_ANN_TURN + MAXP
S_NOWED = S_OFFER_SPELL + MAXP    # notes the seat owes
S_NCARDS = S_NOWED + MAXP         # Vote cards the seat holds (vote_model=cards_5_10)
S_SEARCH = S_NCARDS + MAXP        # 1: the seat searches (a rollout in the game, not a playout)
S_SAMPLES = S_SEARCH + MAXP       # a rollout seat's playouts per candidate
S_FROM_LEVEL = S_SAMPLES + MAXP   # ... and the level from which it searches
S_FORBID = S_FROM_LEVEL + MAXP    # the seat's restriction (engines._restrict), from its own
S_FORCE = S_FORBID + MAXP         # row at setup, so that a playout's copy keeps it
S_TOOK = S_FORCE + MAXP           # N_CHOICES x MAXP: times seat p took choice k, at k * MAXP + p
S_HEADER = S_TOOK + N_CHOICES * MAXP

# a note: four ints at S_O_NOTES + NOTE_SIZE * i
N_DEBTOR = 0
N_HOLDER = 1
N_FACE = 2
N_ISSUED = 3
NOTE_SIZE = 4

# ---------------------------------------------------------------- the static data ``g``
G_BLEN = R.SIZE                   # 3 board lengths (g[0:R.SIZE] is Rules.encode())
G_KIND = G_BLEN + 3               # 3 x MAX_BOARD square kinds
G_VALUE = G_KIND + 3 * MAX_BOARD  # 3 x MAX_BOARD square numbers
G_RENT = G_VALUE + 3 * MAX_BOARD  # 3 x MAX_BOARD rents
G_TRENT = G_RENT + 3 * MAX_BOARD  # 7: total rent of ticket k (1..6)
G_N_CARDS = G_TRENT + N_TICKETS + 1
G_N_WL = G_N_CARDS + 1
G_N_CV = G_N_WL + 1
G_WL_WINS = G_N_CV + 1
G_TICKETS_EACH = G_WL_WINS + 1
G_CV_FINES = G_TICKETS_EACH + 1   # FINE cards in the Court Verdict deck
G_CV_GAOLS = G_CV_FINES + 1       # GAOL cards
G_N_TENS = G_CV_GAOLS + 1
G_O_VVAL = G_N_TENS + 1           # offsets of the variable parts
G_O_VPRICE = G_O_VVAL + 1
G_O_WL0 = G_O_VPRICE + 1
G_O_CV0 = G_O_WL0 + 1
G_O_TENS = G_O_CV0 + 1            # the ids of the starting-value cards, canonical order
G_FIXED = G_O_TENS + 1

# take_turn's result bits
T_PLAYED = 1
T_DOUBLES = 2
T_PENALISED = 4


def encode_data(rules, players: int) -> np.ndarray:
    """The printed data (boards, decks, Vote cards) that follows ``Rules.encode()`` in ``g``,
    at the ``G_*`` offsets."""
    d = printed_data(rules)
    n_cards = len(d.vote_value)
    n_wl = len(d.win_lose)
    n_cv = len(d.court_verdict)
    tens = [c for c in range(n_cards) if d.vote_value[c] == STARTING_CARD_VALUE]
    size = G_FIXED + 2 * n_cards + n_wl + n_cv + len(tens)
    g = np.zeros(size, dtype=np.int64)
    g[G_BLEN:G_BLEN + 3] = d.board_len
    g[G_KIND:G_KIND + 3 * MAX_BOARD] = d.board_kind.reshape(-1)
    g[G_VALUE:G_VALUE + 3 * MAX_BOARD] = d.board_value.reshape(-1)
    g[G_RENT:G_RENT + 3 * MAX_BOARD] = d.board_rent.reshape(-1)
    g[G_TRENT:G_TRENT + N_TICKETS + 1] = d.ticket_rent
    g[G_N_CARDS] = n_cards
    g[G_N_WL] = n_wl
    g[G_N_CV] = n_cv
    g[G_WL_WINS] = int(np.sum(d.win_lose == WIN))
    g[G_TICKETS_EACH] = rules.tickets_each(players)
    g[G_CV_FINES] = int(np.sum(d.court_verdict == FINE))
    g[G_CV_GAOLS] = int(np.sum(d.court_verdict == GAOL))
    g[G_N_TENS] = len(tens)
    o = G_FIXED
    g[G_O_VVAL] = o
    g[o:o + n_cards] = d.vote_value
    o += n_cards
    g[G_O_VPRICE] = o
    g[o:o + n_cards] = d.vote_price
    o += n_cards
    g[G_O_WL0] = o
    g[o:o + n_wl] = d.win_lose
    o += n_wl
    g[G_O_CV0] = o
    g[o:o + n_cv] = d.court_verdict
    o += n_cv
    g[G_O_TENS] = o
    g[o:o + len(tens)] = tens
    return g[R.SIZE:]


@njit(cache=True)
def state_size(g, note_cap):
    """Slots of one game's state with room for ``note_cap`` promissory notes."""
    n_cards = g[G_N_CARDS]
    return (S_HEADER + g[G_N_WL] + g[G_N_CV] + n_cards + MAXP * n_cards
            + NOTE_SIZE * note_cap)


# ================================================================ small helpers


@njit(**STEP_INLINE)
def _below_at(rg, o, n):
    """``below(n)`` on the stream whose state is ``rg[o:o+4]``."""
    x, s0, s1, s2, s3 = rng_below_words(rg[o], rg[o + 1], rg[o + 2], rg[o + 3], n)
    rg[o] = s0
    rg[o + 1] = s1
    rg[o + 2] = s2
    rg[o + 3] = s3
    return x


@njit(**STEP_INLINE)
def _shuffle(rg, arr, lo, n):
    """engines._rng.rng_shuffle on the world stream, draw for draw, its state in locals."""
    s0 = rg[0]
    s1 = rg[1]
    s2 = rg[2]
    s3 = rg[3]
    for i in range(n - 1, 0, -1):
        j, s0, s1, s2, s3 = rng_below_words(s0, s1, s2, s3, i + 1)
        tmp = arr[lo + i]
        arr[lo + i] = arr[lo + j]
        arr[lo + j] = tmp
    rg[0] = s0
    rg[1] = s1
    rg[2] = s2
    rg[3] = s3


@njit(**STEP_INLINE)
def _pbelow(rg, p, n):
    """``below(n)`` on seat p's policy stream (``rg`` words ``4 + 4 * p`` ...)."""
    return _below_at(rg, 4 + 4 * p, n)


@njit(**STEP_INLINE)
def _next_seat(q, P):
    """``(q + 1) % P`` without a division: the seat loops run on every Win/Lose draw."""
    q += 1
    return 0 if q == P else q


@njit(**STEP)
def _reverse(s, lo, hi):
    hi -= 1
    while lo < hi:
        tmp = s[lo]
        s[lo] = s[hi]
        s[hi] = tmp
        lo += 1
        hi -= 1


@njit(**STEP)
def _rotate_to_top(s, o, n, head):
    """Rotate the ring ``s[o:o+n]`` so the card at ``head`` comes first (the list top first)."""
    if head != 0:
        _reverse(s, o, o + head)
        _reverse(s, o + head, o + n)
        _reverse(s, o, o + n)


@njit(**STEP_INLINE)
def _risk(pol, p):
    """The risk of threshold and blocker; heuristic's house-rule decisions are threshold(0.5)'s."""
    if int(pol[p * PW]) == HEURISTIC:
        return HEURISTIC_RISK
    return pol[p * PW + RISK]


@njit(**STEP_INLINE)
def _yes(rg, p):
    """The random policy's yes/no: ``below(2) == 0`` is the first option (spec §6.2 order)."""
    return _pbelow(rg, p, 2) == 0


@njit(**STEP_INLINE)
def buys(price, value, risk):
    """policies.buys: 10 * price <= value * (6 + 8r), the same float expression."""
    return 10 * price <= value * (6.0 + 8.0 * risk)


@njit(**STEP_INLINE)
def crime_limit(risk):
    """policies.crime_limit: floor(6r + 1e-9)."""
    return np.int64(np.floor(6.0 * risk + 1e-9))


@njit(**STEP_INLINE)
def _asks(s, p):
    """Whether seat p's decision here is a searched one: answered in advance (a playout, or
    the game going on after a search), or p searches."""
    return s[S_FORCE_KIND] != 0 or s[S_SEARCH + p] != 0


@njit(**STEP_INLINE)
def _decide(s, p, kind, step, base):
    """A searched decision (``kind``) of seat p, asked in ``step``, where its base answers
    ``base``: the answer given in advance, if any (once); else, when p searches, the game
    stops here (``S_PENDING``; the caller returns at once, nothing changed) to be searched
    and taken up again at ``step``; else ``base``."""
    if s[S_FORCE_KIND] == kind and s[S_ACTIVE] == p:
        s[S_FORCE_KIND] = 0
        return s[S_FORCED]
    if s[S_SEARCH + p] and s[S_LEVEL + p] >= s[S_FROM_LEVEL + p]:
        s[S_PENDING] = kind
        s[S_PSTEP] = step
        s[S_PBASE] = base
    return base


# ================================================================ restricted play


@njit(**STEP_INLINE)
def _restricted(s, p, choice):
    """reference.decide's restriction: seat p's yes/no whose yes is of ``choice`` is 1 (must
    say yes) or 0 (must say no) by its restriction, or -1 (the policy chooses)."""
    return kept_binary_fast(choice, s[S_FORBID + p], s[S_FORCE + p])


@njit(**STEP_INLINE)
def _took(s, p, choice):
    s[S_TOOK + choice * MAXP + p] += 1


# ================================================================ the Bond Store


@njit(**STEP_INLINE)
def store_pays(s, g, p, amount):
    """reference.store_pays: the Store pays ``amount``, or what it can (store_shortfall)."""
    if amount <= 0:
        return 0
    st = s[S_STORE]
    if st == UNLIMITED or st >= amount:
        paid = amount
    else:
        s[S_RAN_OUT] = 1
        paid = st if g[R.store_shortfall] == 0 else 0
    if st != UNLIMITED:
        s[S_STORE] = st - paid
        if paid != 0 and st - paid == 0:
            s[S_SPELL] += 1
    s[S_BARRELS + p] += paid
    return paid


@njit(**STEP_INLINE)
def pay_store(s, p, amount):
    if amount <= 0:
        return
    s[S_BARRELS + p] -= amount
    if s[S_STORE] != UNLIMITED:
        s[S_STORE] += amount


@njit(**STEP_INLINE)
def pay_player(s, d, c, amount):
    if amount <= 0:
        return
    s[S_BARRELS + d] -= amount
    s[S_BARRELS + c] += amount


# ================================================================ missed turns, vote cards


@njit(**STEP_INLINE)
def add_missed_turns(s, g, p, n):
    """reference.add_missed_turns: fewer markers if the box runs out."""
    limit = g[R.missed_turn_markers_limit]
    if limit != -1:
        left = limit
        for q in range(s[S_P]):
            left -= s[S_MISSED + q]
        if left < 0:
            left = 0
        if left < n:
            n = left
    s[S_MISSED + p] += n
    if n > 0:
        s[S_MARKERS_GAINED] = 1


@njit(**STEP_INLINE)
def _hand(s, p):
    return s[S_O_HANDS] + p * s[S_N_CARDS]


@njit(**STEP_INLINE)
def _hand_append(s, p, c):
    n = s[S_NCARDS + p]
    s[_hand(s, p) + n] = c
    s[S_NCARDS + p] = n + 1


@njit(**STEP_INLINE)
def _hand_remove_at(s, p, i):
    h = _hand(s, p)
    n = s[S_NCARDS + p] - 1
    for j in range(i, n):
        s[h + j] = s[h + j + 1]
    s[S_NCARDS + p] = n


@njit(**STEP)
def _oldest(s, g, p, value):
    """Index in seat p's cards of the oldest card of ``value``, or -1."""
    h = _hand(s, p)
    ov = g[G_O_VVAL]
    for i in range(s[S_NCARDS + p]):
        if g[ov + s[h + i]] == value:
            return i
    return -1


@njit(**STEP_INLINE)
def gain_card(s, g, p, c):
    s[S_VOTES + p] += g[g[G_O_VVAL] + c]
    if g[R.vote_model] == 0:
        _hand_append(s, p, c)


@njit(**STEP)
def _move_card_at(s, g, giver, i, taker):
    c = s[_hand(s, giver) + i]
    v = g[g[G_O_VVAL] + c]
    _hand_remove_at(s, giver, i)
    s[S_VOTES + giver] -= v
    _hand_append(s, taker, c)
    s[S_VOTES + taker] += v


@njit(**STEP)
def hand_over_votes(s, g, giver, taker, amount):
    """Per 10 votes the oldest 10-card, else the two oldest 5-cards (spec §4.5 CH)."""
    if g[R.vote_model] == 1:
        s[S_VOTES + giver] -= amount
        s[S_VOTES + taker] += amount
        return
    for _ in range(amount // 10):
        i = _oldest(s, g, giver, 10)
        if i >= 0:
            _move_card_at(s, g, giver, i, taker)
        else:
            for _k in range(2):
                _move_card_at(s, g, giver, _oldest(s, g, giver, 5), taker)


# ---------------------------------------------------------------- the Vote pack


@njit(**STEP_INLINE)
def _pack_top(s):
    return s[s[S_O_PACK] + s[S_PACK_HEAD]]


@njit(**STEP_INLINE)
def _pack_pop(s):
    c = s[s[S_O_PACK] + s[S_PACK_HEAD]]
    n = s[S_PACK_N] - 1
    s[S_PACK_N] = n
    s[S_PACK_HEAD] = 0 if n == 0 else s[S_PACK_HEAD] + 1
    return c


@njit(**STEP)
def _pack_push_bottom(s, c):
    o = s[S_O_PACK]
    h = s[S_PACK_HEAD]
    n = s[S_PACK_N]
    if h + n >= s[S_N_CARDS]:
        for i in range(n):
            s[o + i] = s[o + h + i]
        h = 0
        s[S_PACK_HEAD] = 0
    s[o + h + n] = c
    s[S_PACK_N] = n + 1


@njit(**STEP)
def _pack_remove_at(s, i):
    o = s[S_O_PACK] + s[S_PACK_HEAD]
    n = s[S_PACK_N] - 1
    for j in range(i, n):
        s[o + j] = s[o + j + 1]
    s[S_PACK_N] = n
    if n == 0:
        s[S_PACK_HEAD] = 0


@njit(**STEP)
def return_coup_votes(s, g, rg, p):
    """A failed coup: votes back under the pack with exact change, then a shuffle (§4.8)."""
    if g[R.vote_model] == 1:
        if g[R.coup_fail_votes_lost] == 1:
            lost = s[S_VOTES + p]
        else:
            lost = g[R.votes_for_coup]
        s[S_VOTES + p] -= lost
        return
    ov = g[G_O_VVAL]
    h = _hand(s, p)
    n = s[S_NCARDS + p]
    rest = 0  # votes still owed (<= -5: change owed back to the player)
    if g[R.coup_fail_votes_lost] == 1:
        for i in range(n):
            _pack_push_bottom(s, s[h + i])
        s[S_NCARDS + p] = 0
        s[S_VOTES + p] = 0
    else:
        T = g[R.votes_for_coup]
        n_tens = 0
        n_fives = 0
        for i in range(n):
            if g[ov + s[h + i]] == 10:
                n_tens += 1
            else:
                n_fives += 1
        a = min(n_tens, T // 10)
        rest = T - 10 * a
        b = min(n_fives, -(-rest // 5))
        rest -= 5 * b
        extra = 0
        if rest > 0:
            extra = 1
            rest -= 10
        # given = tens[:a] + fives[:b] + tens[a:a+extra], in that order
        for want in range(3):
            if want == 0:
                value = 10
                k = a
            elif want == 1:
                value = 5
                k = b
            else:
                value = 10
                k = extra
            for _ in range(k):
                i = _oldest(s, g, p, value)
                c = s[h + i]
                _hand_remove_at(s, p, i)
                s[S_VOTES + p] -= value
                _pack_push_bottom(s, c)
    while rest <= -5:
        o = s[S_O_PACK] + s[S_PACK_HEAD]
        found = -1
        for i in range(s[S_PACK_N]):
            if g[ov + s[o + i]] == 5:
                found = i
                break
        if found < 0:
            break
        c = s[o + found]
        _pack_remove_at(s, found)
        gain_card(s, g, p, c)
        rest += 5
    _shuffle(rg, s, s[S_O_PACK] + s[S_PACK_HEAD], s[S_PACK_N])


# ================================================================ decks and side bets


@njit(**STEP)
def side_bet(s, g, pol, rg, q):
    """Seat q's call on the next Win/Lose card: 0 WIN, 1 LOSE, -1 no bet."""
    if int(pol[q * PW]) == RANDOM:
        pick = _pbelow(rg, q, 3)
        return -1 if pick == 2 else pick
    # ThresholdPolicy.side_bet on reference.next_win_lose_odds
    total = g[G_N_WL]
    wins = g[G_WL_WINS]
    if g[R.win_lose_after_draw] == 0:
        seen = s[S_WL_SEEN]
        if seen >= total:
            wins = 1 if s[s[S_O_WL] + s[S_WL_HEAD]] == WIN else 0
            total = 1
        else:
            wins -= s[S_WL_SEEN_WINS]
            total -= seen
    risk = _risk(pol, q)
    if 2 * wins >= (2.0 - risk) * total:
        return 0
    if 2 * (total - wins) >= (2.0 - risk) * total:
        return 1
    return -1


@njit(**STEP)
def draw_win_lose(s, g, pol, rg, drawer):
    """The next Win/Lose card; side bets are called before it and settled after."""
    stake = g[R.side_bet_stake]
    P = s[S_P]
    any_bet = False
    if stake > 0:
        q = drawer
        for _ in range(1, P):
            q = _next_seat(q, P)
            call = -1
            if s[S_BARRELS + q] >= stake:
                call = side_bet(s, g, pol, rg, q)
            s[S_BETS + q] = call
            if call >= 0:
                any_bet = True
    n = g[G_N_WL]
    if g[R.win_lose_after_draw] == 1:
        card = g[g[G_O_WL0] + rng_below(rg, n)]
    else:
        h = s[S_WL_HEAD]
        card = s[s[S_O_WL] + h]
        s[S_WL_HEAD] = h + 1 if h + 1 < n else 0
    s[S_WL_SEEN] += 1
    if card == WIN:
        s[S_WL_SEEN_WINS] += 1
    if any_bet:
        q = drawer
        for _ in range(1, P):
            q = _next_seat(q, P)
            call = s[S_BETS + q]
            if call < 0:
                continue
            if call == card:
                store_pays(s, g, q, stake)
            else:
                pay_store(s, q, stake)
    return card


@njit(**STEP_INLINE)
def draw_court_verdict(s, g):
    h = s[S_CV_HEAD]
    card = s[s[S_O_CV] + h]
    s[S_CV_HEAD] = h + 1 if h + 1 < g[G_N_CV] else 0
    s[S_CV_SEEN] += 1
    if card == FINE:
        s[S_CV_SEEN_FINES] += 1
    elif card == GAOL:
        s[S_CV_SEEN_GAOLS] += 1
    return card


@njit(**STEP)
def shuffle_decks(s, g, rg):
    """Bonus square: the whole Win/Lose deck (not under iid), then the Court Verdict deck."""
    if g[R.win_lose_after_draw] == 0:
        _rotate_to_top(s, s[S_O_WL], g[G_N_WL], s[S_WL_HEAD])
        s[S_WL_HEAD] = 0
        _shuffle(rg, s, s[S_O_WL], g[G_N_WL])
    s[S_WL_SEEN] = 0
    s[S_WL_SEEN_WINS] = 0
    _rotate_to_top(s, s[S_O_CV], g[G_N_CV], s[S_CV_HEAD])
    s[S_CV_HEAD] = 0
    s[S_CV_SEEN] = 0
    s[S_CV_SEEN_FINES] = 0
    s[S_CV_SEEN_GAOLS] = 0
    _shuffle(rg, s, s[S_O_CV], g[G_N_CV])


# ================================================================ payments and notes (§4.6)


@njit(**STEP)
def write_note(s, d, holder, face):
    n = s[S_N_NOTES]
    s[S_NOTES_WRITTEN] += 1
    if n >= s[S_NOTE_CAP]:
        s[S_OVERFLOW] = 1
        return
    o = s[S_O_NOTES] + NOTE_SIZE * n
    s[o + N_DEBTOR] = d
    s[o + N_HOLDER] = holder
    s[o + N_FACE] = face
    s[o + N_ISSUED] = s[S_PASSES + d]
    s[S_N_NOTES] = n + 1
    s[S_NOWED + d] += 1


@njit(**STEP)
def _destroy(s, i):
    o = s[S_O_NOTES]
    s[S_NOWED + s[o + NOTE_SIZE * i + N_DEBTOR]] -= 1
    n = s[S_N_NOTES] - 1
    for j in range(NOTE_SIZE * i, NOTE_SIZE * n):
        s[o + j] = s[o + j + NOTE_SIZE]
    s[S_N_NOTES] = n


@njit(**STEP)
def _pay_with_notes(s, g, sc, d, c, A):
    """Step 2: hand on transferable notes of third players, largest face first, no change."""
    if A == 0:
        return 0
    o = s[S_O_NOTES]
    m = 0
    for i in range(s[S_N_NOTES]):
        b = o + NOTE_SIZE * i
        debtor = s[b + N_DEBTOR]
        if (s[b + N_HOLDER] == d and debtor != c
                and s[S_PASSES + debtor] > s[b + N_ISSUED]):
            # insertion by (-face, index): a later index never goes before an equal face
            face = s[b + N_FACE]
            j = m
            while j > 0 and s[o + NOTE_SIZE * sc[j - 1] + N_FACE] < face:
                sc[j] = sc[j - 1]
                j -= 1
            sc[j] = i
            m += 1
    for k in range(m):
        b = o + NOTE_SIZE * sc[k]
        face = s[b + N_FACE]
        if face <= A:
            A -= face
            s[b + N_HOLDER] = c
            if g[R.note_interest_on_transfer]:
                s[b + N_FACE] = face + g[R.note_interest]
    return A


@njit(**STEP_INLINE)
def _pay_with_barrels(s, g, d, c, A):
    barrels = s[S_BARRELS + d]
    if barrels >= A:
        x = A
    else:
        x = barrels if g[R.part_payment_before_note] else 0
    pay_player(s, d, c, x)
    return A - x


@njit(**STEP)
def settle(s, g, sc, d, c, amount):
    """SETTLE(d, c, A): player ``d`` owes player ``c`` ``amount`` barrels."""
    A = amount
    o = s[S_O_NOTES]
    i = 0
    while i < s[S_N_NOTES] and A != 0:   # 1. offsets, oldest first
        b = o + NOTE_SIZE * i
        if s[b + N_HOLDER] == d and s[b + N_DEBTOR] == c:
            face = s[b + N_FACE]
            x = min(A, face)
            s[b + N_FACE] = face - x
            A -= x
            if face == x:
                _destroy(s, i)
                continue
        i += 1
    if g[R.payment_order] == 0:
        A = _pay_with_notes(s, g, sc, d, c, A)
        A = _pay_with_barrels(s, g, d, c, A)
    else:
        A = _pay_with_barrels(s, g, d, c, A)
        A = _pay_with_notes(s, g, sc, d, c, A)
    if A > 0:
        write_note(s, d, c, A + g[R.note_interest])


@njit(**STEP)
def settle_store(s, g, d, amount):
    """SETTLE_STORE(d, A, allow_note=true): a government debt (the duel fine)."""
    barrels = s[S_BARRELS + d]
    if barrels >= amount:
        x = amount
    else:
        x = barrels if g[R.part_payment_before_note] else 0
    pay_store(s, d, x)
    short = amount - x
    if short > 0:
        if g[R.store_notes]:
            write_note(s, d, STORE, short + g[R.note_interest])
        else:
            add_missed_turns(s, g, d, short)


@njit(**STEP)
def redeem(s, i):
    """REDEEM: the debtor pays the face to the holder (or the Store); the note is destroyed."""
    b = s[S_O_NOTES] + NOTE_SIZE * i
    d = s[b + N_DEBTOR]
    h = s[b + N_HOLDER]
    face = s[b + N_FACE]
    if h == STORE:
        pay_store(s, d, face)
    else:
        pay_player(s, d, h, face)
    _destroy(s, i)


@njit(**STEP)
def redemption_order(s, sc, p):
    """Indices of p's notes, smallest face first, ties oldest first, into ``sc``; their count."""
    o = s[S_O_NOTES]
    m = 0
    for i in range(s[S_N_NOTES]):
        b = o + NOTE_SIZE * i
        if s[b + N_DEBTOR] == p:
            face = s[b + N_FACE]
            j = m
            while j > 0 and s[o + NOTE_SIZE * sc[j - 1] + N_FACE] > face:
                sc[j] = sc[j - 1]
                j -= 1
            sc[j] = i
            m += 1
    return m


@njit(**STEP_INLINE)
def _after_destroy(sc, k, m, i):
    """Note ``i`` is gone: the later notes of the list ``sc[k+1:m]`` moved down one place."""
    for j in range(k + 1, m):
        if sc[j] > i:
            sc[j] -= 1


@njit(**STEP_INLINE)
def redeem_any_time(s, g, sc):
    """redeem_timing=any_time: every affordable note is bought back, seats from the active one."""
    if g[R.redeem_timing] == 0 or s[S_N_NOTES] == 0:
        return
    P = s[S_P]
    o = s[S_O_NOTES]
    changed = True
    while changed:
        changed = False
        p = s[S_ACTIVE]
        for _ in range(P):
            if s[S_NOWED + p] != 0:
                m = redemption_order(s, sc, p)
                for j in range(m):
                    i = sc[j]
                    if s[S_BARRELS + p] >= s[o + NOTE_SIZE * i + N_FACE]:
                        redeem(s, i)
                        _after_destroy(sc, j, m, i)
                        changed = True
            p = _next_seat(p, P)


# ================================================================ setup (spec §3)


@njit(**STEP)
def take_tickets(s, g, p):
    """The tickets for this player count: off the top of the deck, or the best remaining."""
    for _ in range(g[G_TICKETS_EACH]):
        n = s[S_TDECK_N]
        if g[R.ticket_assignment] == 1:
            best = 0
            for i in range(1, n):
                k = s[S_TDECK + i]
                kb = s[S_TDECK + best]
                if g[G_TRENT + k] > g[G_TRENT + kb] or (
                        g[G_TRENT + k] == g[G_TRENT + kb] and k < kb):
                    best = i
        else:
            best = 0
        k = s[S_TDECK + best]
        for j in range(best, n - 1):
            s[S_TDECK + j] = s[S_TDECK + j + 1]
        s[S_TDECK_N] = n - 1
        s[S_TOWNER + k] = p


@njit(**STEP)
def setup(s, g, rg, sc, P, note_cap):
    """Steps 1-8 of spec §3, with the draws in the order of the reference's docstring."""
    n_cards = g[G_N_CARDS]
    n_wl = g[G_N_WL]
    n_cv = g[G_N_CV]
    for i in range(S_HEADER):
        s[i] = 0
    s[S_P] = P
    s[S_N_CARDS] = n_cards
    s[S_NOTE_CAP] = note_cap
    s[S_O_WL] = S_HEADER
    s[S_O_CV] = S_HEADER + n_wl
    s[S_O_PACK] = S_HEADER + n_wl + n_cv
    s[S_O_HANDS] = s[S_O_PACK] + n_cards
    s[S_O_NOTES] = s[S_O_HANDS] + MAXP * n_cards
    s[S_WINNER] = -1
    for p in range(MAXP):
        s[S_ANN_ROUND + p] = NONE
        s[S_ANN_TURN + p] = NONE
        s[S_OFFER_SPELL + p] = -1
    for k in range(N_TICKETS + 1):
        s[S_TOWNER + k] = NONE
    w = rg
    # 3. Two starting cards each: the canonical 10-cards shuffled (in the pack region).
    o = s[S_O_PACK]
    n_tens = g[G_N_TENS]
    for i in range(n_tens):
        s[o + i] = g[g[G_O_TENS] + i]
    _shuffle(w, s, o, n_tens)
    n_dealt = STARTING_VOTE_CARDS * P
    for p in range(P):
        for i in range(STARTING_VOTE_CARDS):
            gain_card(s, g, p, s[o + STARTING_VOTE_CARDS * p + i])
    # 4. The rest of the pack in canonical order, shuffled: ``sc[c]`` = 1 if card c was dealt.
    for c in range(n_cards):
        sc[c] = 0
    for i in range(n_dealt):
        sc[s[o + i]] = 1
    n = 0
    for c in range(n_cards):
        s[o + n] = c
        n += 1 - sc[c]
    s[S_PACK_HEAD] = 0
    s[S_PACK_N] = n
    _shuffle(w, s, o, n)
    # 5. Win/Lose, Court Verdict, Ticket of Leave cards.
    o = s[S_O_WL]
    for i in range(n_wl):
        s[o + i] = g[g[G_O_WL0] + i]
    if g[R.win_lose_after_draw] == 0:
        _shuffle(w, s, o, n_wl)
    o = s[S_O_CV]
    for i in range(n_cv):
        s[o + i] = g[g[G_O_CV0] + i]
    _shuffle(w, s, o, n_cv)
    for i in range(N_TICKETS):
        s[S_TDECK + i] = i + 1
    s[S_TDECK_N] = N_TICKETS
    _shuffle(w, s, S_TDECK, N_TICKETS)
    # 6. The Bond Store and its player.
    s[S_STORE] = g[R.bond_store_supply]
    if s[S_STORE] == 0:
        s[S_SPELL] = 1
    seat = g[R.bond_store_seat]
    if seat == -1:
        seat = rng_below(w, P)
    s[S_BOND_SEAT] = seat
    for p in range(P):     # start_barrels_by_seat, seat 0 first (check_players: never short)
        store_pays(s, g, p, g[R.start_barrels_by_seat + p])
    store_pays(s, g, seat, g[R.bond_store_bonus])
    # Variation e: start higher, tickets dealt free.
    start = g[R.starting_level]
    if start > CONVICT:
        for p in range(P):
            take_tickets(s, g, p)
            s[S_LEVEL + p] = start
    s[S_ROUND] = 1


# ================================================================ coup eligibility, Start


@njit(**STEP_INLINE)
def coup_eligible(s, g, p):
    if g[R.coup_requires_rum_corps] and s[S_LEVEL + p] != RUM_CORPS:
        return False
    return s[S_VOTES + p] >= g[R.votes_for_coup] and s[S_NOWED + p] == 0


@njit(**STEP)
def _major_takes_card(s, g, pol, rg, p):
    """The major_income decision: True = 8 barrels + the top Vote card."""
    code = int(pol[p * PW])
    if code == RANDOM:
        return _pbelow(rg, p, 2) == 1
    ov = g[G_O_VVAL]
    if g[R.vote_top_visible]:
        return g[ov + _pack_top(s)] >= 10
    o = s[S_O_PACK] + s[S_PACK_HEAD]
    for i in range(s[S_PACK_N]):
        if g[ov + s[o + i]] < 10:
            return False
    return True


@njit(**STEP_INLINE)
def pass_income(s, g, pol, rg, p):
    """reference.pass_income: the level's income, or the Major's choice (the pass of Start
    is counted first: ON_PASS_START)."""
    level = s[S_LEVEL + p]
    major = s[S_MAJOR + p]
    if level == RUM_CORPS and major and s[S_PACK_N] > 0:
        r = _restricted(s, p, C_MAJOR_VOTE)
        if r >= 0:
            take = r == 1
        else:
            take = _major_takes_card(s, g, pol, rg, p)
            if _asks(s, p):
                take = _decide(s, p, K_MAJOR, INCOME, 1 if take else 0) != 0
                if s[S_PENDING]:
                    return
        if take:
            _took(s, p, C_MAJOR_VOTE)
            store_pays(s, g, p, g[R.major_vote_option_barrels])
            gain_card(s, g, p, _pack_pop(s))
            return
    if level == CONVICT:
        income = g[R.income_convict]
    elif level == TICKET_OF_LEAVE:
        income = g[R.income_ticket_of_leave]
    elif major:
        income = g[R.income_major]
    else:
        income = g[R.income_captain]
    store_pays(s, g, p, income)


# ================================================================ heuristic (policies.HeuristicPolicy)


@njit(**STEP_INLINE)
def win_chance(s, g, k):
    """policies.win_chance: P(WIN) of the Win/Lose card ``k`` draws ahead, counted."""
    n = g[G_N_WL]
    wins = g[G_WL_WINS]
    if g[R.win_lose_after_draw] == 1:
        return wins / n
    seen = s[S_WL_SEEN]
    km = k % n
    if seen - n + km >= 0:
        return 1.0 if s[s[S_O_WL] + (s[S_WL_HEAD] + km) % n] == WIN else 0.0
    return (wins - s[S_WL_SEEN_WINS]) / (n - seen)


@njit(**STEP_INLINE)
def coup_threat(s, g, q):
    """policies.coup_threat: min(votes, V) / V on a level that may attempt a coup, else 0."""
    if g[R.coup_requires_rum_corps] and s[S_LEVEL + q] != RUM_CORPS:
        return 0.0
    V = g[R.votes_for_coup]
    return min(s[S_VOTES + q], V) / V


@njit(**STEP_INLINE)
def eligible_with(s, g, p, votes):
    """policies.eligible_with: coup_eligible with ``votes`` votes."""
    if g[R.coup_requires_rum_corps] and s[S_LEVEL + p] != RUM_CORPS:
        return False
    return votes >= g[R.votes_for_coup] and s[S_NOWED + p] == 0


@njit(**STEP)
def h_commit_crime(s, g, pol, p, c):
    """HeuristicPolicy.commit_crime, the same sum in the same order."""
    o = p * PW
    win = c if g[R.crime_win_amount] == -1 else g[R.crime_win_amount]
    p_win = win_chance(s, g, 0)
    n = g[G_N_CV]
    seen = s[S_CV_SEEN]
    if seen >= n:
        card = s[s[S_O_CV] + s[S_CV_HEAD]]
        p_fine = 1.0 if card == FINE else 0.0
        p_gaol = 1.0 if card == GAOL else 0.0
    else:
        left = n - seen
        p_fine = (g[G_CV_FINES] - s[S_CV_SEEN_FINES]) / left
        p_gaol = (g[G_CV_GAOLS] - s[S_CV_SEEN_GAOLS]) / left
    barrels = s[S_BARRELS + p]
    if barrels >= c:
        fine_barrels = c
        fine_turns = 0
    elif g[R.fine_unpaid] == 0:
        fine_barrels = 0
        fine_turns = c
    else:
        fine_barrels = barrels
        fine_turns = c - barrels
    lose = 1.0 - p_win
    gain = p_win * win - lose * p_fine * fine_barrels
    jail = lose * (p_gaol * c + p_fine * fine_turns)
    level = s[S_LEVEL + p]
    if level == CONVICT:
        cost = g[R.ticket_cost]
        need = max(0, cost - barrels) / cost
    elif level == TICKET_OF_LEAVE:
        cost = g[R.commission_cost]
        need = max(0, cost - barrels) / cost
    else:
        need = 0.0
    threat = 0.0
    P = s[S_P]
    q = p
    for _ in range(1, P):
        q = _next_seat(q, P)
        threat = max(threat, coup_threat(s, g, q))
    score = (pol[o + H_CRIME_LIMIT] - c + pol[o + H_CRIME_GAIN] * gain
             - pol[o + H_CRIME_JAIL] * jail + pol[o + H_CRIME_NEED] * need
             + pol[o + H_CRIME_THREAT] * threat)
    return score >= -TOL


@njit(**STEP)
def h_challenge(s, g, pol, p, need, same, any_announced, decline):
    """HeuristicPolicy.challenge: the target (announced ones first), or -1 for none;
    ``decline`` false: challenge_target, the target whatever the score."""
    o = p * PW
    P = s[S_P]
    level = s[S_LEVEL + p]
    edge = 2.0 * win_chance(s, g, 0) - 1.0
    best = -1
    best_score = 0.0
    q = p
    for _ in range(1, P):
        q = _next_seat(q, P)
        if s[S_VOTES + q] < need or (same and s[S_LEVEL + q] != level):
            continue
        if any_announced and s[S_ANN_ROUND + q] == NONE:
            continue
        score = (pol[o + H_CHAL_VOTES] * (s[S_VOTES + q] / 10)
                 + pol[o + H_CHAL_EDGE_THREAT] * edge * coup_threat(s, g, q))
        if best < 0 or score > best_score + TOL:
            best = q
            best_score = score
    votes = s[S_VOTES + p]
    stake = g[R.challenge_stake]
    now = eligible_with(s, g, p, votes)
    at_risk = 1.0 if now and not eligible_with(s, g, p, votes - stake) else 0.0
    reach = 1.0 if not now and eligible_with(s, g, p, votes + stake) else 0.0
    theirs = s[S_VOTES + best]
    knock = (1.0 if eligible_with(s, g, best, theirs)
             and not eligible_with(s, g, best, theirs - stake) else 0.0)
    go = (pol[o + H_CHAL_BASE] + pol[o + H_CHAL_ODDS] * edge
          + pol[o + H_CHAL_THREAT] * coup_threat(s, g, best)
          + pol[o + H_CHAL_RISK] * at_risk + pol[o + H_CHAL_REACH] * reach
          + pol[o + H_CHAL_KNOCK] * knock)
    return best if go >= -TOL or not decline else -1


@njit(**STEP)
def h_announce(s, g, pol, p):
    """HeuristicPolicy.announce_coup."""
    o = p * PW
    later = 0.5
    thin = 0.0
    if g[R.coup_delay] != 2:
        L = max(1, s[S_P] - 1)
        total = 0.0
        for k in range(1, L + 1):
            total += win_chance(s, g, k)
        later = total / L
        thin = 0.0 if eligible_with(s, g, p, s[S_VOTES + p] - g[R.challenge_stake]) else 1.0
    return (pol[o + H_ANN_BASE] + pol[o + H_ANN_ODDS] * (win_chance(s, g, 0) - 0.5)
            + pol[o + H_ANN_LATER] * (later - 0.5) + pol[o + H_ANN_THIN] * thin >= -TOL)


# ================================================================ squares (spec §4.5)


@njit(**STEP_INLINE)
def crime(s, g, pol, rg, p, c):
    """Optional crime: WIN pays, LOSE goes to court (Go Free, Fine, Gaol)."""
    r = _restricted(s, p, C_CRIME)
    if r >= 0:
        yes = r == 1
    else:
        code = int(pol[p * PW])
        if code == RANDOM:
            yes = _yes(rg, p)
        elif code == HEURISTIC:
            yes = h_commit_crime(s, g, pol, p, c)
        else:
            yes = c <= crime_limit(pol[p * PW + RISK])
        if _asks(s, p):
            yes = _decide(s, p, K_CRIME, SQUARE, 1 if yes else 0) != 0
            if s[S_PENDING]:
                return
    if not yes:
        return
    s[S_CRIMES] += 1
    _took(s, p, C_CRIME)
    if draw_win_lose(s, g, pol, rg, p) == WIN:
        amount = c if g[R.crime_win_amount] == -1 else g[R.crime_win_amount]
        store_pays(s, g, p, amount)
        return
    verdict = draw_court_verdict(s, g)
    if verdict == GO_FREE:
        return
    if verdict != FINE:
        add_missed_turns(s, g, p, c)
        return
    barrels = s[S_BARRELS + p]
    if barrels >= c:
        pay_store(s, p, c)
    elif g[R.fine_unpaid] == 0:
        add_missed_turns(s, g, p, c)
    else:
        pay_store(s, p, barrels)
        add_missed_turns(s, g, p, c - barrels)


@njit(**STEP_INLINE)
def challenge(s, g, pol, rg, p):
    """Optional challenge for challenge_stake votes against a player in turn order after p."""
    need = max(g[R.challenge_min_votes], g[R.challenge_stake])
    if s[S_VOTES + p] < need:
        return
    P = s[S_P]
    same = g[R.challenge_targets] == 1
    level = s[S_LEVEL + p]
    n_targets = 0
    best = -1            # policies.leader over all targets
    best_ann = -1        # ... over the announced ones
    q = p
    for _ in range(1, P):
        q = _next_seat(q, P)
        if s[S_VOTES + q] < need or (same and s[S_LEVEL + q] != level):
            continue
        n_targets += 1
        if best < 0 or s[S_VOTES + q] > s[S_VOTES + best]:
            best = q
        if s[S_ANN_ROUND + q] != NONE and (best_ann < 0
                                            or s[S_VOTES + q] > s[S_VOTES + best_ann]):
            best_ann = q
    if n_targets == 0:
        return
    # reference.challenge's options: nobody, or a target; a seat forced to challenge only
    # chooses whom (challenge_target), and not even that when there is one target
    r = _restricted(s, p, C_CHALLENGE)
    if r == 0:
        return
    decline = r < 0
    code = int(pol[p * PW])
    if not decline and n_targets == 1:
        q = best
    elif code == RANDOM:
        if decline:
            pick = _pbelow(rg, p, n_targets + 1)
            if pick == 0:
                return
        else:
            pick = 1 + _pbelow(rg, p, n_targets)
        q = -1
        t = p
        for _ in range(1, P):
            t = _next_seat(t, P)
            if s[S_VOTES + t] < need or (same and s[S_LEVEL + t] != level):
                continue
            pick -= 1
            if pick == 0:
                q = t
                break
    elif code == HEURISTIC:
        q = h_challenge(s, g, pol, p, need, same, best_ann >= 0, decline)
    else:
        if best_ann >= 0:
            q = best_ann
        else:
            q = best
            margin = 10 if code == THRESHOLD else 20
            if decline and not (s[S_VOTES + q] >= g[R.votes_for_coup] - margin
                                or (code == THRESHOLD and pol[p * PW + RISK] >= 0.5)):
                q = -1
    if (decline or n_targets > 1) and _asks(s, p):
        q = _decide(s, p, K_CHALLENGE, SQUARE, q)
        if s[S_PENDING]:
            return
    if q < 0:
        return
    s[S_CHALLENGES] += 1
    _took(s, p, C_CHALLENGE)
    stake = g[R.challenge_stake]
    if draw_win_lose(s, g, pol, rg, p) == WIN:
        hand_over_votes(s, g, q, p, stake)
    else:
        hand_over_votes(s, g, p, q, stake)


@njit(**STEP_INLINE)
def _buys_top(s, g, pol, rg, p, code, visible, card, price, n):
    """The buy_vote decision of seat p's policy on the top card (``card``, ``price``) of the
    pack of ``n`` cards."""
    ov = g[G_O_VVAL]
    op = g[G_O_VPRICE]
    if code == RANDOM:
        return _yes(rg, p)
    if code == HEURISTIC:
        o = p * PW
        if visible:
            value = g[ov + card]
            votes = s[S_VOTES + p]
            V = g[R.votes_for_coup]
            reach = 1.0 if votes < V <= votes + value else 0.0
            score = value * pol[o + H_VOTE_WORTH] - price + pol[o + H_BUY_REACH] * reach
        else:
            op_ = s[S_O_PACK] + s[S_PACK_HEAD]
            sum_price = 0
            sum_value = 0
            for i in range(n):
                sum_price += g[op + s[op_ + i]]
                sum_value += g[ov + s[op_ + i]]
            score = sum_value * pol[o + H_VOTE_WORTH] - sum_price
        return score >= -TOL
    if visible:
        return buys(price, g[ov + card], pol[p * PW + RISK])
    o = s[S_O_PACK] + s[S_PACK_HEAD]
    sum_price = 0
    sum_value = 0
    for i in range(n):
        sum_price += g[op + s[o + i]]
        sum_value += g[ov + s[o + i]]
    return buys(sum_price, sum_value, pol[p * PW + RISK])


@njit(**STEP_INLINE)
def buy_vote_cards(s, g, pol, rg, p):
    """Optional purchase of the top Vote card with barrels only (no notes)."""
    op = g[G_O_VPRICE]
    code = int(pol[p * PW])
    visible = g[R.vote_top_visible] != 0
    for _ in range(g[R.max_vote_buys_per_landing]):
        n = s[S_PACK_N]
        if n == 0:
            return
        card = _pack_top(s)
        price = g[op + card]
        if visible:
            affordable = s[S_BARRELS + p] >= price
        else:
            o = s[S_O_PACK] + s[S_PACK_HEAD]
            most = 0
            for i in range(n):
                x = g[op + s[o + i]]
                if x > most:
                    most = x
            affordable = s[S_BARRELS + p] >= most
        if not affordable:
            return
        r = _restricted(s, p, C_BUY_VOTE)
        if r >= 0:
            yes = r == 1
        else:
            yes = _buys_top(s, g, pol, rg, p, code, visible, card, price, n)
            if g[R.max_vote_buys_per_landing] == 1 and _asks(s, p):
                yes = _decide(s, p, K_BUY, SQUARE, 1 if yes else 0) != 0
                if s[S_PENDING]:
                    return
        if not yes:
            return
        _took(s, p, C_BUY_VOTE)
        pay_store(s, p, price)
        _pack_pop(s)
        gain_card(s, g, p, card)


@njit(**STEP_INLINE)
def promotion(s, g, pol, rg, p):
    """A Captain may become Major."""
    cost = g[R.promotion_cost]
    if s[S_LEVEL + p] != RUM_CORPS or s[S_MAJOR + p] or s[S_BARRELS + p] < cost:
        return
    r = _restricted(s, p, C_PROMOTION)
    if r == 0 or (r < 0 and int(pol[p * PW]) == RANDOM and not _yes(rg, p)):
        return
    _took(s, p, C_PROMOTION)
    pay_store(s, p, cost)
    s[S_MAJOR + p] = 1


@njit(**STEP_INLINE)
def duel(s, g, pol, rg, p):
    """Mandatory Win/Lose: WIN is a fine owed to the Store, LOSE missed turns."""
    if draw_win_lose(s, g, pol, rg, p) == WIN:
        settle_store(s, g, p, g[R.duel_fine])
    else:
        add_missed_turns(s, g, p, g[R.duel_missed_turns])


@njit(**STEP_INLINE)
def s8_resolve(s, g, pol, rg, sc, p):
    """S8: the square landed on."""
    at = s[S_LEVEL + p] * MAX_BOARD + s[S_POS + p]
    kind = g[G_KIND + at]
    value = g[G_VALUE + at]
    if kind == GD:
        store_pays(s, g, p, value)
    elif kind == CR:
        crime(s, g, pol, rg, p, value)
    elif kind == CH:
        challenge(s, g, pol, rg, p)
    elif kind == MF:
        add_missed_turns(s, g, p, value)
    elif kind == OC:
        holder = s[S_TOWNER + value]
        if holder != NONE and holder != p:
            settle(s, g, sc, p, holder, g[G_RENT + at])
    elif kind == BV:
        buy_vote_cards(s, g, pol, rg, p)
    elif kind == PR:
        promotion(s, g, pol, rg, p)
    elif kind == DU:
        duel(s, g, pol, rg, p)
    elif kind == BO:
        if g[R.bonus_shuffles_decks]:
            shuffle_decks(s, g, rg)
        store_pays(s, g, p, value)
    elif kind == START_SQUARE:
        store_pays(s, g, p, g[R.exact_start_bonus])


# ================================================================ the turn (spec §4.3)


@njit(**STEP_INLINE)
def s2_redemption(s, g, pol, rg, sc, p):
    """S2: buy back own notes (smallest face first)."""
    if g[R.redeem_timing]:
        redeem_any_time(s, g, sc)
        return
    if s[S_NOWED + p] == 0:
        return
    o = s[S_O_NOTES]
    random = int(pol[p * PW]) == RANDOM
    m = redemption_order(s, sc, p)
    for j in range(m):
        i = sc[j]
        if s[S_BARRELS + p] < s[o + NOTE_SIZE * i + N_FACE]:
            continue
        r = _restricted(s, p, C_REDEEM)
        if r == 1 or (r < 0 and (not random or _yes(rg, p))):
            _took(s, p, C_REDEEM)
            redeem(s, i)
            _after_destroy(sc, j, m, i)


@njit(**STEP)
def s2_vote_trade(s, g, pol, rg, p):
    """allow_vote_trading (§4.12): one offer to one player at the card's printed price."""
    P = s[S_P]
    op = g[G_O_VPRICE]
    ov = g[G_O_VVAL]
    n = 0
    q = p
    for _ in range(1, P):
        q = _next_seat(q, P)
        for side in range(2):           # asks (q's cards) then offers (p's cards)
            holder = q if side == 0 else p
            payer = p if side == 0 else q
            for value in (5, 10):
                i = _oldest(s, g, holder, value)
                if i < 0:
                    continue
                card = s[_hand(s, holder) + i]
                price = g[op + card]
                if s[S_BARRELS + payer] >= price:
                    b = S_OFFERS + 4 * n
                    s[b] = side
                    s[b + 1] = q
                    s[b + 2] = card
                    s[b + 3] = price
                    n += 1
    if n == 0:
        return
    code = int(pol[p * PW])
    pick = -1
    if code == RANDOM:
        pick = _pbelow(rg, p, n + 1) - 1
    else:
        risk = _risk(pol, p)
        if s[S_VOTES + p] >= g[R.votes_for_coup]:
            return
        if g[R.coup_requires_rum_corps] and s[S_LEVEL + p] != RUM_CORPS:
            return
        for j in range(n):
            b = S_OFFERS + 4 * j
            if s[b] != 0 or s[S_LEVEL + s[b + 1]] == RUM_CORPS:
                continue
            value = g[ov + s[b + 2]]
            if not buys(s[b + 3], value, risk):
                continue
            if pick < 0:
                pick = j
            else:
                bb = S_OFFERS + 4 * pick
                best_value = g[ov + s[bb + 2]]
                if value > best_value or (value == best_value and s[b + 3] < s[bb + 3]):
                    pick = j
    if pick < 0:
        return
    b = S_OFFERS + 4 * pick
    kind = s[b]
    q = s[b + 1]
    card = s[b + 2]
    price = s[b + 3]
    value = g[ov + card]
    qcode = int(pol[q * PW])
    if qcode == RANDOM:
        accepted = _yes(rg, q)
    elif kind == 0:
        margin = 20 if qcode == BLOCKER else 10
        accepted = (s[S_LEVEL + q] != RUM_CORPS
                    and s[S_VOTES + p] + value < g[R.votes_for_coup] - margin)
    else:
        accepted = s[S_LEVEL + q] == RUM_CORPS and buys(price, value, _risk(pol, q))
    if not accepted:
        return
    if kind == 0:
        seller = q
        buyer = p
    else:
        seller = p
        buyer = q
    h = _hand(s, seller)
    for i in range(s[S_NCARDS + seller]):
        if s[h + i] == card:
            _move_card_at(s, g, seller, i, buyer)
            break
    pay_player(s, buyer, seller, price)


@njit(**STEP)
def attempt_coup(s, g, pol, rg, p):
    s[S_COUPS] += 1
    if draw_win_lose(s, g, pol, rg, p) == WIN:
        s[S_WINNER] = p
        return True
    return_coup_votes(s, g, rg, p)
    s[S_ANN_ROUND + p] = NONE
    s[S_ANN_TURN + p] = NONE
    return g[R.coup_attempt_ends_turn] != 0


@njit(**STEP_INLINE)
def s3_coup_window(s, g, pol, rg, p):
    """S3: attempt an announced coup when due (or lapse it). True if the turn ends here."""
    delay = g[R.coup_delay]
    if delay == 2:
        if not coup_eligible(s, g, p):
            return False
        r = _restricted(s, p, C_ANNOUNCE)
        if r >= 0:
            yes = r == 1
        else:
            code = int(pol[p * PW])
            if code == RANDOM:
                yes = _yes(rg, p)
            else:
                yes = code != HEURISTIC or h_announce(s, g, pol, p)
            if _asks(s, p):
                yes = _decide(s, p, K_ANNOUNCE, COUP, 1 if yes else 0) != 0
                if s[S_PENDING]:
                    return False
        if not yes:
            return False
        _took(s, p, C_ANNOUNCE)
    else:
        ann = s[S_ANN_ROUND + p]
        if ann == NONE:
            return False
        if delay == 0:
            due = ann < s[S_ROUND]
        else:
            due = s[S_ANN_TURN + p] < s[S_TURN_ID]
        if not due:
            return False
        if not coup_eligible(s, g, p):
            s[S_ANN_ROUND + p] = NONE
            s[S_ANN_TURN + p] = NONE
            return False
    return attempt_coup(s, g, pol, rg, p)


@njit(**STEP_INLINE)
def s4_level_up(s, g, pol, rg, p):
    """S4: move up (optional), at most max_level_ups_per_turn levels."""
    random = int(pol[p * PW]) == RANDOM
    searched = g[R.max_level_ups_per_turn] == 1
    for _ in range(g[R.max_level_ups_per_turn]):
        level = s[S_LEVEL + p]
        barrels = s[S_BARRELS + p]
        if (level == CONVICT and barrels >= g[R.ticket_cost]
                and s[S_ROT + p] >= g[R.non_parole_rotations]):
            r = _restricted(s, p, C_TICKET)
            if r >= 0:
                yes = r == 1
            else:
                yes = not random or _yes(rg, p)
                if searched and _asks(s, p):
                    yes = _decide(s, p, K_LEVEL_UP, LEVEL_UP, 1 if yes else 0) != 0
                    if s[S_PENDING]:
                        return
            if not yes:
                return
            _took(s, p, C_TICKET)
            cost = barrels if g[R.ticket_cost_mode] == 1 else g[R.ticket_cost]
            pay_store(s, p, cost)
            take_tickets(s, g, p)
        elif (level == TICKET_OF_LEAVE and barrels >= g[R.commission_cost]
              and s[S_ROT + p] >= g[R.tol_min_rotations] and s[S_NOWED + p] == 0):
            r = _restricted(s, p, C_COMMISSION)
            if r >= 0:
                yes = r == 1
            else:
                if random:
                    yes = _yes(rg, p)
                else:
                    yes = (int(pol[p * PW]) != HEURISTIC or barrels - g[R.commission_cost]
                           >= pol[p * PW + H_RC_RESERVE] - TOL)
                if searched and _asks(s, p):
                    yes = _decide(s, p, K_LEVEL_UP, LEVEL_UP, 1 if yes else 0) != 0
                    if s[S_PENDING]:
                        return
            if not yes:
                return
            _took(s, p, C_COMMISSION)
            pay_store(s, p, g[R.commission_cost])
        else:
            return
        s[S_LEVEL + p] = level + 1
        s[S_POS + p] = 0
        s[S_ROT + p] = 0


@njit(**STEP_INLINE)
def s5_store_shortage(s, g, pol, rg, p):
    """S5: while the Store is empty, a Rum Corps officer may buy the top Vote card."""
    sale = g[R.store_empty_vote_sale]
    price = g[R.store_empty_vote_price]
    if (sale == 2 or s[S_STORE] != 0 or s[S_LEVEL + p] != RUM_CORPS
            or s[S_BARRELS + p] < price or s[S_PACK_N] == 0):
        return
    if sale == 1:
        if s[S_OFFER_SPELL + p] == s[S_SPELL]:
            return
        s[S_OFFER_SPELL + p] = s[S_SPELL]
    r = _restricted(s, p, C_STORE_VOTE)
    if r == 0 or (r < 0 and int(pol[p * PW]) == RANDOM and not _yes(rg, p)):
        return
    _took(s, p, C_STORE_VOTE)
    pay_store(s, p, price)
    gain_card(s, g, p, _pack_pop(s))


@njit(**STEP_INLINE)
def s9_announce(s, g, pol, rg, p):
    """S9: an eligible player without an announcement may announce a coup."""
    if g[R.coup_delay] == 2 or s[S_ANN_ROUND + p] != NONE:
        return
    if not coup_eligible(s, g, p):
        return
    r = _restricted(s, p, C_ANNOUNCE)
    if r >= 0:
        yes = r == 1
    else:
        code = int(pol[p * PW])
        if code == RANDOM:
            yes = _yes(rg, p)
        else:
            yes = code != HEURISTIC or h_announce(s, g, pol, p)
        if _asks(s, p):
            yes = _decide(s, p, K_ANNOUNCE, ANNOUNCE, 1 if yes else 0) != 0
            if s[S_PENDING]:
                return
    if not yes:
        return
    _took(s, p, C_ANNOUNCE)
    s[S_ANN_ROUND + p] = s[S_ROUND]
    s[S_ANN_TURN + p] = s[S_TURN_ID]


@njit(**STEP_INLINE)
def take_turn(s, g, f, pol, rg, sc, p, skip_s1, step):
    """One pass through S1-S9, or the rest of it from ``step`` (reference.take_turn);
    returns T_PLAYED | T_DOUBLES | T_PENALISED bits, or 0 with ``S_PENDING`` set when a
    searching seat stopped the game at a decision."""
    if step == START:
        s[S_TURN_ID] += 1
        s[S_ACTIVE] = p
        s[S_MARKERS_GAINED] = 0
        s[S_DOUBLES] = 0
        if s[S_PLAYOUT]:   # reference.turn_key
            rng_seed(rg, np.uint64(s[S_WORD]),
                     np.uint64((s[S_ROUND] * 8 + p) * 1024 + s[S_CHAIN]), np.uint64(0))
        # S1
        if not skip_s1 and s[S_MISSED + p] > 0:
            s[S_MISSED + p] -= 1
            if not (g[R.sneak_on] and rng_uniform(rg) < f[F.sneak_turn_probability]):
                return 0
        s[S_TURNS] += 1
        s2_redemption(s, g, pol, rg, sc, p)
        if g[R.allow_vote_trading]:
            s2_vote_trade(s, g, pol, rg, p)
    if step <= COUP:
        ends = s3_coup_window(s, g, pol, rg, p)
        if s[S_PENDING]:
            return 0
        if ends or s[S_WINNER] >= 0:
            return T_PLAYED | (T_PENALISED if s[S_MARKERS_GAINED] else 0)
    if step <= INCOME:
        if step <= LEVEL_UP:
            s4_level_up(s, g, pol, rg, p)
            if s[S_PENDING]:
                return 0
            if s[S_STORE] == 0:
                s5_store_shortage(s, g, pol, rg, p)
            redeem_any_time(s, g, sc)
            w = rg
            d1 = 1 + rng_below(w, 6)
            d2 = 1 + rng_below(w, 6)
            s[S_DOUBLES] = 1 if d1 == d2 else 0
            # S7
            level = s[S_LEVEL + p]
            L = g[G_BLEN + level]
            new = s[S_POS + p] + d1 + d2
            if g[R.start_landing_counts_as_pass]:
                passes = new >= L
            else:
                passes = new > L
            s[S_POS + p] = new - L if new >= L else new
            if passes:   # ON_PASS_START: the pass is counted, then its income
                s[S_PASSES + p] += 1
                s[S_ROT + p] += 1
                pass_income(s, g, pol, rg, p)
        else:
            pass_income(s, g, pol, rg, p)
        if s[S_PENDING]:
            return 0
        redeem_any_time(s, g, sc)
    if step <= SQUARE:
        s8_resolve(s, g, pol, rg, sc, p)
        if s[S_PENDING]:
            return 0
        redeem_any_time(s, g, sc)
    s9_announce(s, g, pol, rg, p)
    if s[S_PENDING]:
        return 0
    out = T_PLAYED
    if s[S_DOUBLES]:
        out |= T_DOUBLES
    if s[S_MARKERS_GAINED]:
        out |= T_PENALISED
    return out


@njit(**STEP_INLINE)
def play_seat(s, g, f, pol, rg, sc, p):
    """A seat's turn and the free turns its doubles earn (S10), from where ``S_CHAIN``,
    ``S_SKIP`` and ``S_STEP`` say; False when a searching seat stopped the game."""
    max_doubles = g[R.max_consecutive_doubles]
    while True:
        res = take_turn(s, g, f, pol, rg, sc, p, s[S_SKIP], s[S_STEP])
        if s[S_PENDING]:
            return False
        s[S_STEP] = START
        if s[S_WINNER] >= 0 or not (res & T_DOUBLES) or s[S_OVERFLOW]:
            break
        chain = s[S_CHAIN] + 1
        s[S_CHAIN] = chain
        if max_doubles and chain >= max_doubles:
            break
        if chain >= DOUBLES_CHAIN_CAP:
            s[S_CAP_HITS] += 1
            break
        s[S_SKIP] = 0
        if res & T_PENALISED:
            mode = g[R.doubles_after_penalty]
            if mode == 0:
                break
            if mode == 1:
                s[S_MISSED + p] -= 1
                break
            s[S_SKIP] = 1
    s[S_CHAIN] = 0
    s[S_SKIP] = 0
    return True


@njit(**STEP_INLINE)
def progress_score(s, p):
    """1000 * stage + 10 * votes + net barrels (spec §5)."""
    stage = 3 if s[S_WINNER] == p else s[S_LEVEL + p]
    net = s[S_BARRELS + p]
    o = s[S_O_NOTES]
    for i in range(s[S_N_NOTES]):
        b = o + NOTE_SIZE * i
        if s[b + N_HOLDER] == p:
            net += s[b + N_FACE]
        if s[b + N_DEBTOR] == p:
            net -= s[b + N_FACE]
    return 1000 * stage + 10 * s[S_VOTES + p] + net


@njit(**STEP_INLINE)
def round_leader(s, P):
    """reference.leader of the standings now: the one seat with the top progress score,
    -1 when the top is shared."""
    best = -(1 << 62)
    seat = -1
    for p in range(P):
        score = progress_score(s, p)
        seat = p if score > best else (-1 if score == best else seat)   # selects, no branches
        best = max(best, score)
    return seat



@njit(**STEP)
def advance(s, g, f, pol, rg, sc, lead, record):
    """Play on from where the state stands (``S_SEAT`` ...) until the game ends (True) or a
    searching seat stops it at a decision (False, ``S_PENDING``). ``record``: note each
    round's leader in ``lead`` (the game; a playout does not)."""
    P = s[S_P]
    max_rounds = g[R.max_rounds]
    while True:
        p = s[S_SEAT]
        if not play_seat(s, g, f, pol, rg, sc, p):
            return False
        if s[S_OVERFLOW]:
            return True
        if s[S_WINNER] < 0 and p + 1 < P:
            s[S_SEAT] = p + 1
            continue
        if record:
            lead[s[S_ROUND] - 1] = round_leader(s, P)   # the round's end (or the coup's moment)
        if s[S_WINNER] >= 0:
            return True
        if s[S_ROUND] >= max_rounds:
            s[S_CAPPED] = 1
            return True
        s[S_ROUND] += 1
        s[S_SEAT] = 0


# ================================================================ rollout (policies.RolloutPolicy)


@njit(**STEP)
def resample(c, g, rg):
    """policies.resample: what no player can see, re-dealt from ``rg``: the unseen part of the
    Win/Lose deck (not under iid), of the Court Verdict deck, the Vote pack below its top
    (all of it when the top is not shown), the unsold tickets."""
    n = g[G_N_WL]
    seen = c[S_WL_SEEN]
    if g[R.win_lose_after_draw] == 0 and seen < n:
        _rotate_to_top(c, c[S_O_WL], n, c[S_WL_HEAD])
        c[S_WL_HEAD] = 0
        _shuffle(rg, c, c[S_O_WL], n - seen)
    n = g[G_N_CV]
    seen = c[S_CV_SEEN]
    if seen < n:
        _rotate_to_top(c, c[S_O_CV], n, c[S_CV_HEAD])
        c[S_CV_HEAD] = 0
        _shuffle(rg, c, c[S_O_CV], n - seen)
    top = 1 if g[R.vote_top_visible] else 0
    if c[S_PACK_N] > top:
        _shuffle(rg, c, c[S_O_PACK] + c[S_PACK_HEAD] + top, c[S_PACK_N] - top)
    _shuffle(rg, c, S_TDECK, c[S_TDECK_N])


@njit(**STEP)
def win_value(c, g, p):
    """reference.wins(c)[p]: 1 for p's coup; a capped game 0, or its share of the best score
    under cap_resolution=progress."""
    if c[S_WINNER] >= 0:
        return 1.0 if c[S_WINNER] == p else 0.0
    if not (c[S_CAPPED] and g[R.cap_resolution]):
        return 0.0
    mine = progress_score(c, p)
    n_best = 0
    for q in range(c[S_P]):
        score = progress_score(c, q)
        if score > mine:
            return 0.0
        if score == mine:
            n_best += 1
    return 1.0 / n_best


@njit(**STEP)
def playout(s, g, f, pp, sc, c, prg, p, kind, step, answer, word):
    """One playout (RolloutPolicy.playout): the game copied to ``c``, its hidden decks
    re-dealt from the world ``Rng(word, 0, 0)`` (in ``prg``), the searched step run again
    with ``answer``, then to the end, every seat playing the rows at ``pp``; its worth."""
    for i in range(state_size(g, s[S_NOTE_CAP])):
        c[i] = s[i]
    for q in range(MAXP):
        c[S_SEARCH + q] = 0
    c[S_PENDING] = 0
    c[S_PLAYOUT] = 1
    c[S_WORD] = np.int64(word)
    c[S_FORCE_KIND] = kind
    c[S_FORCED] = answer
    c[S_STEP] = step
    rng_seed(prg, np.uint64(word), np.uint64(0), np.uint64(0))
    resample(c, g, prg)
    advance(c, g, f, pp, prg, sc, c, False)
    if c[S_OVERFLOW]:
        s[S_OVERFLOW] = 1   # the game is played again with room for more notes
        return 0.0
    return win_value(c, g, p)


@njit(**STEP)
def rollout_decide(s, g, f, fl, rg, sc, c, words, cands, prg):
    """RolloutPolicy.search at the decision the game stopped at (``S_PENDING``): the base's
    answer first, then the other options (a challenge: none, then the targets in turn order
    after the seat); ``samples`` words from the seat's stream; the candidate with the best
    lead over the base's answer on the common playouts, if it passes the paired test."""
    p = s[S_ACTIVE]
    kind = s[S_PENDING]
    step = s[S_PSTEP]
    base = s[S_PBASE]
    cands[0] = base
    nc = 1
    if kind == K_CHALLENGE:
        need = max(g[R.challenge_min_votes], g[R.challenge_stake])
        same = g[R.challenge_targets] == 1
        P = s[S_P]
        # a seat forced to challenge chooses only whom (reference: challenge_target)
        if base != -1 and not is_forced_fast(C_CHALLENGE, s[S_FORCE + p]):
            cands[nc] = -1
            nc += 1
        q = p
        for _ in range(1, P):
            q = _next_seat(q, P)
            if s[S_VOTES + q] < need or (same and s[S_LEVEL + q] != s[S_LEVEL + p]):
                continue
            if q != base:
                cands[nc] = q
                nc += 1
    else:
        cands[1] = 1 - base
        nc = 2
    samples = s[S_SAMPLES + p]
    own = offset(rg, 4 * (1 + p))
    for j in range(samples):
        words[j] = rng_next(own)
    pp = offset(fl, (1 + p) * MAXP * PW)
    z = fl[F_OWN + p * PW + RO_CONFIDENCE]
    first = offset(fl, F_FIRST)
    for j in range(samples):
        first[j] = playout(s, g, f, pp, sc, c, prg, p, kind, step, base, words[j])
        if s[S_OVERFLOW]:
            return base
    best = 0
    best_lead = 0.0
    for i in range(1, nc):
        lead = 0.0
        spread = 0.0
        for j in range(samples):
            d = playout(s, g, f, pp, sc, c, prg, p, kind, step, cands[i], words[j]) - first[j]
            if s[S_OVERFLOW]:
                return base
            lead += d
            spread += d * d
        if lead > z * np.sqrt(spread) + TOL and lead > best_lead + TOL:
            best = i
            best_lead = lead
    return cands[best]



@njit(**STEP)
def play_one(ints, floats, rng, g, f, pol, P, seed, game, note_cap, out):
    """Game ``game`` of ``seed`` (the ``engines._fast`` contract): played in ``ints`` (the
    state, then the leader of every round ``lead``, then the scratch ``sc``), its outcome row
    written to ``out``.

    ``note_cap`` is the notes region's size; returns False when the game needs more notes
    than that (the row is then not valid, and the driver replays the game larger).
    """
    s = ints
    max_rounds = g[R.max_rounds]
    n_state = state_size(g, note_cap)
    lead = offset(ints, n_state)
    sc = offset(ints, n_state + max_rounds)
    rg = rng
    setup(s, g, rg, sc, P, note_cap)
    # every seat plays its row in ``floats`` (setup_block: a rollout seat's is its base's)
    pe = floats
    searching = False
    for p in range(P):   # each seat's restriction, from its own row (not its base's)
        s[S_FORBID + p] = np.int64(pol[p * PW + FORBID_COLUMN])
        s[S_FORCE + p] = np.int64(pol[p * PW + FORCE_COLUMN])
    for p in range(P):
        if int(pol[p * PW]) == ROLLOUT:
            s[S_SEARCH + p] = 1
            s[S_SAMPLES + p] = np.int64(pol[p * PW + RO_SAMPLES])
            s[S_FROM_LEVEL + p] = np.int64(pol[p * PW + RO_FROM_LEVEL])
            searching = True
    if searching:   # a playout's copy of the state, its world stream, words and candidates
        copy = offset(sc, max(note_cap + 1, g[G_N_CARDS]))
        prg = as_words(offset(copy, n_state))
        words = offset(prg, 4 * (1 + MAXP))
        cands = offset(copy, n_state + 4 * (1 + MAXP) + MAX_SAMPLES)
    else:
        copy = sc
        prg = as_words(sc)
        words = prg
        cands = sc
    while not advance(s, g, f, pe, rg, sc, lead, True):
        # a searching seat's decision: searched, then the game goes on with the answer
        answer = rollout_decide(s, g, f, pe, rg, sc, copy, words, cands, prg)
        if s[S_OVERFLOW]:
            break
        s[S_FORCE_KIND] = s[S_PENDING]
        s[S_FORCED] = answer
        s[S_STEP] = s[S_PSTEP]
        s[S_PENDING] = 0
    if s[S_OVERFLOW]:
        return False
    # the outcome row (reference.outcome)
    out[0] = game
    out[1] = P
    c = 2
    winner = s[S_WINNER]
    best = -(1 << 62)
    n_best = 0
    for p in range(P):
        score = progress_score(s, p)
        out[c + P + p] = score
        if score > best:
            best = score
            n_best = 1
        elif score == best:
            n_best += 1
    for p in range(P):
        if winner >= 0:
            out[c + p] = 1.0 if winner == p else 0.0
        elif s[S_CAPPED] and g[R.cap_resolution]:
            out[c + p] = 1.0 / n_best if out[c + P + p] == best else 0.0
        else:
            out[c + p] = 0.0
    c += 2 * P
    for p in range(P):
        out[c + p] = s[S_LEVEL + p]
        out[c + P + p] = s[S_VOTES + p]
    c += 2 * P
    out[c] = s[S_ROUND]
    out[c + 1] = s[S_TURNS]
    out[c + 2] = s[S_COUPS]
    out[c + 3] = s[S_CHALLENGES]
    out[c + 4] = s[S_CRIMES]
    out[c + 5] = s[S_NOTES_WRITTEN]
    out[c + 6] = s[S_RAN_OUT]
    out[c + 7] = s[S_CAPPED]
    out[c + 8] = s[S_BOND_SEAT]
    out[c + 9] = s[S_CAP_HITS]
    changes, half = lead_story_at(lead, 0, s[S_ROUND])
    out[c + 10] = changes
    out[c + 11] = half
    c += 12
    for k in range(N_CHOICES):   # took_<choice>_<seat>, by choice then seat
        for p in range(P):
            out[c + k * P + p] = s[S_TOOK + k * MAXP + p]
    return True


def sizes(g: np.ndarray, players: int, note_cap: int) -> tuple[int, int]:
    """Ints: the state with ``note_cap`` notes, the leader of every round (``max_rounds``),
    the scratch for redemptions and hand-overs, then a rollout's: a playout's copy of the
    state, its world stream (room for every stream), the words and the candidates. Floats:
    the rows the seats play (``setup_block``), then each seat's playouts' rows."""
    n_state = int(state_size(g, note_cap))
    return (n_state + int(g[R.max_rounds]) + max(note_cap + 1, int(g[G_N_CARDS]))
            + n_state + 4 * (1 + MAXP) + MAX_SAMPLES + MAXP + 1, F_FIRST + MAX_SAMPLES)


@njit(cache=True)
def setup_block(ints, floats, g, f, pol, P, cap):
    """The rows the seats play, at ``floats[p * PW]``: each seat's own, a rollout seat's its
    base's (``pol`` row P + p), which it plays at every decision it does not search; then
    for each seat p, at ``floats[(1 + p) * MAXP * PW]``, its playouts' rows: every seat its
    base's; then at ``F_OWN`` every seat's own row (a rollout's parameters)."""
    for p in range(P):
        src = (P + p) * PW if int(pol[p * PW]) == ROLLOUT else p * PW
        for i in range(PW):
            floats[p * PW + i] = pol[src + i]
        for q in range(P):
            for i in range(PW):
                floats[(1 + p) * MAXP * PW + q * PW + i] = pol[(P + p) * PW + i]
        for i in range(PW):
            floats[F_OWN + p * PW + i] = pol[p * PW + i]


def notes_capacity(replay: int) -> int:
    """The notes region of a call (0) and of each replay of the games that outgrew it."""
    return NOTE_CAP * 4 ** replay


FAST = fast_path(__name__, play_one, sizes, setup_block=setup_block, data=encode_data,
                 capacity=notes_capacity)
