"""Montego Bay: restricted play (``expert:forbid=card_5``, ``random:force=lazy_jack``).

The choices (``engines.montego_bay.CHOICES``) are D1's hire of Lazy Jack and each card value
of D3 (every figure's card, Lazy Jack's included). These tests check what a restriction
does to the games on the fast path (``test_montego_bay_equivalence`` checks that the
reference plays the same games): a forbidden kind is never taken while the rules leave
another option, a forced kind is taken whenever it can be, the took counts agree with
what the game already counts, a seat left with one option is not asked, and a choice the
game does not have is one clear error.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._game import FORBID_COLUMN, FORCE_COLUMN
from engines._rng import Rng
from engines._rules import RulesError
from engines.montego_bay import CARD_VALUES, CHOICES, GAME, reference
from engines.montego_bay.policies import RandomPolicy
from engines.montego_bay.rules import Rules

CARDS = [f"card_{k}" for k in CARD_VALUES]
CHEAP_HIRES = Rules(lazy_jack_cost=2, start_coins_by_seat=(2, 2, 2, 2))


def play(policy_text, players, games, rules=None, seed=5):
    rows = GAME.fast(rules or Rules(), GAME.seat_policies(policy_text, players), players,
                     seed, 0, games)
    names = GAME.column_names(players)
    return lambda name: rows[:, names.index(name)]


def workers(players, rules=None):
    return (rules or Rules()).workers_per_player(players)


# ---------------------------------------------------------------- the declaration


def test_choices_and_their_columns():
    assert GAME.choice_names == ("lazy_jack", *CARDS)
    assert 6 <= len(CHOICES) <= 14
    names = GAME.column_names(3)
    took = [n for n in names if n.startswith("took_")]
    assert took == [f"took_{c}_{s}" for c in GAME.choice_names for s in range(3)]
    assert names[-len(took):] == took  # after the game's own columns


def test_a_restriction_is_encoded_in_the_seats_own_row():
    policy = GAME.policy("expert:forbid=card_5+lazy_jack:force=card_2")
    row = policy.encode()
    assert int(row[FORBID_COLUMN]) == (1 << 0) | (1 << 5)
    assert int(row[FORCE_COLUMN]) == 1 << 2
    assert policy.label() == "expert:forbid=lazy_jack+card_5:force=card_2"


def test_unknown_or_contradictory_choices_are_one_clear_error():
    with pytest.raises(RulesError, match="no choice 'card_6'.*lazy_jack, card_1"):
        GAME.policy("expert:forbid=card_6")
    with pytest.raises(RulesError, match="lazyjack.*lazy_jack"):
        GAME.policy("greedy:force=lazyjack")
    with pytest.raises(RulesError, match="both forbidden and forced"):
        GAME.policy("random:forbid=card_1:force=card_1")
    with pytest.raises(RulesError, match="names no choice"):
        GAME.policy("random:forbid=")


# ---------------------------------------------------------------- forbidden kinds


@pytest.mark.parametrize(("policy", "games"), [("random", 2000), ("greedy", 400),
                                                ("expert", 400)])
@pytest.mark.parametrize("card", CARDS)
def test_a_forbidden_card_is_never_played(policy, games, card):
    # every figure has at least three other values it may play, so the card never is
    col = play(f"{policy}:forbid={card},{policy},{policy}", 3, games, CHEAP_HIRES)
    assert col(f"took_{card}_0").sum() == 0
    assert col(f"took_{card}_1").sum() > 0  # the unrestricted seats do play it


@pytest.mark.parametrize(("policy", "games"), [("random", 2000), ("expert", 400)])
def test_a_forbidden_hire_never_happens(policy, games):
    col = play(f"{policy}:forbid=lazy_jack,{policy}", 2, games, CHEAP_HIRES)
    assert col("took_lazy_jack_0").sum() == 0 and col("lazy_jack_hires_0").sum() == 0
    assert col("lazy_jack_hires_1").sum() > 0


def test_forbidding_every_card_leaves_every_card():
    # a restriction never stops the game: with every value forbidden, every value is kept
    every = "+".join(CARDS)
    forbidden = play(f"random:forbid={every},greedy:forbid={every}", 2, 300)
    plain = play("random,greedy", 2, 300)
    for name in GAME.column_names(2):
        np.testing.assert_array_equal(forbidden(name), plain(name))


# ---------------------------------------------------------------- forced kinds


@pytest.mark.parametrize(("policy", "games"), [("random", 2000), ("greedy", 300),
                                                ("expert", 300)])
@pytest.mark.parametrize("card", CARDS)
def test_a_forced_card_is_played_by_every_worker(policy, games, card):
    # a worker can always play it: every worker plays it every round; Lazy Jack cannot
    # beside a companion playing it (lazy_jack_distinct_card), so he plays another value
    forced = play(f"{policy}:force={card},{policy},{policy}", 3, games, CHEAP_HIRES)
    plain = play(policy, 3, games, CHEAP_HIRES)
    worker_cards = forced("rounds") * workers(3)
    np.testing.assert_array_equal(forced(f"took_{card}_0"), worker_cards)
    assert forced(f"took_{card}_0").sum() >= plain(f"took_{card}_0").sum()
    assert forced("took_lazy_jack_0").sum() > 0  # ... and he was hired


@pytest.mark.parametrize(("policy", "games"), [("random", 2000), ("greedy", 300),
                                                ("expert", 300)])
def test_a_forced_hire_happens_whenever_offered(policy, games):
    forced = play(f"{policy}:force=lazy_jack,{policy}", 2, games, CHEAP_HIRES)
    plain = play(policy, 2, games, CHEAP_HIRES)
    assert forced("lazy_jack_hires_0").sum() >= plain("lazy_jack_hires_0").sum()
    if policy == "random":  # it says yes only half the time unrestricted
        assert forced("lazy_jack_hires_0").sum() > plain("lazy_jack_hires_0").sum()


def test_a_forced_hire_is_taken_at_every_offer():
    # with cost 2 and two coins at the start the seat can pay in round 1; offered first
    # (fewest VP, then rail order), a seat forced to hire always hires in round 1, so it
    # hires at least once in every game
    col = play("random:force=lazy_jack,random:forbid=lazy_jack", 2, 500, CHEAP_HIRES)
    assert (col("lazy_jack_hires_0") >= 1).all()
    assert (col("lazy_jack_hires_1") == 0).all()


# ---------------------------------------------------------------- took counts


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "greedy:force=card_4", "expert:forbid=card_1"])
def test_took_counts_what_the_game_did(players, policy):
    col = play(",".join([policy] + ["random"] * (players - 1)), players, 300, CHEAP_HIRES)
    for s in range(players):
        hires = col(f"lazy_jack_hires_{s}")
        # under the fixed-price offer every yes is a hire
        np.testing.assert_array_equal(col(f"took_lazy_jack_{s}"), hires)
        # one card a worker a round, and one for each hired Lazy Jack
        cards = sum(col(f"took_{c}_{s}") for c in CARDS)
        np.testing.assert_array_equal(cards, col("rounds") * workers(players) + hires)


def test_under_the_auction_every_bid_is_counted():
    rules = Rules(lazy_jack_allocation="auction", start_coins_by_seat=(6, 6, 3, 0))
    col = play("greedy:force=lazy_jack,random:force=lazy_jack,expert", 3, 300, rules)
    for s in range(3):
        assert (col(f"took_lazy_jack_{s}") >= col(f"lazy_jack_hires_{s}")).all()
    assert (col("took_lazy_jack_0") > col("lazy_jack_hires_0")).any()  # bids that lost


# ---------------------------------------------------------------- a seat with one option


class Unaskable(RandomPolicy):
    """A decision maker that must never be asked D1 or D3."""

    def lazy_jack_hire(self, t, seat):
        raise AssertionError("a forced hire is not asked")

    def movement_cards(self, t, seat):
        raise AssertionError("a seat with one card vector is not asked")


def test_a_seat_left_with_one_option_is_not_asked():
    # forced to 3, Lazy Jack (never 3 beside his companion) is left the 5: one vector
    restriction = GAME.restriction(forbid=("card_1", "card_2", "card_4"),
                                   force=("lazy_jack", "card_3"))
    for game in range(30):
        makers = [Unaskable(Rng(9, game, 100 + s)) for s in range(3)]
        makers[1].forbid = makers[2].forbid = restriction.forbid_mask
        makers[1].force = makers[2].force = restriction.force_mask
        makers[0] = RandomPolicy(Rng(9, game, 100))
        t = reference.play_game(CHEAP_HIRES, 3, makers, Rng(9, game, 0))
        row = reference.outcome(t, game)
        assert row["took_card_3_1"] == row["rounds"] * 2
        assert row["took_card_5_1"] == row["lazy_jack_hires_1"]
        assert row["took_card_1_1"] == row["took_card_2_1"] == row["took_card_4_1"] == 0
