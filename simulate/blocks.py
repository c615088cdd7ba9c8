"""A run as numbered blocks of game indices, each played by a pure task.

A run of N games from ``first_game`` is cut into blocks of ``size`` games (the last one
shorter): block i holds games ``first_game + i*size`` onwards. A :class:`Job` is what any
process needs to play any block of the run, so a block is a pure task: the same job and
block give the same rows, on this machine's threads, on a Dask worker, or on a rerun after a
lost machine (each game is seeded from (seed, game index) alone).

A job may play several *arms* in lockstep (``rules`` a tuple of rule sets; ``policies``
then either one seating for every arm or a tuple of seatings, one per arm): each block is
played by every arm, on the same game indices, and yields one frame per arm. A comparison of
variants, or of one policy rotated through the seats, reads them side by side, block by
block.

A job may carry a ``part`` function: it reduces a block's rows to the summary the command's
answer is built from (a tally), where the block was played. Only that summary travels back
to the command and into a checkpoint; with no ``part`` the rows themselves do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engines import get_game

BACKENDS = ("fast", "reference")


@dataclass(frozen=True)
class Blocks:
    """Games ``first_game .. first_game + games - 1`` in blocks of ``size``."""

    first_game: int
    games: int
    size: int

    def __len__(self) -> int:
        return -(-self.games // self.size)

    def __getitem__(self, i: int) -> tuple[int, int]:
        """Block i's (first game index, game count)."""
        if not 0 <= i < len(self):
            raise IndexError(i)
        start = i * self.size
        return self.first_game + start, min(self.size, self.games - start)


@dataclass(frozen=True)
class Job:
    """Everything a process needs to play any block of one run (picklable: a game is named,
    never sent, and ``part`` must be a module-level callable or an instance of one)."""

    game: str
    rules: Any
    policies: tuple
    players: int
    seed: int
    backend: str = "fast"
    part: Callable[[pd.DataFrame], Any] | None = None

    @property
    def lockstep(self) -> bool:
        return isinstance(self.rules, tuple)

    @property
    def arms(self) -> list[tuple[Any, tuple]]:
        """(rules, seating) of every arm; one arm unless in lockstep."""
        if not self.lockstep:
            return [(self.rules, self.policies)]
        per_arm = bool(self.policies) and isinstance(self.policies[0], tuple)
        seatings = self.policies if per_arm else (self.policies,) * len(self.rules)
        return list(zip(self.rules, seatings, strict=True))

    def play(self, start: int, count: int) -> Any:
        """Block (start, count): its summary under ``part``, else its rows as a frame (a
        list of frames, one per arm, in lockstep)."""
        columns = get_game(self.game).columns(self.players)
        frames = [to_frame(self.rows(start, count, *arm), columns) for arm in self.arms]
        frame = frames if self.lockstep else frames[0]
        return frame if self.part is None else self.part(frame)

    def rows(self, start: int, count: int, rules=None, policies=None) -> np.ndarray:
        info = get_game(self.game)
        if rules is None:
            rules, policies = self.arms[0]
        if self.backend == "fast":
            return info.fast(rules, policies, self.players, self.seed, start, count)
        names = [c.name for c in info.columns(self.players)]
        rows = [info.reference(rules, policies, self.players, self.seed, g)
                for g in range(start, start + count)]
        return np.array([[row[n] for n in names] for row in rows], dtype=np.float64)

    def describe(self) -> dict:
        """The arguments that fix every block's result (a checkpoint's fingerprint)."""
        return {"game": self.game, "players": self.players,
                "rules": ([_rules_dict(r) for r in self.rules] if self.lockstep
                          else _rules_dict(self.rules)),
                "policies": [[p.label() for p in seating] for _, seating in self.arms]
                if self.lockstep else [p.label() for p in self.policies],
                "seed": int(self.seed),
                "backend": self.backend, "answer": describe_part(self.part)}


def _rules_dict(rules) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in rules.to_dict().items()}


def describe_part(part) -> str:
    """What a block is reduced to, as text that changes when the reduction does."""
    if part is None:
        return "rows"
    return repr(part) if hasattr(type(part), "__dataclass_fields__") else (
        f"{getattr(part, '__module__', '?')}.{getattr(part, '__qualname__', repr(part))}")


def to_frame(block: np.ndarray, columns) -> pd.DataFrame:
    """Outcome array -> tidy frame with the declared dtypes."""
    data = {}
    for j, col in enumerate(columns):
        values = block[:, j]
        data[col.name] = values.astype(np.int64) if col.dtype == "int" else values.astype(np.float64)
    return pd.DataFrame(data)


class LocalBackend:
    """Plays blocks one after another in this process, each over all its threads."""

    name = "local"

    def ordered(self, job: Job, blocks: Iterator[tuple[int, int]]) -> Iterator[Any]:
        for start, count in blocks:
            yield job.play(start, count)

    def describe(self) -> str:
        return "this process"
