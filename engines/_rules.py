"""Rules as data: the option machinery every game's ``Rules`` dataclass is built on.

A game declares its rules as a frozen dataclass whose fields are made with
:func:`option` (default, allowed values, one-line help). This module gives
that dataclass validation, overrides from the CLI or a TOML file, presets,
and error messages that name the key, the value and what is allowed, with
the closest valid name suggested for a typo.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import stat
import tomllib
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np


class RulesError(ValueError):
    """A rule key, value, preset or rules file the user got wrong (one line, exit code 2)."""


def closest(name: str, valid: list[str] | tuple[str, ...]) -> str:
    """' (did you mean X?)' for the nearest valid name, or '' when nothing is near."""
    hit = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.5)
    return f" (did you mean '{hit[0]}'?)" if hit else ""


@dataclass(frozen=True)
class Option:
    """What one rule option allows: kind, default, bounds or choices, help."""

    key: str
    kind: str  # "bool" | "int" | "float" | "choice" | "intlist" | "strlist"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    length: int | None = None  # for lists: exact length (None: any)
    increasing: bool = False  # for intlist
    # Words an int or float option also accepts, e.g. (("unlimited", -1), ("none", 0)).
    named: tuple[tuple[str, Any], ...] = ()
    group: int = 1  # for intlist: the length must be a multiple of this (tuples flattened)

    def allowed(self) -> str:
        """What values this option takes, as a user reads it."""
        if self.kind == "bool":
            return "true|false"
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "intlist":
            shape = f"{self.length} " if self.length else ""
            order = "increasing " if self.increasing else ""
            groups = f" (in groups of {self.group})" if self.group > 1 else ""
            return f"list of {shape}{order}integers{groups}"
        if self.kind == "strlist":
            shape = f"{self.length} " if self.length else ""
            items = f" from {'|'.join(self.choices)}" if self.choices else ""
            return f"list of {shape}words{items}"
        lo = "" if self.low is None else _num(self.low)
        hi = "" if self.high is None else _num(self.high)
        if self.low is None and self.high is None:
            text = f"any {self.kind}"
        elif self.high is None:
            text = f"{self.kind} >= {lo}"
        elif self.low is None:
            text = f"{self.kind} <= {hi}"
        else:
            text = f"{self.kind} {lo}..{hi}"
        return text + "".join(f" or {name}" for name, _ in self.named)

    def parse(self, raw: Any) -> Any:
        """Turn a CLI string or TOML value into this option's type, or raise RulesError."""
        bad = RulesError(f"rule {self.key}={raw!r} is not allowed: expected {self.allowed()}")
        kind = self.kind
        for name, value in self.named:
            if (isinstance(raw, str) and raw.strip().lower() == name) or (
                    not isinstance(raw, (str, bool)) and raw == value):
                return value
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            raise bad
        if kind == "int":
            value = _to_int(raw)
            if value is None:
                raise bad
            return self._bounded(value, bad)
        if kind == "float":
            try:
                value = float(raw) if not isinstance(raw, bool) else None
            except (TypeError, ValueError):
                value = None
            if value is None or value != value:
                raise bad
            return self._bounded(value, bad)
        if kind == "choice":
            text = str(raw).strip().lower() if not isinstance(raw, bool) else str(raw).lower()
            if text in self.choices:
                return text
            raise RulesError(
                f"rule {self.key}={raw!r} is not allowed: expected {self.allowed()}"
                + closest(text, self.choices)
            )
        if kind == "intlist":
            items = raw
            if isinstance(raw, str):
                items = [p for p in raw.strip().strip("[]").replace(" ", "").split(",") if p]
            if not isinstance(items, (list, tuple)):
                raise bad
            values = [_to_int(x) for x in items]
            if any(v is None for v in values):
                raise bad
            if self.length is not None and len(values) != self.length:
                raise bad
            if self.increasing and any(b <= a for a, b in zip(values, values[1:], strict=False)):
                raise bad
            if len(values) % self.group:
                raise bad
            if any((self.low is not None and v < self.low) or (self.high is not None and v > self.high)
                   for v in values):
                raise bad
            return tuple(values)
        if kind == "strlist":
            items = raw
            if isinstance(raw, str):
                items = [p for p in raw.strip().strip("[]").replace(" ", "").split(",") if p]
            if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
                raise bad
            items = [x.strip() for x in items]
            if self.length is not None and len(items) != self.length:
                raise bad
            if self.choices and any(x not in self.choices for x in items):
                raise bad
            return tuple(items)
        raise AssertionError(f"unknown option kind {kind}")

    def _bounded(self, value, bad):
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise bad
        return value

    def show(self, value: Any) -> str:
        """A value as the user would type it back."""
        for name, special in self.named:
            if value == special and not isinstance(value, bool):
                return name
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return ",".join(str(v) for v in value)
        return _num(value) if isinstance(value, float) else str(value)


_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


# Every rule number travels to the fast path as an int64; beyond this a value is no rule.
INT_LIMIT = 2**62


def _to_int(raw: Any) -> int | None:
    """An integer from an int, a whole float or a string ('1e3', '1_000'), within
    ±INT_LIMIT; None otherwise."""
    value = None
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float):
        value = int(raw) if raw.is_integer() else None
    elif isinstance(raw, str) and len(raw) <= 40:
        try:
            value = int(raw.strip().replace("_", ""))
        except ValueError:
            try:
                f = float(raw)
            except ValueError:
                return None
            value = int(f) if f.is_integer() else None
    if value is None or not -INT_LIMIT <= value <= INT_LIMIT:
        return None
    return value


MAX_TOML_BYTES = 1 << 20  # a rules or variants file is a few lines; this is no such file


def shown(path: str | Path, limit: int = 100) -> str:
    """A path as an error line shows it: whole, or its start and end when it is very long."""
    text = str(path)
    return text if len(text) <= limit else f"{text[:limit - 35]}...{text[-30:]}"


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A TOML file's contents, or a RulesError naming the file and what is wrong with it."""
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; then only a regular file is
        # read (a FIFO, a device or a socket could hang or never end)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise RulesError(f"{what} '{shown(path)}' is not a regular file")
            raw = fh.read(MAX_TOML_BYTES + 1)  # never more
        if len(raw) > MAX_TOML_BYTES:
            raise RulesError(f"{what} '{shown(path)}' is larger than {MAX_TOML_BYTES >> 20} MB; a "
                             f"{what} is a few lines of TOML")
        # utf-8-sig: an editor that writes a byte-order mark still writes a rules file
        return tomllib.loads(raw.decode("utf-8-sig"))
    except FileNotFoundError:
        raise RulesError(f"{what} '{shown(path)}' does not exist") from None
    except IsADirectoryError:
        raise RulesError(f"{what} '{shown(path)}' is a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise RulesError(f"{what} '{shown(path)}' cannot be read: {_short(exc)}") from None
    except OSError as exc:  # its message repeats the path: say only what went wrong
        raise RulesError(f"{what} '{shown(path)}' cannot be read: {exc.strerror or _short(exc)}") \
            from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{what} '{shown(path)}' is not valid TOML: {_short(exc)}") from None
    except RecursionError:
        raise RulesError(f"{what} '{shown(path)}' is nested too deeply to be a {what}") from None


def _short(exc: Exception, limit: int = 200) -> str:
    """An error message on one line, at most ``limit`` characters."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def option(default: Any, help: str, *, choices: tuple[str, ...] = (), low=None, high=None,
           length: int | None = None, increasing: bool = False, kind: str | None = None,
           named: tuple[tuple[str, Any], ...] = (), group: int = 1):
    """A dataclass field that is a rule option; the key is the field name.

    ``named`` lets a number option also take words (``bond_store_supply=unlimited``);
    list options are tuples (``intlist``: integers, ``group`` > 1 for flattened
    tuples; ``strlist``: words, optionally from ``choices``).
    """
    if kind is None:
        if isinstance(default, tuple) and default and all(isinstance(x, str) for x in default):
            kind = "strlist"
        elif choices:
            kind = "choice"
        elif isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, float):
            kind = "float"
        elif isinstance(default, tuple):
            kind = "intlist"
        else:
            raise TypeError(f"cannot infer option kind from {default!r}")
    meta = dict(kind=kind, help=help, choices=tuple(choices), low=low, high=high,
                length=length, increasing=increasing, named=tuple(named), group=group)
    return dataclasses.field(default=default, metadata={"option": meta})


def slots(kind: str, fields: list[tuple[str, int]]):
    """A named tuple of offsets: field name -> first index, plus ``SIZE`` (the total length).

    Numba reads a module-level named tuple as a compile-time constant, so
    ``g[R.draw_count]`` in a fast path costs what ``g[9]`` does.
    """
    names, offsets, at = [], [], 0
    for name, width in fields:
        names.append(name)
        offsets.append(at)
        at += width
    return namedtuple(kind, [*names, "SIZE"])(*offsets, at)


class RulesBase:
    """Mixin for a game's frozen ``Rules`` dataclass.

    Subclasses set ``PRESETS`` (name -> (description, overrides)) and, when the
    fast path needs a fact computed from several options, ``DERIVED`` (name ->
    function of the rules). The fast path's numbers are derived from these
    declarations (:meth:`slots`, :meth:`encode`): every ``bool``, ``int`` and
    ``choice`` option (a choice as the index of its value) and every
    fixed-length ``intlist`` has int64 slots named after it, every ``float``
    option a float64 slot, then each derived fact one int64 slot. List options
    of no fixed length are tables a game encodes itself (its fast path's
    ``data`` hook).
    """

    PRESETS: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {}
    DERIVED: ClassVar[dict[str, Callable[[Any], int]]] = {}

    def __post_init__(self):
        # Validate every value, so a Rules object in hand is always a legal one.
        for opt in self.options():
            value = getattr(self, opt.key)
            parsed = opt.parse(value)
            if parsed != value:
                object.__setattr__(self, opt.key, parsed)
        self.check()

    def check(self) -> None:
        """Cross-option constraints; override to add them (raise RulesError)."""

    def check_players(self, players: int) -> None:
        """Constraints that depend on the player count, checked when games start (RulesError)."""

    @classmethod
    def options(cls) -> list[Option]:
        out = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get("option")
            if meta is not None:
                out.append(Option(key=f.name, default=f.default, **meta))
        return out

    @classmethod
    def option(cls, key: str) -> Option:
        for opt in cls.options():
            if opt.key == key:
                return opt
        keys = [o.key for o in cls.options()]
        raise RulesError(f"unknown rule '{key}'" + closest(key, keys))

    @classmethod
    def preset_names(cls) -> list[str]:
        return list(cls.PRESETS)

    @classmethod
    def preset(cls, name: str) -> dict[str, Any]:
        if name not in cls.PRESETS:
            raise RulesError(
                f"unknown preset '{name}'" + closest(name, list(cls.PRESETS))
                + f"; presets: {', '.join(cls.PRESETS)}"
            )
        return dict(cls.PRESETS[name][1])

    @classmethod
    def from_overrides(cls, overrides: dict[str, Any] | None = None, preset: str | None = None):
        """Rules from a preset (optional) then overrides; unknown keys and bad values raise."""
        values: dict[str, Any] = {}
        if preset:
            values.update(cls.preset(preset))
        for key, raw in (overrides or {}).items():
            values[key] = raw
        parsed = {key: cls.option(key).parse(raw) for key, raw in values.items()}
        return cls(**parsed)

    @classmethod
    def from_strings(cls, pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
        """Parse CLI ``key=value`` strings into an overrides dict (values still raw)."""
        out: dict[str, Any] = {}
        for pair in pairs:
            if "=" not in pair:
                raise RulesError(f"--rule needs key=value, got '{pair}'")
            key, raw = pair.split("=", 1)
            key = key.strip()
            cls.option(key)  # unknown key -> error with suggestion
            out[key] = raw.strip()
        return out

    @classmethod
    def read_file(cls, path: str | Path) -> dict[str, Any]:
        """Overrides from a TOML file: top-level ``key = value`` pairs (or a [rules] table)."""
        data = read_toml(path, "rules file")
        if isinstance(data.get("rules"), dict):
            others = [k for k in data if k != "rules"]
            if others:
                raise RulesError(f"rules file '{path}' has rules both at the top level "
                                 f"({', '.join(others)}) and in a [rules] table; give them in "
                                 "one place")
            data = data["rules"]
        for key in data:
            cls.option(key)
        return data

    # ------------------------------------------------------------ the fast path's numbers

    @classmethod
    def slot_widths(cls) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        """(int64 slots, float64 slots) as (name, width) in declaration order, derived last."""
        ints, floats = [], []
        for opt in cls.options():
            if opt.kind == "float":
                floats.append((opt.key, 1))
            elif opt.kind in ("bool", "int", "choice"):
                ints.append((opt.key, 1))
            elif opt.kind == "intlist" and opt.length is not None:
                ints.append((opt.key, opt.length))
        return ints + [(name, 1) for name in cls.DERIVED], floats

    @classmethod
    def slots(cls):
        """The int64 slots (``R``): option or derived name -> index into :meth:`encode`; SIZE."""
        if "_slots" not in cls.__dict__:  # made once per Rules class
            game = cls.__module__.split(".")[-2]
            ints, floats = cls.slot_widths()
            cls._slots = (slots(f"{game}_rules", ints), slots(f"{game}_float_rules", floats))
        return cls._slots[0]

    @classmethod
    def float_slots(cls):
        """The float64 slots (``F``): float option name -> index into :meth:`encode_float`."""
        cls.slots()
        return cls._slots[1]

    def encode(self) -> np.ndarray:
        """int64[R.SIZE]: the options and derived facts at the indices of :meth:`slots`."""
        opts = {o.key: o for o in self.options()}
        values: list[int] = []
        for name, _ in self.slot_widths()[0]:
            if name in self.DERIVED:
                values.append(int(self.DERIVED[name](self)))
                continue
            opt, value = opts[name], getattr(self, name)
            if opt.kind == "choice":
                values.append(opt.choices.index(value))
            elif opt.kind == "intlist":
                values.extend(int(v) for v in value)
            else:
                values.append(int(value))
        return np.array(values, dtype=np.int64)

    def encode_float(self) -> np.ndarray:
        """float64[max(F.SIZE, 1)]: the float options at the indices of :meth:`float_slots`."""
        values = [float(getattr(self, name)) for name, _ in self.slot_widths()[1]]
        return np.array(values or [0.0], dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {opt.key: getattr(self, opt.key) for opt in self.options()}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their defaults."""
        return {o.key: getattr(self, o.key) for o in self.options()
                if getattr(self, o.key) != o.default}

    def describe(self) -> str:
        """'default' or 'key=value, ...' of the changed options."""
        diff = self.changed()
        if not diff:
            return "default"
        opts = {o.key: o for o in self.options()}
        return ", ".join(f"{k}={opts[k].show(v)}" for k, v in diff.items())
