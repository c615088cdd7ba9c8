"""21 Motines against the reference statistics of spec §9.1, at the spec's own sample size.

The fast path (identical to the reference game for game, see
test_motines_equivalence.py) plays 20,000 games per row of the spec's main
table, and each figure must lie within the spec's stated tolerance: mean
rounds ±0.15, median and 90th percentile ±1, mean final PV per seat ±0.3 and
win share per seat ±0.015 for ``random``; ±0.5 PV and ±0.02 for rows with
``greedy``. As a script it prints the whole comparison, the economy table
included::

    .venv/bin/python tests/test_motines_stats.py [--games 20000]
"""

from __future__ import annotations

import sys

import pandas as pd
import pytest

from engines.motines import GAME
from engines.motines.rules import Rules

GAMES = 20_000
SEED = 2026

# label, players, policies, preset; then the spec's mean rounds, median, p90, mean MUT
# actions, rounds with mutiny, mean final PV by seat, win share by seat
SPEC = [
    ("P=3 random", 3, "random", None, 33.75, 33, 39, 22.09, .66,
     [14.9, 16.1, 16.2], [.272, .358, .370]),
    ("P=4 random", 4, "random", None, 27.88, 28, 31, 22.35, .81,
     [12.8, 14.1, 14.0, 14.1], [.175, .279, .270, .276]),
    ("P=5 random", 5, "random", None, 25.02, 25, 27, 22.61, .91,
     [11.8, 13.0, 13.0, 12.9, 13.0], [.137, .222, .217, .211, .213]),
    ("P=3 greedy", 3, "greedy", None, 23.77, 24, 25, 23.70, .96,
     [34.0, 34.0, 33.6], [.353, .349, .299]),
    ("P=4 greedy", 4, "greedy", None, 23.06, 23, 23, 24.61, .997,
     [31.4, 29.8, 31.9, 31.5], [.266, .128, .327, .279]),
    ("P=5 greedy", 5, "greedy", None, 23.00, 23, 23, 25.40, .9999,
     [29.4, 29.7, 30.2, 30.4, 29.9], [.156, .216, .225, .222, .182]),
    ("P=4 greedy short", 4, "greedy", "short", 13.02, 13, 13, 13.78, .998,
     [19.2, 17.1, 19.0, 18.9], [.344, .068, .296, .292]),
    ("P=4 greedy seat 0", 4, "greedy,random,random,random", None, 24.46, 24, 26, 22.94, .94,
     [36.7, 12.9, 14.1, 14.2], [.9999, .0, .0, .0001]),
    ("P=4 greedy seat 1", 4, "random,greedy,random,random", None, 24.58, 24, 26, 22.94, .93,
     [12.9, 37.3, 12.7, 13.9], [.0, 1.0, .0001, .0]),
    ("P=4 greedy seat 2", 4, "random,random,greedy,random", None, 24.54, 24, 26, 22.93, .93,
     [12.7, 14.0, 37.1, 12.8], [.0, .0, 1.0, .0]),
    ("P=4 greedy seat 3", 4, "random,random,random,greedy", None, 24.51, 24, 26, 22.94, .93,
     [11.5, 13.7, 13.9, 36.9], [.0, .0, .0, .9999]),
]

# the economy table (not a tolerance in the spec; printed by the script): Captain's choice
# IF/SF/ICE/TR/FM/SO %, sales per game, ice left per player, winning score, mean score
ECONOMY = {
    "P=3 random": ([7.0, 22.9, 7.0, 6.9, 29.6, 26.6], 4.17, 3.60, 20.7, 15.8),
    "P=4 random": ([6.6, 25.8, 6.6, 6.5, 28.8, 25.7], 3.92, 2.20, 18.5, 13.7),
    "P=5 random": ([6.6, 25.8, 6.6, 6.6, 28.7, 25.7], 3.91, 1.78, 17.5, 12.7),
    "P=3 greedy": ([12.9, 11.8, 4.1, 42.3, 6.9, 22.0], 4.65, 0.49, 37.1, 33.8),
    "P=4 greedy": ([10.9, 12.8, 4.7, 43.4, 5.9, 22.3], 4.95, 0.59, 34.5, 31.1),
    "P=5 greedy": ([9.8, 14.5, 5.1, 43.5, 5.3, 21.9], 5.39, 0.70, 33.2, 29.9),
    "P=4 greedy short": ([11.3, 12.7, 3.1, 48.7, 1.6, 22.6], 2.15, 0.41, 21.1, 18.6),
}
ACTIONS = ("if", "sf", "ice", "tr", "fm", "so")


def play(players: int, policies: str, preset: str | None, games: int) -> pd.DataFrame:
    rules = Rules.from_overrides({}, preset=preset)
    rows = GAME.fast(rules, GAME.seat_policies(policies, players), players, SEED, 0, games)
    return pd.DataFrame(rows, columns=GAME.column_names(players))


def figures(df: pd.DataFrame, players: int) -> dict:
    seats = range(players)
    scores = df[[f"score_{s}" for s in seats]].to_numpy()
    captain = df[[f"captain_{a}" for a in ACTIONS]].sum().to_numpy()
    return {
        "rounds": df["rounds"].mean(), "median": df["rounds"].median(),
        "p90": df["rounds"].quantile(0.9, interpolation="lower"), "max": df["rounds"].max(),
        "mutinies": df["mutinies"].mean(), "mut_actions": df["mut_actions"].mean(),
        "with_mutiny": df["mutinies"].sum() / df["normal_rounds"].sum(),
        "truncated": df["truncated"].mean(),
        "pv": [df[f"score_{s}"].mean() for s in seats],
        "win": [df[f"win_{s}"].mean() for s in seats],
        "ties": (df["tied_first"] > 1).mean(),
        "captain": list(100 * captain / captain.sum()),
        "sales": df[[f"sales_{s}" for s in seats]].sum(axis=1).mean(),
        "ice_left": df[[f"ice_left_{s}" for s in seats]].to_numpy().mean(),
        "winning": scores.max(axis=1).mean(), "mean_score": scores.mean(),
    }


def misses(row, got: dict) -> list[str]:
    """Each figure outside the spec's tolerance, as 'name ours vs spec'."""
    label, players, policies, _, rounds, median, p90, mut_actions, with_mutiny, pv, win = row
    greedy = "greedy" in policies
    pv_tol, win_tol = (0.5, 0.02) if greedy else (0.3, 0.015)
    out = []
    checks = [("mean rounds", got["rounds"], rounds, 0.15), ("median", got["median"], median, 1),
              ("p90", got["p90"], p90, 1)]
    checks += [(f"PV seat {s}", got["pv"][s], pv[s], pv_tol) for s in range(players)]
    checks += [(f"win seat {s}", got["win"][s], win[s], win_tol) for s in range(players)]
    for name, ours, spec, tol in checks:
        if abs(ours - spec) > tol + 1e-12:
            out.append(f"{label}: {name} {ours:.3f} vs {spec} (±{tol})")
    return out


@pytest.mark.parametrize("row", SPEC, ids=[r[0] for r in SPEC])
def test_reference_statistics_within_the_spec_tolerances(row):
    label, players, policies, preset = row[:4]
    got = figures(play(players, policies, preset, GAMES), players)
    assert got["mutinies"] == 21 or preset == "short"
    assert got["truncated"] == 0  # the cap never fired in the spec's runs either
    assert not misses(row, got)


def main(games: int) -> None:
    for row in SPEC:
        label, players, policies, preset = row[:4]
        got = figures(play(players, policies, preset, games), players)
        print(f"{label:22} rounds {got['rounds']:.2f} ({row[4]}) median {got['median']:.0f} "
              f"({row[5]}) p90 {got['p90']:.0f} ({row[6]}) max {got['max']:.0f}; MUT actions "
              f"{got['mut_actions']:.2f} ({row[7]}); with mutiny {got['with_mutiny']:.3f} "
              f"({row[8]}); truncated {got['truncated']:.4f}; ties {got['ties']:.3f}")
        print(f"{'':22} PV " + " / ".join(f"{v:.1f}" for v in got["pv"]) + "  spec "
              + " / ".join(map(str, row[9])))
        print(f"{'':22} win " + " / ".join(f"{v:.3f}" for v in got["win"]) + "  spec "
              + " / ".join(map(str, row[10])))
        if label in ECONOMY:
            cap, sales, ice, winning, mean = ECONOMY[label]
            print(f"{'':22} captain " + " / ".join(f"{v:.1f}" for v in got["captain"])
                  + "  spec " + " / ".join(map(str, cap)))
            print(f"{'':22} sales {got['sales']:.2f} ({sales}) ice left {got['ice_left']:.2f} "
                  f"({ice}) winning {got['winning']:.1f} ({winning}) mean {got['mean_score']:.1f}"
                  f" ({mean})")
        for miss in misses(row, got):
            print("   OUTSIDE:", miss)


if __name__ == "__main__":
    n = int(float(sys.argv[sys.argv.index("--games") + 1])) if "--games" in sys.argv else GAMES
    main(n)
