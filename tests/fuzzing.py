"""Hypothesis strategies for any game, derived from what the game declares about itself.

Nothing here knows a game: every strategy is read off the declarations of
``engines/_rules.py`` (each option's kind, default, choices, bounds, length,
order, group and named words; the class's ``PRESETS``) and ``engines/_game.py``
(player range, policies and their ``Param`` ranges, ``slow``, outcome columns).
A game added to ``engines/`` is fuzzed by the same code.

* :func:`option_values` - every value an option may take (the game's own
  ``check`` may still refuse a combination: the caller counts those).
* :func:`rule_draws` - an optional preset, then a set of options changed from it.
* :func:`seat_draws` - a player count and one policy (with parameter values)
  per seat.
* :func:`check_outcome` - the invariants every game's outcome rows keep.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from engines._rules import Option

# An option with no bound on one side is drawn this far beyond the other bound (or the default).
OPEN_SPAN = 1000


def _range(opt: Option) -> tuple[float, float]:
    """The interval an int/float option (or an intlist's entries) is drawn from."""
    values = [v for v in (opt.default if isinstance(opt.default, tuple) else (opt.default,))
              if isinstance(v, (int, float)) and not isinstance(v, bool)]
    values += [v for _, v in opt.named]
    centre = min(values) if values else 0
    low = opt.low if opt.low is not None else (
        (opt.high - 2 * OPEN_SPAN) if opt.high is not None else centre - OPEN_SPAN)
    high = opt.high if opt.high is not None else (
        max(low, max(values) if values else 0) + OPEN_SPAN)
    return low, high


def _ints(low: float, high: float, seen=()) -> st.SearchStrategy[int]:
    """Integers in [low, high], and (as often) one of the values the declaration already uses:
    a rule whose entries mean something (a card value, a square) is most often valid with
    those."""
    anywhere = st.integers(math.ceil(low), math.floor(high))
    seen = sorted({int(v) for v in seen if low <= v <= high})
    return st.one_of(st.sampled_from(seen), anywhere) if seen else anywhere


def option_values(opt: Option) -> st.SearchStrategy[Any]:
    """Every value ``opt`` accepts, per its declaration (kind, bounds, choices, named words)."""
    named = [v for _, v in opt.named]
    kind = opt.kind
    if kind == "bool":
        return st.booleans()
    if kind == "choice":
        return st.sampled_from(opt.choices)
    if kind == "int":
        low, high = _range(opt)
        plain = st.integers(math.ceil(low), math.floor(high))
        return st.one_of(st.sampled_from(named), plain) if named else plain
    if kind == "float":
        low, high = _range(opt)
        plain = st.floats(low, high, allow_nan=False, allow_infinity=False)
        return st.one_of(st.sampled_from(named), plain) if named else plain
    if kind == "intlist":
        return _intlists(opt)
    if kind == "strlist":
        return _strlists(opt)
    raise AssertionError(f"option {opt.key}: no strategy for kind {kind!r}")


def _intlists(opt: Option) -> st.SearchStrategy[tuple[int, ...]]:
    low, high = _range(opt)
    default = tuple(opt.default)
    entry = _ints(low, high, default)
    if opt.increasing:
        size = opt.length if opt.length is not None else len(default)
        span = math.floor(high) - math.ceil(low) + 1
        if size > span:
            return st.just(default)
        return st.lists(st.integers(math.ceil(low), math.floor(high)), min_size=size,
                        max_size=size, unique=True).map(lambda xs: tuple(sorted(xs)))
    if opt.length is not None:
        return st.one_of(
            _perturbed(default, entry),
            st.lists(entry, min_size=opt.length, max_size=opt.length).map(tuple))
    # No fixed length: rows of ``group`` entries (one row when group is 1), each row either
    # one of the default's rows or new entries drawn column by column from what that column
    # holds by default and the bounds.
    g = opt.group
    rows = [default[i:i + g] for i in range(0, len(default), g)]
    columns = [_ints(low, high, [r[c] for r in rows]) for c in range(g)]
    new_row = st.tuples(*columns) if g > 1 else columns[0].map(lambda v: (v,))
    row = st.one_of(st.sampled_from(rows), new_row) if rows else new_row
    most = max(2 * len(rows), 4)
    listed = st.lists(row, min_size=0, max_size=most).map(
        lambda rs: tuple(v for r in rs for v in r))
    return st.one_of(_perturbed(default, entry), listed) if default else listed


def _perturbed(default: tuple, entry: st.SearchStrategy) -> st.SearchStrategy[tuple]:
    """The default with a few entries replaced (the likeliest valid lists)."""
    if not default:
        return st.just(default)
    changes = st.lists(st.tuples(st.integers(0, len(default) - 1), entry), min_size=1,
                       max_size=max(1, min(len(default), 6)))

    def apply(pairs):
        out = list(default)
        for i, v in pairs:
            out[i] = v
        return tuple(out)

    return changes.map(apply)


def _strlists(opt: Option) -> st.SearchStrategy[tuple[str, ...]]:
    default = tuple(opt.default)
    words = list(opt.choices) or sorted(set(default))
    word = st.sampled_from(words)
    if opt.length is not None:
        sizes = {"min_size": opt.length, "max_size": opt.length}
    else:
        sizes = {"min_size": 0, "max_size": max(2 * len(default), 4)}
    anything = st.lists(word, **sizes).map(tuple)
    if not default:
        return anything
    return st.one_of(
        st.permutations(default).map(tuple),
        _perturbed(default, word),
        anything,
    )


UNCHANGED = object()


@st.composite
def rule_draws(draw, rules_cls) -> tuple[str | None, dict[str, Any]]:
    """(preset or None, overrides): a preset of the game (or none), then a set of options
    changed from it, each to any value it accepts. Shrinks toward the defaults."""
    presets = list(rules_cls.PRESETS)
    preset = draw(st.one_of(st.none(), st.sampled_from(presets))) if presets else None
    options = {o.key: o for o in rules_cls.options()}
    keys = draw(st.lists(st.sampled_from(sorted(options)), unique=True,
                         max_size=len(options)))
    return preset, {key: draw(option_values(options[key]), label=key) for key in sorted(keys)}


def param_values(param) -> st.SearchStrategy[float]:
    """A policy parameter's values within its declared range (whole numbers if ``integer``)."""
    low = param.low if param.low is not None else param.default - OPEN_SPAN
    high = param.high if param.high is not None else param.default + OPEN_SPAN
    if param.integer:
        values = st.integers(math.ceil(low), math.floor(high)).map(float)
    else:
        values = st.floats(low, high, allow_nan=False, allow_infinity=False)
    return st.one_of(st.just(float(param.default)), values)


def policy_text(spec, values) -> str:
    """``name:key=value:...`` as the CLI takes it (every parameter written out, exactly)."""
    return ":".join([spec.name] + [f"{p.name}={v!r}" for p, v in
                                   zip(spec.params, values, strict=True)])


@st.composite
def seat_draws(draw, info, slow: bool = False) -> tuple[int, str]:
    """(players, policy text): a player count in the game's range and one policy per seat
    (slow policies only when ``slow``), each with parameter values in their ranges."""
    players = draw(st.integers(info.min_players, info.max_players), label="players")
    specs = [s for s in info.policies.values() if slow or not s.slow]
    seats = []
    for _ in range(players):
        spec = draw(st.sampled_from(specs))
        values = [draw(param_values(p), label=f"{spec.name}:{p.name}") for p in spec.params]
        seats.append(policy_text(spec, values))
    return players, ",".join(seats)


# ---------------------------------------------------------------- invariants of every game

# Columns that count how long a game lasted; at least one is positive in every game.
LENGTH_COLUMNS = ("rounds", "turns", "normal_rounds")
# 0/1 flags of a game stopped by a safety cap, and the rule option that sets each cap.
FLAG_COLUMNS = ("capped", "truncated")
CAPS = {"max_rounds": ("normal_rounds", "rounds"), "max_turns": ("turns",)}


def check_outcome(info, rules, players: int, frame, first_game: int) -> list[str]:
    """What is wrong with a frame of outcome rows (empty when nothing): the invariants that hold
    for every game, whatever its rules.

    * the declared columns, in order, with the declared dtypes; ``int`` columns hold whole
      numbers; every value finite;
    * ``game`` counts from ``first_game``; ``players`` is the player count;
    * ``win_{s}``: each in [0, 1]; per game they sum to 1 with the winners sharing equally
      (1/k for a k-way tie), or to 0 only in a one-player game or a game a ``capped`` flag
      says ended without a winner; ``tied_first``, when declared, is 1..P and at least the
      number of winners;
    * length columns (``rounds``, ``turns``, ...) are >= 0 and at least one is >= 1 in each
      game; where the game has a rule that caps a length (``max_rounds``: ``normal_rounds``
      if declared, else ``rounds``; ``max_turns``: ``turns``) no game exceeds it;
    * ``capped``/``truncated`` flags are 0 or 1, and a flagged game ended at that cap.
    """
    problems: list[str] = []
    columns = info.columns(players)
    names = [c.name for c in columns]
    if list(frame.columns) != names:
        return [f"columns {list(frame.columns)} are not the declared {names}"]
    for c in columns:
        want = np.int64 if c.dtype == "int" else np.float64
        if frame[c.name].dtype != want:
            problems.append(f"column {c.name} has dtype {frame[c.name].dtype}, not {c.dtype}")
    values = frame.to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        bad = [n for j, n in enumerate(names) if not np.isfinite(values[:, j]).all()]
        problems.append(f"non-finite values in {bad}")
        return problems
    n = len(frame)
    if not (frame["game"].to_numpy() == np.arange(first_game, first_game + n)).all():
        problems.append(f"game column {frame['game'].tolist()} does not count from {first_game}")
    if not (frame["players"] == players).all():
        problems.append(f"players column {frame['players'].tolist()} is not {players}")
    wins = [f"win_{s}" for s in range(players) if f"win_{s}" in names]
    if wins:
        w = frame[wins].to_numpy(dtype=np.float64)
        total = w.sum(axis=1)
        capped = frame["capped"].to_numpy() if "capped" in names else np.zeros(n)
        for i in range(n):
            row = w[i]
            if ((row < 0) | (row > 1)).any():
                problems.append(f"game {i}: win shares {row.tolist()} outside [0, 1]")
                continue
            if abs(total[i] - 1) <= 1e-9:
                winners = row[row > 0]
                if not np.allclose(winners, 1 / len(winners), rtol=0, atol=1e-12):
                    problems.append(f"game {i}: winners do not share equally: {row.tolist()}")
                if "tied_first" in names and not (
                        len(winners) <= frame["tied_first"].iat[i] <= players):
                    problems.append(f"game {i}: tied_first={frame['tied_first'].iat[i]} with "
                                    f"{len(winners)} winners of {players}")
            elif abs(total[i]) <= 1e-12:
                if players > 1 and capped[i] != 1:
                    problems.append(f"game {i}: nobody won, and it was not capped")
            else:
                problems.append(f"game {i}: win shares {row.tolist()} sum to {total[i]}")
    for flag in FLAG_COLUMNS:
        if flag in names and not frame[flag].isin([0, 1]).all():
            problems.append(f"{flag} flags {frame[flag].tolist()} are not 0/1")
    lengths = [c for c in LENGTH_COLUMNS if c in names]
    if lengths:
        lv = frame[lengths].to_numpy()
        if (lv < 0).any():
            problems.append(f"negative game lengths in {lengths}: {lv.tolist()}")
        if not (lv >= 1).any(axis=1).all():
            problems.append(f"a game with no length: {lengths} = {lv.tolist()}")
    # The cap of a length: max_rounds caps normal_rounds where a game declares it (rounds then
    # add rounds after the normal ones), else rounds; max_turns caps turns.
    for key, candidates in CAPS.items():
        column = next((c for c in candidates if c in names), None)
        if column is None or not hasattr(rules, key):
            continue
        cap = getattr(rules, key)
        if (frame[column] > cap).any():
            problems.append(f"{column} {frame[column].tolist()} beyond {key}={cap}")
        for flag in FLAG_COLUMNS:
            if flag in names:
                hit = frame[flag] == 1
                if (frame.loc[hit, column] != cap).any():
                    problems.append(f"{flag} games ended with {column} "
                                    f"{frame.loc[hit, column].tolist()}, not {key}={cap}")
    return problems
