"""The `campaign` command: global options, error handling, and the verbs every system shares.

One process runs one verb, so a verb imports what only it needs (the log readers, exports, rich)
when it runs, and registering the verbs stays cheap: a `roll` loads little beyond the engine and
its own system's rules.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

import click

from cli import audit, history, recap, systems
from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options
from cli.render import clean, emit_json, log_json, say, show_log, show_ruling
from domain.dice import parse_faces
from domain.errors import DomainError, HistoryConflict, InvalidHouseRule, InvalidParameter
from domain.events import RulingMade
from domain.lifecycle import AddEntropy, AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets import SYSTEMS
from engine import DEFAULT_DB, DiceSpec, RulingResult, StoreFault, one_line, store_fault


class CampaignGroup(click.Group):
    """Shared verbs first, then the verbs of the current campaign's rule system (so systems can
    each have a `roll`). A refusal becomes one line on stderr and exit code 2."""

    _listing = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        shared = super().get_command(ctx, cmd_name)
        if shared is not None:
            return shared
        if self._listing:
            return next(
                (
                    g.commands[cmd_name]
                    for g in systems.all_verbs().values()
                    if cmd_name in g.commands
                ),
                None,
            )
        shared_context = ctx.find_object(Context) or _context(ctx)
        try:
            system = shared_context.engine.find_campaign(shared_context.campaign()).system
        except DomainError:
            owners = [g for g in systems.all_verbs().values() if cmd_name in g.commands]
            if len(owners) == 1:
                return owners[0].commands[cmd_name]  # its own command will say what is missing
            if not owners:
                return None
            raise
        command = systems.verbs(system).commands.get(cmd_name)
        if command is None and any(cmd_name in g.commands for g in systems.all_verbs().values()):
            raise NotAVerbOf(verb=cmd_name, system=system)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        verbs = {name for group in systems.all_verbs().values() for name in group.commands}
        return [*super().list_commands(ctx), *sorted(verbs - set(self.commands))]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """`campaign --help` lists every verb without needing a campaign to resolve them."""
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: click.Context) -> None:
        """Run the verb; whatever stops it is said in one line on stderr (``report``)."""
        try:
            super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort, click.ClickException, BrokenPipeError):
            raise  # click's own endings (usage errors are reported by ``main``)
        except Exception as error:
            obj = ctx.find_object(Context)
            as_json = obj.as_json if obj is not None else bool(ctx.params.get("as_json"))
            db = obj.db if obj is not None else ctx.params.get("db") or DEFAULT_DB
            ctx.exit(report(error, as_json=as_json, db=db))

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """The one place a `campaign` run ends: exit 0, 1 for a fault (the disk, the file, the
        server), 2 for a refusal or a usage error, with one line on stderr (JSON under --json)
        and never a traceback (``CAMPAIGN_DEBUG=1`` shows the traceback of an unexpected error).
        Arguments that are not UTF-8 text are refused before anything runs."""
        argv = sys.argv[1:] if args is None else list(args)
        if not standalone_mode:  # the caller handles what is raised
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        as_json, db = _global_options(argv)
        code: Any
        try:
            _check_text(argv)
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except click.Abort:
            click.echo("Aborted!", err=True)
            code = 1
        except click.exceptions.NoArgsIsHelpError as error:  # `campaign session`: its help
            if not as_json:
                error.show()
                code = error.exit_code
            else:
                problem = Usage(problem="a command is missing", command=error.ctx.command_path)
                code = report(problem, as_json=True, db=db)
        except click.ClickException as error:
            context = getattr(error, "ctx", None)  # a usage error's, when click knows it
            where = context.command_path if isinstance(context, click.Context) else "campaign"
            problem = Usage(problem=one_line_text(error.format_message()), command=where)
            code = report(problem, as_json=as_json, db=db, exit_code=error.exit_code)
        except Exception as error:
            code = report(error, as_json=as_json, db=db)
        sys.exit(code if isinstance(code, int) else 0)


class NotAVerbOf(DomainError):
    template = "`{verb}` is not a verb of {system}, the current campaign's system"


class Usage(DomainError):
    """The command line itself is wrong (click's usage errors), as one line."""

    template = "{problem} (see `{command} --help`)"


class UnreadableArgument(DomainError):
    template = "{which} is not UTF-8 text ({text}): type it again, or set the terminal to UTF-8"


class HistoryDoesNotReplay(StoreFault):
    code = "HISTORY_CONFLICT"
    template = "the stored log does not replay: {problem}"


class FileFault(DomainError):
    exit_code: ClassVar[int] = 1
    template = "{path!r}: {problem}"


class UnexpectedError(DomainError):
    exit_code: ClassVar[int] = 1
    template = (
        "the command stopped on an unexpected {kind}: {problem} (CAMPAIGN_DEBUG=1 shows where; "
        "please report it)"
    )


def report(error: BaseException, *, as_json: bool, db: str, exit_code: int | None = None) -> int:
    """Say on stderr, in one line, why the command stopped, and return its exit code: 2 for a
    refusal, 1 for a fault. A refusal keeps its own code; a store error becomes the fault it is
    (``engine.store.store_fault``); anything else, one line that names it."""
    ending = _ending(error, db)
    if as_json:
        click.echo(_error_line({"error": ending.as_dict()}), err=True)
    else:
        click.echo(f"error: {ending.code}: {clean(ending.reason)}", err=True)
    if exit_code is not None:
        return exit_code
    return int(getattr(type(ending), "exit_code", 2))


def _ending(error: BaseException, db: str) -> DomainError:
    if isinstance(error, DomainError):
        return error
    if isinstance(error, HistoryConflict):
        return HistoryDoesNotReplay(problem=one_line(error))
    fault = store_fault(error, db)
    if fault is not None:
        return fault
    if os.environ.get("CAMPAIGN_DEBUG"):
        raise error
    if isinstance(error, OSError):
        path = error.filename if isinstance(error.filename, str) else ""
        return FileFault(path=path, problem=error.strerror or one_line(error))
    return UnexpectedError(kind=type(error).__name__, problem=one_line(error))


def one_line_text(text: str) -> str:
    return " ".join(text.split())


def _error_line(value: Any) -> str:
    """One JSON line, even when the data holds characters some readers take for line breaks."""
    line = json.dumps(value, ensure_ascii=False, default=str)
    return line.translate({0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"})


def _global_options(argv: Sequence[str]) -> tuple[bool, str]:
    """--json and the store as the group reads them (before the verb), for the endings that
    come before it has: a usage error, an argument that is not text."""
    as_json, db = False, os.environ.get("CAMPAIGN_DB") or DEFAULT_DB
    items = iter(argv)
    for item in items:
        if item == "--json":
            as_json = True
        elif item in ("--db", "--campaign", "--actor"):
            value = next(items, None)
            if item == "--db" and value is not None:
                db = value
        elif item.startswith("--db="):
            db = item.partition("=")[2]
        elif item == "--" or not item.startswith("-"):
            break
    return as_json, db


def _check_text(argv: Sequence[str]) -> None:
    """Refuse an argument (or CAMPAIGN_DB, CAMPAIGN) that is not UTF-8: undecodable bytes reach
    Python as lone surrogates, which no store, file or terminal can take."""
    named = [(f"argument {n}", item) for n, item in enumerate(argv, 1)]
    named += [(key, os.environ[key]) for key in ("CAMPAIGN_DB", "CAMPAIGN") if key in os.environ]
    for which, item in named:
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            raise UnreadableArgument(which=which, text=_as_bytes(item)) from None


def _as_bytes(item: str) -> str:
    """What was typed, as the bytes it was (``'bad \\xff'``), cut short if long."""
    try:
        shown = repr(item.encode("utf-8", "surrogateescape"))[1:]
    except UnicodeEncodeError:
        shown = ascii(item)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _context(ctx: click.Context) -> Context:
    """The shared context, made from the global options once they are parsed."""
    if ctx.obj is None:
        params = ctx.params
        ctx.obj = Context(
            db=params.get("db") or DEFAULT_DB,
            campaign_option=params.get("campaign"),
            as_json=bool(params.get("as_json")),
            actor=params.get("actor"),
        )
        ctx.call_on_close(ctx.obj.close)
    context: Context = ctx.obj
    return context


@click.group(cls=CampaignGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="CAMPAIGN_DB",
    default=DEFAULT_DB,
    show_default=True,
    help="The store: a SQLite file, postgresql://user@host:port/dbname, or :memory:. "
    "Also CAMPAIGN_DB.",
)
@click.option(
    "--campaign", "campaign", envvar="CAMPAIGN", help="Which campaign (else the current one)."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--actor", help="Who is making this call (default: the campaign's GM).")
@click.version_option(package_name="campaign-log")
@click.pass_context
def campaign(
    ctx: click.Context, db: str, campaign: str | None, as_json: bool, actor: str | None
) -> None:
    """An event-sourced campaign log: every roll and ruling recorded, undoable, replayable.

    \b
    Example:
      campaign init "Night Shift" --system code-green
    """
    _context(ctx)


@campaign.command("init")
@click.argument("name")
@click.option(
    "--system",
    required=True,
    type=click.Choice(sorted(SYSTEMS)),
    help="The rule system the campaign is played under.",
)
@click.option("--gm", default="GM", show_default=True, help="The game moderator's name.")
@click.option(
    "--house-rule",
    "house_rules",
    multiple=True,
    metavar="KEY=VALUE",
    help="A house rule (repeatable), e.g. maxStrainPerTest=0.",
)
@pass_context
def init(ctx: Context, name: str, system: str, gm: str, house_rules: tuple[str, ...]) -> None:
    """Create a campaign in the store and make it the current one.

    \b
    Example:
      campaign init "Night Shift" --system code-green --house-rule marksPersistAcrossScenes=true
    """
    rules = dict(_key_value(item, InvalidHouseRule) for item in house_rules)
    result = ctx.engine.create_campaign(name, system, gm=gm, house_rules=rules)
    ctx.remember(name)
    show_ruling(result, ctx.as_json)


def _key_value(item: str, error: type[InvalidHouseRule | InvalidParameter]) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise error(key=item, value="", expected="KEY=VALUE")
    return key.strip(), value.strip()


@campaign.command("list")
@pass_context
def list_campaigns(ctx: Context) -> None:
    """List the campaigns in this store.

    \b
    Example:
      campaign --db table.db list
    """
    rows = []
    for entry in ctx.engine.directory().campaigns:
        state = ctx.engine.campaign(entry.name)
        rows.append(
            {
                "name": entry.name,
                "system": entry.system,
                "characters": len(state.roster),
                "sessions": state.sessions,
                "rulings": state.rulings,
            }
        )
    if ctx.as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("no campaigns yet: create one with `campaign init NAME --system code-green`")
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table("campaign", "system", "characters", "sessions", "rulings")
    for row in rows:  # names as plain text: no terminal controls, no rich markup
        table.add_row(*(escape(clean(v)) for v in row.values()))
    Console().print(table)


@campaign.command("use")
@click.argument("name")
@pass_context
def use(ctx: Context, name: str) -> None:
    """Make NAME the current campaign for later commands on this store.

    \b
    Example:
      campaign use "Night Shift"
    """
    ctx.engine.find_campaign(name)
    ctx.remember(name)
    say(f"current campaign: {name}")


@campaign.group("session")
def session() -> None:
    """Start or end a game session.

    \b
    Example:
      campaign session start
    """


@session.command("start")
@pass_context
def session_start(ctx: Context) -> None:
    """Start the next session; its digital dice are committed: the seed's hash is printed
    before anyone adds entropy (post it). Then the players add theirs with `campaign entropy`.

    \b
    Example:
      campaign session start
    """
    result = ctx.engine.execute(ctx.campaign(), StartSession(), actor=ctx.actor)
    show_ruling(result, ctx.as_json)
    if not ctx.as_json:
        click.echo(
            "  players: add your entropy now, before the first digital roll: "
            'campaign entropy "your words" --by NAME'
        )


@campaign.command("entropy")
@click.argument("words")
@click.option("--by", "by", required=True, help="Who adds it (a player's name).")
@pass_context
def entropy(ctx: Context, words: str, by: str) -> None:
    """Add a player's words to the running session's committed dice, after the seed's hash was
    published and before the first digital roll (which closes the window). Anyone may add
    some; every roll of the session then depends on all of them.

    \b
    Example:
      campaign entropy "pancakes at midnight" --by Bea
    """
    result = ctx.engine.execute(ctx.campaign(), AddEntropy(words=words, by=by), actor=ctx.actor)
    show_ruling(result, ctx.as_json)


@session.command("end")
@pass_context
def session_end(ctx: Context) -> None:
    """End the running session (its scene must have ended).

    \b
    Example:
      campaign session end
    """
    show_ruling(ctx.engine.execute(ctx.campaign(), EndSession(), actor=ctx.actor), ctx.as_json)


@campaign.group("scene")
def scene() -> None:
    """Start or end a scene.

    \b
    Example:
      campaign scene start "A loading dock at midnight"
    """


@scene.command("start")
@click.argument("stage")
@pass_context
def scene_start(ctx: Context, stage: str) -> None:
    """Set the stage for a new scene: a challenge, a peril, a mystery.

    \b
    Example:
      campaign scene start "The night guard hears something in the lab"
    """
    result = ctx.engine.execute(ctx.campaign(), StartScene(stage=stage), actor=ctx.actor)
    show_ruling(result, ctx.as_json)


@scene.command("end")
@pass_context
def scene_end(ctx: Context) -> None:
    """End the scene: what the rule system does then (Code Green: marks clear, tokens return).

    \b
    Example:
      campaign scene end
    """
    show_ruling(ctx.engine.execute(ctx.campaign(), EndScene(), actor=ctx.actor), ctx.as_json)


@campaign.command("note")
@click.argument("text")
@click.option("--gm-only", "gm_only", is_flag=True, help="Kept out of public recaps.")
@pass_context
def note(ctx: Context, text: str, gm_only: bool) -> None:
    """Write a note into the log (--gm-only: for the GM's eyes, never in a public recap).

    \b
    Example:
      campaign note "The guard's name is Dolores"
    """
    command = AddNote(text=text, gm_only=gm_only)
    show_ruling(ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor), ctx.as_json)


@campaign.command("log")
@click.option("--session", "session_number", type=WHOLE_NUMBER, help="Only this session's rulings.")
@pass_context
def log(ctx: Context, session_number: int | None) -> None:
    """Show every ruling in order, with its events and whether (and why) it was undone.

    \b
    Example:
      campaign log --session 1
    """
    name = ctx.campaign()
    rulings = ctx.engine.log(name, session=session_number)
    state = ctx.engine.campaign(name)
    if ctx.as_json:
        emit_json(log_json(rulings, state))
    else:
        show_log(rulings, state)


@campaign.command("amend")
@click.argument("ruling", type=WHOLE_NUMBER)
@click.option(
    "--set",
    "changes",
    multiple=True,
    metavar="KEY=VALUE",
    help="A corrected parameter of the ruling (repeatable); see `campaign --json log`.",
)
@click.option("--reason", required=True, help="Why the ruling is corrected (kept in the log).")
@click.option(
    "--with-dependents", is_flag=True, help="Undo the later rulings the correction invalidates."
)
@click.option(
    "--redecide",
    is_flag=True,
    help="Decide the later rulings again with their own dice and amend those that change.",
)
@dice_options
@pass_context
def amend(
    ctx: Context,
    ruling: int,
    changes: tuple[str, ...],
    reason: str,
    with_dependents: bool,
    redecide: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Re-resolve a past ruling with corrected parameters and the dice that were rolled.

    The correction replaces the ruling's consequences; the original, the amendment, who made it
    and why stay in the log. A die the original never rolled is taken from --dice or --seed (or
    rolled). Every later ruling is decided again on the corrected history with its own dice;
    those that no longer stand are named, and the amendment refused, unless --with-dependents
    undoes them or --redecide records their new decisions too.

    \b
    Example:
      campaign amend 12 --set function=Cryptic --reason "the lock is a puzzle, not a wall"
    """
    corrections = dict(_key_value(item, InvalidParameter) for item in changes)
    spec = DiceSpec(faces=parse_faces(faces) if faces is not None else None, seed=seed)
    result = ctx.engine.amend(
        ctx.campaign(),
        ruling,
        corrections,
        reason=reason,
        actor=ctx.actor,
        dice=spec,
        with_dependents=with_dependents,
        redecide=redecide,
    )
    show_ruling(result, ctx.as_json)
    fresh = json.loads(result_params(result)).get("new_dice", 0)
    if fresh and not ctx.as_json:
        click.echo(f"  {fresh} die/dice the original never rolled were rolled for the correction")


def result_params(result: RulingResult) -> str:
    return next(r.event.params for r in result.records if isinstance(r.event, RulingMade))


@campaign.command("undo")
@click.argument("ruling", type=WHOLE_NUMBER, required=False)
@click.option("--reason", required=True, help="Why the ruling is undone (kept in the log).")
@click.option(
    "--with-dependents", is_flag=True, help="Also undo the later rulings that depend on it."
)
@click.option(
    "--redecide",
    is_flag=True,
    help="Decide the later rulings again with their own dice and amend those that change.",
)
@pass_context
def undo(
    ctx: Context, ruling: int | None, reason: str, with_dependents: bool, redecide: bool
) -> None:
    """Undo a ruling (default: the latest one in force). The log keeps it, marked as undone.

    Every later ruling is decided again without it, with its own recorded dice. A ruling that
    no longer stands (refused, or other events) depends on it: the undo is refused naming
    them, --with-dependents undoes them together, and --redecide records each one's new
    decision instead ("undo that hit and let the rest play out as rolled").

    \b
    Example:
      campaign undo 12 --reason "the pair did not apply to a locked door"
    """
    result = ctx.engine.undo(
        ctx.campaign(),
        ruling,
        reason=reason,
        actor=ctx.actor,
        with_dependents=with_dependents,
        redecide=redecide,
    )
    show_ruling(result, ctx.as_json)


for _command in (*history.COMMANDS, *audit.COMMANDS, *recap.COMMANDS):
    campaign.add_command(_command)


def main() -> None:
    """The `campaign` program. Text that the terminal's encoding cannot show is escaped, never
    a crash (a Latin-1 terminal and a name in Cyrillic)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    campaign(prog_name="campaign")
