"""What a game declares about itself, once, so the CLI, runner and reports can list and validate.

Each ``engines/<game>/__init__.py`` builds one :class:`GameInfo`: its name,
player range, policies (with their numeric parameters), outcome columns and
``Rules`` class. The two ways to play it are the game package's modules,
found by name: ``reference.py`` and ``policies.py`` (the readable path, driven
by ``engines._play``) and ``engine.py`` (the Numba fast path, driven by
``engines._fast``). Nothing else in rumsim knows a game's internals.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engines._rules import RulesError, closest, slots


@dataclass(frozen=True)
class Param:
    """One numeric policy parameter."""

    name: str
    default: float
    help: str
    low: float | None = None
    high: float | None = None
    integer: bool = False
    # The box `rumsim train` searches (low, high); None: the parameter is not trained.
    # Narrower than the legal range where that range only guards against nonsense.
    search: tuple[float, float] | None = None
    # A policy-valued parameter (a search's playout policy, `rollout:base=expert`): the names
    # of the game's policies it may take; its value is the chosen name's position. The fast
    # path finds the named policy's own row after the seats' rows (``Policy.encode_base``).
    policies: tuple[str, ...] | None = None

    def __post_init__(self):
        if self.policies is not None:
            object.__setattr__(self, "integer", True)
            object.__setattr__(self, "low", 0)
            object.__setattr__(self, "high", len(self.policies) - 1)

    def shown(self, value: float) -> str:
        """The value as a user writes it: a policy's name, or the number."""
        return self.policies[int(value)] if self.policies is not None else _fmt(value)


@dataclass(frozen=True)
class PolicySpec:
    """A decision maker a seat can be given."""

    name: str
    code: int  # what the fast path switches on
    help: str
    params: tuple[Param, ...] = ()
    slow: bool = False  # run only when asked, with fewer games
    # A trained parameter set (engines.trained): how it was made (command, seed, version,
    # games, what it was trained against); None for a policy declared in code.
    made: dict[str, Any] | None = field(default=None, compare=False)
    base: str | None = None  # a trained set: the declared policy whose parameters it sets

    def __post_init__(self):
        if len(self.params) > MAX_POLICY_PARAMS:
            raise ValueError(f"policy {self.name} declares {len(self.params)} parameters; "
                             f"a seat's row holds {MAX_POLICY_PARAMS}")

    def default(self, name: str) -> float:
        """The declared default of parameter ``name``."""
        for p in self.params:
            if p.name == name:
                return p.default
        raise KeyError(name)

    def slots(self):
        """Where the fast path finds this policy in a seat's encoded row: ``CODE`` is the
        code itself (column 0 holds it), each parameter name its column."""
        columns = slots(f"{self.name}_policy", [("CODE", 1)] + [(p.name, 1) for p in self.params])
        return type(columns)(self.code, *columns[1:])


MAX_POLICY_PARAMS = 24  # room for a trained evaluation's feature weights
# One seat's encoded row: the code, the parameters, then the seat's restriction (the bits
# of the choices it may never take, then of those it must take when it can; see
# engines._restrict). Both paths read a seat's restriction from its own row, never from the
# row of a search's playout policy.
FORBID_COLUMN = 1 + MAX_POLICY_PARAMS
FORCE_COLUMN = FORBID_COLUMN + 1
POLICY_WIDTH = FORCE_COLUMN + 1
MAX_CHOICES = 30  # a restriction's bits fit a float64 exactly, and an int32 too


@dataclass(frozen=True)
class Choice:
    """A kind of option a player chooses (21 Motines' Mutiny, Rum Runner's draw): what a
    restriction forbids or forces, and what the outcome's ``took_<name>_<seat>`` counts."""

    name: str
    help: str


@dataclass(frozen=True)
class Restriction:
    """The choices a seat may never take (``forbid``) and those it must take whenever it can
    (``force``), by name; ``names`` is the game's choices in bit order."""

    forbid: tuple[str, ...] = ()
    force: tuple[str, ...] = ()
    names: tuple[str, ...] = field(default=(), compare=False)

    def _mask(self, chosen: tuple[str, ...]) -> int:
        return sum(1 << self.names.index(n) for n in chosen)

    @property
    def forbid_mask(self) -> int:
        return self._mask(self.forbid)

    @property
    def force_mask(self) -> int:
        return self._mask(self.force)

    def __bool__(self) -> bool:
        return bool(self.forbid or self.force)

    def label(self) -> list[str]:
        """The restriction as a policy's parameters are written (``forbid=mutiny+sell``)."""
        return [f"{key}={'+'.join(chosen)}" for key, chosen in
                (("forbid", self.forbid), ("force", self.force)) if chosen]


@dataclass(frozen=True)
class Policy:
    """A policy with its parameter values, as assigned to one seat."""

    spec: PolicySpec
    values: tuple[float, ...]
    # The policy a policy-valued parameter names, resolved by ``GameInfo.resolve`` (as its
    # declared kind plays it: a trained set is its base policy with the set's values).
    base: Policy | None = field(default=None, compare=False)
    # What the seat may never or must always choose (`expert:forbid=mutiny`): a house rule
    # for that seat, whichever policy plays it (engines._restrict).
    restriction: Restriction = field(default_factory=Restriction)

    @property
    def name(self) -> str:
        return self.spec.name

    def params(self) -> dict[str, float]:
        """Parameter name -> value, in declaration order."""
        return {p.name: v for p, v in zip(self.spec.params, self.values, strict=True)}

    def param(self, name: str) -> float:
        return self.params()[name]

    def label(self) -> str:
        """'greedy' or 'greedy:draw_threshold=3' (only non-default values shown)."""
        extra = [f"{p.name}={p.shown(v)}" for p, v in zip(self.spec.params, self.values,
                                                           strict=True) if v != p.default]
        return ":".join([self.spec.name, *extra, *self.restriction.label()])

    def unrestricted(self) -> Policy:
        """The same policy without a restriction."""
        return Policy(self.spec, self.values, self.base)

    def restricted(self, restriction: Restriction) -> Policy:
        """The same policy under ``restriction``."""
        return Policy(self.spec, self.values, self.base, restriction)

    def encode(self) -> np.ndarray:
        """float64[POLICY_WIDTH]: the code, the parameter values, the restriction's masks."""
        out = np.zeros(POLICY_WIDTH, dtype=np.float64)
        out[0] = self.spec.code
        out[1:1 + len(self.values)] = self.values
        out[FORBID_COLUMN] = self.restriction.forbid_mask
        out[FORCE_COLUMN] = self.restriction.force_mask
        return out

    def encode_base(self) -> np.ndarray:
        """The row of the policy a policy-valued parameter names (zeros for a policy without
        one): the fast path finds seat s's at row P + s, after the seats' own rows."""
        return self.base.encode() if self.base is not None else np.zeros(POLICY_WIDTH)

    def base_param(self) -> Param | None:
        """The policy-valued parameter (at most one a policy), or None."""
        return next((p for p in self.spec.params if p.policies is not None), None)


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


@dataclass(frozen=True)
class Column:
    """One outcome column: name, dtype ('int' or 'float') and meaning."""

    name: str
    dtype: str
    help: str


def per_seat_columns(per_seat, game_columns) -> Callable[[int], list[Column]]:
    """The outcome columns of a multi-player game, as ``GameInfo.columns`` wants them: game
    and players, then each per-seat ``(prefix, dtype, help)`` as ``prefix_0 .. prefix_{P-1}``,
    then the game's own columns."""
    per_seat, game_columns = tuple(per_seat), tuple(game_columns)

    def columns(players: int) -> list[Column]:
        cols = [Column("game", "int", "game index within the run"),
                Column("players", "int", "number of players")]
        for prefix, dtype, help_text in per_seat:
            cols += [Column(f"{prefix}_{s}", dtype, f"seat {s}: {help_text}")
                     for s in range(players)]
        return cols + list(game_columns)

    return columns


@dataclass(frozen=True)
class GameInfo:
    """Everything the rest of rumsim may know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    policies: dict[str, PolicySpec]
    default_policy: str
    rules_cls: type
    # columns(players) -> the outcome columns for that player count
    columns: Callable[[int], list[Column]]
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # The kinds of option a player chooses, each a bit of a restriction and a
    # ``took_<name>_<seat>`` outcome column (after the game's own columns).
    choices: tuple[Choice, ...] = ()

    def __post_init__(self):
        # The game's trained parameter sets (engines/<game>/trained/*.toml) join its
        # policies, each under its own name, so every command and page can seat them.
        from engines import trained

        if len(self.choices) > MAX_CHOICES:
            raise ValueError(f"{self.name} declares {len(self.choices)} choices; a "
                             f"restriction holds {MAX_CHOICES}")
        # the game's own columns, then the choices' (a copy made by dataclasses.replace
        # wraps the game's own columns again, not these)
        own = getattr(self.columns, "own", self.columns)

        def columns(players: int) -> list[Column]:
            return own(players) + [
                Column(f"took_{c.name}_{s}", "int", f"seat {s}: times it chose {c.help}")
                for c in self.choices for s in range(players)]

        columns.own = own
        object.__setattr__(self, "columns", columns)
        self.policies.update(trained.load_game(self))

    @property
    def choice_names(self) -> tuple[str, ...]:
        """The declared choices' names, in bit order."""
        return tuple(c.name for c in self.choices)

    def restriction(self, forbid=(), force=()) -> Restriction:
        """A restriction of this game's choices, checked: every name declared, none both
        forbidden and forced."""
        names = self.choice_names
        for chosen in (forbid, force):
            for n in chosen:
                if n not in names:
                    known = ", ".join(names) if names else "none: it declares no choices"
                    raise RulesError(f"{self.name} has no choice '{n}'" + closest(n, list(names))
                                     + f"; its choices: {known}")
        both = sorted(set(forbid) & set(force))
        if both:
            raise RulesError(f"a seat cannot be both forbidden and forced to take {both[0]}")
        order = {n: i for i, n in enumerate(names)}
        return Restriction(tuple(sorted(set(forbid), key=order.get)),
                           tuple(sorted(set(force), key=order.get)), names)

    # ------------------------------------------------------------ the two paths

    @property
    def package(self) -> str:
        """The game's package (``engines.rum_runner``): where its ``Rules`` class lives."""
        return self.rules_cls.__module__.rsplit(".", 1)[0]

    def module(self, part: str):
        """The game's ``reference``, ``policies`` or ``engine`` module (imported when asked)."""
        return importlib.import_module(f"{self.package}.{part}")

    def reference(self, rules, policies, players: int, seed: int, game: int) -> dict[str, Any]:
        """Game ``game`` of ``seed`` on the reference path: its outcome row (column -> value)."""
        from engines import _play

        return _play.play(self, rules, policies, players, seed, game)

    def fast(self, rules, policies, players: int, seed: int, first_game: int,
             n_games: int) -> np.ndarray:
        """Games first_game .. first_game + n_games - 1 on the fast path: float64 rows."""
        from engines import _fast

        return _fast.play_many(self, rules, policies, players, seed, first_game, n_games)

    def narrate(self, rules, policies, players: int, seed: int,
                game: int) -> tuple[list[str], dict[str, Any]]:
        """One game told event by event on the reference path, and a machine record of it."""
        from engines import _play

        return _play.narrate(self, rules, policies, players, seed, game)

    # ------------------------------------------------------------ validation

    def check_seats(self, rules, policies, players: int) -> int:
        """The player count, checked against the game, its rules and the seats' policies."""
        players = self.check_players(int(players))
        if len(policies) != players:
            raise RulesError(f"{len(policies)} policies given for {players} players")
        rules.check_players(players)
        # a game may refuse a forced choice its rules would let go on for ever
        forced = {n for p in policies if isinstance(p, Policy) for n in p.restriction.force}
        if forced and hasattr(rules, "check_restrictions"):
            rules.check_restrictions(forced)
        return players

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise RulesError(f"{self.name} is a {self.min_players}-player game; "
                                 f"--players {players} is not possible")
            raise RulesError(f"{self.name} is played by {self.min_players}-{self.max_players} "
                             f"players, not {players}")
        return players

    def policy(self, text: str) -> Policy:
        """Parse 'name' or 'name:key=value:key=value' into a Policy."""
        name, *pairs = [p.strip() for p in text.strip().split(":")]
        if name not in self.policies:
            raise RulesError(
                f"unknown policy '{name}' for {self.name}" + closest(name, list(self.policies))
                + f"; policies: {', '.join(self.policies)}"
            )
        spec = self.policies[name]
        values = {p.name: p.default for p in spec.params}
        known = [p.name for p in spec.params]
        restrict: dict[str, tuple[str, ...]] = {"forbid": (), "force": ()}
        for pair in pairs:
            if "=" not in pair:
                raise RulesError(f"policy parameter needs key=value, got '{pair}' in '{text}'")
            key, raw = (s.strip() for s in pair.split("=", 1))
            if key in restrict:  # a restriction: choice names joined by '+'
                chosen = tuple(n.strip() for n in raw.split("+"))
                if not raw or any(not n for n in chosen):
                    raise RulesError(f"policy {name}:{key}= names no choice; write "
                                     f"{key}=name or {key}=name+name")
                restrict[key] = restrict[key] + chosen
                continue
            if key not in values:
                hint = closest(key, known) or (f"; it takes {', '.join(known)}" if known
                                               else "; it takes no parameters")
                raise RulesError(f"policy {name} has no parameter '{key}'" + hint)
            param = next(p for p in spec.params if p.name == key)
            if param.policies is not None:
                if raw not in param.policies:
                    raise RulesError(f"policy parameter {name}:{key}={raw} names no policy it can "
                                     f"play; it takes {', '.join(param.policies)}"
                                     + closest(raw, list(param.policies)))
                values[key] = float(param.policies.index(raw))
                continue
            try:
                value = float(raw)
            except ValueError:
                raise RulesError(f"policy parameter {name}:{key}={raw!r} is not a number") from None
            if not math.isfinite(value):
                raise RulesError(f"policy parameter {name}:{key}={raw!r} is not a finite number")
            if param.integer and not value.is_integer():
                raise RulesError(f"policy parameter {name}:{key}={raw!r} must be a whole number")
            if (param.low is not None and value < param.low) or (
                param.high is not None and value > param.high
            ):
                lo = "" if param.low is None else _fmt(param.low)
                hi = "" if param.high is None else _fmt(param.high)
                raise RulesError(f"policy parameter {name}:{key}={raw} is out of range {lo}..{hi}")
            values[key] = value
        policy = self.resolve(Policy(spec, tuple(values[p.name] for p in spec.params)))
        return policy.restricted(self.restriction(**restrict))

    def declared(self, policy: Policy) -> Policy:
        """The policy as its declared kind plays it: a trained set's base policy with the set's
        values (the same code and parameter row); any other policy as it is. A policy-valued
        parameter's policy comes along, resolved."""
        policy = self.resolve(policy)
        if policy.spec.base is None:
            return policy
        return Policy(self.policies[policy.spec.base], policy.values, policy.base,
                      policy.restriction)

    def resolve(self, policy: Policy) -> Policy:
        """The policy with the policy its policy-valued parameter names (``Policy.base``), in
        the declared form both paths play; the policy itself when it has no such parameter."""
        param = policy.base_param()
        if param is None or policy.base is not None:
            return policy
        name = param.policies[int(policy.param(param.name))]
        if name not in self.policies:
            raise RulesError(f"{self.name}: policy {policy.spec.name}'s {param.name} names "
                             f"{name}, which the game does not declare")
        return Policy(policy.spec, policy.values, self.declared(self.policy(name)),
                      policy.restriction)

    def seat_policies(self, text: str | None, players: int) -> tuple[Policy, ...]:
        """One policy for all seats ('greedy') or one per seat ('greedy,random,random')."""
        text = self.default_policy if text is None else text
        parts = text.split(",")
        if not text.strip():
            raise RulesError(f"--policy is empty: name a policy of {self.name} "
                             f"({', '.join(self.policies)})")
        if any(not p.strip() for p in parts):
            raise RulesError(f"--policy '{text}' names an empty seat: give one policy for every "
                             "seat, or one per seat separated by commas")
        if len(parts) == 1:
            parts = parts * players
        if len(parts) != players:
            raise RulesError(
                f"--policy names {len(parts)} seats but the game has {players} players"
            )
        return tuple(self.policy(p) for p in parts)

    def column_names(self, players: int) -> list[str]:
        return [c.name for c in self.columns(players)]
