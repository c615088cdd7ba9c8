"""Rum Runner under a restriction (``expert:forbid=draw``, ``greedy:force=chain+close_ace``).

The choices are D1's start end (``start_left``, ``start_right``), D2's DRAW and the value a
turn opens with (``play_2`` .. ``play_5``), D3's ``chain`` (another card of the number;
STOP has no kind) and D4's rank of the port closed (``close_jack`` .. ``close_ace``). A
forbidden choice is offered to no policy where the rules leave an alternative, a forced one
is the only kind offered where it is legal and is taken at least as often as without the
restriction, and the ``took_<choice>_0`` counts agree with what the game's own columns say
it did. Both paths play the same games under restrictions (``test_rum_runner_equivalence``).
"""

from __future__ import annotations

import numpy as np
import pytest

from engines import _play
from engines._restrict import is_allowed, is_forced, kept_binary
from engines._rng import POLICY, WORLD, Rng
from engines._rules import RulesError
from engines.rum_runner import CHOICE, CHOICES, GAME, policies, reference
from engines.rum_runner.rules import Rules

CLOSES = ("close_jack", "close_queen", "close_king", "close_ace")
PLAYS = ("play_2", "play_3", "play_4", "play_5")


def play(policy: str, games: int, seed: int = 7, rules=None) -> dict:
    """The fast path's games as column -> values."""
    rows = GAME.fast(rules or Rules(), GAME.seat_policies(policy, 1), 1, seed, 0, games)
    return dict(zip(GAME.column_names(1), rows.T, strict=True))


def took(cols: dict, name: str) -> np.ndarray:
    return cols[f"took_{name}_0"]


def test_the_declared_choices():
    names = GAME.choice_names
    assert names == ("start_left", "start_right", "draw", *PLAYS, "chain", *CLOSES)
    assert 6 <= len(names) <= 14
    assert all(c.name.replace("_", "").isalnum() and c.name.islower() for c in CHOICES)
    assert all(CHOICE[n] == i for i, n in enumerate(names))
    columns = GAME.column_names(1)
    assert columns[:14] == [c.name for c in GAME.columns(1)][:14]
    assert columns[14:] == [f"took_{n}_0" for n in names]


def test_unknown_choices_and_contradictions_are_user_errors():
    with pytest.raises(RulesError, match="no choice 'drow'") as err:
        GAME.policy("expert:forbid=drow")
    assert "draw" in str(err.value) and "start_left, start_right, draw, play_2" in str(err.value)
    with pytest.raises(RulesError, match="no choice 'bounce'"):
        GAME.policy("greedy:force=bounce")
    with pytest.raises(RulesError, match="both forbidden and forced"):
        GAME.policy("greedy:forbid=chain:force=chain")
    with pytest.raises(RulesError, match="names no choice"):
        GAME.policy("random:force=")
    policy = GAME.policy("expert:force=close_ace:forbid=chain+draw")
    assert policy.label() == "expert:forbid=draw+chain:force=close_ace"
    assert policy.restriction.forbid_mask == (1 << CHOICE["draw"]) | (1 << CHOICE["chain"])
    assert GAME.policy(policy.label()) == policy


# ---------------------------------------------------------------- what a policy is offered


class Spy:
    """A decision maker that checks every option it is offered against its restriction (the
    one rule: forbidden kinds only when every legal option is forbidden, forced kinds alone
    when one is legal) and counts the decisions asked, in the game and in imagined games."""

    def __init__(self, maker, forbid: int, force: int):
        self.maker, self.forbid, self.force = maker, forbid, force
        self.asked = {"start": 0, "action": 0, "continue": 0, "flip": 0}

    def check(self, t, offered: list[int], legal: list[int]) -> None:
        assert (t.forbid, t.force) == (self.forbid, self.force)  # imagined games keep them
        assert len(offered) > 1
        if any(is_forced(k, self.force) for k in legal):
            assert all(is_forced(k, self.force) for k in offered), (offered, legal)
        elif any(is_allowed(k, self.forbid) for k in legal):
            assert all(is_allowed(k, self.forbid) for k in offered), (offered, legal)
        else:
            assert offered == legal

    def choose_start_end(self, t):
        self.asked["start"] += 1
        kinds = [CHOICE["start_left"], CHOICE["start_right"]]
        self.check(t, kinds, kinds)
        return self.maker.choose_start_end(t)

    def choose_action(self, t, options):
        self.asked["action"] += 1
        self.check(t, [reference.action_kind(a) for a in options],
                   [reference.action_kind(a) for a in reference.legal_actions(t)])
        return self.maker.choose_action(t, options)

    def choose_continue(self, t, value):
        self.asked["continue"] += 1
        assert kept_binary(CHOICE["chain"], self.forbid, self.force) is None
        return self.maker.choose_continue(t, value)

    def choose_flip(self, t, candidates):
        self.asked["flip"] += 1
        self.check(t, [reference.close_kind(t, i) for i in candidates],
                   [reference.close_kind(t, i) for i in t.flip_candidates()])
        return self.maker.choose_flip(t, candidates)


def spied_game(text: str, seed: int, game: int, rules=None):
    """One reference game whose decision maker is a Spy: (table, spy)."""
    policy = GAME.policy(text)
    maker = _play.decision_makers(GAME, (policy,), seed, game)[0]
    spy = Spy(maker, maker.forbid, maker.force)
    t = reference.play_game(rules or Rules(), 1, [spy], Rng(seed, game, WORLD))
    return t, spy


@pytest.mark.parametrize("text, games", [
    ("random:forbid=draw+play_2+close_ace+start_left", 300),
    ("random:force=play_3+close_jack+start_right", 300),
    ("random:forbid=close_jack+close_queen+play_4:force=play_5+close_ace", 300),
    ("greedy:forbid=play_5+play_4+close_king", 150),
    ("greedy:force=draw+close_queen+close_king", 150),
    ("expert:forbid=draw+chain+close_ace+close_king", 40),
])
def test_a_policy_is_offered_only_what_the_restriction_keeps(text, games):
    asked = {"start": 0, "action": 0, "continue": 0, "flip": 0}
    for game in range(games):
        _, spy = spied_game(text, 5, game)
        for key, n in spy.asked.items():
            asked[key] += n
    assert asked["action"] > 0 and asked["flip"] > 0
    assert (asked["start"] == 0) == ("start_" in text)  # one end kept alone: not asked
    assert (asked["continue"] == 0) == ("chain" in text)


def test_rollout_playouts_keep_the_restriction():
    # the search's imagined games run on copies of the table: its base player is asked only
    # about kept options (never to chain), on tables with the seat's own masks
    policy = GAME.policy("rollout:samples=1:forbid=chain+draw:force=close_ace")
    maker = _play.decision_makers(GAME, (policy,), 3, 0)[0]
    base = Spy(policies.GreedyPolicy(), maker.forbid, maker.force)
    search = policies.RolloutPolicy(Rng(3, 0, POLICY), 1, base)
    search.forbid, search.force = maker.forbid, maker.force
    t = reference.play_game(Rules(), 1, [search], Rng(3, 0, WORLD))
    assert base.asked["action"] > 0 and base.asked["flip"] > 0
    assert base.asked["continue"] == 0
    row = reference.outcome(t, 0)
    assert row["took_chain_0"] == 0 and row["took_draw_0"] <= row["turns"]
    assert t.copy().took == t.took and t.copy().took is not t.took


# ---------------------------------------------------------------- what the seat took


@pytest.mark.parametrize("policy, games", [("random", 2000), ("greedy", 1000), ("expert", 300)])
def test_a_forbidden_choice_is_never_taken_where_the_rules_leave_another(policy, games):
    # STOP is always legal (chain), and so is the other end (start_*)
    for name, other in (("start_left", "start_right"), ("start_right", "start_left")):
        cols = play(f"{policy}:forbid={name}+chain", games)
        assert took(cols, name).sum() == 0 and (took(cols, other) == 1).all()
        assert took(cols, "chain").sum() == 0
    # DRAW is taken only when nothing else is legal: with an empty hand
    cols = play(f"{policy}:forbid=draw", games)
    free = play(policy, games)
    assert took(cols, "draw").sum() < took(free, "draw").sum()


@pytest.mark.parametrize("text", ["greedy:forbid=close_ace+close_jack",
                                  "random:force=close_queen:forbid=close_king"])
def test_the_ports_closed_are_counted_by_rank(text):
    for game in range(100):
        t, _ = spied_game(text, 11, game)
        for rank, name in reference.CLOSE_NAMES.items():
            ports = [i for i, c in enumerate(t.ports) if c.rank == rank]
            assert t.took[CHOICE[name]] == sum(not t.face_up[i] for i in ports)


@pytest.mark.parametrize("policy", ["random", "greedy", "expert"])
@pytest.mark.parametrize("name", GAME.choice_names)
def test_a_forced_choice_is_taken_at_least_as_often(policy, name):
    games = 600 if policy == "random" else 200
    free = play(policy, games, seed=9)
    forced = play(f"{policy}:force={name}", games, seed=9)
    assert took(forced, name).sum() >= took(free, name).sum(), name
    assert took(forced, name).sum() > 0, name
    if name.startswith("start_"):
        assert (took(forced, name) == 1).all()


def test_forcing_chains_and_draws_changes_the_play():
    free = play("greedy", 500)
    chained = play("greedy:force=chain", 500)
    assert took(chained, "chain").sum() > took(free, "chain").sum()
    drawn = play("expert:force=draw", 300)
    assert took(drawn, "draw").sum() > took(play("expert", 300), "draw").sum()
    # a forced DRAW empties the 13-card deck first (5 draws): every play waits for it
    assert (took(drawn, "draw") >= 5).all()


@pytest.mark.parametrize("text, overrides", [
    ("random", {}),
    ("greedy", {}),
    ("expert", {}),
    ("random:force=chain+close_ace:forbid=draw", {}),
    ("expert:forbid=play_5+start_left:force=close_jack", {}),
    ("greedy:force=draw", {"flip_after_draw": False}),
    ("random:force=play_2", {"multi_card_mode": "combined"}),
    ("greedy", {"start_end": "left"}),
])
def test_took_counts_agree_with_the_games_own_columns(text, overrides):
    rules = Rules.from_overrides(overrides)
    cols = play(text, 400, rules=rules)
    plays = sum(took(cols, name) for name in PLAYS)
    assert (took(cols, "draw") == cols["draws"]).all()
    assert (plays + took(cols, "chain") == cols["landings"]).all()  # one landing a card
    assert (plays + cols["draws"] <= cols["turns"]).all()  # the other turns pass
    if rules.multi_card_mode == "combined":
        assert (took(cols, "chain") == 0).all()
    starts = took(cols, "start_left") + took(cols, "start_right")
    assert (starts == (1 if rules.start_end == "choose" else 0)).all()
    # every port closes, but the one left under a stranded boat (none here is capped)
    closed = sum(took(cols, name) for name in CLOSES)
    assert (cols["end_reason"] < 2).all()
    assert (closed == 16 - (cols["end_reason"] == 1)).all()
    assert all((took(cols, name) <= 4).all() for name in CLOSES)
