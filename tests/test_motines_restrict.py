"""21 Motines under a restriction (``expert:forbid=mutiny``, ``random:force=sell``).

The choices are the eight boxes a pawn may go to (the Captain's action D1, a follower's
choice D2, the free round D9) and ``sell`` (a sale made, D6). A forbidden choice is never
taken where the rules leave an alternative, a forced one is taken at least as often as without the restriction, and the
``took_<choice>_<seat>`` counts agree with what the game's own columns say it did. Both
paths play the same games under restrictions (``test_motines_equivalence``).
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._rules import RulesError
from engines.motines import BOX_CHOICE, CHOICES, GAME, SELL, reference
from engines.motines.data import BOX_CODES, CAPTAIN_BOXES, MUT, SUB
from engines.motines.rules import Rules

BOXES = ("if", "sf", "ice", "treasures", "market", "offers", "subvention", "mutiny")


def play(seats: str, players: int, games: int, seed: int = 7, rules=None) -> dict:
    """The fast path's games as column -> values."""
    rows = GAME.fast(rules or Rules(), GAME.seat_policies(seats, players), players, seed, 0,
                     games)
    return dict(zip(GAME.column_names(players), rows.T, strict=True))


def took(cols: dict, name: str, seat: int) -> np.ndarray:
    return cols[f"took_{name}_{seat}"]


def test_the_declared_choices():
    names = GAME.choice_names
    assert names == (*BOXES, "sell") and 6 <= len(names) <= 14
    assert all(c.name.replace("_", "").isalnum() and c.name.islower() for c in CHOICES)
    # a pawn's box is its kind, box by box; the sale its own
    assert [names[BOX_CHOICE[box]] for box in range(len(BOX_CODES))] == list(BOXES)
    assert names[SELL] == "sell"
    columns = GAME.column_names(4)
    assert columns[-len(names) * 4:] == [f"took_{n}_{s}" for n in names for s in range(4)]


def test_unknown_choices_and_contradictions_are_user_errors():
    with pytest.raises(RulesError, match="no choice 'mutni'") as err:
        GAME.policy("expert:forbid=mutni")
    assert "mutiny" in str(err.value) and "if, sf, ice, treasures" in str(err.value)
    with pytest.raises(RulesError, match="both forbidden and forced"):
        GAME.policy("greedy:forbid=sell:force=sell")
    with pytest.raises(RulesError, match="names no choice"):
        GAME.policy("random:force=")
    policy = GAME.policy("expert:force=sell:forbid=mutiny+if")
    assert policy.label() == "expert:forbid=if+mutiny:force=sell"
    assert policy.restriction.forbid_mask == (1 << BOX_CHOICE[MUT]) | 1
    assert GAME.policy(policy.label()) == policy


# Every choice forbidden to a seat that the rules always leave another option: a follower
# may take the Subvention (or, when it is forbidden, join the Captain or mutiny), the
# Captain keeps two of its actions at least, the free round has eight boxes, and a sale may
# be declined. (Forbid the Subvention and the Captain's box together, and a follower after
# the mutineer has nothing else: then it takes one of them, as the rule says.)
ALL_FORBIDDEN = ("random:forbid=mutiny+if,random:forbid=subvention,"
                 "random:forbid=sell+ice+treasures,random:forbid=market+offers+sf")


@pytest.mark.parametrize(("seats", "games"), [
    (ALL_FORBIDDEN, 2000),
    (ALL_FORBIDDEN.replace("random", "expert"), 300),
    ("greedy:forbid=mutiny+sell,planner:forbid=subvention,greedy:forbid=market+treasures+"
     "offers", 300),
])
def test_a_forbidden_choice_is_never_taken(seats, games):
    players = seats.count(",") + 1
    cols = play(seats, players, games)
    for seat, policy in enumerate(GAME.seat_policies(seats, players)):
        assert policy.restriction.forbid
        for name in policy.restriction.forbid:
            assert took(cols, name, seat).sum() == 0, (seat, name)
    # the unrestricted choices of the same seats were taken
    assert took(cols, "subvention", 0).sum() > 0 and took(cols, "mutiny", 1).sum() > 0


@pytest.mark.parametrize("policy", ["random", "greedy", "expert"])
@pytest.mark.parametrize("name", GAME.choice_names)
def test_a_forced_choice_is_taken_at_least_as_often(policy, name):
    games = 600 if policy == "random" else 150
    free = play(policy, 4, games, seed=9)
    forced = play(f"{policy},{policy}:force={name},{policy},{policy}", 4, games, seed=9)
    assert took(forced, name, 1).sum() >= took(free, name, 1).sum(), name
    assert took(forced, name, 1).sum() > 0, name


def test_a_follower_forced_to_the_subvention_takes_it_whenever_not_captain():
    cols = play("expert,random:force=subvention,greedy:force=subvention", 3, 300)
    for seat in (1, 2):
        placed = took(cols, "subvention", seat)
        assert (placed == cols["rounds"] - cols[f"captain_rounds_{seat}"]).all()
        assert (cols[f"mut_{seat}"] == 0).all()


def test_a_seat_forced_to_mutiny_mutinies_whenever_it_may(monkeypatch):
    asked = []
    original = reference.choose

    def choose(t, seat, decision, options):
        picked = original(t, seat, decision, options)
        if seat == 1 and any(box == MUT for box, _ in options):
            asked.append(picked[0] == MUT)
        return picked

    monkeypatch.setattr(reference, "choose", choose)
    seats = GAME.seat_policies("greedy,expert:force=mutiny,greedy,random", 4)
    for game in range(3):
        row = GAME.reference(Rules(), seats, 4, 5, game)
        assert row["took_mutiny_1"] == row["mut_1"] > 0
    assert asked and all(asked)
    free = play("greedy", 4, 200)
    forced = play("greedy,greedy:force=mutiny,greedy,greedy", 4, 200)
    assert took(forced, "mutiny", 1).sum() > 1.1 * took(free, "mutiny", 1).sum()


@pytest.mark.parametrize("seats", [
    "random", "expert", "planner,greedy,random,expert",
    "random:force=mutiny,expert:forbid=subvention+sell,greedy:force=market+sell,"
    "planner:forbid=if+sf+ice",
])
def test_took_counts_agree_with_the_games_own_columns(seats):
    cols = play(seats, 4, 300)
    boxes = sum(took(cols, name, s) for name in BOXES for s in range(4))
    assert (boxes == 4 * cols["rounds"]).all()  # one pawn a seat a round
    for s in range(4):
        assert (sum(took(cols, name, s) for name in BOXES) == cols["rounds"]).all()
        assert (took(cols, "mutiny", s) == cols[f"mut_{s}"]).all()
        assert (took(cols, "sell", s) == cols[f"sales_{s}"]).all()
    for box in CAPTAIN_BOXES:  # the Captain's pawns are among each box's
        placed = sum(took(cols, BOXES[box], s) for s in range(4))
        assert (placed >= cols[f"captain_{BOX_CODES[box].lower()}"]).all()
        # the Captain never takes the Subvention or a Mutiny space (but in the free round)
        follower = took(cols, "subvention", s) + took(cols, "mutiny", s)
        assert (follower <= cols["rounds"] - cols[f"captain_rounds_{s}"]).all()


def test_playouts_keep_every_seats_restriction(monkeypatch):
    # the reference search plays on clones whose seats are its base players; every choice,
    # in the game and in its playouts, is still narrowed by the seats' own restrictions
    seen = {"game": 0, "playout": 0}
    original = reference.choose

    def choose(t, seat, decision, options):
        picked = original(t, seat, decision, options)
        seen["game" if t.standings is not None else "playout"] += 1
        if seat == 1:
            assert picked[0] != MUT, "seat 1 may not mutiny"
        if seat == 2 and decision == "follower_choice":
            assert picked[0] == SUB, "seat 2 must take the Subvention"
        return picked

    monkeypatch.setattr(reference, "choose", choose)
    seats = GAME.seat_policies("rollout:samples=1:width=2,greedy:forbid=mutiny,"
                               "greedy:force=subvention", 3)
    row = GAME.reference(Rules(num_mutinies=5), seats, 3, 3, 0)
    assert seen["playout"] > seen["game"] > 0
    assert row["took_mutiny_1"] == 0 and row["mut_2"] == 0
