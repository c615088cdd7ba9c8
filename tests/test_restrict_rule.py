"""A seat's restriction: how a policy names it, how it is encoded, and the one rule both paths
apply at a decision (``engines._restrict``)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from engines import get_game
from engines._game import FORBID_COLUMN, FORCE_COLUMN, POLICY_WIDTH, Choice
from engines._restrict import (
    is_allowed,
    is_allowed_fast,
    is_forced,
    is_forced_fast,
    keeps,
    keeps_fast,
    kept,
    kept_binary,
    kept_binary_fast,
)
from engines._rules import RulesError

CHOICES = (Choice("fish", "a fishing box"), Choice("mutiny", "a Mutiny space"),
           Choice("sell", "an optional sale"))


@pytest.fixture(scope="module")
def info():
    # a game's declaration with three made-up choices (the rule is the same for every game)
    return dataclasses.replace(get_game("motines"), choices=CHOICES)


def test_a_policy_names_its_restriction_and_the_row_carries_it(info):
    p = info.policy("expert:forbid=sell+mutiny")
    assert p.restriction.forbid == ("mutiny", "sell")       # in the game's order
    assert p.label() == "expert:forbid=mutiny+sell"
    row = p.encode()
    assert row.shape == (POLICY_WIDTH,)
    assert row[FORBID_COLUMN] == 0b110 and row[FORCE_COLUMN] == 0
    assert info.policy(p.label()) == p                       # the label reads back
    assert p != info.policy("expert") and p.unrestricted() == info.policy("expert")
    forced = info.policy("greedy:captain_bonus=2:force=fish")
    assert forced.encode()[FORCE_COLUMN] == 1 and forced.param("captain_bonus") == 2


def test_a_search_keeps_its_restriction_and_its_playout_policy_has_none(info):
    p = info.policy("rollout:base=expert:samples=2:forbid=mutiny")
    assert p.restriction.forbid == ("mutiny",)
    assert p.base is not None and not p.base.restriction
    assert p.encode()[FORBID_COLUMN] == 2 and p.encode_base()[FORBID_COLUMN] == 0
    # a trained set plays as its declared policy, restriction and all
    assert info.declared(info.policy("expert:force=sell")).restriction.force == ("sell",)


@pytest.mark.parametrize("text, words", [
    ("expert:forbid=mutiy", "no choice 'mutiny'|has no choice 'mutiy'"),
    ("expert:forbid=", "names no choice"),
    ("expert:forbid=fish+", "names no choice"),
    ("expert:forbid=sell:force=sell", "both forbidden and forced"),
])
def test_a_slip_in_a_restriction_is_one_clear_error(info, text, words):
    with pytest.raises(RulesError, match=words):
        info.policy(text)


def test_a_game_without_choices_says_so():
    info = dataclasses.replace(get_game("motines"), choices=())
    with pytest.raises(RulesError, match="declares no choices"):
        info.policy("expert:forbid=mutiny")


def test_every_choice_adds_a_count_column_per_seat_once(info):
    names = info.column_names(4)
    assert names[-12:] == [f"took_{c}_{s}" for c in ("fish", "mutiny", "sell")
                           for s in range(4)]
    again = dataclasses.replace(info, choices=CHOICES[:1])
    assert [n for n in again.column_names(4) if n.startswith("took_")] == [
        f"took_fish_{s}" for s in range(4)]


def _rule(kinds, forbid, force):
    """The rule in words (engines._restrict's docstring), written out independently."""
    forced = [k for k in kinds if k >= 0 and force >> k & 1]
    if forced:
        return [i for i, k in enumerate(kinds) if k >= 0 and force >> k & 1]
    allowed = [i for i, k in enumerate(kinds) if k < 0 or not forbid >> k & 1]
    return allowed or list(range(len(kinds)))


def test_the_rule_keeps_what_its_words_say_on_both_paths():
    for n in range(1, 4):
        for kinds in itertools.product((-1, 0, 1, 2), repeat=n):
            for forbid, force in itertools.product(range(8), range(8)):
                if forbid & force:
                    continue
                want = _rule(kinds, forbid, force)
                assert kept(list(range(n)), kinds, forbid, force) == want
                fa = any(is_forced_fast(k, force) for k in kinds)
                aa = any(is_allowed_fast(k, forbid) for k in kinds)
                assert fa == any(is_forced(k, force) for k in kinds)
                assert aa == any(is_allowed(k, forbid) for k in kinds)
                fast = [i for i, k in enumerate(kinds) if keeps_fast(k, forbid, force, fa, aa)]
                assert fast == want == [i for i, k in enumerate(kinds)
                                        if keeps(k, forbid, force, fa, aa)]


@pytest.mark.parametrize("forbid, force, want, fast", [
    (0, 0, None, -1), (0b100, 0, False, 0), (0, 0b100, True, 1), (0b011, 0b000, None, -1)])
def test_a_yes_or_no_decision(forbid, force, want, fast):
    assert kept_binary(2, forbid, force) is want
    assert kept_binary_fast(2, forbid, force) == fast
    assert np.int64(kept_binary_fast(2, np.int64(forbid), np.int64(force))) == fast
