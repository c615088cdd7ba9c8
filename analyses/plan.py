"""How many games a seat answer needs, and how long they take: ``rumsim plan seats``.

``rumsim seats --precision h`` plays until the first player's (or turn-order place 1's)
anytime-valid 95% interval has a half-width of at most ``h``. That interval is the
empirical-Bernstein confidence sequence of :mod:`analyses.sequential`, its bets tuned to a
plan fixed by the arguments alone (:func:`planned_games`: the games after which a win share
of variance ``1/P (1 - 1/P)`` gives about ``h``), and the run looks at it only every 5% of
that plan (:func:`check_every`). The functions here predict where such a run stops from a
first player's share ``p`` (and, when ties split wins, the variance of its wins), with the
same formula the sequence settles to (:func:`analyses.sequential.eb_expected_halfwidth`),
and how long that takes at a measured rate of games per second. Pure functions: the CLI
measures the share and the rate with a short pilot run and prints the plan.
"""

from __future__ import annotations

import math

from analyses import sequential

PRECISION_ALPHA = 0.05  # --precision's intervals are 95% confidence sequences
CHECKS = 20             # --precision looks at the interval every 1/CHECKS of its plan
LEAST_CHECK = 50        # ... but never more often than every 50 games


def fair_variance(players: int) -> float:
    """The variance of a seat's wins at the fair share 1/P with no ties: 1/P (1 - 1/P)."""
    fair = 1.0 / players
    return fair * (1.0 - fair)


def planned_games(precision: float, players: int, alpha: float = PRECISION_ALPHA) -> int:
    """The plan ``rumsim seats --precision`` tunes its confidence sequence's bets to.

    It is fixed before the first game, from the arguments alone: the games after which a
    win share with the fair variance 1/P (1 - 1/P) gives a half-width of ``precision``
    (:func:`analyses.sequential.eb_games_for`), plus half a look (2.6%), so that a run at
    the fair share reaches it between two looks. The run itself may stop before or after
    it, as the first player's real variance is smaller or larger.
    """
    check_precision(precision)
    reached = sequential.eb_games_for(precision, fair_variance(players), alpha)
    # Half a look beyond: a run at the fair share then reaches the precision mid-way between
    # its 19th and 20th looks, not on the 20th, where the half-width's noise (and its
    # O(log n / n) excess over the settled formula) made it stop one look after the
    # prediction in 9-90% of runs (issue 24 item 5). Tuning the bets 2.6% off their best
    # widens the interval by about (0.026)^2 / 8, nothing.
    return int(math.ceil(reached * CHECKS / (CHECKS - 0.5)))


def check_every(n_plan: int) -> int:
    """Games between two looks at the interval: every 5% of the plan, at least 50."""
    return max(LEAST_CHECK, -(-int(n_plan) // CHECKS))


def check_precision(precision: float) -> None:
    """A half-width must lie strictly between 0 and 0.5 (ValueError otherwise)."""
    if not (isinstance(precision, (int, float)) and math.isfinite(precision)
            and 0 < precision < 0.5):
        raise ValueError(f"the precision must be between 0 and 0.5, not {precision}")


def games_needed(p: float, precision: float, players: int, alpha: float = PRECISION_ALPHA,
                 variance: float | None = None, minimum: int = 1,
                 checkpoints: bool = True) -> int | None:
    """The games after which ``rumsim seats --precision`` stops, if the first player wins a
    share ``p`` of games (None if no number of games gets the interval that narrow).

    ``variance`` is the variance of the first player's wins, ``p (1 - p)`` when no game
    ends in a tie (the default); ties counted 1/k make it smaller. With the bets of a run
    planned for ``n_plan = planned_games(precision, players)`` games, each bet is
    ``lam = min(sqrt(2 log(2/alpha) / (variance n_plan)), 1/2)`` and after ``n`` games the
    half-width settles to

        (log(2/alpha) + n 4 variance psi(lam)) / (n lam),   psi(l) = (-log(1 - l) - l) / 4

    (:func:`analyses.sequential.eb_expected_halfwidth`), which is at most ``precision``
    from ``n = log(2/alpha) / (lam precision - 4 variance psi(lam))`` on. A run stops only
    at a look (:func:`check_every`) and after its ``minimum`` (``-n``): with
    ``checkpoints`` the count is rounded up to the first look at or after both.
    """
    check_precision(precision)
    if not 0 <= p <= 1:
        raise ValueError(f"a win share lies between 0 and 1, not {p}")
    var = p * (1 - p) if variance is None else float(variance)
    if not 0 <= var <= 0.25:
        raise ValueError(f"the variance of wins in [0, 1] lies between 0 and 0.25, not {var}")
    n_plan = planned_games(precision, players, alpha)
    log_term = math.log(2.0 / alpha)
    var = max(var, 1e-12)
    lam = min(math.sqrt(2.0 * log_term / (var * n_plan)), sequential.EB_MAX_BET)
    slope = lam * precision - 4.0 * var * float(sequential._psi(lam))
    if slope <= 0:
        return None  # the half-width never falls below its floor 4 var psi(lam) / lam
    n = max(int(math.ceil(log_term / slope)), int(minimum), 1)
    if checkpoints:
        step = check_every(n_plan)
        n = -(-n // step) * step
    return n


def halfwidth_at(n: int, variance: float, n_plan: int, alpha: float = PRECISION_ALPHA) -> float:
    """The half-width the confidence sequence, its bets tuned to ``n_plan`` games, settles to
    after ``n`` games of wins with this variance."""
    return sequential.eb_expected_halfwidth(n, variance, alpha, n_plan)


def fixed_halfwidth(n: int, variance: float, confidence: float = 1 - PRECISION_ALPHA) -> float:
    """The half-width of a fixed-n 95% interval after ``n`` games (what ``rumsim seats -n``
    shows, to the normal approximation of its Wilson interval): z sqrt(variance / n)."""
    from analyses.stats import z_value

    return z_value(confidence) * math.sqrt(max(variance, 0.0) / n)


def seconds_for(games: int, rate: float) -> float:
    """Seconds that ``games`` take at ``rate`` games per second."""
    if not rate > 0:
        raise ValueError(f"a rate of games per second must be above 0, not {rate}")
    return games / rate


def duration(seconds: float) -> str:
    """A time in words, to two significant figures: '7 s', '3.4 min', '2.1 h', '12 days'."""
    if not math.isfinite(seconds):
        return "unbounded"
    for size, unit in ((86_400 * 365, "years"), (86_400, "days"), (3_600, "h"), (60, "min")):
        if seconds >= size * (2 if unit in ("years", "days") else 1):
            return f"{_two_figures(seconds / size)} {unit}"
    return f"{_two_figures(seconds)} s" if seconds >= 1 else "under 1 s"


def _two_figures(x: float) -> str:
    return f"{x:.2g}" if x < 100 else f"{x:,.0f}"
