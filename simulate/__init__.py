"""Running playouts: ``run`` plays games and returns ``Results``; the CLI lives in ``simulate.cli``."""

from simulate.results import Results
from simulate.runner import run

__all__ = ["Results", "run"]
