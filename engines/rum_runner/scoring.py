"""Rum Runner scoring (spec §5.2): a pure function of the final collection.

Face value for 2-5; 6s, 8s and 10s score half alone and full in a pair;
7s and 9s score nothing alone and double in a pair; each set of all four
suits scores ``suit_set_value``, on top of the card values (``additive``) or
using its cards exclusively (``exclusive``, best split by dynamic programming).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from engines.rum_runner.cards import Card


def rank_points(rank: int, n: int, pair_rule: str = "disjoint") -> int:
    """Points for holding ``n`` cards of one rank, before any suit set."""
    if n <= 0:
        return 0
    if rank <= 5:                      # movement cards: face value
        return rank * n
    if rank in (6, 8, 10):             # half alone, full value in a pair
        if pair_rule == "all_if_two_or_more":
            return n * rank if n >= 2 else n * (rank // 2)
        return (n // 2) * 2 * rank + (n % 2) * (rank // 2)
    if rank in (7, 9):                 # nothing alone, double faces in a pair
        if pair_rule == "all_if_two_or_more":
            return n * 2 * rank if n >= 2 else 0
        return (n // 2) * 4 * rank
    return 0                           # ports never reach a collection


def score(collection: list[Card], suit_set_mode: str = "additive", pair_rule: str = "disjoint",
          suit_set_value: int = 30) -> int:
    """The final score of a collection (spec §5.2)."""
    by_rank = Counter(c.rank for c in collection)
    if suit_set_mode == "additive":
        base = sum(rank_points(r, n, pair_rule) for r, n in by_rank.items())
        by_suit = Counter(c.suit for c in collection)
        sets = min(by_suit[s] for s in range(4))
        return base + suit_set_value * sets
    return _exclusive_score(collection, pair_rule, suit_set_value)


def _exclusive_score(collection: list[Card], pair_rule: str, suit_set_value: int) -> int:
    """Best split of the cards between suit sets and rank scoring (spec §5.2, exclusive).

    Dynamic programming over ranks; the state is how many cards of each suit
    have been put into sets so far (never more than the scarcest suit holds).
    At each rank every subset of its cards may go into the sets.
    """
    suit_counts = Counter(c.suit for c in collection)
    most_sets = min(suit_counts[s] for s in range(4))
    suits_of_rank: dict[int, list[int]] = {}
    for c in collection:
        suits_of_rank.setdefault(c.rank, []).append(c.suit)
    best: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for rank, suits in sorted(suits_of_rank.items()):
        nxt: dict[tuple[int, int, int, int], int] = {}
        for used, value in best.items():
            for chosen in product((False, True), repeat=len(suits)):
                state = list(used)
                for take, suit in zip(chosen, suits, strict=True):
                    if take:
                        state[suit] += 1
                if max(state) > most_sets:
                    continue
                kept = len(suits) - sum(chosen)
                total = value + rank_points(rank, kept, pair_rule)
                key = tuple(state)
                if total > nxt.get(key, -10**9):
                    nxt[key] = total
        best = nxt
    return max(value + suit_set_value * used[0]
               for used, value in best.items() if len(set(used)) == 1)


def score_with_rules(collection: list[Card], rules) -> int:
    return score(collection, rules.suit_set_mode, rules.pair_rule, rules.suit_set_value)
