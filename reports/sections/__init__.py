"""The sections a report page is built from; each presents one registered analysis.

A section is keyed by the name of the analysis it presents in
``analyses.ANALYSES`` and calls it through that registry, so a page names
its analyses by those names and the registry says which games each applies
to. A section:

- ``tally(info, meta)``: what it keeps of one run's games (an object whose ``add`` takes
  each block's frame), None for a run it does not use; or, for a section that compares
  runs on the same games, ``pairs(info, metas)``: the runs it pairs and one tally fed a
  list of their frames per block (the page plays such runs in lockstep);
- ``analyse(info, runs)``: runs the analysis on the tallies of the runs it uses (each run
  a ``reports._runs.Tallied``: ``meta`` and ``tallies[key]``);
- ``play(info, scale, ...)``: for a section whose games are not planned runs (the tunings'
  races, :mod:`~reports.sections.tune`), plays them and returns its answer;
- ``uses(meta)``: what a run served, for the runs table (None: not used);
- ``tables(answer)``: its CSV tables (name -> frame; the page adds its prefix);
- ``runs(answer)``: its own runs table (CSV, shown), when its analysis has one;
- ``write(page, answer)``: its headings, figures and tables;
- ``methods(answer)``: how its figures were made, for "How this page was made".

The kinds: :mod:`~reports.sections.seats` (seat advantage by turn order and
by each declared seat view), :mod:`~reports.sections.variants` (rule
variants on common random numbers), :mod:`~reports.sections.bands` (score
bands against the printed ones) and :mod:`~reports.sections.scores`
(winners' and others' scores).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analyses import get_analysis
from simulate.errors import UserError


class Section:
    """What every section kind offers the page frame (see the module docstring)."""

    key: str = ""            # the registered analysis this section presents

    def function(self, info) -> Callable:
        """The registered analysis, refused for a game it does not apply to."""
        analysis = get_analysis(self.key)
        if not analysis.applies_to(info.name):
            raise UserError(f"the {self.key} analysis does not apply to {info.name}")
        return analysis.function

    def tally(self, info, meta: dict) -> Any | None:
        return None

    def pairs(self, info, metas: list[dict]) -> list[tuple[list[int], Any]]:
        return []

    def analyse(self, info, results: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> Any:
        """What a section plays itself, beyond the page's planned runs (a race, whose runs
        depend on what it sees): its answer, used instead of ``analyse``; None: nothing.
        ``store``: a run store its storable runs may take blocks from and keep them in."""
        return None

    def uses(self, meta: dict) -> str | None:
        return self.key

    def tables(self, answer) -> dict[str, pd.DataFrame]:
        return {}

    def runs(self, answer) -> tuple[pd.DataFrame, pd.DataFrame] | None:
        return None

    def write(self, page, answer) -> None:
        raise NotImplementedError

    def methods(self, answer) -> list[str]:
        return []


@dataclass(frozen=True)
class SettingsSection(Section):
    """A section comparing *settings*: each run of the chosen ``presets`` and ``policies``
    (None: every run), one preset and one policy at one player count."""

    presets: tuple[str, ...] | None = None
    policies: tuple[str, ...] | None = None  # policy_of(meta) values

    @property
    def by_preset(self) -> bool:
        """Whether settings are told apart by preset as well as by player count."""
        return self.presets is None or len(self.presets) > 1

    def uses(self, meta: dict) -> str | None:
        chosen = (self.presets is None or meta["preset"] in self.presets) and (
            self.policies is None or policy_in(meta, self.policies))
        return self.key if chosen else None

    def tally(self, info, meta: dict) -> Any | None:
        return self.new_tally(info, meta) if self.uses(meta) else None

    def new_tally(self, info, meta: dict) -> Any:
        """The tally of one run this section uses (see the module docstring)."""
        raise NotImplementedError

    def compared(self, info, results: Mapping[str, Any]) -> list[tuple[Any, Any, str]]:
        """(run, its tally, its setting's name) for every run compared; a run given as
        Results (a whole frame) is tallied here."""
        from reports._runs import tallied

        runs = tallied(info, (self,), results)
        return [(r, r.tallies[self.key], name) for r, name in self.settings(runs)]

    def setting_runs(self, results: Mapping[str, Any]) -> list[Any]:
        """The runs it compares, by preset, then policy (each in the order first played), then
        player count."""
        chosen = [r for r in results.values() if self.uses(r.meta)]
        presets = {p: i for i, p in enumerate(dict.fromkeys(r.meta["preset"] for r in chosen))}
        policies = {p: i for i, p in enumerate(dict.fromkeys(policy_of(r.meta) for r in chosen))}
        return sorted(chosen, key=lambda r: (presets[r.meta["preset"]],
                                             policies[policy_of(r.meta)],
                                             int(r.meta["players"])))

    def settings(self, results: Mapping[str, Any]) -> list[tuple[Any, str]]:
        """Each compared run with its setting's name: '3 players', '3 players (short)',
        '3 players (greedy)' or '3 players (short, greedy)', naming the preset and the
        policy only when the compared runs differ in them."""
        runs = self.setting_runs(results)
        by_policy = len({policy_of(r.meta) for r in runs}) > 1
        out = []
        for r in runs:
            tags = ([r.meta["preset"]] if self.by_preset else []) + \
                ([policy_of(r.meta)] if by_policy else [])
            p = int(r.meta["players"])
            out.append((r, f"{p} players ({', '.join(tags)})" if tags else f"{p} players"))
        return out


def policy_of(meta: dict) -> str:
    """A run's policies, each once, in seat order: 'greedy', or 'rollout, greedy' for a mix."""
    return ", ".join(dict.fromkeys(meta.get("policies", [])))


def policy_in(meta: dict, policies: Iterable[str]) -> bool:
    """Whether a run's policy is one of ``policies``: its label ('rollout:samples=4'), or, for
    a run with one policy in every seat, its bare name ('rollout') when that is listed."""
    label = policy_of(meta)
    return label in policies or ("," not in label and label.split(":")[0] in policies)


def policy_names(metas: Iterable[dict]) -> str:
    """The policies the runs seated, each once, in the order first seated."""
    return ", ".join(dict.fromkeys(p for m in metas for p in m.get("policies", [])))
