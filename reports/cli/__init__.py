"""The ``rumsim`` command line (Typer): the answers presented at the terminal.

It sits at the top of the layers (engines <- simulate <- analyses <- reports):
it plays runs through ``simulate``, asks ``analyses`` for the answer and
prints it as a table, JSON or CSV, or builds the report pages. Every command
reads its game, rules and policies through the game's own declaration, so a
new game needs no change here. A user's mistake ends with
one line on stderr and exit code 2 (see :func:`main`); nothing is written
until the work it describes has succeeded.

- ``options``: the app, every shared option declared once, the option groups
  (``RulesChoice``, ``Output``, ``Cluster``, ``Playing``) and the setup they share;
- ``answers``: printing an answer (table, JSON, CSV), ``--out FILE.csv``, partial answers;
- ``commands/``: one module per family of commands, each a function over declared
  options (imported below, in the order ``rumsim --help`` lists them);
- ``entry``: ``main``, the console script ``reports.cli:main``.
"""

# Each command module registers its commands as it is imported: in this order, the order
# `rumsim --help` lists them (plan and store, groups of subcommands, come last).
from reports.cli.commands.listing import games, play, rules  # noqa: I001
from reports.cli.commands.run import run
from reports.cli.commands.thresholds import thresholds
from reports.cli.commands.seats import seats
from reports.cli.commands.variants import variants
from reports.cli.commands.compare import compare
from reports.cli.commands.tune import tune
from reports.cli.commands.matchup import matchup
from reports.cli.commands.ladder import ladder
from reports.cli.commands.restrict import restrict
from reports.cli.commands.train import train
from reports.cli.commands.report import report
from reports.cli.commands.bench import bench
from reports.cli.commands.plan import plan_seats
from reports.cli.commands.store import store_gc, store_ls, store_show, store_verify
from reports.cli.commands.evidence import evidence_check, evidence_ls, evidence_make
from reports.cli.entry import main
from reports.cli.options import app

__all__ = ["app", "main", "games", "rules", "play", "run", "thresholds", "seats", "plan_seats",
           "variants", "compare", "tune", "matchup", "ladder", "restrict", "train", "report", "bench",
           "store_ls", "store_show", "store_verify", "store_gc", "evidence_make", "evidence_ls",
           "evidence_check"]
