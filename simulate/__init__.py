"""Running playouts: ``run`` plays games and returns ``Results``.

This layer imports only ``engines``; the analyses, the report pages and the
command line (``reports.cli``) build on it.
"""

from simulate.results import Results
from simulate.runner import run

__all__ = ["Results", "run"]
