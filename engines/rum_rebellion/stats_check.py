"""Compare the reference path with the prototype's statistics of spec §9.9 (a sanity check, not a test).

    python -m engines.rum_rebellion.stats_check [GAMES] [ROW ...]

Plays GAMES reference games (default 2,000) for each row of the spec's table
and prints ours next to the spec's figures, with the tolerance the spec
states: mean rounds within about 1.5, median and 90th percentile within 1
round, turns, coup attempts, notes written, store-ran-out and seat shares
within three standard errors of the difference (our sample and the spec's:
5,000 games for threshold rows, 2,000 for random and blocker, 4,000 for the
mixed row). A figure outside its tolerance is marked with "!".
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from engines.rum_rebellion import GAME
from engines.rum_rebellion.rules import Rules

# (label, players, policy, preset, spec: mean, median, p90, turns, coups, notes, store %, shares)
SPEC_9_9 = [
    ("P2 threshold", 2, "threshold", None, 32.5, 30, 48, 65.7, 1.92, 1.03, 7, (.515, .485)),
    ("P3 threshold", 3, "threshold", None, 28.5, 27, 41, 84.8, 1.94, 1.99, 11, (.343, .338, .319)),
    ("P4 threshold", 4, "threshold", None, 26.2, 26, 36, 102.9, 1.97, 1.85, 12,
     (.262, .254, .246, .238)),
    ("P5 threshold", 5, "threshold", None, 24.8, 24, 34, 120.9, 1.98, 3.08, 17,
     (.213, .199, .196, .198, .195)),
    ("P6 threshold", 6, "threshold", None, 23.8, 23, 32, 138.2, 1.97, 4.88, 23,
     (.172, .171, .162, .171, .165, .160)),
    ("P2 short_all", 2, "threshold", "short_all", 20.5, 19, 31, 40.8, 1.62, 0.69, 1, (.521, .479)),
    ("P4 short_all", 4, "threshold", "short_all", 16.8, 16, 23, 64.5, 1.63, 1.13, 1,
     (.268, .251, .245, .236)),
    ("P6 short_all", 6, "threshold", "short_all", 15.5, 15, 21, 88.0, 1.64, 2.58, 3,
     (.178, .186, .159, .165, .154, .158)),
    ("P2 random", 2, "random", None, 43.0, 41, 62, 87.2, 1.92, 0.78, 31, (.524, .476)),
    ("P4 random", 4, "random", None, 33.0, 32, 45, 130.3, 1.95, 1.43, 40,
     (.268, .256, .230, .246)),
    ("P6 random", 6, "random", None, 29.2, 29, 39, 168.8, 1.94, 3.72, 52,
     (.175, .171, .173, .174, .158, .148)),
    ("P2 blocker", 2, "blocker", None, 41.4, 42, 57, 87.1, 1.93, 1.24, 65, (.497, .502)),
    ("P4 blocker", 4, "blocker", None, 31.9, 32, 40, 131.7, 1.94, 2.16, 72,
     (.254, .251, .260, .235)),
    ("P6 blocker", 6, "blocker", None, 28.7, 29, 35, 174.7, 1.94, 6.52, 81,
     (.184, .166, .182, .154, .155, .159)),
    ("P4 mixed", 4, "threshold:risk=0,threshold:risk=1,blocker,random", None, 30.1, 30, 40,
     119.4, 1.95, 1.83, 41, (.229, .346, .282, .143)),
]


def run_row(players: int, policy: str, preset: str | None, games: int, seed: int = 2024):
    rules = Rules.from_overrides(preset=preset)
    policies = GAME.seat_policies(policy, players)
    rows = [GAME.reference(rules, policies, players, seed, g) for g in range(games)]
    return {k: np.array([r[k] for r in rows], dtype=float) for k in rows[0]}


def _flag(ok: bool) -> str:
    return "" if ok else " !"


def compare(label, players, policy, preset, spec, games) -> list[str]:
    mean, median, p90, turns, coups, notes, store, shares = spec
    started = time.perf_counter()
    col = run_row(players, policy, preset, games)
    secs = time.perf_counter() - started
    n = len(col["rounds"])
    n_spec = 4000 if "," in policy else 5000 if policy == "threshold" else 2000

    def se(x):
        """Standard error of (our mean - the spec's mean), both samples of this spread."""
        return float(np.std(x, ddof=1) * math.sqrt(1 / n + 1 / n_spec))

    ours_mean = col["rounds"].mean()
    ours_med = float(np.median(col["rounds"]))
    ours_p90 = float(np.percentile(col["rounds"], 90))
    lines = [f"{label} ({n} games, {n / secs:.0f} games/s)"]
    lines.append(f"  rounds mean {ours_mean:6.2f} vs {mean:5.1f}{_flag(abs(ours_mean - mean) <= 1.5)}"
                 f"   median {ours_med:4.0f} vs {median}{_flag(abs(ours_med - median) <= 1)}"
                 f"   p90 {ours_p90:4.0f} vs {p90}{_flag(abs(ours_p90 - p90) <= 1)}"
                 f"   max {col['rounds'].max():.0f}")
    for name, key, ref in (("turns", "turns", turns), ("coups", "coups_attempted", coups),
                           ("notes", "notes_written", notes)):
        x = col[key]
        tol = 3 * se(x)
        lines.append(f"  {name:6s} {x.mean():7.2f} vs {ref:6.2f} (3 SE {tol:.2f})"
                     f"{_flag(abs(x.mean() - ref) <= tol)}")
    s = col["store_ran_out"]
    tol = 3 * se(s)
    lines.append(f"  store ran out {100 * s.mean():5.1f}% vs {store}% (3 SE {100 * tol:.1f})"
                 f"{_flag(abs(s.mean() - store / 100) <= tol + 0.005)}")
    ours_shares = [col[f"win_{p}"].mean() for p in range(players)]
    share_se = [3 * math.sqrt(max(x * (1 - x), 1e-9) * (1 / n + 1 / n_spec))
                for x in ours_shares]
    lines.append("  shares " + " ".join(f"{x:.3f}" for x in ours_shares) + " vs "
                 + " ".join(f"{x:.3f}" for x in shares)
                 + _flag(all(abs(a - b) <= e for a, b, e in zip(ours_shares, shares, share_se,
                                                                 strict=True))))
    lines.append(f"  capped {int(col['capped'].sum())}, chain cap hits "
                 f"{int(col['doubles_chain_cap_hits'].sum())}")
    return lines


def main(argv: list[str]) -> None:
    games = int(float(argv[0])) if argv else 2000
    wanted = set(argv[1:])
    for label, players, policy, preset, *spec in SPEC_9_9:
        if wanted and label not in wanted:
            continue
        mean, median, p90, turns, coups, notes, store, shares = spec
        print("\n".join(compare(label, players, policy, preset,
                                (mean, median, p90, turns, coups, notes, store, shares), games)),
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
