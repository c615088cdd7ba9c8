"""Stop signals (Ctrl-C's SIGINT, a scheduler's SIGTERM) during a command's runs and during its
saves: exit code 130, what finished kept and marked as partial, older files untouched by a save
that was stopped at once, and never a temporary file left behind.

Each test calls ``reports.cli.main`` in-process and sends the signal to its own process from
inside a patched function (a chunk being turned into rows, a file being written), so the
signal lands exactly where the test says.
"""

from __future__ import annotations

import io
import json
import os
import signal

import pandas as pd
import pytest
from clitools import run_cli

import simulate
import simulate.blocks as blocks
import simulate.runner as runner
from simulate.results import Results, meta_path
from simulate.signals import deferred

SIGNALS = [signal.SIGINT, signal.SIGTERM]
IDS = ["SIGINT", "SIGTERM"]


def send(sig: int, times: int = 1) -> None:
    for _ in range(times):
        os.kill(os.getpid(), sig)


def send_two_more() -> None:
    """Two more stop signals at once (a second and a third): two different ones, as two of
    the same arriving together are one pending signal to the kernel and to Python alike."""
    send(signal.SIGINT)
    send(signal.SIGTERM)


def signal_at_chunk(monkeypatch, sig: int, at: int = 1, chunk: int | None = None) -> list[int]:
    """Send ``sig`` when the ``at``-th chunk of the command has been played (chunks of
    ``chunk`` games when given); returns the chunk sizes seen."""
    real = blocks.to_frame
    calls: list[int] = []

    def signalling(block, columns):
        calls.append(len(block))
        if len(calls) == at:
            send(sig)
        return real(block, columns)

    monkeypatch.setattr(blocks, "to_frame", signalling)
    if chunk is not None:
        monkeypatch.setattr(runner, "default_chunk", lambda *args: chunk)
    return calls


def leftovers(folder) -> list[str]:
    """Hidden or temporary files a write could leave behind."""
    return [p.name for p in folder.rglob("*") if p.name.startswith(".") or
            p.name.endswith(".tmp")]


# ---------------------------------------------------------------- run --out


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_a_signal_during_a_run_saves_the_games_that_finished_marked_interrupted(
        tmp_path, monkeypatch, capsys, sig, suffix):
    calls = signal_at_chunk(monkeypatch, sig, chunk=100)
    out = tmp_path / f"rows{suffix}"
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                              "-q", "--out", str(out))
    assert code == 130 and "rumsim: interrupted" in err
    assert "(partial: its metadata says interrupted)" in err
    kept = Results.load(out)
    assert len(kept.frame) == kept.meta["games"] == 100 == calls[0]
    assert kept.meta["interrupted"] is True and kept.meta["requested"] == 1000
    assert text.splitlines()[0] == ("PARTIAL: interrupted after 100 of 1,000 games; these "
                                    "figures are for the games that finished")
    if suffix == ".csv":  # plain readers read the rows; the sidecar says interrupted
        assert len(pd.read_csv(out)) == 100
        assert json.loads(meta_path(out).read_text())["interrupted"] is True
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_partial_run_summary_says_so_in_json_and_csv(monkeypatch, capsys, fmt):
    signal_at_chunk(monkeypatch, signal.SIGINT, chunk=100)
    code, text, _ = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                            "-q", "--format", fmt)
    assert code == 130
    if fmt == "json":
        data = json.loads(text)
        assert "interrupted after 100 of 1,000 games" in data["partial"]
        assert data["meta"]["interrupted"] is True
    else:
        frame = pd.read_csv(io.StringIO(text))
        assert frame.columns[0] == "partial" and frame["partial"].all()


def patch_writer(monkeypatch, suffix: str, action) -> None:
    """Call ``action()`` in the middle of writing the rows of a save (Parquet or CSV)."""
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        # Both Results.save (pq.write_table) and the streamed `run --out` (one ParquetWriter,
        # a row group at a time) write rows through ParquetWriter.write_table; the file is
        # open and its header written when the signal lands.
        real = pq.ParquetWriter.write_table

        def writer(self, table, *args, **kwargs):
            action()
            return real(self, table, *args, **kwargs)

        monkeypatch.setattr(pq.ParquetWriter, "write_table", writer)
    else:
        real = pd.DataFrame.to_csv

        def writer(self, where=None, *args, **kwargs):
            if hasattr(where, "write"):
                where.write("score_0,half written\n")
                where.flush()
            action()
            if hasattr(where, "write"):  # the save goes on: start the file again
                where.seek(0)
                where.truncate()
            return real(self, where, *args, **kwargs)

        monkeypatch.setattr(pd.DataFrame, "to_csv", writer)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_a_signal_during_a_save_finishes_the_save_and_says_the_answer_is_whole(
        tmp_path, monkeypatch, capsys, sig, suffix):
    """Every game finished; the signal lands while the rows are written: the save is what
    finished work is kept by, so it completes, and since the stop cut nothing the command
    says the answer is complete and exits 0 (it said "interrupted" and exited 130)."""
    patch_writer(monkeypatch, suffix, lambda: send(sig))
    out = tmp_path / f"rows{suffix}"
    code, _, err = run_cli(capsys, "run", "rum-runner", "-n", "300", "--policy", "random",
                           "-q", "--out", str(out))
    assert code == 0, err
    assert err.strip().splitlines()[-1] == ("rumsim: the stop came after every game was "
                                            "played; the answer is complete")
    kept = Results.load(out)
    assert len(kept.frame) == kept.meta["games"] == 300 and kept.meta["interrupted"] is False
    pd.testing.assert_frame_equal(
        kept.frame, simulate.run("rum-runner", 300, policies="random").frame,
        check_dtype=False)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_a_second_signal_during_the_save_of_a_stopped_run_lets_the_save_finish(
        tmp_path, monkeypatch, capsys, sig, suffix):
    """A first signal stops the run; a second (an impatient double Ctrl-C) while its games
    are being saved is absorbed: the games that finished are saved, marked partial (the
    second signal used to drop them)."""
    out = tmp_path / f"rows{suffix}"
    signal_at_chunk(monkeypatch, sig, chunk=100)
    patch_writer(monkeypatch, suffix, lambda: send(sig))
    code, _, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                           "-q", "--out", str(out))
    assert code == 130 and "rumsim: interrupted" in err
    kept = Results.load(out)
    assert len(kept.frame) == kept.meta["games"] == 100 and kept.meta["interrupted"] is True
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_a_third_signal_during_the_save_of_a_stopped_run_stops_at_once(
        tmp_path, monkeypatch, capsys, sig, suffix):
    """A first signal stops the run; two more while its games are being saved stop at once:
    the half-written file is removed and an older file of that name is untouched."""
    out = tmp_path / f"rows{suffix}"
    simulate.run("rum-runner", 7, policies="greedy", seed=3).save(out)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    signal_at_chunk(monkeypatch, sig, chunk=100)
    patch_writer(monkeypatch, suffix, send_two_more)
    code, _, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                           "-q", "--out", str(out))
    assert code == 130 and "interrupted" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    old = Results.load(out)
    assert len(old.frame) == 7 and old.meta["policies"] == ["greedy"]
    assert leftovers(tmp_path) == []


def test_a_signal_while_a_csv_and_its_sidecar_are_renamed_lands_after_both(
        tmp_path, monkeypatch, capsys):
    """The renames that make a save visible hold the stop signals: a second signal between
    the rows' rename and the sidecar's is delivered after both, so the pair is never from two
    saves. (Two signals here: a second alone is absorbed, a third stops at once.)"""
    import simulate.results as results

    out = tmp_path / "rows.csv"
    simulate.run("rum-runner", 7, policies="greedy", seed=3).save(out)
    signal_at_chunk(monkeypatch, signal.SIGINT, chunk=100)
    real = results.os.replace
    renames = []

    def replace(src, dst):
        renames.append(dst)
        if len(renames) == 1:
            send_two_more()  # the command's second and third signals, held until both renames
        return real(src, dst)

    monkeypatch.setattr(results.os, "replace", replace)
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                              "-q", "--out", str(out))
    assert code == 130 and len(renames) == 2
    assert text == ""  # stopped at once after the save: no summary printed
    kept = Results.load(out)
    assert len(kept.frame) == kept.meta["games"] == 100 and kept.meta["interrupted"] is True
    assert leftovers(tmp_path) == []


def test_deferred_delivers_a_held_signal_after_the_block():
    seen = []
    old = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with deferred():
            send(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, old)


# ---------------------------------------------------------------- seats, thresholds


@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_seats_shows_the_counts_that_finished_marked_partial(tmp_path, monkeypatch, capsys,
                                                             sig):
    signal_at_chunk(monkeypatch, sig, chunk=50)
    out = tmp_path / "seats.csv"
    code, text, err = run_cli(capsys, "seats", "rum-rebellion", "-p", "2..4", "-n", "200", "-q",
                              "--out", str(out))
    note = ("interrupted after 50 of 200 games of 2 players; not played: 3 players, 4 players;"
            " 1 of 3 planned runs shown")
    assert code == 130 and text.splitlines()[0] == f"PARTIAL: {note}"
    assert f"partial: {note}" in err and "wrote" in err and "(partial)" in err
    table = pd.read_csv(out)
    assert list(table.columns[:2]) == ["partial", "players"]
    assert table["partial"].all() and set(table["players"]) == {2}
    assert table.loc[table["table"] == "seats", "wins"].sum() <= 50
    assert leftovers(tmp_path) == []


def test_seats_json_marks_a_partial_answer(monkeypatch, capsys):
    signal_at_chunk(monkeypatch, signal.SIGTERM, at=2, chunk=50)
    code, text, _ = run_cli(capsys, "seats", "rum-rebellion", "-n", "200", "-q",
                            "--format", "json")
    data = json.loads(text)
    assert code == 130
    assert data["partial"]["cut_short"] == {"name": "4 players", "games": 100,
                                            "requested": 200}
    assert data["partial"]["not_played"] == [] and data["meta"]["interrupted"] is True


@pytest.mark.parametrize("sig", SIGNALS, ids=IDS)
def test_thresholds_shows_what_finished_marked_partial(tmp_path, monkeypatch, capsys, sig):
    signal_at_chunk(monkeypatch, sig, chunk=100)
    out = tmp_path / "bands.csv"
    code, text, err = run_cli(capsys, "thresholds", "-n", "400", "-q", "--out", str(out))
    note = ("interrupted after 100 of 400 games of policy random; not played: greedy; 1 of 2 "
            "planned runs shown")
    assert code == 130 and text.splitlines()[0] == f"PARTIAL: {note}"
    assert "random (n=100)" in text and "greedy" not in text.split("\n", 1)[1]
    table = pd.read_csv(out)
    assert table.columns[0] == "partial" and table["partial"].all()
    assert set(table["label"]) == {"random"}
    runs = table[table["table"] == "runs"]
    assert runs["games"].tolist() == [100]
    assert leftovers(tmp_path) == []


def test_thresholds_stopped_between_policies_shows_the_finished_one(monkeypatch, capsys):
    """The signal lands in the last chunk of the first policy: that run is complete, the next
    is not played, and the JSON says which."""
    signal_at_chunk(monkeypatch, signal.SIGINT, at=4, chunk=100)
    code, text, _ = run_cli(capsys, "thresholds", "-n", "400", "-q", "--format", "json")
    data = json.loads(text)
    assert code == 130
    assert data["partial"] == {
        "note": "interrupted before policy greedy; not played: greedy; 1 of 2 planned runs "
                "shown", "cut_short": None, "not_played": ["greedy"]}
    assert [r["games"] for r in data["runs"]] == [400]


# ---------------------------------------------------------------- comparisons


def test_variants_stopped_mid_run_compares_the_blocks_every_variant_finished(monkeypatch,
                                                                            capsys):
    # Blocks are played in lockstep: base, then short_a, on the same 50 games. The signal
    # comes with the 4th frame (short_a's 2nd block): that block still finishes, the run
    # stops there, and the answer rests on the 100 games both rule sets played.
    signal_at_chunk(monkeypatch, signal.SIGINT, at=4, chunk=50)
    code, text, err = run_cli(capsys, "variants", "rum-rebellion", "--preset", "short_a",
                              "-n", "200", "-q", "--format", "json")
    assert code == 130
    answer = json.loads(text)
    assert answer["partial"]["cut_short"] == {"name": "the base and every variant",
                                              "games": 100, "requested": 200}
    assert answer["games"] == 100
    assert "partial: interrupted after 100 of 200 games" in err
    whole = json.loads(run_cli(capsys, "variants", "rum-rebellion", "--preset", "short_a",
                               "-n", "100", "-q", "--format", "json")[1])
    assert answer["meta"]["interrupted"] and not whole["meta"]["interrupted"]
    same = {k: v for k, v in answer.items() if k not in ("partial", "meta")}
    assert same == {k: v for k, v in whole.items() if k != "meta"}


def test_matchup_stopped_mid_run_answers_from_the_deals_every_rotation_played(monkeypatch,
                                                                               capsys):
    # The four rotations play each block of 100 deals in lockstep; the signal comes with the
    # first rotation's first block, so that block finishes for all four and the run stops.
    signal_at_chunk(monkeypatch, signal.SIGTERM, at=1, chunk=100)
    code, text, err = run_cli(capsys, "matchup", "rum-rebellion", "--policy", "random", "-n",
                              "800", "-p", "4", "-q")
    assert code == 130
    assert text.startswith("PARTIAL: interrupted after 100 of 200 games of every rotation of "
                           "random")
    whole = run_cli(capsys, "matchup", "rum-rebellion", "--policy", "random", "-n", "400",
                    "-p", "4", "-q")[1]
    assert text.split("\n\n", 1)[1] == whole


# ---------------------------------------------------------------- report


def signal_in_run(monkeypatch, label: str, sig: int = signal.SIGINT) -> None:
    """Play the report run ``label`` (the runs of a lockstep group, joined by ' + ') one game
    a chunk and send ``sig`` after its first game."""
    real = simulate.run

    def run(*args, **kwargs):
        if kwargs.get("label") == label:
            kwargs["chunk_size"] = 1
            kwargs["on_chunk"] = lambda frame: send(sig)
        return real(*args, **kwargs)

    monkeypatch.setattr(simulate, "run", run)


def test_a_page_whose_last_run_is_stopped_is_not_written(tmp_path, monkeypatch, capsys):
    out = tmp_path / "report"
    # the page's search runs, played in lockstep (the skill ladder's runs follow)
    search = [f"expert + search, {k} imagined games per option at each decision ({preset})"
              for preset in ("standard", "long") for k in (8, 16)]
    signal_in_run(monkeypatch, " + ".join(search[i] for i in (0, 1, 2, 3)), signal.SIGTERM)
    code, text, err = run_cli(capsys, "report", "rum-runner", "--scale", "0.002", "-q",
                              "--out", str(out))
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"rumsim: interrupted: the report in '{out}' is partial (runs ")
    assert "imagined games per option at each decision (standard)" in lines[0]
    assert lines[0].endswith("of the Rum Runner page stopped after 1 of 4 games): kept "
                             "no page; not built: Rum Runner; the index says so")
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]
    index = (out / "index.html").read_text()
    assert "Partial report" in index and "Not built: Rum Runner" in index
    assert "rum_runner.html" not in index
    assert leftovers(tmp_path) == []


def test_a_stopped_report_keeps_the_pages_that_finished(tmp_path, monkeypatch, capsys):
    """Two pages: the first is built, the second's first run is stopped; an older page of the
    second from an earlier build is untouched and the index says it is from that build."""
    out = tmp_path / "report"
    out.mkdir()
    (out / "rum_rebellion.html").write_text("an earlier build's page")
    # rum-rebellion's first runs: the base and its variants at 4 players, in lockstep
    signal_in_run(monkeypatch, " + ".join(
        f"{preset}, expert, 4 players" for preset in (
            "standard", "short_a", "short_b", "short_c", "short_d", "short_e_tol",
            "short_e_rc", "short_all")))
    code, text, err = run_cli(capsys, "report", "rum-runner", "rum-rebellion", "--scale",
                              "0.002", "-q", "--out", str(out))
    assert code == 130
    assert "kept Rum Runner; not built: Rum Rebellion" in err
    assert len(err.strip().splitlines()) == 1
    assert (out / "rum_rebellion.html").read_text() == "an earlier build's page"
    page = (out / "rum_runner.html").read_text()
    assert "Partial" not in page and "rum_runner_runs.csv" in page
    assert (out / "rum_runner_runs.csv").exists()
    index = (out / "index.html").read_text()
    assert "Partial report" in index and "Not built: Rum Rebellion" in index
    assert 'href="rum_runner.html"' in index and 'href="rum_rebellion.html"' in index
    assert "from an earlier build" in index
    assert leftovers(tmp_path) == []


def test_tune_stopped_mid_race_answers_from_the_looks_that_finished(monkeypatch, capsys):
    # The race's looks are lockstep runs; a signal during the second look stops the race
    # there. The answer is printed, marked partial, and rests on the games played.
    calls = signal_at_chunk(monkeypatch, signal.SIGINT, at=30, chunk=200)
    code, text, err = run_cli(capsys, "tune", "rum-runner", "--knob", "draw_count=2,3,4",
                              "--goal", "band_distance=0", "--budget", "100_000", "-q",
                              "--format", "json")
    assert code == 130 and len(calls) >= 30
    data = json.loads(text)
    assert data["partial"]["note"].startswith("interrupted at 1 player;")
    race = data["answers"][0]["race"]
    assert race["interrupted"] and 0 < race["games_played"] < 100_000
    assert "partial: interrupted" in err



@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_double_signal_while_a_chunk_is_played_keeps_the_chunks_that_finished(
        tmp_path, monkeypatch, capsys, backend):
    """Ctrl-C twice in a row while a chunk is played (a slow reference chunk invites it):
    that chunk is dropped at once, the chunks before it are saved and answered, marked
    partial (the second signal used to drop the file and the answer)."""
    calls = signal_at_chunk(monkeypatch, signal.SIGINT, at=3, chunk=100)
    real = blocks.to_frame

    def twice(block, columns):  # the second signal lands in the third chunk, too
        if len(calls) == 3:
            send(signal.SIGINT)
        return real(block, columns)
    monkeypatch.setattr(blocks, "to_frame", twice)
    signal_at_chunk(monkeypatch, signal.SIGINT, at=3)  # wraps `twice`: SIGINT, then SIGINT
    out = tmp_path / "rows.parquet"
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                              "-q", "--backend", backend, "--out", str(out))
    assert code == 130 and "rumsim: interrupted" in err
    kept = Results.load(out)
    assert kept.meta["interrupted"] is True and len(kept.frame) == kept.meta["games"]
    assert 200 <= kept.meta["games"] < 1000 and kept.meta["games"] % 100 == 0
    assert text.startswith(f"PARTIAL: interrupted after {kept.meta['games']:,} of 1,000 games")
    assert leftovers(tmp_path) == []


def test_tune_stopped_by_a_double_signal_still_answers(monkeypatch, capsys):
    """A double Ctrl-C during a race's look: the race answers from the looks that finished
    (the second signal used to drop the whole answer)."""
    signal_at_chunk(monkeypatch, signal.SIGINT, at=30, chunk=200)
    real = blocks.to_frame
    seen = []

    def again(block, columns):
        seen.append(1)
        if len(seen) == 30:
            send(signal.SIGINT)
        return real(block, columns)
    monkeypatch.setattr(blocks, "to_frame", again)
    signal_at_chunk(monkeypatch, signal.SIGINT, at=30)
    code, text, err = run_cli(capsys, "tune", "rum-runner", "--knob", "draw_count=2,3,4",
                              "--goal", "band_distance=0", "--budget", "100_000", "-q",
                              "--format", "json")
    assert code == 130, err
    race = json.loads(text)["answers"][0]["race"]
    assert race["interrupted"] and 0 < race["games_played"] < 100_000


def test_a_stop_during_the_last_chunk_leaves_the_answer_whole(tmp_path, monkeypatch, capsys):
    """The signal lands while the last chunk is played: every game finishes, nothing is cut,
    so the answer is the complete one, said so, exit 0 (it said "interrupted", exit 130)."""
    signal_at_chunk(monkeypatch, signal.SIGTERM, at=10, chunk=100)
    out = tmp_path / "rows.parquet"
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--policy", "random",
                              "-q", "--out", str(out))
    assert code == 0 and "PARTIAL" not in text
    assert "the answer is complete" in err
    kept = Results.load(out)
    assert len(kept.frame) == 1000 and kept.meta["interrupted"] is False


def test_a_report_signalled_while_its_last_page_is_analysed_is_complete(tmp_path, monkeypatch,
                                                                        capsys):
    """Every game of the report was played when the signal came (its last page was being
    analysed): every file is written whole, the index is not partial, and the command says
    the answer is complete, exit 0 (it said "interrupted", exit 130)."""
    from reports.build import PAGES

    page = PAGES["rum-runner"]
    real = type(page).render

    def render(self, *args, **kwargs):
        send(signal.SIGTERM)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(page), "render", render)
    out = tmp_path / "report"
    code, text, err = run_cli(capsys, "report", "rum-runner", "--scale", "0.002", "-q",
                              "--out", str(out))
    assert code == 0, err
    assert err.strip().splitlines()[-1] == ("rumsim: the stop came after every game was "
                                            "played; the answer is complete")
    index = (out / "index.html").read_text()
    assert "Partial report" not in index and 'href="rum_runner.html"' in index
    assert (out / "rum_runner.html").exists() and leftovers(tmp_path) == []
