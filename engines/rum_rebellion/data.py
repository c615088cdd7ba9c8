"""Rum Rebellion's printed data as tables: square types, the three boards, the decks (spec §2).

The seed rulebook prints none of this; everything here is the spec's
``[assumed]`` default design (§2.3, §2.4), and every table is also a rule
option (``board_convict``, ``board_ticket_of_leave``, ``board_rum_corps``,
``occupation_rents``, ``vote_pack``, the card counts), so this module only
holds the defaults and the parsing shared by ``rules.py``, the reference path
and the fast path.

A board is written as square codes, index 0 first: ``START``, ``GD<n>``,
``BO<n>``, ``CR<c>``, ``MF<t>``, ``CH``, ``OC<k>``, ``BV``, ``PR``, ``DU``,
``PL``. An occupation square names only its ticket ``k``; its rent comes from
``occupation_rents``, one rent per ``OC`` square in board order (Convict
board, then Ticket of Leave, then Rum Corps).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

import numpy as np

# ---------------------------------------------------------------- levels

CONVICT, TICKET_OF_LEAVE, RUM_CORPS = 0, 1, 2
LEVELS = (CONVICT, TICKET_OF_LEAVE, RUM_CORPS)
LEVEL_NAMES = ("Convict", "Ticket of Leave", "Rum Corps")
LEVEL_KEYS = ("convict", "ticket_of_leave", "rum_corps")
STARTING_LEVEL_INDEX = {key: level for level, key in enumerate(LEVEL_KEYS)}

# ---------------------------------------------------------------- squares (spec §2.2)

START, GD, BO, CR, MF, CH, OC, BV, PR, DU, PL = range(11)
SQUARE_CODES = ("START", "GD", "BO", "CR", "MF", "CH", "OC", "BV", "PR", "DU", "PL")
SQUARE_NAMES = ("Start", "Good Deed", "Bonus", "Crime", "Misfortune", "Challenge",
                "Occupation", "Buy Vote Cards", "Promotion", "Duel", "Plain")
# Square types that carry a number, and the smallest number each allows.
PARAM_LOW = {GD: 0, BO: 0, CR: 1, MF: 1, OC: 1}
PARAM_HIGH = 99
N_TICKETS = 6            # Ticket of Leave cards, one per occupation (spec §2.1)
MIN_BOARD = 12           # a move is at most 12 steps, so a ring this long passes Start at most once
MAX_BOARD = 100

_CODE = re.compile(r"^([A-Z]+)(\d*)$")


class Square(NamedTuple):
    """One square: its type, its number (Good Deed barrels, crime value, turns, ticket) and rent."""

    kind: int
    value: int = 0
    rent: int = 0

    def __str__(self) -> str:
        code = SQUARE_CODES[self.kind]
        if self.kind == OC:
            return f"OC{self.value},{self.rent}"
        return f"{code}{self.value}" if self.kind in PARAM_LOW else code


def parse_square(code: str) -> tuple[int, int]:
    """'CR3' -> (CR, 3); raises ValueError with the reason for a bad code."""
    m = _CODE.match(code.strip().upper())
    if not m or m.group(1) not in SQUARE_CODES:
        raise ValueError(f"unknown square code '{code}' (codes: {', '.join(SQUARE_CODES)})")
    kind = SQUARE_CODES.index(m.group(1))
    digits = m.group(2)
    if kind in PARAM_LOW:
        if not digits:
            raise ValueError(f"square '{code}' needs a number, e.g. {m.group(1)}2")
        value = int(digits)
        high = N_TICKETS if kind == OC else PARAM_HIGH
        if not PARAM_LOW[kind] <= value <= high:
            raise ValueError(f"square '{code}': the number must be {PARAM_LOW[kind]}..{high}")
        return kind, value
    if digits:
        raise ValueError(f"square '{code}' takes no number")
    return kind, 0


# ---------------------------------------------------------------- boards (spec §2.3)

BOARD_CONVICT = (
    "START", "GD1", "CR1", "PL", "CH", "GD2", "MF1", "CR2", "GD1",
    "BO2", "CR3", "MF2", "GD3", "CH", "CR1", "GD2", "PL", "CR4",
    "MF1", "GD2", "CR2", "CH", "GD1", "MF3", "CR5", "GD4", "PL",
    "BO2", "CR3", "MF1", "GD2", "CH", "CR2", "GD3", "MF2", "CR4",
)

BOARD_TICKET_OF_LEAVE = (
    "START", "OC1", "GD2", "OC2", "CR3", "OC3", "CH",
    "OC4", "MF1", "OC5", "GD3", "OC6", "CR4", "PL",
    "BO3", "OC1", "GD2", "OC2", "CR5", "OC3", "CH",
    "OC4", "MF2", "OC5", "GD4", "OC6", "CR6", "PL",
)

# The rent of each OC square above, in board order (squares 1,3,5,7,9,11,15,17,19,21,23,25).
OCCUPATION_RENTS = (2, 2, 3, 3, 4, 4, 2, 3, 3, 4, 4, 5)

BOARD_RUM_CORPS = (
    "START", "BV", "CH", "PL", "BV", "PR", "CH", "BV", "PL", "DU",
    "BV", "CH", "PL", "BV", "PR", "CH", "PL", "BV", "CH", "PL",
)


@lru_cache(maxsize=64)
def build_boards(boards: tuple[tuple[str, ...], ...], rents: tuple[int, ...]) -> tuple[
        tuple[Square, ...], ...]:
    """The three boards as Squares; raises ValueError naming what is wrong."""
    out = []
    rent_iter = iter(rents)
    n_oc = sum(1 for board in boards for code in board if parse_square(code)[0] == OC)
    if n_oc != len(rents):
        raise ValueError(f"occupation_rents has {len(rents)} rents but the boards have "
                         f"{n_oc} occupation (OC) squares")
    for level, board in enumerate(boards):
        if not MIN_BOARD <= len(board) <= MAX_BOARD:
            raise ValueError(f"the {LEVEL_NAMES[level]} board needs {MIN_BOARD}..{MAX_BOARD} "
                             f"squares, not {len(board)}")
        squares = []
        for i, code in enumerate(board):
            kind, value = parse_square(code)
            if (kind == START) != (i == 0):
                raise ValueError(f"the {LEVEL_NAMES[level]} board must have START at index 0 "
                                 f"and nowhere else")
            rent = next(rent_iter) if kind == OC else 0
            squares.append(Square(kind, value, rent))
        out.append(tuple(squares))
    return tuple(out)


# ---------------------------------------------------------------- decks (spec §2.4)

WIN, LOSE = "WIN", "LOSE"
GO_FREE, FINE, GAOL = "GO_FREE", "FINE", "GAOL"
WIN_LOSE_CARDS = (WIN, LOSE)               # card codes 0, 1 in the fast path
COURT_VERDICT_CARDS = (GO_FREE, FINE, GAOL)  # card codes 0, 1, 2

# Vote cards (vote_model=cards_5_10): (value in votes, printed price in barrels, count).
VOTE_PACK = (
    10, 6, 12,
    10, 8, 12,
    10, 10, 12,
    5, 3, 8,
    5, 4, 8,
    5, 5, 8,
)
STARTING_VOTE_CARDS = 2      # [seed] two cards of value 10 each
STARTING_CARD_VALUE = 10

# Tickets each player takes (spec §3 step 7, [seed]).
TICKETS_BY_PLAYERS = {2: 3, 3: 2, 4: 1, 5: 1, 6: 1}


class VoteCard(NamedTuple):
    """One Votes of Support card; ``id`` is its place in the canonical (unshuffled) pack."""

    id: int
    value: int
    price: int

    def __str__(self) -> str:
        return f"[{self.value} votes, {self.price} barrels]"


def vote_cards(pack: tuple[int, ...]) -> list[VoteCard]:
    """The whole pack in canonical order: each (value, price, count) group in the order listed."""
    cards: list[VoteCard] = []
    for g in range(0, len(pack), 3):
        value, price, count = pack[g], pack[g + 1], pack[g + 2]
        first = len(cards)
        cards.extend([VoteCard(first + k, value, price) for k in range(count)])
    return cards


def win_lose_deck(wins: int, loses: int) -> list[str]:
    """Canonical order before the setup shuffle: the Win cards, then the Lose cards."""
    return [WIN] * wins + [LOSE] * loses


def court_verdict_deck(go_free: int, fines: int, gaols: int) -> list[str]:
    """Canonical order before the setup shuffle: Go Free, Fine, Gaol."""
    return [GO_FREE] * go_free + [FINE] * fines + [GAOL] * gaols


# ---------------------------------------------------------------- flat arrays for the fast path


class EncodedData(NamedTuple):
    """The boards and decks as flat int64 arrays (what the Numba fast path reads).

    ``board_kind[level, i]``, ``board_value[level, i]``, ``board_rent[level, i]`` for
    ``i < board_len[level]`` (padded with PL to ``MAX_BOARD``);
    ``ticket_rent[k]`` is the total rent of ticket ``k`` (1..6) over all boards
    (what ``ticket_assignment=choose`` ranks by); ``vote_value[c]``,
    ``vote_price[c]`` per card id in canonical order; ``win_lose`` and
    ``court_verdict`` the canonical decks as card codes (after removals).
    """

    board_len: np.ndarray
    board_kind: np.ndarray
    board_value: np.ndarray
    board_rent: np.ndarray
    ticket_rent: np.ndarray
    vote_value: np.ndarray
    vote_price: np.ndarray
    win_lose: np.ndarray
    court_verdict: np.ndarray


def ticket_rents(boards: tuple[tuple[Square, ...], ...]) -> list[int]:
    """Total rent of each ticket over all boards, index 0 unused."""
    total = [0] * (N_TICKETS + 1)
    for board in boards:
        for sq in board:
            if sq.kind == OC:
                total[sq.value] += sq.rent
    return total


def encode_data(rules) -> EncodedData:
    """Flatten a ``Rules``' boards and decks into the fast path's arrays."""
    boards = rules.boards()
    board_len = np.array([len(b) for b in boards], dtype=np.int64)
    kind = np.full((3, MAX_BOARD), PL, dtype=np.int64)
    value = np.zeros((3, MAX_BOARD), dtype=np.int64)
    rent = np.zeros((3, MAX_BOARD), dtype=np.int64)
    for level, board in enumerate(boards):
        for i, sq in enumerate(board):
            kind[level, i], value[level, i], rent[level, i] = sq.kind, sq.value, sq.rent
    cards = vote_cards(rules.vote_pack)
    wl = [WIN_LOSE_CARDS.index(c) for c in rules.win_lose_deck()]
    cv = [COURT_VERDICT_CARDS.index(c) for c in rules.court_verdict_deck()]
    return EncodedData(
        board_len=board_len,
        board_kind=kind,
        board_value=value,
        board_rent=rent,
        ticket_rent=np.array(ticket_rents(boards), dtype=np.int64),
        vote_value=np.array([c.value for c in cards], dtype=np.int64),
        vote_price=np.array([c.price for c in cards], dtype=np.int64),
        win_lose=np.array(wl, dtype=np.int64),
        court_verdict=np.array(cv, dtype=np.int64),
    )
