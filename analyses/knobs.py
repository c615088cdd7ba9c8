"""The knobs a tuning turns: rule options of the game, each with the values to try.

A knob is typed as

- ``OPTION``: every value of a bool or choice option;
- ``OPTION=V1,V2,...``: those values (parsed as the option parses them);
- ``OPTION=LOW..HIGH``: every whole number in the range for an int option, the
  continuous range for a float option (searched, not enumerated);
- ``OPTION=fit``: fitted to the goals on pilot games where a fitter exists
  (``analyses.fitting``: Rum Runner's ``score_band_edges``);
- ``OPTION[I]=...``, ``OPTION[I:J]=...``, ``OPTION[I:]=...``: entries of an int list
  option (entries I..J-1 all take the same value), e.g.
  ``start_coins_by_place[2]=0..3`` or ``starting_coins_by_seat[1:]=2,3``.

The knobs' values span a grid (``grid``); a knob applied to the base rules'
overrides gives a candidate's rules (``rules_for``), checked as the game checks
any rules, at the player count too.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

from engines._rules import Option, RulesError
from simulate.errors import UserError

# ASCII digits only: \d also matches other scripts' digits ('１'), which int() reads
_KNOB = re.compile(r"^\s*([a-z_0-9]+)\s*(?:\[\s*([0-9]*)\s*(:?)\s*([0-9]*)\s*\])?\s*(?:=(.*))?$",
                   re.ASCII)


MAX_VALUES = 1000  # values one knob may try: a race plays every one of them at every look


@dataclass(frozen=True)
class Knob:
    """One knob: the option, the list entries it sets (None: the whole option), and its
    discrete values or (float options) a continuous range."""

    option: Option
    entries: tuple[int, ...] | None
    values: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    fit: bool = False  # fitted to the goals on pilot games (analyses.fitting)

    @property
    def name(self) -> str:
        if self.entries is None:
            return self.option.key
        e = self.entries
        inner = str(e[0]) if len(e) == 1 else f"{e[0]}:{e[-1] + 1}"
        return f"{self.option.key}[{inner}]"

    @property
    def continuous(self) -> bool:
        return self.low is not None

    def show(self, value: Any) -> str:
        if self.entries is not None:
            return str(value)
        if self.continuous:
            return f"{value:.4g}"
        return self.option.show(value)

    def apply(self, overrides: dict[str, Any], base, value: Any) -> None:
        """Set this knob's value in ``overrides`` (list entries on top of the list already
        there, else the base rules' list)."""
        key = self.option.key
        if self.entries is None:
            overrides[key] = value
            return
        current = list(overrides.get(key, getattr(base, key)))
        for i in self.entries:
            current[i] = value
        overrides[key] = tuple(current)


def parse_knob(cls, text: str) -> Knob:
    """A knob from its typed form (see the module), or a one-line UserError."""
    m = _KNOB.match(text)
    if not m:
        raise UserError(f"--knob '{text}' must be OPTION, OPTION=VALUES, OPTION=LOW..HIGH or "
                        "OPTION[I]=..., such as flip_after_draw or votes_for_coup=35,45,55")
    key, start, colon, stop, raw = m.groups()
    try:
        opt = cls.option(key)
    except RulesError as exc:
        raise UserError(f"--knob: {exc}") from None
    entries = None
    if m.group(2) is not None and not start and not colon:
        raise UserError(f"--knob '{text}': name the entries, as {key}[0] or {key}[1:]")
    if m.group(2) is not None or colon:
        if opt.kind != "intlist" or opt.length is None:
            raise UserError(f"--knob {key}[...]: only list options of a fixed length have "
                            f"entries; {key} is {opt.allowed()}")
        lo = int(start) if start else 0
        hi = (int(stop) if stop else opt.length) if colon else lo + 1
        if not 0 <= lo < hi <= opt.length:
            raise UserError(f"--knob '{text}': entries must lie in 0..{opt.length - 1}")
        entries = tuple(range(lo, hi))
    kind = "int" if entries is not None else opt.kind
    if raw is None:
        if kind == "bool":
            return Knob(opt, None, (False, True))
        if kind == "choice":
            return Knob(opt, None, tuple(opt.choices))
        raise UserError(f"--knob {text}: give the values to try, as {text}=1,2,3 or "
                        f"{text}=LOW..HIGH")
    raw = raw.strip()
    if raw.lower() == "fit" and entries is None:
        return Knob(opt, None, fit=True)
    if kind in ("intlist", "strlist"):
        raise UserError(f"--knob {key}: a list option is turned entry by entry, as "
                        f"{key}[0]=1,2 or {key}[1:]=0..2")
    if ".." in raw:
        low_text, _, high_text = raw.partition("..")
        if kind not in ("int", "float"):
            raise UserError(f"--knob '{text}': a LOW..HIGH range needs a number option; "
                            f"{key} is {opt.allowed()}")
        low, high = (_number(x, text) for x in (low_text, high_text))
        if not low < high:
            raise UserError(f"--knob '{text}': LOW must be below HIGH")
        if kind == "float":
            for bound in (low, high):
                _check(opt, entries, bound, text)
            return Knob(opt, None, (), float(low), float(high))
        if low != int(low) or high != int(high):
            raise UserError(f"--knob '{text}': {key} takes whole numbers")
        for bound in (int(low), int(high)):   # before the range is built: 0..1e8 is no grid
            _check(opt, entries, bound, text)
        if high - low + 1 > MAX_VALUES:
            raise UserError(f"--knob '{text}' names {int(high - low + 1):,} values; a knob "
                            f"tries at most {MAX_VALUES} (each plays every look)")
        values = tuple(range(int(low), int(high) + 1))
    else:
        items = [x.strip() for x in raw.split(",") if x.strip()]
        if not items:
            raise UserError(f"--knob '{text}': no values after '='")
        if len(items) > MAX_VALUES:
            raise UserError(f"--knob '{text}' names {len(items):,} values; a knob tries at "
                            f"most {MAX_VALUES} (each plays every look)")
        values = tuple(_parse_value(opt, entries, x, text) for x in items)
    for v in values:
        _check(opt, entries, v, text)
    if len(set(values)) != len(values):
        raise UserError(f"--knob '{text}' names a value twice")
    if len(values) < 2:
        raise UserError(f"--knob '{text}' has one value: give at least two to compare (a "
                        "fixed value is a --rule)")
    return Knob(opt, entries, values)


def _number(x: str, text: str) -> float:
    try:
        value = float(x)
    except ValueError:
        raise UserError(f"--knob '{text}': '{x}' is not a number") from None
    if not math.isfinite(value):
        raise UserError(f"--knob '{text}': '{x}' is not a finite number")
    return value


def _parse_value(opt: Option, entries, raw: str, text: str):
    if entries is not None:
        if not re.fullmatch(r"-?\d+", raw):
            raise UserError(f"--knob '{text}': list entries are whole numbers, not '{raw}'")
        return int(raw)
    try:
        return opt.parse(raw)
    except RulesError as exc:
        raise UserError(f"--knob '{text}': {exc}") from None


def _check(opt: Option, entries, value, text: str) -> None:
    """A value within the option's bounds (entries: the list's bounds)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        named = {v for _, v in opt.named}
        if value in named:
            return
        if (opt.low is not None and value < opt.low) or (opt.high is not None
                                                         and value > opt.high):
            raise UserError(f"--knob '{text}': {value:g} is outside {opt.key}'s range "
                            f"({opt.allowed()})")


def check_knobs(knobs: list[Knob]) -> None:
    """Refuse no knobs, or two knobs that set the same thing."""
    if not knobs:
        raise UserError("name at least one --knob, such as --knob flip_after_draw")
    taken: dict[tuple[str, int | None], str] = {}
    for k in knobs:
        for e in k.entries if k.entries is not None else (None,):
            spot = (k.option.key, e)
            whole = (k.option.key, None)
            if spot in taken or (e is not None and whole in taken) or (
                    e is None and any(key == k.option.key for key, _ in taken)):
                other = taken.get(spot) or taken.get(whole) or k.option.key
                raise UserError(f"--knob {k.name} and --knob {other} set the same rule; "
                                "give it once")
            taken[spot] = k.name


def grid_size(knobs: list[Knob]) -> float:
    """The number of settings the knobs span (infinite with a continuous knob)."""
    return math.prod(math.inf if k.continuous else len(k.values) for k in knobs)


def grid(knobs: list[Knob]) -> list[tuple]:
    """Every combination of the knobs' values, in order (the first knob slowest)."""
    return list(itertools.product(*(k.values for k in knobs)))


def label(knobs: list[Knob], values: tuple) -> str:
    return ", ".join(f"{k.name}={k.show(v)}" for k, v in zip(knobs, values, strict=True))


def rules_for(cls, base_overrides: dict, base, knobs: list[Knob], values: tuple,
              players: int):
    """The rules of one setting, or the RulesError that makes it impossible."""
    overrides = dict(base_overrides)
    for k, v in zip(knobs, values, strict=True):
        k.apply(overrides, base, v)
    rules = cls.from_overrides(overrides)
    rules.check_players(players)
    return rules


def base_values(knobs: list[Knob], base) -> tuple:
    """The knobs' values in the base rules."""
    out = []
    for k in knobs:
        value = getattr(base, k.option.key)
        out.append(value if k.entries is None else value[k.entries[0]]
                   if len({value[i] for i in k.entries}) == 1 else None)
    return tuple(out)
