"""What a ``rumsim`` command can be given: every shared option declared once, and the groups
of options many commands take together.

An option is a Typer ``Annotated`` alias (``SeedOpt``): a command names it as a parameter's
type and gives its default, ``seed: SeedOpt = 0``. A group is a frozen dataclass of such
options with the code that reads them (``RulesChoice.build``, ``Output.emit``,
``Playing.games``); a command takes it as one keyword parameter, ``rules: RulesChoice``, and
``app.command()`` (a ``CommandApp``) shows Typer the group's options in that parameter's
place, in the group's order, each with its own help and default, then hands the command the
group built from them. So ``--help`` lists plain options, and a new command is a short
function over declared options::

    @app.command()
    def train(game: GameArg, *, players: PlayersOpt = None, seed: SeedOpt = 0,
              workers: WorkersOpt = None, playing: Playing) -> None:
        with playing.games(seed=seed, workers=workers) as play:
            ...

A group parameter takes no default (its options have theirs), hence the ``*``.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from engines import GAMES
from reports.cli.answers import Partial, check_csv_out, emit_answer
from simulate.errors import UserError

FORMATS = ("table", "json", "csv")


class CommandApp(typer.Typer):
    """A Typer app whose commands may take option groups (dataclasses of declared options)."""

    def command(self, *args, **kwargs):
        register = super().command(*args, **kwargs)
        return lambda command: register(with_groups(command))


def with_groups(command):
    """``command`` as Typer sees it: each parameter whose type is a group (a dataclass)
    replaced by the group's fields, in order, each with its declared option and default;
    called, it builds the group from them and passes it on. A command without groups is
    returned as it is. (Typer calls a command with keywords only, so every parameter is
    made keyword-only: a group's defaulted fields may stand before a required option.)"""
    hints = typing.get_type_hints(command, include_extras=True)
    signature = inspect.signature(command)
    groups = {name: hints[name] for name in signature.parameters
              if isinstance(hints.get(name), type) and dataclasses.is_dataclass(hints[name])}
    if not groups:
        return command
    params = []
    for name, param in signature.parameters.items():
        if name not in groups:
            params.append(param.replace(annotation=hints.get(name, param.annotation),
                                        kind=param.KEYWORD_ONLY))
            continue
        fields = typing.get_type_hints(groups[name], include_extras=True)
        params += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                     annotation=fields[f.name], default=f.default)
                   for f in dataclasses.fields(groups[name])]
    names = [p.name for p in params]
    clash = {n for n in names if names.count(n) > 1}
    if clash:
        raise TypeError(f"{command.__name__}: option {', '.join(sorted(clash))} is given twice")

    @functools.wraps(command)
    def call(**given):
        for name, group in groups.items():
            given[name] = group(**{f.name: given.pop(f.name) for f in dataclasses.fields(group)})
        return command(**given)

    call.__signature__ = signature.replace(parameters=params)
    call.__annotations__ = {p.name: p.annotation for p in params} | (
        {"return": hints["return"]} if "return" in hints else {})
    return call


app = CommandApp(
    name="rumsim",
    help="Monte Carlo balance analysis for Rum Runner, Rum Rebellion, 21 Motines, "
         "Rum & Pirates and Montego Bay.\n\n"
         "Answers keep their games in a run store (default ~/.cache/rumsim/store; "
         "$RUMSIM_STORE or --store PATH to move it, RUMSIM_STORE=off or --no-store for none): "
         "a later answer to the same question plays only the games it lacks, with the same "
         "result as one run of them all. `rumsim store ls` shows what is there.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# ---------------------------------------------------------------- shared options

GameArg = Annotated[str, typer.Argument(help=f"the game: {', '.join(GAMES)}", show_default=False)]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p",
                                                help="number of players (default: the game's)")]
# One player count or several (seats, plan seats, tune).
PlayerCountsOpt = Annotated[str | None, typer.Option(
    "--players", "-p", help="number of players (default: the game's), or several: '2..5' or "
                            "'2,4'")]
PolicyOpt = Annotated[str | None, typer.Option(
    "--policy", help="policy for all seats ('greedy'), or per seat ('greedy,random'); "
                     "parameters as 'greedy:draw_threshold=3'")]
RuleOpt = Annotated[list[str] | None, typer.Option(
    "--rule", help="rule option key=value (repeatable); see `rumsim rules GAME`")]
PresetOpt = Annotated[str | None, typer.Option("--preset", help="named rule preset")]
RulesFileOpt = Annotated[Path | None, typer.Option(
    "--rules-file", help="TOML file of rule options (key = value)")]
SeedOpt = Annotated[int, typer.Option("--seed", help="the run's seed (0 .. 2**63-1)", min=0,
                                      max=2**63 - 1)]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="threads (default: all cores)")]
GamesOpt = Annotated[str, typer.Option("--games", "-n", help="how many games (1e6, 250_000 ...)")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]
FormatOpt = Annotated[str, typer.Option("--format", help="output: table, json or csv")]
CsvOutOpt = Annotated[Path | None, typer.Option("--out", help="also write the tables to "
                                                "FILE.csv")]
ClusterOpt = Annotated[str | None, typer.Option(
    "--cluster", help="play on a Dask cluster started on this machine: local:N (N worker "
                      "processes; needs rumsim\\[dask], which `make install` has); the "
                      "answer does not change",
    rich_help_panel="Where games are played")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="play on the Dask cluster whose scheduler is at tcp://HOST:PORT "
                        "(default: $RUMSIM_SCHEDULER); the answer does not change",
    rich_help_panel="Where games are played")]
CheckpointOpt = Annotated[Path | None, typer.Option(
    "--checkpoint", help="save every finished block of games in folder DIR as it completes, "
                         "so a killed run can be resumed", rich_help_panel="Where games are played")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="continue the run saved in --checkpoint DIR: play only the blocks it "
                     "lacks (same arguments required); the answer equals an unbroken run's",
    rich_help_panel="Where games are played")]
STORE_PANEL = "Run store (games already played for the same question are reused)"
StoreOpt = Annotated[Path | None, typer.Option(
    "--store", help="the run store folder (default: $RUMSIM_STORE, else "
                    "~/.cache/rumsim/store)", rich_help_panel=STORE_PANEL, show_default=False)]
NoStoreOpt = Annotated[bool, typer.Option(
    "--no-store", help="neither read nor add to the run store", rich_help_panel=STORE_PANEL)]
MoreOpt = Annotated[str | None, typer.Option(
    "--more", help="play this many games more than the store holds for the same question "
                   "(instead of -n)", rich_help_panel=STORE_PANEL, show_default=False)]

# ---------------------------------------------------------------- option groups


@dataclass(frozen=True)
class RulesChoice:
    """--rule, --preset, --rules-file: the rules a command plays."""

    rule: RuleOpt = None
    preset: PresetOpt = None
    rules_file: RulesFileOpt = None

    def build(self, info):
        """The game's Rules from the preset, then the rules file, then the --rule pairs."""
        return build_rules(info, self.preset, self.rules_file, self.rule)

    def flags(self) -> list[str]:
        """These options as a command line gives them."""
        flags = []
        if self.preset is not None:
            flags += ["--preset", self.preset]
        if self.rules_file is not None:
            flags += ["--rules-file", str(self.rules_file)]
        for pair in self.rule or []:
            flags += ["--rule", pair]
        return flags


@dataclass(frozen=True)
class Output:
    """--format and --out FILE.csv: how an answer is printed and where its tables are saved.
    The format is checked when the group is built, before the command's body runs."""

    fmt: FormatOpt = "table"
    out: CsvOutOpt = None

    def __post_init__(self) -> None:
        check_format(self.fmt)

    def check_out(self) -> None:
        """Refuse an --out that could not be written, before any game is played."""
        check_csv_out(self.out)

    def emit(self, csv_text: str, json_data, text, partial: Partial | None = None) -> None:
        """Save the CSV to --out if asked, then print the answer in the chosen format."""
        emit_answer(self.out, self.fmt, csv_text, json_data, text, partial)


@dataclass(frozen=True)
class Cluster:
    """--cluster and --scheduler: where the games are played (default: this process)."""

    cluster: ClusterOpt = None
    scheduler: SchedulerOpt = None

    @contextmanager
    def backend(self):
        """The Dask backend the options name (None: this process), open for the context."""
        with playing(self.cluster, self.scheduler, None, False) as (where, _):
            yield where


@dataclass(frozen=True)
class Playing(Cluster):
    """--cluster, --scheduler, --checkpoint, --resume, --quiet, --store, --no-store and
    --more: where a command's games are played, where their finished blocks are saved (the
    run store, and a checkpoint), and whether a progress bar shows."""

    checkpoint: CheckpointOpt = None
    resume: ResumeOpt = False
    quiet: QuietOpt = False
    store: StoreOpt = None
    no_store: NoStoreOpt = False
    more: MoreOpt = None

    def run_store(self):
        """The run store these options name (None with --no-store)."""
        from simulate.store import from_environment

        if self.store is not None and self.no_store:
            raise UserError("--store and --no-store: give one")
        return from_environment(self.store, self.no_store)

    def more_games(self) -> int | None:
        from simulate.counts import parse_count

        return None if self.more is None else parse_count(self.more, "--more")

    @contextmanager
    def games(self, **common):
        """``simulate.run`` with these options (and ``common``, such as seed and workers)
        given, keeping no rows: what a command plays its runs with inside the context, which
        opens the cluster, the checkpoint and the run store."""
        import simulate

        store, more = self.run_store(), self.more_games()
        with playing(self.cluster, self.scheduler, self.checkpoint, self.resume) as (where, saved):
            try:
                yield functools.partial(simulate.run, progress=progress_flag(self.quiet),
                                        keep=False, cluster=where, checkpoint=saved,
                                        store=store, more=more, **common)
            finally:
                if store is not None:
                    store.close()


# ---------------------------------------------------------------- helpers


def build_rules(info, preset: str | None, rules_file: Path | None, rule: list[str] | None):
    """Rules from preset, then rules file, then --rule pairs (later ones win)."""
    cls = info.rules_cls
    overrides: dict = {}
    if preset is not None:  # '--preset ""' is a mistake, not the defaults
        overrides.update(cls.preset(preset))
    if rules_file is not None:
        overrides.update(cls.read_file(rules_file))
    given: dict[str, str] = {}
    for pair in rule or []:  # one value per option: a second one is a slip, not an override
        for key, value in cls.from_strings([pair]).items():
            if key in given and given[key] != value:
                raise UserError(f"--rule {key} is given twice ({given[key]}, then {value}); "
                                "give each option once")
            given[key] = value
    overrides.update(given)
    return cls.from_overrides(overrides)


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UserError(f"--format must be table, json or csv, not '{fmt}'")
    return fmt


def progress_flag(quiet: bool) -> bool | None:
    return False if quiet else None


def player_counts(info, text: str | None) -> list[int]:
    """The player counts of ``--players``: one ('4'), a range ('2..5') or a list ('2,4')."""
    if text is None:
        return [info.check_players(None)]
    raw = text.strip()
    try:
        if ".." in raw:
            low, high = (int(x) for x in raw.split("..", 1))
            ends = [low, high]
        else:
            ends = counts = [int(x) for x in raw.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--players '{text}' is not a player count, a range like 2..5 or a "
                        "list like 2,4") from None
    for p in ends:   # checked before a range is built: '2..1000000000' must not fill memory
        info.check_players(p)
    if ".." in raw:
        counts = list(range(low, high + 1))
    if not counts:
        raise UserError(f"--players '{text}' names no player count")
    return [info.check_players(p) for p in dict.fromkeys(counts)]


@contextmanager
def playing(cluster: str | None, scheduler: str | None, checkpoint: Path | None,
            resume: bool):
    """Where a command's runs are played (None: this process, else a Dask backend) and the
    checkpoint they save into (None without --checkpoint)."""
    from simulate.checkpoint import Checkpoint
    from simulate.cluster import backend_for

    if resume and checkpoint is None:
        raise UserError("--resume continues a run saved with --checkpoint DIR: give the folder")
    saved = Checkpoint(checkpoint, resume) if checkpoint is not None else None
    backend = backend_for(cluster, scheduler)
    if backend is None:
        yield None, saved
        return
    with backend:
        yield backend, saved
