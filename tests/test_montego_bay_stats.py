"""Montego Bay reference statistics against spec §9.1 (a coarse sanity net, wide tolerances).

As a test: a few hundred reference games per configuration, checked against
the spec's figures with tolerances scaled to the smaller sample. As a script,
the full comparison table for any number of games::

    .venv/bin/python tests/test_montego_bay_stats.py --games 20000

prints, per configuration, our figure next to the spec's and whether it is
inside the spec's tolerance (stated for 20,000 games).
"""

from __future__ import annotations

import math
import statistics
import sys

import pytest

from engines.montego_bay import GAME
from engines.montego_bay.rules import Rules

# (label, players, policies, preset) and the spec's figures:
# rounds mean, share of games by rounds, LJ hires/game, full sails/game, VP per seat,
# win share per seat, win share by order of first workers.
SPEC = [
    ("P=2, all random", 2, "random", None,
     7.077, {5: .004, 6: .180, 7: .570, 8: .229, 9: .017}, 2.121, 8.140,
     [75.01, 74.89], [.502, .498], [.501, .499]),
    ("P=3, all random", 3, "random", None,
     7.015, {5: .003, 6: .201, 7: .584, 8: .199, 9: .012}, 1.790, 8.226,
     [56.05, 56.03, 55.97], [.336, .335, .329], [.333, .331, .337]),
    ("P=4, all random", 4, "random", None,
     5.755, {4: .002, 5: .305, 6: .630, 7: .063, 8: .001}, 1.626, 9.818,
     [54.20, 53.94, 54.24, 53.99], [.252, .243, .257, .248], [.248, .252, .248, .252]),
    ("P=2, all greedy", 2, "greedy", None,
     5.501, {5: .506, 6: .486, 7: .007}, 1.611, 10.108,
     [81.40, 81.03], [.508, .492], [.459, .541]),
    ("P=3, all greedy", 3, "greedy", None,
     5.784, {5: .251, 6: .715, 7: .034}, 1.270, 10.060,
     [62.04, 61.83, 62.15], [.334, .329, .337], [.232, .393, .375]),
    ("P=4, all greedy", 4, "greedy", None,
     5.026, {4: .038, 5: .898, 6: .064}, 1.478, 11.084,
     [58.32, 58.15, 58.49, 58.07], [.253, .244, .253, .250], [.172, .283, .313, .232]),
    ("P=3, all greedy, preset short", 3, "greedy", "short",
     3.564, {3: .442, 4: .552, 5: .006}, 0.311, 6.132,
     [37.17, 37.19, 37.14], [.332, .337, .330], [.218, .392, .390]),
    ("P=3, seat 0 greedy, seats 1-2 random", 3, "greedy,random,random", None,
     6.476, {5: .026, 6: .503, 7: .441, 8: .030}, 1.530, 8.923,
     [81.38, 46.19, 46.06], [.943, .028, .029], [.331, .333, .337]),
    ("P=3, all sampler", 3, "sampler", None,
     5.657, {5: .354, 6: .634, 7: .012}, 1.007, 10.186,
     [62.78, 62.46, 62.55], [.330, .335, .335], [.257, .344, .400]),
    ("P=3, seat 0 sampler, seats 1-2 greedy", 3, "sampler,greedy,greedy", None,
     5.731, {5: .293, 6: .682, 7: .024}, 1.175, 10.112,
     [64.34, 61.33, 61.08], [.399, .306, .295], [.247, .369, .384]),
]


def run(label, players, policies, preset, games, seed=0):
    rules = Rules.from_overrides({}, preset=preset)
    pols = GAME.seat_policies(policies, players)
    return [GAME.reference(rules, pols, players, seed, g) for g in range(games)]


def summarise(rows, players):
    n = len(rows)
    rounds = [r["rounds"] for r in rows]
    by_rounds = {k: rounds.count(k) / n for k in sorted(set(rounds))}
    hires = sum(sum(r[f"lazy_jack_hires_{s}"] for s in range(players)) for r in rows) / n
    full = sum(r["ships_sailed_full"] for r in rows) / n
    vp = [sum(r[f"score_{s}"] for r in rows) / n for s in range(players)]
    win = [sum(r[f"win_{s}"] for r in rows) / n for s in range(players)]
    by_order = [0.0] * players
    by_pos: dict[int, list[float]] = {}
    for r in rows:
        order = sorted(range(players), key=lambda s: r[f"first_rail_pos_{s}"])
        for rank, s in enumerate(order):
            by_order[rank] += r[f"win_{s}"] / n
            by_pos.setdefault(r[f"first_rail_pos_{s}"], []).append(r[f"win_{s}"])
    rounds_sorted = sorted(rounds)
    return {
        "rounds_mean": statistics.fmean(rounds),
        "rounds_sd": statistics.pstdev(rounds),
        "median": statistics.median_low(rounds),
        "p90": rounds_sorted[min(n - 1, math.ceil(0.9 * n) - 1)],
        "by_rounds": by_rounds,
        "hires": hires,
        "full": full,
        "vp": vp,
        "win": win,
        "by_order": by_order,
        "by_pos": {p: (statistics.fmean(w), 1.96 * statistics.pstdev(w) / math.sqrt(len(w)))
                   for p, w in sorted(by_pos.items())},
        "blocked": sum(r["lazy_jack_blocked"] for r in rows) / n,
        "reshuffle_round": statistics.fmean(r["reshuffle_round"] for r in rows),
    }


def win_tolerance(p: float, n: int) -> float:
    """3 x the spec's 95% half-width at 20,000 games, widened for our smaller sample."""
    se_spec = math.sqrt(p * (1 - p) / 20000)
    se_ours = math.sqrt(p * (1 - p) / n)
    return max(3 * 1.96 * se_spec, 4 * math.sqrt(se_spec ** 2 + se_ours ** 2))


def compare(entry, s, n):
    """Lines 'figure: ours vs spec [ok|OFF]' with tolerances scaled from the spec's to n games."""
    label, players, _, _, rounds, shares, hires, full, vp, win, order = entry
    scale = max(1.0, math.sqrt(20000 / n))
    out = []

    def line(name, ours, spec, tol):
        ok = abs(ours - spec) <= tol
        out.append((ok, f"  {name:<28} ours {ours:8.3f}  spec {spec:8.3f}  tol {tol:.3f}  "
                        f"{'ok' if ok else 'OFF'}"))

    line("rounds mean", s["rounds_mean"], rounds, 0.03 * scale)
    for k, p in shares.items():
        line(f"share of games, {k} rounds", s["by_rounds"].get(k, 0.0), p, 0.015 * scale)
    line("LJ hires / game", s["hires"], hires, 0.04 * scale)
    line("ships sailed full / game", s["full"], full, 0.05 * scale)
    for seat in range(players):
        line(f"mean VP seat {seat}", s["vp"][seat], vp[seat], 0.7 * scale)
    for seat in range(players):
        line(f"win share seat {seat}", s["win"][seat], win[seat], win_tolerance(win[seat], n))
    for rank in range(players):
        line(f"win share, first worker #{rank + 1}", s["by_order"][rank], order[rank],
             win_tolerance(order[rank], n))
    return out


# ---------------------------------------------------------------- the modest test


CASES = {  # label -> games: kept small for the test's time budget
    "P=3, all random": 600,
    "P=4, all random": 400,
    "P=3, all greedy": 300,
    "P=3, seat 0 greedy, seats 1-2 random": 300,
}


@pytest.mark.slow
@pytest.mark.parametrize("label", list(CASES))
def test_reference_statistics_near_spec(label):
    entry = next(e for e in SPEC if e[0] == label)
    n = CASES[label]
    s = summarise(run(*entry[:4], games=n, seed=7), entry[1])
    bad = [text for ok, text in compare(entry, s, n) if not ok]
    assert not bad, f"{label}, {n} games:\n" + "\n".join(bad)


# ---------------------------------------------------------------- the script


def main(argv: list[str]) -> None:
    import argparse
    import time

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="run only labels containing this text")
    args = parser.parse_args(argv)
    for entry in SPEC:
        if args.only and args.only not in entry[0]:
            continue
        started = time.perf_counter()
        rows = run(*entry[:4], games=args.games, seed=args.seed)
        s = summarise(rows, entry[1])
        took = time.perf_counter() - started
        lines = compare(entry, s, args.games)
        bad = sum(1 for ok, _ in lines if not ok)
        print(f"{entry[0]}: {args.games} games in {took:.0f}s, {bad} off tolerance; "
              f"rounds sd {s['rounds_sd']:.2f}, median {s['median']}, p90 {s['p90']}; "
              f"LJ blocked/game {s['blocked']:.3f}; mean re-draw round {s['reshuffle_round']:.2f}")
        for _, text in lines:
            print(text)
        print("  win share by set-up rail position of the earliest worker: " + "; ".join(
            f"{p}: {m:.3f} ± {h:.3f}" for p, (m, h) in s["by_pos"].items()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
