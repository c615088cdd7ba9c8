"""Rum Rebellion's ``rollout`` (flat Monte Carlo over six decisions, every playout seat
playing its ``base``): the fast path equals the reference game for game, and a search
leaves the game it searches as it found it.

The reference plays every playout in Python (a searched decision costs 2 x samples
playouts to the end of the game), so these cases play few games at samples 1-3: 40 games
over P = 2..6, both bases, mixed seats, from_level and confidence, and the rule options that change what is searched
(coup_delay=none, two level-ups or buys a turn), what is hidden (vote_top_visible=false,
win_lose_after_draw=iid), house rules a rollout seat plays as its base (side bets, vote
trades), capped playouts and the replay of a game whose playouts outgrow the notes region.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest
from conftest import assert_same as both_ways

from engines._rng import POLICY, WORLD, Rng
from engines.rum_rebellion import GAME, engine, policies, reference
from engines.rum_rebellion.rules import Rules


def assert_same(rules, policy_text, players, seed, games):
    return both_ways(GAME, rules, policy_text, players, seed, games)


@pytest.mark.parametrize(("players", "mix", "games"), [
    (2, "rollout:samples=2:confidence=0:from_level=0,threshold", 6),
    (3, "rollout:base=expert:samples=2:confidence=0.5:from_level=0,expert,random", 5),
    (4, "rollout:samples=1:confidence=0:from_level=0,blocker,"
        "rollout:base=expert:samples=2:confidence=0:from_level=1,threshold", 4),
    (5, "expert,rollout:base=expert:samples=3:confidence=1:from_level=0,blocker,random,"
        "threshold", 3),
    (6, "threshold,threshold,threshold,threshold,threshold,rollout:samples=1:from_level=0", 3),
    (4, "rollout:base=expert:samples=2:confidence=0.7", 2),
])
def test_seats_and_bases(players, mix, games):
    assert_same(Rules(), mix, players, 41 + players, games)


@pytest.mark.parametrize("options", [
    {"coup_delay": "none"},
    {"max_level_ups_per_turn": 2, "max_vote_buys_per_landing": 2},
    {"vote_top_visible": False, "win_lose_after_draw": "iid"},
    {"side_bet_stake": 2, "allow_vote_trading": True, "bond_store_supply": 60},
    {"votes_for_coup": 200, "max_rounds": 50, "cap_resolution": "progress",
     "starting_level": "rum_corps"},
])
def test_rule_options(options):
    assert_same(Rules(**options),
                "rollout:base=expert:samples=2:confidence=0.5:from_level=0,expert,threshold",
                3, 5, 3)


def test_playouts_that_outgrow_the_notes_region_replay_the_game(monkeypatch):
    """A playout that runs out of notes marks the game, which is played again larger: the
    rows are the reference's whatever the first region's size."""
    fast = dataclasses.replace(engine.FAST, capacity=lambda replay: 2 * 4 ** replay)
    monkeypatch.setattr(engine, "FAST", fast)
    assert_same(Rules(bond_store_supply=40),
                "rollout:samples=1:confidence=0:from_level=0,threshold,threshold,threshold",
                4, 3, 2)


def _table_mid_game(seed=3, game=0, players=4, rounds=8):
    """A reference table after ``rounds`` rounds of threshold play."""
    makers = [policies.ThresholdPolicy() for _ in range(players)]
    t = reference.new_table(Rules(), players, makers, Rng(seed, game, WORLD))
    reference.setup(t)
    for _ in range(rounds):
        for p in range(players):
            reference.play_seat(t, p)
        t.round += 1
    assert t.winner is None
    return t


class Watched:
    """A rollout seat whose every searched decision is checked: it draws ``samples`` words
    from the seat's stream, nothing from the world's, and leaves the table as it was."""

    SEARCHED = ("level_up", "major_income", "commit_crime", "challenge", "buy_vote",
                "announce_coup")

    def __init__(self, rollout, rng, samples):
        self.rollout, self.rng, self.samples = rollout, rng, samples
        self.searches = 0

    def __getattr__(self, name):
        method = getattr(self.rollout, name)
        if name not in self.SEARCHED:
            return method

        def checked(t, *args):
            state = (t.world.s[:], copy.deepcopy((t.players, t.notes, t.win_lose,
                     t.win_lose_seen, t.court_verdict, t.vote_pack, t.ticket_deck,
                     t.bond_store, t.round, t.turn_id, t.chain, t.doubles)))
            draws = self.rng.draws
            answer = method(t, *args)
            assert self.rng.draws == draws + self.samples
            assert (t.world.s, (t.players, t.notes, t.win_lose, t.win_lose_seen,
                    t.court_verdict, t.vote_pack, t.ticket_deck, t.bond_store, t.round,
                    t.turn_id, t.chain, t.doubles)) == state
            self.searches += 1
            return answer
        return checked


@pytest.mark.parametrize("base", ["threshold", "expert"])
def test_a_search_changes_nothing_but_its_own_stream(base):
    """A whole game with a watched rollout seat: every search draws its words from the
    seat's stream only, so the world's stream (the deal, the dice) never moves for it."""
    players = 3
    rng = Rng(8, 0, POLICY + 1)
    rollout = policies.build(GAME.declared(GAME.policy(f"rollout:samples=1:from_level=0:base={base}")), rng)
    watched = Watched(rollout, rng, 1)
    makers = [policies.ThresholdPolicy(), watched, policies.ThresholdPolicy()]
    reference.play_game(Rules(), players, makers, Rng(8, 0, WORLD))
    assert watched.searches >= 5


def test_resample_keeps_what_is_open():
    """The re-deal keeps the cards seen since the last shuffle (in order), the Vote pack's
    face-up top card and every deck's composition."""
    t = _table_mid_game(rounds=8)
    c = policies.clone(t, Rng(9, 0, 0))
    policies.resample(c, c.world)
    for deck, seen, new in ((t.win_lose, t.win_lose_seen, c.win_lose),
                            (t.court_verdict, t.court_verdict_seen, c.court_verdict)):
        unseen = max(len(deck) - len(seen), 0)
        assert new[unseen:] == deck[unseen:]
        assert sorted(new) == sorted(deck)
    assert c.vote_pack[0] == t.vote_pack[0]
    assert sorted(c.vote_pack) == sorted(t.vote_pack)
    assert sorted(c.ticket_deck) == sorted(t.ticket_deck)
