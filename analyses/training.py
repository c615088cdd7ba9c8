"""Training a policy: its declared parameters tuned toward winning, then raced and checked.

``train`` tunes the parameters a policy declares trainable (``Param.search``, the
box searched) in three steps, every game fixed by the seed and its index:

1. **Search.** CMA-ES (the ``cmaes`` package, the one Optuna's CMA-ES sampler
   wraps; seeded) over the box scaled to [0, 1]. Each generation's candidates
   play the same fresh deals (common random numbers): in a multi-player game one
   candidate seat among seats of a *field*, rotated through every seat, so a
   seat's own advantage cancels; a solo game's candidates play the deals
   themselves. The field is a pool, not one opponent: the spec's fast policies
   (half the deals, shared equally) and the champions of the earlier stages (the
   other half): the search runs in stages, and the distribution's mean at the
   end of each stage (CMA-ES's estimate of the best, not the best point seen on
   noisy games) joins the pool, so the result does not overfit one way of
   playing.
2. **Race.** The finalists (each stage's mean, the best-scoring candidates of
   the last generations, and the starting point) are raced on fresh deals with
   ``analyses.racing`` against the final pool: a finalist is dropped once its
   share (or score) is shown below another's, the truly best finalist surviving
   with probability at least 1 - alpha. The answer is the race's best.
3. **Check.** The answer plays fresh deals against each policy of the field at
   every player count (``analyses.matchup``: one seat among the field, rotated,
   clustered by deal). These games played no part in choosing it, so their
   intervals carry no selection.

The objective is one of ``TARGETS``: a multi-player game's win share of the
trained seat (ties 1/k), a solo game's mean score or band share. With several
rule sets (``rules`` a list) every candidate plays each deal under each, and
the objective is their mean.

Everything is a function of the arguments: each game is seeded from the seed and
its index, the tallies are exact integer sums and CMA-ES is seeded, so the same
command gives the same parameters whatever the threads, chunks or cluster.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from analyses.deals import DealDifferences
from analyses.goals import WIN_SCALE, Metric
from analyses.matchup import MatchupAnswer, MatchupTally
from analyses.racing import ALPHA, Objective, Race, first_look, race
from engines._game import Param, Policy
from simulate.errors import Interrupted, UserError

STAGES = 4              # the search's stages; each one's mean joins the field
SIGMA = 0.25            # CMA-ES's first step, in units of the search box
RACE_SHARE = 0.25       # of the budget, for the race
LEAST_DEALS = 100       # deals per candidate and generation, at least
FINALISTS = 6           # raced finalists, the starting point included
CHECK_GAMES = 20_000    # games per check (field policy and player count)


# ---------------------------------------------------------------- what is trained

@dataclass(frozen=True)
class Space:
    """The trained parameters of a policy and the box searched, scaled to [0, 1]."""

    start: Policy
    params: tuple[Param, ...]

    @classmethod
    def of(cls, start: Policy) -> Space:
        params = tuple(p for p in start.spec.params if p.search is not None)
        if not params:
            raise UserError(f"policy {start.spec.name} declares no trainable parameter "
                            "(Param.search); train one that does")
        return cls(start, params)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def encode(self, policy: Policy) -> np.ndarray:
        """A policy's trained values as a point of [0, 1]^n (clipped into the box)."""
        values = policy.params()
        out = []
        for p in self.params:
            lo, hi = p.search
            out.append(min(1.0, max(0.0, (values[p.name] - lo) / (hi - lo))))
        return np.array(out, dtype=np.float64)

    def decode(self, x: np.ndarray) -> Policy:
        """The policy at point ``x`` (whole-number parameters rounded; other parameters as
        the starting policy has them)."""
        values = dict(self.start.params())
        for p, xi in zip(self.params, x, strict=True):
            lo, hi = p.search
            v = lo + float(np.clip(xi, 0.0, 1.0)) * (hi - lo)
            v = float(round(v)) if p.integer else round(v, 6)
            if p.low is not None:
                v = max(v, p.low)
            if p.high is not None:
                v = min(v, p.high)
            values[p.name] = v
        return Policy(self.start.spec, tuple(values[p.name] for p in self.start.spec.params))


# ---------------------------------------------------------------- what is maximised

@dataclass(frozen=True)
class Target:
    """A trained policy's objective: per game a whole number (so sums are exact), and the
    factor that makes its mean per game the objective. Data only, so that a block's
    reduction (``DealPart``) travels to a Dask worker."""

    name: str
    label: str
    unit: str                 # "%": a share, shown x100; else the unit
    solo: bool
    scale: int
    column: str               # "win_{seat}", "score_0" or "band_0" (read for each seat)
    band: int | None = None   # a band share: 1 when the band column is this band

    def of(self, rows: np.ndarray, columns: list[str], seat: int) -> np.ndarray:
        x = rows[:, columns.index(self.column.format(seat=seat))]
        if self.band is not None:
            x = (x == self.band).astype(np.float64)
        return np.rint(x * self.scale).astype(np.int64)


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("win_share", "win share of the trained seat (ties count 1/k)", "%", False,
           WIN_SCALE, "win_{seat}"),
    Target("mean_score", "mean final score", "points", True, 1, "score_0"),
)}


def _band(k: int) -> Target:
    return Target(f"band_share[{k}]", f"share of games in band {k}", "%", True, 1, "band_0", k)


def target(name: str | None, info, players: int) -> Target:
    """The objective a user named (default: win share, or a solo game's mean score)."""
    solo = players == 1
    name = (name or ("mean_score" if solo else "win_share")).strip()
    if name.startswith("band_share[") and name.endswith("]"):
        if "band_0" not in info.column_names(players):
            raise UserError(f"--objective {name}: {info.name} has no score bands")
        try:
            k = int(name[len("band_share["):-1])
        except ValueError:
            k = -1
        if not 0 <= k <= 5:
            raise UserError(f"--objective {name}: K must be a band from 0 (broke) to 5 (god)")
        t = _band(k)
    elif name in TARGETS:
        t = TARGETS[name]
    else:
        names = ", ".join([*TARGETS, "band_share[K]"])
        raise UserError(f"unknown --objective '{name}'; objectives: {names}")
    if t.solo != solo:
        raise UserError(f"--objective {t.name} is for {'solo' if t.solo else 'multi-player'} "
                        f"games; {info.name} at {players} player{'s' * (players > 1)} "
                        f"trains {'mean_score' if solo else 'win_share'}")
    if t.column.format(seat=0) not in info.column_names(players):
        raise UserError(f"--objective {t.name} does not apply to {info.name}")
    return t


# ---------------------------------------------------------------- the games of a deal

@dataclass(frozen=True)
class DealPart:
    """A block's reduction, where it was played: per candidate, each deal's objective summed
    over the candidate's games of that deal (every rule set, every seat it sat in). The arms
    of the block are ordered candidate-major, then rule set, then seat."""

    candidates: int
    rule_sets: int
    seats: int
    columns: tuple[str, ...]
    target: Target

    def __call__(self, frames) -> np.ndarray:
        per = self.rule_sets * self.seats
        cols = list(self.columns)
        out = []
        for c in range(self.candidates):
            total = None
            for k in range(per):
                frame = frames[c * per + k]
                seat = k % self.seats
                x = self.target.of(frame[cols].to_numpy(dtype=np.float64), cols, seat)
                total = x if total is None else total + x
            out.append(total)
        return np.stack(out)


@dataclass(frozen=True)
class Arena:
    """Where candidates meet the field: the game, its rules, player count, seed and the
    backend; ``play`` gives each candidate's per-deal sums on a range of deals."""

    info: object
    rules: tuple
    players: int
    seed: int
    target: Target
    workers: int | None = None
    cluster: object = None

    @property
    def games_per_deal(self) -> int:
        """Games one candidate plays on one deal: each rule set, each seat."""
        return len(self.rules) * (1 if self.target.solo else self.players)

    def seatings(self, candidate: Policy, field_policy: Policy | None) -> list[tuple]:
        if self.target.solo:
            return [(candidate,) for _ in self.rules]
        return [tuple(candidate if k == s else field_policy for k in range(self.players))
                for _ in self.rules for s in range(self.players)]

    def play(self, candidates: list[Policy], pool: list[tuple[Policy, float]],
             first_deal: int, deals: int, label: str = "") -> np.ndarray:
        """int64[candidates, deals]: every candidate on deals first_deal .. + deals - 1, the
        deals shared out over the pool's policies by weight, in pool order."""
        import simulate

        out = np.zeros((len(candidates), deals), dtype=np.int64)
        at = 0
        for (who, count) in split(pool, deals):
            if not count:
                continue
            seatings = [s for c in candidates for s in self.seatings(c, who)]
            rules = tuple(r for _ in candidates for r in self.rules
                          for _ in range(1 if self.target.solo else self.players))
            part = DealPart(len(candidates), len(self.rules),
                            1 if self.target.solo else self.players,
                            tuple(self.info.column_names(self.players)), self.target)
            got: list[np.ndarray] = []
            res = simulate.run(self.info, count, rules=rules, seatings=seatings,
                               players=self.players, seed=self.seed, workers=self.workers,
                               first_game=first_deal + at, part=part, on_part=got.append,
                               keep=False, progress=False, label=label, cluster=self.cluster)
            if res.meta["interrupted"]:
                raise Interrupted("stopped during training")
            out[:, at:at + count] = np.concatenate(got, axis=1)
            at += count
        return out


def split(pool: list[tuple[Policy, float]], deals: int) -> list[tuple[Policy, int]]:
    """Deals shared out by weight, largest remainder first (ties: pool order)."""
    total = sum(w for _, w in pool)
    exact = [deals * w / total for _, w in pool]
    counts = [int(math.floor(x)) for x in exact]
    left = deals - sum(counts)
    order = sorted(range(len(pool)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[:left]:
        counts[i] += 1
    return [(p, c) for (p, _), c in zip(pool, counts, strict=True)]


def weigh(field_policies: list[Policy], champions: list[Policy]) -> list[tuple[Policy, float]]:
    """The pool: the field's policies share half the deals (all of them before any
    champion), the champions the other half."""
    pool = [(p, 1.0 / len(field_policies)) for p in field_policies]
    if champions:
        pool = [(p, 0.5 * w) for p, w in pool] + [(c, 0.5 / len(champions))
                                                   for c in champions]
    return pool


# ---------------------------------------------------------------- the plan

@dataclass(frozen=True)
class Plan:
    """How a budget of games is spent: the search's generations and deals, the race."""

    population: int
    deals: int           # per candidate and generation
    generations: int
    stages: int
    race_deals: int      # the race's budget, in deals per arm summed over arms

    @classmethod
    def make(cls, budget: int, dims: int, games_per_deal: int,
             population: int | None = None) -> Plan:
        lam = population or 4 + int(3 * math.log(dims))
        search = int(budget * (1 - RACE_SHARE))
        # Enough generations for CMA-ES to move (about 10 n), each on as many deals as that
        # leaves, never fewer than LEAST_DEALS.
        want = max(4 * STAGES, 10 * dims)
        deals = max(LEAST_DEALS, search // (lam * games_per_deal * want))
        generations = max(1, search // (lam * games_per_deal * deals))
        stages = max(1, min(STAGES, generations // 2))
        race_deals = max(0, (budget - generations * lam * deals * games_per_deal)
                         // games_per_deal)
        return cls(lam, deals, generations, stages, race_deals)

    def stage_end(self, generation: int) -> bool:
        """Does generation g (from 0) end a stage?"""
        per = self.generations / self.stages
        return any(generation + 1 == round(per * (k + 1)) for k in range(self.stages))


# ---------------------------------------------------------------- the answer

@dataclass
class Generation:
    index: int
    first_deal: int
    candidates: list[list[float]]   # points in [0, 1]^n
    totals: list[int]               # each candidate's sum over the generation's deals
    field: list[str]                # the pool's labels, in order


@dataclass
class TrainAnswer:
    """A training's record: the search, the race, the check, and the trained values."""

    game: str
    players: int
    start: Policy
    names: tuple[str, ...]
    target: Target
    plan: Plan
    seed: int
    rules: list[str]
    field: list[str]
    generations: list[Generation]
    champions: list[Policy]
    finalists: list[Policy]
    finalist_labels: list[str]
    raced: Race | None
    best: Policy
    checks: list[tuple[int, str, MatchupAnswer]] = field(default_factory=list)
    solo_checks: list[dict] = field(default_factory=list)
    played: int = 0
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def values(self) -> dict[str, float]:
        return self.best.params()

    def share(self, total: int, deals: int) -> float:
        per = self.target.scale * len(self.rules) * (1 if self.target.solo else self.players)
        return total / (deals * per) if deals else math.nan

    def history(self) -> list[dict]:
        """Per generation: the candidates' mean and best objective on its deals."""
        out = []
        for g in self.generations:
            deals = self.plan.deals
            vals = [self.share(t, deals) for t in g.totals]
            out.append({"generation": g.index + 1, "mean": float(np.mean(vals)),
                        "best": float(np.max(vals)), "field": ", ".join(g.field)})
        return out

    def race_rows(self) -> list[dict]:
        r = self.raced
        if r is None:
            return []
        metric = r.objective.maximise[0]
        out = []
        for i, lab in enumerate(r.labels):
            est = metric.estimate(r.tally, i)
            lo, hi = metric.interval(r.tally, i, 0.05)
            out.append({"finalist": lab, "games": int(r.tally.games[i]) * self._per_deal,
                        "estimate": est, "low": lo, "high": hi,
                        "status": "chosen" if i == r.best else
                        ("survived" if r.alive[i] else r.reason[i])})
        return out

    @property
    def _per_deal(self) -> int:
        return len(self.rules) * (1 if self.target.solo else self.players)

    # ------------------------------------------------------------ presentation

    def check_rows(self) -> list[dict]:
        """The check on fresh deals, a row per player count, rule set and field policy."""
        if self.target.solo:
            return [{"rules": c["rules"], "games": c["games"],
                     "trained": c["trained"][0], "trained_low": c["trained"][1],
                     "trained_high": c["trained"][2], "start": c["start"][0],
                     "difference": c["difference"][0], "difference_low": c["difference"][1],
                     "difference_high": c["difference"][2]} for c in self.solo_checks]
        return [{"players": p, "rules": r, "field": a.field, "games": a.games,
                 "share": a.share.estimate, "low": a.share.low, "high": a.share.high,
                 "fair": a.fair, "verdict": a.verdict} for p, r, a in self.checks]

    def check_lines(self) -> dict[str, str]:
        """The check, one short line each, for the trained set's [made.check] table."""
        out = {}
        if self.target.solo:
            for c in self.solo_checks:
                t, d = c["trained"], c["difference"]
                out[c["rules"]] = (f"{self.target.name} {_show(self.target, t[0])} "
                                   f"[{_show(self.target, t[1])}, {_show(self.target, t[2])}], "
                                   f"{_diff(self.target, d)} against the start, on "
                                   f"{c['games'] // 2:,} fresh deals")
            return out
        for p, r, a in self.checks:
            key = f"{p}p_{a.field}" + ("" if r == "default" else f"_{r}")
            out[key] = (f"{a.share.estimate:.1%} [{a.share.low:.1%}, {a.share.high:.1%}] "
                        f"of {a.games:,} games (fair {a.fair:.1%}): {a.verdict}")
        return out

    def made(self, command: str, version: str, commit: str | None) -> dict:
        """How the set was made, for its file's [made] table."""
        import datetime

        r = self.raced
        out = {"command": command, "seed": self.seed, "rumsim": version,
               "commit": commit or "unknown",
               "date": datetime.date.today().isoformat(), "game": self.game,
               "players": self.players, "rules": list(self.rules),
               "from": self.start.label(), "objective": self.target.name,
               "field": [*self.field, *(f"champion of stage {k + 1}"
                                        for k in range(len(self.champions)))],
               "games": self.played, "seconds": round(self.seconds, 1),
               "search": f"CMA-ES over {len(self.names)} parameters, {self.plan.generations} "
                         f"generations of {self.plan.population} candidates x "
                         f"{self.plan.deals:,} deals, in {self.plan.stages} stages",
               "chosen": (f"{self.finalist_labels[r.best]}, raced among "
                          f"{len(r.labels)} finalists at error rate {r.alpha:g}"
                          if r is not None else self.finalist_labels[-1])}
        out["check"] = self.check_lines()
        return out

    def render_text(self) -> str:
        from analyses._text import text_table

        t = self.target
        who = "solo" if t.solo else f"{self.players} players"
        lines = [f"Trained {self.start.spec.name} for {self.game} ({who}, rules: "
                 f"{', '.join(self.rules)}, seed {self.seed}): {self.played:,} games in "
                 f"{self.seconds:.0f} s" + (" (stopped early)" if self.interrupted else ""),
                 f"Objective: {t.label}" + ("" if t.solo else
                                            f", against a field of {', '.join(self.field)} "
                                            "and the earlier stages' champions"),
                 f"Search: CMA-ES over {len(self.names)} parameters, {self.plan.generations} "
                 f"generations of {self.plan.population} candidates on "
                 f"{self.plan.deals:,} fresh deals each ({self.plan.stages} stages)", ""]
        rows = self.race_rows()
        if rows:
            r = self.raced
            lines += [f"Race of the finalists on fresh deals (a finalist is dropped once shown "
                      f"worse; the truly best survives with probability >= "
                      f"{1 - r.alpha:.0%}):",
                      text_table(["finalist", "games", t.name, "95% CI (each)", "status"],
                                 [[x["finalist"], f"{x['games']:,}", _show(t, x["estimate"]),
                                   f"[{_show(t, x['low'])}, {_show(t, x['high'])}]",
                                   x["status"]] for x in rows]),
                      "(These intervals are per finalist and the chosen one was selected on "
                      "them; the check below is on fresh deals.)", ""]
        if t.solo:
            lines += ["Check on fresh deals (the trained set and the start on the same deals; "
                      "Student-t intervals for each; the difference's by gains and losses "
                      "over deals, Hall's t per part, MOVER):",
                      text_table(["rules", "deals", t.name, "95% CI", "start",
                                  "trained - start", "95% CI"],
                                 [[c["rules"], f"{c['games'] // 2:,}",
                                   _show(t, c["trained"][0]),
                                   f"[{_show(t, c['trained'][1])}, {_show(t, c['trained'][2])}]",
                                   _show(t, c["start"][0]), _diff(t, c["difference"]), ""]
                                  for c in self.solo_checks])]
        else:
            lines += ["Check on fresh deals (one trained seat among the field, rotated through "
                      "every seat; 95% interval clustered by deal):",
                      text_table(["players", "rules", "field", "games", "win share", "95% CI",
                                  "fair", "verdict"],
                                 [[str(x["players"]), x["rules"], x["field"],
                                   f"{x['games']:,}", f"{x['share']:.1%}",
                                   f"[{x['low']:.1%}, {x['high']:.1%}]", f"{x['fair']:.1%}",
                                   x["verdict"]] for x in self.check_rows()])]
        start = self.start.params()
        lines += ["", "Trained values (start -> trained):",
                  text_table(["parameter", "start", "trained"],
                             [[n, f"{start[n]:g}", f"{self.values[n]:g}"] for n in self.names])]
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"game": self.game, "players": self.players, "seed": self.seed,
                "from": self.start.label(), "objective": self.target.name,
                "rules": self.rules, "field": self.field, "games": self.played,
                "seconds": self.seconds, "interrupted": self.interrupted,
                "plan": self.plan.__dict__, "history": self.history(),
                "race": self.race_rows(), "check": self.check_rows(),
                "start": {n: self.start.params()[n] for n in self.names},
                "values": self.values}


# ---------------------------------------------------------------- training

def train(info, start: Policy, players: int, rules: list, field_policies: list[Policy],
          budget: int, seed: int, objective: str | None = None,
          check_players: list[int] | None = None, check_games: int = CHECK_GAMES,
          workers: int | None = None, cluster=None, population: int | None = None,
          alpha: float = ALPHA, history: list[Generation] | None = None,
          on_generation: Callable[[Generation, TrainAnswer], None] | None = None,
          progress: Callable[[str], None] | None = None) -> TrainAnswer:
    """Train ``start``'s trainable parameters (see the module). ``history``: generations
    already played (a resumed training replays them into CMA-ES instead of playing them);
    ``on_generation`` sees each finished one (to save it)."""
    from cmaes import CMA

    started = time.perf_counter()
    say = progress or (lambda text: None)
    tgt = target(objective, info, players)
    space = Space.of(start)
    arena = Arena(info, tuple(rules), players, seed, tgt, workers, cluster)
    per_deal = arena.games_per_deal
    if budget < 20 * per_deal * LEAST_DEALS:
        raise UserError(f"--budget {budget:,} is too small to train: give at least "
                        f"{20 * per_deal * LEAST_DEALS:,} games")
    plan = Plan.make(budget, len(space.params), per_deal, population)
    if not tgt.solo and not field_policies:
        raise UserError("the field is empty: name at least one --field policy")
    answer = TrainAnswer(info.name, players, start, space.names, tgt, plan, seed,
                         [r.describe() for r in rules], [p.label() for p in field_policies],
                         [], [], [], [], None, start)
    opt = CMA(mean=np.clip(space.encode(start), 0.02, 0.98), sigma=SIGMA,
              bounds=np.array([[0.0, 1.0]] * len(space.params)), seed=seed % 2**32,
              population_size=plan.population)
    history = list(history or [])
    champions: list[Policy] = []
    scored: list[tuple[float, int, Policy]] = []   # (objective, generation, candidate)
    deal = 0
    for g in range(plan.generations):
        xs = [opt.ask() for _ in range(plan.population)]
        candidates = [space.decode(x) for x in xs]
        pool = weigh(field_policies, champions) if not tgt.solo else [(start, 1.0)]
        labels = [p.label() if i < len(field_policies) else f"champion {i - len(field_policies) + 1}"
                  for i, (p, _) in enumerate(pool)] if not tgt.solo else []
        if g < len(history):
            gen = history[g]
            if gen.first_deal != deal or not np.array_equal(np.array(gen.candidates), np.array(xs)):
                raise UserError("the checkpoint's training was made with other arguments; "
                                "resume with the same command or give another --checkpoint")
        else:
            totals = arena.play(candidates, pool, deal, plan.deals,
                                label=f"generation {g + 1}").sum(axis=1)
            gen = Generation(g, deal, [list(map(float, x)) for x in xs],
                             [int(t) for t in totals], labels)
            answer.played += plan.population * plan.deals * per_deal
            if on_generation is not None:
                on_generation(gen, answer)
        answer.generations.append(gen)
        values = [answer.share(t, plan.deals) for t in gen.totals]
        opt.tell([(x, -v) for x, v in zip(xs, values, strict=True)])
        scored += [(v, g, c) for v, c in zip(values, candidates, strict=True)]
        deal += plan.deals
        if plan.stage_end(g):
            champions.append(space.decode(opt.mean))
        say(f"generation {g + 1}/{plan.generations}: candidates' mean {_show(tgt, np.mean(values))}"
            f", best {_show(tgt, max(values))} ({answer.played:,} games, "
            f"{time.perf_counter() - started:.0f} s)")
    answer.champions = champions

    # ------------------------------------------------------------ the race
    finalists, flabels = _finalists(start, champions, scored, plan)
    answer.finalists, answer.finalist_labels = finalists, flabels
    pool = weigh(field_policies, champions) if not tgt.solo else [(start, 1.0)]
    metric = Metric(tgt.name, tgt.label, tgt.unit, "linear", ("deal",),
                    divisor=tgt.scale * per_deal)

    def race_arena(arms, first_game, games, take, label):
        sums = arena.play(list(arms), pool, first_game, games, label=label)
        take([{"deal": row} for row in sums])
        return {"interrupted": False}

    if len(finalists) > 1 and plan.race_deals >= 2 * LEAST_DEALS:
        layout = _DealLayout()
        raced = race(race_arena, finalists, flabels, layout, Objective((), (metric,)),
                     plan.race_deals, alpha,
                     first=first_look(plan.race_deals, len(finalists), LEAST_DEALS),
                     first_game=deal, base=0, featurize=lambda f: f)
        answer.raced = raced
        answer.best = finalists[raced.best]
        answer.played += raced.played * per_deal
        deal += int(raced.tally.games.max())
        say(f"race: {flabels[raced.best]} chosen of {len(finalists)} finalists "
            f"({raced.played * per_deal:,} games)")
    else:
        answer.best = finalists[-1]

    # ------------------------------------------------------------ the check, on fresh deals
    counts = check_players if check_players is not None else [players]
    answer.checks, answer.solo_checks = check(info, answer.best, start, rules, field_policies,
                                              counts, seed, deal, check_games, tgt, workers,
                                              cluster, say)
    answer.played += sum(a.games for _, _, a in answer.checks)
    answer.played += sum(c["games"] for c in answer.solo_checks)
    answer.seconds = time.perf_counter() - started
    return answer


class _DealLayout:
    """The race's one feature: a candidate's per-deal sum."""

    @staticmethod
    def features() -> tuple[str, ...]:
        return ("deal",)


def _finalists(start: Policy, champions: list[Policy], scored, plan: Plan):
    """The starting point, each stage's champion, then the best-scoring candidates of the
    last generation(s), each once, at most FINALISTS."""
    out, labels = [start], ["start"]
    for k, c in enumerate(champions):
        if c not in out:
            out.append(c)
            labels.append(f"stage {k + 1} mean")
    last = max(g for _, g, _ in scored)
    recent = sorted((s for s in scored if s[1] >= last - 1), key=lambda s: (-s[0], s[1]))
    for _v, g, c in recent:
        if len(out) >= FINALISTS:
            break
        if c not in out:
            out.append(c)
            labels.append(f"best of generation {g + 1}")
    return out, labels


def check(info, best: Policy, start: Policy, rules: list, field_policies: list[Policy],
          counts: list[int], seed: int, first_deal: int, games: int, tgt: Target,
          workers, cluster, say) -> tuple[list, list]:
    """The trained policy on fresh deals: against each field policy at each player count
    (multi-player), or its mean objective and the start's on the same deals (solo)."""
    import simulate

    out, solo = [], []
    deal = first_deal
    if tgt.solo:
        for r in rules:
            got = {}
            for name, pol in (("trained", best), ("start", start)):
                arena = Arena(info, (r,), 1, seed, tgt, workers, cluster)
                got[name] = arena.play([pol], [(pol, 1.0)], deal, games)[0]
            d = got["trained"] - got["start"]
            solo.append({"rules": r.describe(), "games": 2 * games,
                         "trained": _mean_ci(got["trained"] / tgt.scale),
                         "start": _mean_ci(got["start"] / tgt.scale),
                         "difference": _lead_ci(d / tgt.scale)})
            say(f"check ({r.describe()}): {_show(tgt, solo[-1]['trained'][0])} against "
                f"{_show(tgt, solo[-1]['start'][0])} for the start")
            deal += games
        return out, solo
    for p in counts:
        for fp in field_policies:
            seatings = [tuple(best if k == s else fp for k in range(p)) for s in range(p)]
            for r in rules:
                tally = MatchupTally(p)
                res = simulate.run(info, max(1, games // p), rules=r, seatings=seatings,
                                   players=p, seed=seed, workers=workers, first_game=deal,
                                   on_chunk=tally.add, keep=False, progress=False,
                                   cluster=cluster, label=f"check at {p} players")
                if res.meta["interrupted"]:
                    raise Interrupted("stopped during the training's check")
                a = tally.answer(best.label() if best.spec.base else "trained", fp.label())
                out.append((p, r.describe(), a))
                say(f"check: {p} players against {fp.label()}: {a.share.estimate:.1%} "
                    f"[{a.share.low:.1%}, {a.share.high:.1%}] (fair {1 / p:.1%})")
        deal += max(1, games // p)
    return out, solo


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    from scipy import stats as st

    n = len(x)
    m = float(np.mean(x))
    if n < 2:
        return (m, -math.inf, math.inf)
    half = float(st.t.ppf(0.975, n - 1) * np.std(x, ddof=1) / math.sqrt(n))
    return (m, m - half, m + half)


def _lead_ci(d: np.ndarray) -> tuple[float, float, float]:
    """The trained policy's lead over its start on the same deals: most deals are played
    alike (a lead of 0), a few differ, often all one way, where Student-t over deals
    under-covers; the gains-and-losses interval of ``analyses.deals`` holds there."""
    i = DealDifferences(0.0).add(d).interval(0.95)
    return (i.estimate, i.low, i.high)


def _show(tgt: Target, v: float) -> str:
    return f"{v:.1%}" if tgt.unit == "%" else f"{v:.2f}"


def _diff(tgt: Target, d: tuple[float, float, float]) -> str:
    if tgt.unit == "%":
        return f"{100 * d[0]:+.2f} pp [{100 * d[1]:+.2f}, {100 * d[2]:+.2f}]"
    return f"{d[0]:+.2f} [{d[1]:+.2f}, {d[2]:+.2f}]"


# ---------------------------------------------------------------- checkpoints

def fingerprint(info, start: Policy, players: int, rules: list, field_policies: list[Policy],
                budget: int, seed: int, objective: str | None, population: int | None) -> dict:
    """The arguments that fix a training's generations (a checkpoint must match them)."""
    return {"game": info.name, "from": start.label(), "players": players,
            "rules": [r.describe() for r in rules],
            "field": [p.label() for p in field_policies], "budget": int(budget),
            "seed": int(seed), "objective": objective or "", "population": population or 0}


def save_history(path, fp: dict, generations: list[Generation]) -> None:
    """The finished generations as JSON (data only), written whole or not at all."""
    import json

    from engines.trained import write

    write(path, json.dumps({"fingerprint": fp, "generations": [g.__dict__ for g in generations]}))


def load_history(path, fp: dict) -> list[Generation]:
    """The generations a checkpoint holds, if it was made with the same arguments."""
    import json
    from pathlib import Path

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        saved = data["fingerprint"]
        gens = [Generation(int(g["index"]), int(g["first_deal"]),
                           [[float(v) for v in c] for c in g["candidates"]],
                           [int(t) for t in g["totals"]], [str(x) for x in g["field"]])
                for g in data["generations"]]
    except FileNotFoundError:
        raise UserError(f"--resume: no training checkpoint at {path}") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"--resume: {path} is not a training checkpoint ({exc})") from None
    for key, value in fp.items():
        if saved.get(key) != value:
            raise UserError(f"--resume: the checkpoint was made with {key} = "
                            f"{saved.get(key)!r}, not {value!r}: resume with the same "
                            "arguments, or give another --checkpoint")
    return gens
