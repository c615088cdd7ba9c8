"""The fast-path contract every registered game keeps (DESIGN: one RNG, rows by index).

A game's rows depend on (rules, policies, players, seed, game index) alone: not on
the thread count, not on how the games are cut into chunks, and the first column
is the game index. These checks run through ``GameInfo.fast`` for every game in
``engines.GAMES`` at its smallest and largest player count, with every quick
policy seated at least once, so a newly registered game is held to them too.
The game-for-game agreement with the reference path is each game's own
``test_<game>_equivalence.py``; here a few games per setting repeat it through
the declared ``reference`` so the registry wiring is covered as well.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from engines import GAMES, get_game

# Games per check: enough for every branch of a quick policy to run in a few
# chunks, small enough that the slow policies below stay out of it.
GAMES_PER_CHECK = 600


def _settings() -> list:
    return [pytest.param(name, players, id=f"{name}-{players}p")
            for name in GAMES
            for players in sorted({get_game(name).min_players, get_game(name).max_players})]


def _policy_mix(info, players: int) -> tuple:
    """The quick policies, seated in turn; a solo game plays each in its own check."""
    quick = [name for name, spec in info.policies.items() if not spec.slow]
    if players == 1:
        return tuple(info.seat_policies(q, 1) for q in quick)
    seats = ",".join(quick[k % len(quick)] for k in range(players))
    return (info.seat_policies(seats, players),)


SETTINGS = _settings()


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_rows_do_not_depend_on_the_thread_count(name, players, restore_threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only")
    info = get_game(name)
    rules = info.rules_cls()
    for policies in _policy_mix(info, players):
        numba.set_num_threads(1)
        one = info.fast(rules, policies, players, 77, 1000, GAMES_PER_CHECK)
        numba.set_num_threads(2)
        two = info.fast(rules, policies, players, 77, 1000, GAMES_PER_CHECK)
        np.testing.assert_array_equal(one, two)


# Thread checks on rules and policy mixes that reach each game's rarer branches:
# game, players, rule overrides, per-seat policies, seed, first game, games.
THREAD_CASES = [
    ("rum-runner", 1, {}, "random", 42, 5, 3000),
    ("rum-runner", 1, {}, "greedy", 42, 5, 2000),
    ("rum-runner", 1, {}, "rollout:samples=1", 42, 5, 8),
    ("rum-rebellion", 4, {"side_bet_stake": 1, "allow_vote_trading": True},
     "random,threshold,blocker,threshold:risk=0.8", 77, 1000, 3000),
    ("montego-bay", 4, {"lazy_jack_cost": 2, "tie_rounding": "exact_fraction"},
     "random,greedy,sampler:n_samples=2,random", 77, 1000, 300),
    ("montego-bay", 2, {"lazy_jack_cost": 2, "tie_rounding": "exact_fraction"},
     "random", 77, 1000, 3000),
]


@pytest.mark.parametrize(("name", "players", "overrides", "mix", "seed", "first", "games"),
                         THREAD_CASES)
def test_rows_do_not_depend_on_the_thread_count_under_house_rules(
        name, players, overrides, mix, seed, first, games, restore_threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread only")
    info = get_game(name)
    rules = info.rules_cls.from_overrides(overrides)
    policies = info.seat_policies(mix, players)
    numba.set_num_threads(1)
    one = info.fast(rules, policies, players, seed, first, games)
    numba.set_num_threads(2)
    two = info.fast(rules, policies, players, seed, first, games)
    np.testing.assert_array_equal(one, two)


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_rows_do_not_depend_on_chunking(name, players):
    info = get_game(name)
    rules = info.rules_cls()
    cuts = (0, 1, 38, 260, 261, GAMES_PER_CHECK)
    for policies in _policy_mix(info, players):
        whole = info.fast(rules, policies, players, 9, 0, GAMES_PER_CHECK)
        pieces = [info.fast(rules, policies, players, 9, lo, hi - lo)
                  for lo, hi in zip(cuts, cuts[1:], strict=False)]
        np.testing.assert_array_equal(whole, np.concatenate(pieces))


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_rows_are_indexed_by_game_and_shaped_by_the_columns(name, players):
    info = get_game(name)
    rules = info.rules_cls()
    width = len(info.columns(players))
    for policies in _policy_mix(info, players):
        rows = info.fast(rules, policies, players, 5, 10**12, 40)
        assert rows.shape == (40, width)
        assert (rows[:, 0] == np.arange(10**12, 10**12 + 40)).all()
        assert info.fast(rules, policies, players, 5, 0, 0).shape == (0, width)
        other_seed = info.fast(rules, policies, players, 6, 10**12, 40)
        assert not np.array_equal(rows[:, 1:], other_seed[:, 1:])


@pytest.mark.parametrize(("name", "players"), SETTINGS)
def test_the_declared_paths_agree(name, players):
    info = get_game(name)
    rules = info.rules_cls()
    names = info.column_names(players)
    for policies in _policy_mix(info, players):
        fast = info.fast(rules, policies, players, 3, 20, 8)
        for k in range(8):
            row = info.reference(rules, policies, players, 3, 20 + k)
            assert [float(row[c]) for c in names] == pytest.approx(fast[k].tolist(), abs=1e-9)


# ---------------------------------------------------------------- every rule option is read


def _alternatives(opt, rules_cls=None) -> list:
    """Legal-looking values of ``opt`` other than its default, most ordinary first, then the
    values the game's presets give it (a value no small step reaches, e.g. a fixed board)."""
    presets = [] if rules_cls is None else [
        rules_cls.preset(name)[opt.key] for name in rules_cls.preset_names()
        if opt.key in rules_cls.preset(name)]
    return [*_steps(opt), *(v for v in presets if v != opt.default)]


def _steps(opt) -> list:
    d = opt.default
    if opt.kind == "bool":
        return [not d]
    if opt.kind == "choice":
        return [c for c in opt.choices if c != d]
    if opt.kind in ("int", "float"):
        step = 1 if opt.kind == "int" else 0.125
        values = [d + step, d - step, *(v for _, v in opt.named)]
        if opt.low is not None:
            values += [opt.low, opt.low + step]
        if opt.high is not None:
            values.append(opt.high)
        return [v for v in values if v != d]
    items = list(d)
    if opt.kind == "strlist":  # swap neighbours (never the first: a board's Start)
        return [tuple(items[:i] + [items[i + 1], items[i]] + items[i + 2:])
                for i in range(1, len(items) - 1) if items[i] != items[i + 1]]
    out = []  # intlist: one entry moved by one, then the list without its last group
    for i in range(len(items)):
        for delta in (1, -1):
            out.append(tuple(items[:i] + [items[i] + delta] + items[i + 1:]))
    if opt.length is None and len(items) > opt.group:
        out.append(tuple(items[:-opt.group]))
    return out


def _inputs(info, rules, players: int):
    """What the fast path is given for these rules: (rules vector, data tail, float vector)."""
    fast = info.module("engine").FAST
    data = fast.data(rules, players) if fast.data is not None else np.zeros(0, np.int64)
    return rules.encode(), np.asarray(data), rules.encode_float()


def _changes(info, key: str):
    """For each legal other value of rule ``key`` at each player count: (the slots that
    change, whether the data tail changes). Nothing when the option has no other value."""
    rules_cls = info.rules_cls
    R, F = rules_cls.slots(), rules_cls.float_slots()
    widths = dict(rules_cls.slot_widths()[0])
    for players in range(info.min_players, info.max_players + 1):
        base = _inputs(info, rules_cls(), players)
        for value in _alternatives(rules_cls.option(key), rules_cls):
            try:
                rules = rules_cls.from_overrides({key: value})
                rules.check_players(players)
            except ValueError:
                continue
            ints, data, floats = _inputs(info, rules, players)
            names = {name for name, at in R._asdict().items() if name != "SIZE"
                     if (ints[at:at + widths[name]] != base[0][at:at + widths[name]]).any()}
            names |= {name for name, at in F._asdict().items() if name != "SIZE"
                      if floats[at] != base[2][at]}
            yield names, data.shape != base[1].shape or bool((data != base[1]).any())


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_option_reaches_what_the_fast_path_reads(name):
    """Each option changes a slot the engine reads (``R.<slot>`` / ``F.<slot>`` in its
    source) or the tables its ``data`` hook gives; an option nothing reads fails here."""
    import inspect
    import re

    info = get_game(name)
    source = inspect.getsource(info.module("engine"))
    read = set(re.findall(r"\b[RF]\.([a-z_0-9]+)\b", source))
    unread, fixed = [], []
    for opt in info.rules_cls.options():
        changes = list(_changes(info, opt.key))
        if not changes:
            fixed.append(opt.key)
        elif not any(names & read or moved_data for names, moved_data in changes):
            unread.append(f"{opt.key} (changes {sorted(set().union(*(n for n, _ in changes)))})")
    assert not unread, f"{name}: options the fast path never reads: {unread}"
    # An option with one legal value has nothing to read: only a choice of one word may be
    # such (a reading the spec names and offers no alternative to, shown by `rumsim rules`).
    odd = [k for k in fixed if not (info.rules_cls.option(k).kind == "choice"
                                    and len(info.rules_cls.option(k).choices) == 1)]
    assert not odd, f"{name}: options with no other legal value: {odd}"
