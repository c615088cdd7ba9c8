"""Trained parameter sets: a declared policy's parameter values kept as data, named as a policy.

``rumsim train`` tunes a policy's declared parameters (``engines._game.Param``)
toward winning and writes the result as a small TOML file. A file in a game's
``trained/`` folder (``engines/<game>/trained/expert.toml``) becomes a policy of
that game under the file's name: the declared policy it sets (``policy``), with
the trained values as its defaults, so ``--policy expert`` seats it and
``expert:w_coin=1.5`` changes one weight. It plays exactly as its base policy
with those values, on both paths (same code, same parameter row).

A file is data, never code: TOML with a fixed set of keys, every value
checked against the base policy's declaration (names, ranges, whole numbers)
with one clear line naming the file when something is wrong. ``[made]``
records how the set was made (command, seed, rumsim version, games played,
what it was trained and raced against) so that it can be made again.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from engines._rules import RulesError, read_toml

FOLDER = "trained"
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
KEYS = {"policy", "help", "values", "made"}


def folder(info) -> Path:
    """Where a game's trained sets live: ``engines/<game>/trained``."""
    import importlib.util

    return Path(importlib.util.find_spec(info.package).origin).resolve().parent / FOLDER


def load_game(info) -> dict[str, Any]:
    """Every trained set of a game, as ``name -> PolicySpec`` (in name order)."""
    where = folder(info)
    out = {}
    for path in sorted(where.glob("*.toml")) if where.is_dir() else ():
        spec = load_file(info, path, declared=info.policies)
        out[spec.name] = spec
    return out


def load_file(info, path: str | Path, declared: dict | None = None, name: str | None = None):
    """The ``PolicySpec`` a trained-set file describes (a RulesError names what is wrong).
    It is its base policy's declaration with another name, help, defaults and provenance
    (made from it, so this module needs nothing of ``engines._game``, which loads it)."""
    path = Path(path)
    declared = info.policies if declared is None else declared
    name = path.stem if name is None else name
    shown = path.name
    if not NAME.match(name):
        raise RulesError(f"trained set '{shown}': its name '{name}' must be lower-case letters, "
                         "digits, '-' or '_', starting with a letter")
    data = read_toml(path, "trained set")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise RulesError(f"trained set '{shown}': unknown key '{unknown[0]}'; it takes "
                         f"{', '.join(sorted(KEYS))}")
    base_name = data.get("policy")
    if not isinstance(base_name, str) or base_name not in declared \
            or declared[base_name].base is not None:
        code_policies = [n for n, s in declared.items() if s.base is None]
        raise RulesError(f"trained set '{shown}': policy = {base_name!r} is not a declared "
                         f"policy of {info.name} ({', '.join(code_policies)})")
    if name in declared and declared[name].base is None:
        raise RulesError(f"trained set '{shown}' would hide the declared policy '{name}'; "
                         "give the file another name")
    base = declared[base_name]
    values = data.get("values", {})
    if not isinstance(values, dict):
        raise RulesError(f"trained set '{shown}': [values] must be a table of parameter = "
                         "number")
    known = {p.name: p for p in base.params}
    for key, value in values.items():
        if key not in known:
            raise RulesError(f"trained set '{shown}': {base_name} has no parameter '{key}'")
        check_value(known[key], value, f"trained set '{shown}': {key}")
    made = data.get("made", {})
    if not isinstance(made, dict):
        raise RulesError(f"trained set '{shown}': [made] must be a table")
    help_text = data.get("help", "")
    if not isinstance(help_text, str):
        raise RulesError(f"trained set '{shown}': help must be a string")
    params = tuple(dataclasses.replace(p, default=float(values.get(p.name, p.default)))
                   for p in base.params)
    how = f"`{made['command']}`" if isinstance(made.get("command"), str) else "rumsim train"
    text = help_text or f"{base_name} with the parameters trained by {how}"
    return dataclasses.replace(base, name=name, help=text, params=params, made=dict(made),
                               base=base_name)


def check_value(param, value, what: str) -> float:
    """A parameter value from a file, checked against its declaration."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RulesError(f"{what} = {value!r} is not a number")
    value = float(value)
    if not math.isfinite(value):
        raise RulesError(f"{what} = {value!r} is not a finite number")
    if param.integer and not value.is_integer():
        raise RulesError(f"{what} = {value:g} must be a whole number")
    if (param.low is not None and value < param.low) or \
            (param.high is not None and value > param.high):
        raise RulesError(f"{what} = {value:g} is out of range {param.low:g}..{param.high:g}")
    return value


# ---------------------------------------------------------------- writing one

def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ("nan" if math.isnan(v) else
                                                   ("inf" if v > 0 else "-inf"))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _key(k: str) -> str:
    """A TOML key: bare when it can be, else quoted (a check named by its rules, say)."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_value(k)


def render(base: str, values: dict[str, float], made: dict[str, Any], help_text: str = "") -> str:
    """A trained-set file's text: the base policy, its values, how it was made."""
    lines = []
    if isinstance(made.get("command"), str):
        lines.append(f"# Made by: {made['command']}")
    lines.append(f"policy = {_toml_value(base)}")
    if help_text:
        lines.append(f"help = {_toml_value(help_text)}")
    lines += ["", "[values]"]
    lines += [f"{_key(k)} = {_toml_value(float(v))}" for k, v in values.items()]
    lines += ["", "[made]"]
    for k, v in made.items():
        if isinstance(v, dict):
            continue
        lines.append(f"{_key(k)} = {_toml_value(v)}")
    for k, v in made.items():
        if isinstance(v, dict):
            lines += ["", f"[made.{_key(k)}]"]
            lines += [f"{_key(kk)} = {_toml_value(vv)}" for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


def write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
