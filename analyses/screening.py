"""Screening a space too large to race whole: Optuna's TPE sampler proposes settings.

When the knobs span more settings than a race can take (or a float knob spans
a continuous range), Optuna (a well-kept optimiser library; its TPE sampler,
seeded, asked and told in batches, so the proposals depend only on the seed
and the objective values) proposes settings in batches; each batch plays the
same screening games (game indices ``0 .. games - 1``, the same deals for
every setting) and each setting is scored by its penalised point objective.
The best few distinct settings go on to the race, which plays fresh games
(indices after the screening's), so the race's intervals and error rate are
not bent by the screening having picked its winners on the same games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyses.goals import Layout, features
from analyses.knobs import Knob
from analyses.racing import Arena, ArmTally, Objective

BATCH = 8  # settings proposed and played together in one lockstep run
IMPOSSIBLE = 1e6  # the objective told to Optuna for a setting the rules refuse


@dataclass
class Screen:
    """What the screening tried: each setting's values and penalised point objective, and
    the games it played in all."""

    tried: list[tuple[tuple, float]]
    games: int
    played: int
    interrupted: bool = False

    def finalists(self, count: int) -> list[tuple]:
        """The ``count`` distinct settings with the smallest objective (ties: tried first)."""
        seen: dict[tuple, float] = {}
        for values, score in self.tried:
            seen.setdefault(values, score)
        ranked = sorted(seen.items(), key=lambda kv: kv[1])
        return [v for v, _ in ranked[:count]]


def screen(arena: Arena, knobs: Sequence[Knob], make_rules: Callable[[tuple], object | None],
           layout: Layout, objective: Objective, trials: int, games: int,
           seed: int) -> Screen:
    """Propose ``trials`` settings with Optuna's TPE sampler and score each on the same
    ``games`` screening games. ``make_rules(values)`` gives a setting's rules, or None for
    an impossible setting (scored worst, never played)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = _sampler(optuna, knobs, seed % 2**32, trials)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    out = Screen([], games, 0)
    while len(out.tried) < trials and not out.interrupted:
        batch = [study.ask() for _ in range(min(BATCH, trials - len(out.tried)))]
        values = [tuple(_suggest(t, k) for k in knobs) for t in batch]
        playable = [(t, v, r) for t, v in zip(batch, values, strict=True)
                    if (r := make_rules(v)) is not None]
        for t, v in zip(batch, values, strict=True):
            if all(t is not p[0] for p in playable):
                study.tell(t, IMPOSSIBLE)  # finite, so TPE learns where they lie
                out.tried.append((v, math.inf))
        if not playable:
            continue
        tally = ArmTally(len(playable), layout.features())
        arms = list(range(len(playable)))

        def take(frames, tally=tally, arms=arms):
            tally.add(arms, [features(f, layout) for f in frames])

        label = f"screening {len(out.tried) + 1}-{len(out.tried) + len(playable)} of {trials}"
        meta = arena([r for _, _, r in playable], 0, games, take, label)
        out.played += tally.n(0) * len(playable)
        out.interrupted = bool(meta.get("interrupted"))
        for i, (t, v, _) in enumerate(playable):
            score = objective.penalised(tally, i)
            study.tell(t, score)
            out.tried.append((v, score))
    return out


def _suggest(trial, knob: Knob):
    if knob.continuous:
        return trial.suggest_float(knob.name, knob.low, knob.high)
    if _int_range(knob):
        return trial.suggest_int(knob.name, knob.values[0], knob.values[-1])
    return knob.values[trial.suggest_categorical(knob.name, list(range(len(knob.values))))]


def _sampler(optuna, knobs: Sequence[Knob], seed: int, trials: int):
    """CMA-ES over the number knobs (it learns how they move together, as band edges or
    coins by seat do), with TPE for the rest; TPE alone when no knob is a number range."""
    tpe = optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(16, trials),
                                     multivariate=True)
    if not any(k.continuous or _int_range(k) for k in knobs):
        return tpe
    return optuna.samplers.CmaEsSampler(seed=seed, independent_sampler=tpe,
                                        n_startup_trials=min(8, trials),
                                        warn_independent_sampling=False)


def _int_range(knob: Knob) -> bool:
    v = knob.values
    return len(v) > 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v) \
        and list(v) == list(range(v[0], v[-1] + 1))
