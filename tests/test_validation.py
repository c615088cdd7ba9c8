"""The validation suite in brief: every interval's coverage and every verdict's error rate on
data with a known truth, within three Monte Carlo standard errors (``make validate`` runs
1,000 replications per case and prints the table)."""

from __future__ import annotations

import pytest

from analyses.validation import CASES, run


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_method_keeps_its_promise(case):
    row = run(case.ci_reps, seed=3, cases=(case,)).iloc[0]
    assert row["holds"], f"{case.name}: {row['rate']:.1%} against {case.promise}"
