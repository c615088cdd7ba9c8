"""Rum Rebellion under a restriction (``expert:forbid=crime``, ``random:force=challenge``).

The choices are the game's optional decisions, each a yes (of the choice) or a no (of
none): buying back a note (S2), the Ticket of Leave and the commission (S4), the empty
Store's Vote card (S5), the Major's Vote-card income, a crime, a challenge (any target:
a seat forced to challenge still chooses whom), buying a Vote card, promotion and the
coup's announcement. A no is always legal, so a forbidden choice is never taken; a forced
one is taken at least as often as without the restriction; the ``took_<choice>_<seat>``
counts agree with what the game's own columns say it did; and a search's playouts keep
every seat's restriction. Both paths play the same games under restrictions
(``test_rum_rebellion_equivalence``).
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._rules import RulesError
from engines.rum_rebellion import C_BUY_VOTE, C_CHALLENGE, C_CRIME, CHOICES, GAME, reference
from engines.rum_rebellion.rules import Rules

NAMES = ("redeem", "ticket", "commission", "store_vote", "major_vote", "crime", "challenge",
         "buy_vote", "promotion", "announce")


def play(seats: str, players: int, games: int, seed: int = 7, rules=None) -> dict:
    """The fast path's games as column -> values."""
    rows = GAME.fast(rules or Rules(), GAME.seat_policies(seats, players), players, seed, 0,
                     games)
    return dict(zip(GAME.column_names(players), rows.T, strict=True))


def took(cols: dict, name: str, seat: int) -> np.ndarray:
    return cols[f"took_{name}_{seat}"]


def test_the_declared_choices():
    names = GAME.choice_names
    assert names == NAMES and 6 <= len(names) <= 14
    assert all(c.name.replace("_", "").isalnum() and c.name.islower() for c in CHOICES)
    columns = GAME.column_names(3)
    assert columns[-len(names) * 3:] == [f"took_{n}_{s}" for n in names for s in range(3)]
    assert columns[:-len(names) * 3][-1] == "half_time_leader"   # after the game's own


def test_unknown_choices_and_contradictions_are_user_errors():
    with pytest.raises(RulesError, match="no choice 'crimes'") as err:
        GAME.policy("expert:forbid=crimes")
    assert "crime" in str(err.value) and ", ".join(NAMES) in str(err.value)
    with pytest.raises(RulesError, match="both forbidden and forced"):
        GAME.policy("threshold:forbid=challenge:force=challenge")
    with pytest.raises(RulesError, match="names no choice"):
        GAME.policy("random:force=")
    policy = GAME.policy("expert:force=challenge:forbid=crime+ticket")
    assert policy.label() == "expert:forbid=ticket+crime:force=challenge"
    assert policy.restriction.forbid_mask == (1 << C_CRIME) | (1 << NAMES.index("ticket"))
    assert policy.restriction.force_mask == 1 << C_CHALLENGE
    assert GAME.policy(policy.label()) == policy


# every choice forbidden at some seat; a seat kept from the Ticket of Leave never reaches
# the later choices, so the seats split them
ALL_FORBIDDEN = ("random:forbid=ticket+crime,random:forbid=commission+redeem+challenge,"
                 "random:forbid=store_vote+major_vote+buy_vote,random:forbid=promotion+announce")


@pytest.mark.parametrize(("seats", "games"), [
    (ALL_FORBIDDEN, 2000),
    (ALL_FORBIDDEN.replace("random", "expert"), 500),
    ("threshold:forbid=crime+buy_vote+major_vote,blocker:forbid=challenge+announce+redeem,"
     "threshold:risk=1:forbid=promotion+store_vote+commission", 500),
])
def test_a_forbidden_choice_is_never_taken(seats, games):
    players = seats.count(",") + 1
    cols = play(seats, players, games, rules=Rules(bond_store_supply=60, max_rounds=80))
    for seat, policy in enumerate(GAME.seat_policies(seats, players)):
        assert policy.restriction.forbid
        for name in policy.restriction.forbid:
            assert took(cols, name, seat).sum() == 0, (seat, name)
    assert cols["crimes_committed"].sum() > 0 and cols["challenges"].sum() > 0
    if seats == ALL_FORBIDDEN:
        assert (cols["level_0"] == 0).all() and (cols["level_1"] <= 1).all()
        assert (cols["win_3"] == 0).all()   # who never announces never attempts a coup
        assert took(cols, "crime", 1).sum() > 0 and took(cols, "challenge", 2).sum() > 0
        assert took(cols, "redeem", 2).sum() > 0 and took(cols, "announce", 2).sum() > 0
        assert took(cols, "buy_vote", 3).sum() > 0 and took(cols, "store_vote", 1).sum() == 0


@pytest.mark.parametrize("policy", ["random", "threshold", "expert"])
@pytest.mark.parametrize("name", NAMES)
def test_a_forced_choice_is_taken_at_least_as_often(policy, name):
    games = 2000 if policy == "random" else 400
    rules = Rules(bond_store_supply=60, max_rounds=80)   # the Store runs dry: store_vote
    free = play(policy, 4, games, seed=9, rules=rules)
    forced = play(f"{policy},{policy}:force={name},{policy},{policy}", 4, games, seed=9,
                  rules=rules)
    assert took(forced, name, 1).sum() >= took(free, name, 1).sum(), name
    assert took(forced, name, 1).sum() > 0, name


def test_a_seat_forced_to_challenge_challenges_whenever_it_may():
    # threshold(0) challenges only a near-coup or announced leader; forced, on every
    # Challenge square where it holds the stake and someone else does
    free = play("threshold:risk=0", 3, 300)
    forced = play("threshold:risk=0,threshold:risk=0:force=challenge,threshold:risk=0", 3, 300)
    assert took(forced, "challenge", 1).sum() > 2 * took(free, "challenge", 1).sum()


@pytest.mark.parametrize(("seats", "rules"), [
    ("random", Rules()),
    ("expert", Rules()),
    ("threshold,blocker,random,expert", Rules(bond_store_supply=60, max_rounds=80)),
    ("random:force=crime+challenge+announce,expert:forbid=buy_vote+crime,"
     "threshold:force=major_vote:forbid=challenge,blocker:forbid=redeem", Rules()),
    ("random,expert:force=crime,threshold", Rules(coup_delay="none")),
    ("random,expert,threshold:force=buy_vote", Rules(max_level_ups_per_turn=2,
                                                     max_vote_buys_per_landing=3)),
])
def test_took_counts_agree_with_the_games_own_columns(seats, rules):
    players = seats.count(",") + 1 if "," in seats else 4
    cols = play(seats, players, 400, rules=rules)
    assert (sum(took(cols, "crime", s) for s in range(players))
            == cols["crimes_committed"]).all()
    assert (sum(took(cols, "challenge", s) for s in range(players))
            == cols["challenges"]).all()
    attempts = sum(took(cols, "announce", s) for s in range(players))
    if rules.coup_delay == "none":   # announcing is attempting
        assert (attempts == cols["coups_attempted"]).all()
    else:                            # an attempt needs an announcement (which may lapse)
        assert (attempts >= cols["coups_attempted"]).all()
    for s in range(players):
        # every seat starts a Convict and moves up only by buying
        assert (took(cols, "ticket", s) + took(cols, "commission", s) == cols[f"level_{s}"]).all()
        assert (took(cols, "ticket", s) <= 1).all() and (took(cols, "promotion", s) <= 1).all()
        assert (took(cols, "promotion", s) <= took(cols, "commission", s)).all()
    assert sum(cols["crimes_committed"]) > 0 and sum(cols["challenges"]) > 0


def test_playouts_keep_every_seats_restriction(monkeypatch):
    # the reference search plays on clones whose seats are its base players; every choice,
    # in the game and in its playouts, is still narrowed by the seats' own restrictions
    seen = {"game": 0, "playout": 0}
    original = reference.decide

    def decide(t, p, choice, ask):
        yes = original(t, p, choice, ask)
        seen["game" if t.playout_word is None else "playout"] += 1
        if (p, choice) in ((0, C_CRIME), (1, C_BUY_VOTE)):
            assert not yes, "forbidden"
        if (p, choice) == (2, C_CRIME):
            assert yes, "forced"
        return yes

    monkeypatch.setattr(reference, "decide", decide)
    seats = GAME.seat_policies("rollout:samples=1:from_level=0:forbid=crime,"
                               "threshold:forbid=buy_vote,threshold:risk=0:force=crime", 3)
    row = GAME.reference(Rules(), seats, 3, 3, 0)
    assert seen["playout"] > seen["game"] > 0
    assert row["took_crime_0"] == 0 and row["took_buy_vote_1"] == 0 and row["took_crime_2"] > 0
