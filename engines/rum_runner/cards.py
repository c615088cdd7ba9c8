"""Rum Runner's cards: ranks, suits, the four card groups and how they print.

Integer ranks 2..14 (J=11, Q=12, K=13, A=14); suits ♣=0, ♦=1, ♥=2, ♠=3
(spec §0; suit order only breaks ties). A card's id is ``(rank - 2) * 4 + suit``
(0..51), the encoding the fast path uses.
"""

from __future__ import annotations

from typing import NamedTuple

SUITS = "♣♦♥♠"
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}

PORT_RANKS = (11, 12, 13, 14)
MOVEMENT_RANKS = (2, 3, 4, 5)
# The four rum piles, in the order they are built and shuffled (spec §3 step 3).
PILE_RANKS = ((6,), (8,), (10,), (7, 9))
PILE_NAMES = ("6s", "8s", "10s", "7/9s")
# Port rank -> the pile it pays from: J -> 6s, Q -> 8s, K -> 10s, A -> 7/9s (spec §2).
PILE_OF_PORT = {11: 0, 12: 1, 13: 2, 14: 3}


class Card(NamedTuple):
    rank: int
    suit: int

    def __str__(self) -> str:
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{SUITS[self.suit]}"

    @property
    def id(self) -> int:
        return (self.rank - 2) * 4 + self.suit

    @property
    def is_movement(self) -> bool:
        return self.rank in MOVEMENT_RANKS


def card_from_id(cid: int) -> Card:
    return Card(cid // 4 + 2, cid % 4)


def parse_card(text: str) -> Card:
    """'7♥', '10s', 'Qd' or 'A♠' -> Card (letters c/d/h/s accepted for suits)."""
    text = text.strip()
    suit_char = text[-1]
    letters = {"c": 0, "d": 1, "h": 2, "s": 3}
    suit = SUITS.index(suit_char) if suit_char in SUITS else letters[suit_char.lower()]
    rank_text = text[:-1].upper()
    names = {v: k for k, v in RANK_NAMES.items()}
    rank = names[rank_text] if rank_text in names else int(rank_text)
    return Card(rank, suit)


def cards(text: str) -> list[Card]:
    """'2♣ 2♦ 4♥' -> [Card, ...] (tests and worked examples)."""
    return [parse_card(t) for t in text.split()]


def sorted_cards(ranks) -> list[Card]:
    """All cards of the given ranks in ascending (rank, suit) order: the pre-shuffle listing."""
    return [Card(r, s) for r in sorted(ranks) for s in range(4)]


def show(cs) -> str:
    return " ".join(str(c) for c in cs) if cs else "-"
