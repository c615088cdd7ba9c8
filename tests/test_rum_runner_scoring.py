"""Rum Runner scoring and bands against the spec (shared/rules/rum_runner.md §5.2-§5.4, §9.1, §9.2).

The expected numbers are copied from the spec's tables; the brute-force and
rank-point helpers below are written from the spec's text, independently of
``engines.rum_runner.scoring``.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engines.rum_runner.cards import Card, cards
from engines.rum_runner.rules import Rules
from engines.rum_runner.scoring import rank_points, score, score_with_rules

RUM = [Card(r, s) for r in (6, 7, 8, 9, 10) for s in range(4)]
MOVEMENT = [Card(r, s) for r in (2, 3, 4, 5) for s in range(4)]
COLLECTABLE = sorted(RUM + MOVEMENT)  # the 36 non-port cards
assert len(COLLECTABLE) == 36


def _all_36_minus_2c():
    return [c for c in COLLECTABLE if c != Card(2, 0)]


# ---------------------------------------------------------------- §9.1, every row, all three columns

# (label, collection, additive (default), exclusive, pair_rule=all_if_two_or_more)
TABLE_9_1 = [
    ("(empty)", [], 0, 0, 0),
    ("6♣", cards("6♣"), 3, 3, 3),
    ("8♣ 8♦", cards("8♣ 8♦"), 16, 16, 16),
    ("7♥", cards("7♥"), 0, 0, 0),
    ("7♥ 7♠", cards("7♥ 7♠"), 28, 28, 28),
    ("6♣ 6♦ 6♥", cards("6♣ 6♦ 6♥"), 15, 15, 18),
    ("9♣ 9♦ 9♥", cards("9♣ 9♦ 9♥"), 36, 36, 54),
    ("2♣ 3♦ 4♥ 5♠", cards("2♣ 3♦ 4♥ 5♠"), 44, 30, 44),
    ("6♣ 6♦ 6♥ 6♠", cards("6♣ 6♦ 6♥ 6♠"), 54, 30, 54),
    ("8♣ 8♦ 8♥ 8♠", cards("8♣ 8♦ 8♥ 8♠"), 62, 32, 62),
    ("6♣ 6♦ 8♥ 9♠ 9♣ 10♦ 7♥ 3♠", cards("6♣ 6♦ 8♥ 9♠ 9♣ 10♦ 7♥ 3♠"), 120, 75, 120),
    ("9♣ 9♦ 7♥ 7♠ 2♣ 3♦ 4♥ 5♠", cards("9♣ 9♦ 7♥ 7♠ 2♣ 3♦ 4♥ 5♠"), 138, 94, 138),
    ("6♣ 6♦ 6♥ 6♠ 10♣ 10♦ 10♥ 10♠", cards("6♣ 6♦ 6♥ 6♠ 10♣ 10♦ 10♥ 10♠"), 124, 70, 124),
    ("10♣ 6♣ 6♦ 8♣ 8♦ 10♦ 6♥", cards("10♣ 6♣ 6♦ 8♣ 8♦ 10♦ 6♥"), 51, 51, 54),
    ("all 20 rum cards", RUM, 374, 230, 374),
    ("all 36 non-port cards", COLLECTABLE, 550, 350, 550),
    ("all 36 minus 2♣", _all_36_minus_2c(), 518, 339, 518),
]

IDS = [row[0] for row in TABLE_9_1]


@pytest.mark.parametrize(("label", "collection", "additive", "exclusive", "all_pairs"),
                         TABLE_9_1, ids=IDS)
def test_table_9_1_additive(label, collection, additive, exclusive, all_pairs):
    assert score(collection) == additive
    assert score(collection, "additive", "disjoint", 30) == additive
    assert score_with_rules(collection, Rules()) == additive


@pytest.mark.parametrize(("label", "collection", "additive", "exclusive", "all_pairs"),
                         TABLE_9_1, ids=IDS)
def test_table_9_1_exclusive(label, collection, additive, exclusive, all_pairs):
    assert score(collection, suit_set_mode="exclusive") == exclusive
    assert score_with_rules(collection, Rules(suit_set_mode="exclusive")) == exclusive
    assert score_with_rules(collection, Rules.from_overrides(preset="exclusive_sets")) == exclusive


@pytest.mark.parametrize(("label", "collection", "additive", "exclusive", "all_pairs"),
                         TABLE_9_1, ids=IDS)
def test_table_9_1_all_if_two_or_more(label, collection, additive, exclusive, all_pairs):
    assert score(collection, pair_rule="all_if_two_or_more") == all_pairs
    assert score_with_rules(collection, Rules(pair_rule="all_if_two_or_more")) == all_pairs


@pytest.mark.parametrize(("label", "collection", "additive", "exclusive", "all_pairs"),
                         TABLE_9_1, ids=IDS)
def test_table_9_1_order_does_not_matter(label, collection, additive, exclusive, all_pairs):
    backwards = list(reversed(collection))
    assert score(backwards) == additive
    assert score(backwards, suit_set_mode="exclusive") == exclusive
    assert score(backwards, pair_rule="all_if_two_or_more") == all_pairs


def test_breakdown_of_the_120():
    """§9.1: card values 60, plus 2 suit sets (every suit holds exactly 2 cards)."""
    coll = cards("6♣ 6♦ 8♥ 9♠ 9♣ 10♦ 7♥ 3♠")
    assert score(coll, suit_set_value=0) == 12 + 4 + 36 + 5 + 0 + 3
    assert Counter(c.suit for c in coll) == Counter({0: 2, 1: 2, 2: 2, 3: 2})
    assert score(coll) - score(coll, suit_set_value=0) == 2 * 30
    # exclusive: the best split puts 6♣ 6♦ 7♥ 3♠ into one set: 60 - 15 + 30
    rest = [c for c in coll if c not in cards("6♣ 6♦ 7♥ 3♠")]
    assert score(rest, suit_set_value=0) + 30 == 75 == score(coll, suit_set_mode="exclusive")


# ---------------------------------------------------------------- §5.4 maxima


def test_section_5_4_components():
    no_sets = dict(suit_set_value=0)
    assert score(RUM, **no_sets) == 224                      # 24 + 32 + 40 + 56 + 72
    assert score(cards("6♣ 6♦ 6♥ 6♠"), **no_sets) == 24
    assert score(cards("8♣ 8♦ 8♥ 8♠"), **no_sets) == 32
    assert score(cards("10♣ 10♦ 10♥ 10♠"), **no_sets) == 40
    assert score(cards("7♣ 7♦ 7♥ 7♠"), **no_sets) == 56
    assert score(cards("9♣ 9♦ 9♥ 9♠"), **no_sets) == 72
    assert score(MOVEMENT, **no_sets) == 56
    assert score(COLLECTABLE) - score(COLLECTABLE, **no_sets) == 270  # 9 sets


def test_section_5_4_maxima():
    assert score(COLLECTABLE) == 550                         # ceiling of the scoring function
    assert score(_all_36_minus_2c()) == 518                  # structural upper bound
    assert score(RUM) == 374                                 # rum cards only
    assert score(COLLECTABLE, suit_set_mode="exclusive") == 350
    assert score(_all_36_minus_2c(), suit_set_mode="exclusive") == 339
    assert score(RUM, suit_set_mode="exclusive") == 230
    # 518 is the best a 35-card collection can do: the cheapest card to miss is a 2
    assert max(score([c for c in COLLECTABLE if c != miss]) for miss in COLLECTABLE) == 518
    # 280 + 9 * suit_set_value (§8 item 7) for other set values
    for v in (0, 1, 7, 30, 100):
        assert score(COLLECTABLE, suit_set_value=v) == 280 + 9 * v


# ---------------------------------------------------------------- rank_points


@pytest.mark.parametrize(("rank", "n", "disjoint", "all_pairs"), [
    (2, 0, 0, 0), (2, 1, 2, 2), (2, 4, 8, 8), (3, 3, 9, 9), (5, 2, 10, 10), (4, 4, 16, 16),
    (6, 0, 0, 0), (6, 1, 3, 3), (6, 2, 12, 12), (6, 3, 15, 18), (6, 4, 24, 24),
    (8, 1, 4, 4), (8, 2, 16, 16), (8, 3, 20, 24), (8, 4, 32, 32),
    (10, 1, 5, 5), (10, 2, 20, 20), (10, 3, 25, 30), (10, 4, 40, 40),
    (7, 0, 0, 0), (7, 1, 0, 0), (7, 2, 28, 28), (7, 3, 28, 42), (7, 4, 56, 56),
    (9, 1, 0, 0), (9, 2, 36, 36), (9, 3, 36, 54), (9, 4, 72, 72),
])
def test_rank_points(rank, n, disjoint, all_pairs):
    assert rank_points(rank, n) == disjoint
    assert rank_points(rank, n, "disjoint") == disjoint
    assert rank_points(rank, n, "all_if_two_or_more") == all_pairs


def test_rank_points_pairs_per_spec():
    """§5.2: a pair of 6s = 12, of 8s = 16, of 10s = 20, of 7s = 28, of 9s = 36."""
    assert [rank_points(r, 2) for r in (6, 8, 10, 7, 9)] == [12, 16, 20, 28, 36]


# ---------------------------------------------------------------- §9.2 bands

LOWER_INCLUSIVE = [(0, 0), (199, 0), (200, 1), (249, 1), (250, 2), (299, 2), (300, 3), (324, 3),
                   (325, 4), (349, 4), (350, 5), (518, 5)]
UPPER_INCLUSIVE = [(200, 0), (201, 1), (250, 1), (350, 4), (351, 5)]


@pytest.mark.parametrize(("score_", "band"), LOWER_INCLUSIVE)
def test_bands_lower_inclusive(score_, band):
    assert Rules().band(score_) == band
    assert Rules(score_band_edge_rule="lower_inclusive").band(score_) == band


@pytest.mark.parametrize(("score_", "band"), UPPER_INCLUSIVE)
def test_bands_upper_inclusive(score_, band):
    assert Rules(score_band_edge_rule="upper_inclusive").band(score_) == band


def test_bands_follow_custom_edges_and_are_monotone():
    r = Rules(score_band_edges=(10, 20, 30, 40, 50))
    assert [r.band(s) for s in (9, 10, 19, 20, 29, 30, 39, 40, 49, 50, 10_000)] == [
        0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    up = Rules(score_band_edges=(10, 20, 30, 40, 50), score_band_edge_rule="upper_inclusive")
    assert [up.band(s) for s in (10, 11, 50, 51)] == [0, 1, 4, 5]
    for rules in (Rules(), Rules(score_band_edge_rule="upper_inclusive")):
        bands = [rules.band(s) for s in range(-5, 600)]
        assert bands == sorted(bands) and bands[0] == 0 and bands[-1] == 5


# ---------------------------------------------------------------- properties


def spec_rank_points(rank: int, n: int, pair_rule: str) -> int:
    """§5.2 written out again, one card group at a time."""
    if rank in (2, 3, 4, 5):
        return rank * n
    if pair_rule == "all_if_two_or_more":
        if rank in (6, 8, 10):
            return n * rank if n >= 2 else n * (rank // 2)
        return n * 2 * rank if n >= 2 else 0
    pairs, odd = divmod(n, 2)
    if rank in (6, 8, 10):
        return pairs * 2 * rank + odd * (rank // 2)
    return pairs * 4 * rank


def spec_card_value(collection, pair_rule: str) -> int:
    counts = Counter(c.rank for c in collection)
    return sum(spec_rank_points(r, n, pair_rule) for r, n in counts.items())


def brute_force_exclusive(collection, pair_rule: str, set_value: int) -> int:
    """Every split of the cards into 'in a suit set' and 'scored by rank'; a split is valid when the
    set part holds the same number k of each suit (k sets); the best total wins."""
    best = None
    for mask in product((False, True), repeat=len(collection)):
        in_sets = [c for c, m in zip(collection, mask, strict=True) if m]
        per_suit = Counter(c.suit for c in in_sets)
        k = per_suit[0]
        if any(per_suit[s] != k for s in range(4)):
            continue
        rest = [c for c, m in zip(collection, mask, strict=True) if not m]
        total = set_value * k + spec_card_value(rest, pair_rule)
        best = total if best is None else max(best, total)
    return best


subsets_36 = st.lists(st.sampled_from(COLLECTABLE), unique=True, max_size=36)
small_subsets = st.lists(st.sampled_from(COLLECTABLE), unique=True, max_size=11)
pair_rules = st.sampled_from(["disjoint", "all_if_two_or_more"])


@settings(max_examples=300, deadline=None)
@given(subsets_36, pair_rules, st.integers(min_value=0, max_value=200))
def test_exclusive_never_beats_additive_and_both_nonnegative(coll, pair_rule, set_value):
    add = score(coll, "additive", pair_rule, set_value)
    exc = score(coll, "exclusive", pair_rule, set_value)
    assert 0 <= exc <= add
    # additive is the card values plus set_value per complete set (§5.2)
    sets = min(Counter(c.suit for c in coll)[s] for s in range(4))
    assert add == spec_card_value(coll, pair_rule) + set_value * sets
    # exclusive is at least the no-set split and at most the additive score
    assert exc >= spec_card_value(coll, pair_rule)
    assert add <= 280 + 9 * set_value


@settings(max_examples=300, deadline=None)
@given(small_subsets, pair_rules, st.integers(min_value=-40, max_value=120))
def test_exclusive_dp_equals_brute_force(coll, pair_rule, set_value):
    assert score(coll, "exclusive", pair_rule, set_value) == brute_force_exclusive(
        coll, pair_rule, set_value)


@settings(max_examples=100, deadline=None)
@given(subsets_36, st.sampled_from(COLLECTABLE), pair_rules, st.sampled_from(["additive", "exclusive"]))
def test_adding_a_card_never_lowers_the_score(coll, extra, pair_rule, mode):
    """§8 item 7: the score never decreases as the collection grows (both suit-set modes)."""
    assume(extra not in coll)
    assert score(coll + [extra], mode, pair_rule) >= score(coll, mode, pair_rule)


def test_brute_force_helper_matches_table_rows():
    """The independent brute force itself agrees with the spec's exclusive column (small rows)."""
    for label, coll, _additive, exclusive, _all in TABLE_9_1:
        if len(coll) <= 12:
            assert brute_force_exclusive(coll, "disjoint", 30) == exclusive, label
