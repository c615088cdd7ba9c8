"""Fuzzing every game: any valid combination of rule options, player count and policy mix.

For every registered game (``engines.GAMES``, so a new game is fuzzed as soon as it is
registered) hypothesis draws, from the game's declarations alone (``tests/fuzzing.py``):

* the rules: an optional preset, then any set of options changed to any value they accept
  (kind, bounds, choices, named words, list length/order/group);
* the players: any count in the game's range, and per seat any policy that is not ``slow``,
  with every parameter anywhere in its declared range;
* a seed and a first game index.

A draw the rules refuse (``RulesError`` from ``Rules``, ``check`` or ``check_players``) is
discarded, and counted: the test fails if the game refuses most draws (then the strategies
no longer reach its rules). Every other draw plays ``GAMES_PER_DRAW`` games on both paths
through ``simulate.run`` and must

1. not crash;
2. keep the invariants every game keeps (``fuzzing.check_outcome``: declared columns and
   dtypes, whole numbers in int columns, finite values, win shares summing to 1 with ties
   split, lengths, caps and their flags);
3. give the identical frame on ``backend="reference"`` and ``backend="fast"``;
4. where the game's reference can check its own invariants step by step
   (``play_game(..., checking=True)``: Motines and Rum & Pirates), replay one of the games
   so and give the same row.

A game may stop on purpose: an engine's safety limit that is a rule option (Rum & Pirates'
``max_turns_per_round``: "a round this long is a bug") raises ``RuntimeError`` naming it.
Such a draw passes only if the message names a rule option and the fast path raises too
(counted as ``stopped: <option>``).

Profiles: ``HYPOTHESIS_PROFILE=ci`` (the default: derandomized, so every run draws the same
examples) and ``HYPOTHESIS_PROFILE=validate`` (``make validate``: many more examples, fresh
ones each run; a failure prints the draw to reproduce it). ``FUZZ_EXAMPLES=N`` sets the
number of examples per game under either profile.
"""

from __future__ import annotations

import inspect
import os
from collections import Counter

import numpy as np
import pytest
from fuzzing import FLAG_COLUMNS, check_outcome, rule_draws, seat_draws
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engines import GAMES, get_game
from engines._play import decision_makers
from engines._rng import WORLD, Rng
from engines._rules import RulesError
from simulate.runner import run

PROFILES = {
    # About 1 minute for the five games on this 2-core machine (measured under load), one
    # process; the validate profile about 10 minutes.
    "ci": settings(max_examples=100, derandomize=True, database=None, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                   print_blob=True),
    "validate": settings(max_examples=1000, deadline=None, database=None,
                         suppress_health_check=[HealthCheck.too_slow,
                                                HealthCheck.data_too_large],
                         print_blob=True),
}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in PROFILES:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: this file knows {', '.join(PROFILES)}")
FUZZ = PROFILES[PROFILE]
if os.environ.get("FUZZ_EXAMPLES"):  # e.g. FUZZ_EXAMPLES=5000 for a long hunt
    FUZZ = settings(FUZZ, max_examples=int(os.environ["FUZZ_EXAMPLES"]))

GAMES_PER_DRAW = 3
MOST_REFUSED = 0.5  # a game may refuse at most this share of the draws

# Bugs the fuzzing found and that are not fixed yet. Each: the bug's name, the game, the check
# of play_one_draw it breaks ("checking": the reference's own step-by-step invariants), which
# rules it breaks under, and the draw that reproduces it. The fuzz test skips that one check
# for such rules (and counts it: "known bug: <name>"), every other check still runs;
# test_known_bug_still_reproduces runs the reproducer as a strict xfail, so a fix makes it
# fail until the entry is removed.
# Bugs the fuzz found and that are not fixed yet: (name, game, check, rules it needs, draw).
# Each is replayed as a strict xfail, so a fix shows up as a failure until its entry goes.
KNOWN_BUGS: list = []

# Draws that found bugs now fixed, replayed as ordinary tests.
FIXED_BUGS = [
    # Rum & Pirates' Table.check asserted vp["supplies"] <= 14 (2+3+4+5, distinct_numbers);
    # under supply_scoring=best_per_kind a player scores up to 5 kinds x 5 = 25.
    ("rum-and-pirates-supplies-bound-under-best_per_kind", "rum-and-pirates",
     {"rules": {"supply_scoring": "best_per_kind"}, "preset": None, "players": 2,
      "policies": "random,greedy", "seed": 1, "first_game": 1}),
]


def describe(info, preset, overrides, players, policies, seed, first) -> str:
    """The draw, in a form to paste into a reproducer."""
    return (f"game={info.name!r} preset={preset!r} rules={overrides!r} players={players} "
            f"policies={policies!r} seed={seed} first_game={first}")


def known_bug(game: str, check: str, rules) -> str | None:
    """The known bug that breaks ``check`` of ``game`` under ``rules``, if any."""
    for name, where, broken, hits, _ in KNOWN_BUGS:
        if where == game and broken == check and hits(rules):
            return name
    return None


def self_checking(info) -> bool:
    """Whether the game's reference asserts its own invariants when asked (``checking=``)."""
    return "checking" in inspect.signature(info.module("reference").play_game).parameters


def play_one_draw(info, rules, players: int, policies, seed: int, first: int, where: str,
                  skip_known: bool = True, tally: Counter | None = None) -> str:
    """The checks 1-4 of the module docstring for one draw; what happened, for the tally
    (which also counts the games a cap flag stopped)."""
    pols = info.seat_policies(policies, players)
    args = dict(rules=rules, policies=pols, players=players, seed=seed, first_game=first,
                progress=False)
    try:
        ref = run(info, GAMES_PER_DRAW, backend="reference", **args).frame
    except RuntimeError as exc:
        # An engine's declared safety stop (Rum & Pirates' max_turns_per_round: "a round this
        # long is a bug, raise"): accepted only when the message names a rule option and the
        # fast path stops too.
        named = [o.key for o in rules.options() if f"{o.key}=" in str(exc)]
        assert named, f"the reference crashed ({where}): {exc!r}"
        with pytest.raises(RuntimeError):
            run(info, GAMES_PER_DRAW, backend="fast", **args)
        return "stopped: " + ",".join(named)
    fast = run(info, GAMES_PER_DRAW, backend="fast", **args).frame

    problems = check_outcome(info, rules, players, ref, first)
    raw = info.fast(rules, pols, players, seed, first, GAMES_PER_DRAW)
    ints = [j for j, c in enumerate(info.columns(players)) if c.dtype == "int"]
    if not (raw[:, ints] == np.round(raw[:, ints])).all():
        problems.append("the fast path wrote a fraction into an int column")
    assert not problems, f"invariants broken ({where}): " + "; ".join(problems)
    for flag in FLAG_COLUMNS:
        if tally is not None and flag in ref.columns:
            tally[f"{flag} games"] += int(ref[flag].sum())

    if not ref.equals(fast):
        cells = [(i, c, ref[c].iat[i], fast[c].iat[i]) for c in ref.columns
                 for i in range(len(ref)) if ref[c].iat[i] != fast[c].iat[i]]
        pytest.fail(f"reference != fast ({where}): (row, column, reference, fast) {cells[:8]}")

    bug = known_bug(info.name, "checking", rules) if skip_known else None
    if bug:
        return f"known bug: {bug}"
    if self_checking(info):
        game = first + GAMES_PER_DRAW - 1
        reference = info.module("reference")
        table = reference.play_game(rules, players, decision_makers(info, pols, seed, game),
                                    Rng(seed, game, WORLD), checking=True)
        row = reference.outcome(table, game)
        last = ref.iloc[-1]
        diff = {c: (row[c], last[c]) for c in ref.columns if row[c] != last[c]}
        assert not diff, f"checking=True changed the game ({where}): {diff}"
    return "played"


@pytest.mark.parametrize("game", GAMES)
def test_fuzz_rules_players_and_policies(game):
    info = get_game(game)
    tally: Counter = Counter()

    @FUZZ
    @given(rule=rule_draws(info.rules_cls), seats=seat_draws(info),
           seed=st.integers(0, 2**63 - 1), first=st.integers(0, 10**6))
    def fuzz(rule, seats, seed, first):
        preset, overrides = rule
        players, policies = seats
        tally["drawn"] += 1
        try:
            rules = info.rules_cls.from_overrides(overrides, preset)
            info.check_seats(rules, info.seat_policies(policies, players), players)
        except RulesError:
            tally["refused"] += 1
            assume(False)
        where = describe(info, preset, overrides, players, policies, seed, first)
        tally[play_one_draw(info, rules, players, policies, seed, first, where,
                            tally=tally)] += 1

    fuzz()
    print(f"{game}: {dict(tally)}")
    assert tally["played"] > 0
    assert tally["refused"] <= MOST_REFUSED * tally["drawn"], (
        f"{game} refused {tally['refused']} of {tally['drawn']} draws: the strategies of "
        "tests/fuzzing.py no longer reach its rules")


@pytest.mark.parametrize(
    "name, game, draw",
    [pytest.param(name, game, draw, id=name,
                  marks=pytest.mark.xfail(strict=True, raises=AssertionError,
                                              reason=f"known bug: {name}"))
     for name, game, _, _, draw in KNOWN_BUGS] or
    [pytest.param(None, None, None, marks=pytest.mark.skip(reason="no known bug"))])
def test_known_bug_still_reproduces(name, game, draw):
    info = get_game(game)
    rules = info.rules_cls.from_overrides(draw["rules"], draw["preset"])
    play_one_draw(info, rules, draw["players"], draw["policies"], draw["seed"],
                  draw["first_game"], f"{name}: {draw}", skip_known=False)


@pytest.mark.parametrize("name, game, draw", [pytest.param(*bug, id=bug[0]) for bug in FIXED_BUGS])
def test_a_fixed_bug_stays_fixed(name, game, draw):
    info = get_game(game)
    rules = info.rules_cls.from_overrides(draw["rules"], draw["preset"])
    play_one_draw(info, rules, draw["players"], draw["policies"], draw["seed"],
                  draw["first_game"], f"{name}: {draw}", skip_known=False)
