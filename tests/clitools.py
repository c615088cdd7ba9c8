"""Running the CLI in-process from a test: exit code, stdout and stderr, never a traceback."""

from __future__ import annotations

from reports.cli import main


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    """``rumsim ARGS`` in this process (capsys captures its output)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err
