"""The `campaign` command: global options, error handling, and the verbs every system shares.

One process runs one verb, so a verb imports what only it needs (the log readers, exports, rich)
when it runs, and registering the verbs stays cheap: a `roll` loads little beyond the engine and
its own system's rules.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from cli import (
    audit,
    corrections,
    discord,
    free_rolls,
    history,
    keys,
    play,
    posts,
    recap,
    search,
    serve,
    systems,
    table,
)
from cli.completion import campaign_names, completion
from cli.context import Context, key_value, pass_context
from cli.errors import NotAVerbOf, Usage, check_text, global_options, one_line_text, report
from cli.render import clean, emit_json, print_table, say, show_ruling
from cli.say import SHARED_NARRATED, add_say
from domain.errors import DomainError, InvalidHouseRule
from domain.events import Role
from domain.rulesets import SYSTEMS
from engine import DEFAULT_DB


class EverySystem(click.Command):
    """A verb several systems have, asked for its help with no campaign to say whose: the help
    of each, one after another."""

    def __init__(self, name: str, owners: dict[str, click.Command]) -> None:
        super().__init__(name, help=f"`{name}` is a verb of {', '.join(owners)}.")
        self.owners = owners

    def get_help(self, ctx: click.Context) -> str:
        parts = [f"`campaign {self.name}` differs by rule system (--campaign NAME picks one):"]
        for system, command in self.owners.items():
            own = click.Context(command, info_name=ctx.info_name, parent=ctx.parent)
            parts.append(f"--- {system} ---\n{command.get_help(own)}")
        return "\n\n".join(parts)


def _owners(verb: str) -> dict[str, click.Command]:
    """Each rule system that has ``verb``, with its command."""
    return {s: g.commands[verb] for s, g in systems.all_verbs().items() if verb in g.commands}


def _campaign_system(ctx: click.Context) -> str:
    """The current campaign's system (a refusal when there is no campaign or store)."""
    shared_context = ctx.find_object(Context) or _context(ctx)
    return shared_context.engine.find_campaign(shared_context.campaign()).system


class CampaignGroup(click.Group):
    """Shared verbs first, then the verbs of the current campaign's rule system (so systems can
    each have a `roll`). A refusal becomes one line on stderr and exit code 2."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        shared = super().get_command(ctx, cmd_name)
        if shared is not None:
            return shared
        owners = _owners(cmd_name)
        try:
            system = _campaign_system(ctx)
        except DomainError:
            if len(owners) == 1:
                return next(iter(owners.values()))  # its own command will say what is missing
            if not owners:
                return None
            raise
        command = owners.get(system)
        if command is None and owners:
            raise NotAVerbOf(verb=cmd_name, system=system)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """`campaign roll --help` works anywhere: with no campaign to say whose `roll`, the help
        of every system's `roll` (and no store is opened or made)."""
        name = args[0] if args else ""
        if name not in self.commands and {"--help", "-h"} & set(args[1:]):
            owners = _owners(name)
            if len(owners) > 1:
                try:
                    system = _campaign_system(ctx)
                except DomainError:
                    return name, EverySystem(name, owners), args[1:]
                return name, owners.get(system) or EverySystem(name, owners), args[1:]
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        verbs = {name for group in systems.all_verbs().values() for name in group.commands}
        return [*super().list_commands(ctx), *sorted(verbs - set(self.commands))]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """`campaign --help` lists the shared verbs, then each system's, without needing a
        campaign to resolve them."""
        sections = [("Shared verbs", self.commands)]
        sections += [(str(g.help).rstrip("."), g.commands) for g in systems.all_verbs().values()]
        for title, commands in sections:
            rows = [
                (name, command.get_short_help_str(limit=formatter.width - 20))
                for name, command in sorted(commands.items())
                if not command.hidden
            ]
            with formatter.section(title):
                formatter.write_dl(rows)

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
            code = report(error, as_json=as_json, db=db)
            if obj is not None:
                obj.abandon()
            ctx.exit(code)

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
        as_json, db = global_options(argv)
        code: Any
        try:
            check_text(argv)
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
    "--campaign",
    "campaign",
    envvar="CAMPAIGN",
    shell_complete=campaign_names,
    help="Which campaign (else the current one).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--as",
    "--actor",
    "actor",
    metavar="MEMBER",
    help="Act as this member of the table (default: the campaign's GM). A claim, not a login.",
)
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
@click.option(
    "--member",
    "members",
    multiple=True,
    metavar="NAME:ROLE",
    help="Seat somebody at the table from the start (repeatable), e.g. ana:player; roles gm, "
    "player, observer.",
)
@pass_context
def init(
    ctx: Context,
    name: str,
    system: str,
    gm: str,
    house_rules: tuple[str, ...],
    members: tuple[str, ...],
) -> None:
    """Create a campaign in the store and make it the current one.

    \b
    Example:
      campaign init "Night Shift" --system code-green --member ana:player \\
          --house-rule marksPersistAcrossScenes=true
    """
    rules = dict(key_value(item, InvalidHouseRule) for item in house_rules)
    seats = {who: role_named(role) for who, role in (member_role(m) for m in members)}
    ctx.creates = True
    result = ctx.engine.create_campaign(name, system, gm=gm, house_rules=rules, members=seats)
    ctx.remember(name)
    show_ruling(result, ctx.as_json)


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
    from rich.markup import escape
    from rich.table import Column, Table

    counts = (
        Column(h, no_wrap=True, justify="right") for h in ("characters", "sessions", "rulings")
    )
    table = Table(Column("campaign", min_width=8), Column("system", no_wrap=True), *counts)
    for row in rows:  # names as plain text: no terminal controls, no rich markup
        table.add_row(*(escape(clean(v)) for v in row.values()))
    print_table(table)


@campaign.command("use")
@click.argument("name", shell_complete=campaign_names)
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


for _command in (
    *play.COMMANDS,
    *corrections.COMMANDS,
    *discord.COMMANDS,
    *table.COMMANDS,
    *free_rolls.COMMANDS,
    *posts.COMMANDS,
    *history.COMMANDS,
    *audit.COMMANDS,
    *recap.COMMANDS,
    *search.COMMANDS,
    *serve.COMMANDS,
    *keys.COMMANDS,
    completion,
):
    campaign.add_command(_command)
add_say(campaign, SHARED_NARRATED)  # every ruling verb narrates (--say)


def main() -> None:
    """The `campaign` program. Text that the terminal's encoding cannot show is escaped, never
    a crash (a Latin-1 terminal and a name in Cyrillic)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    campaign(prog_name="campaign")


class MemberFormat(DomainError):
    template = "give a member as NAME:ROLE (roles: gm, player, observer), got {text!r}"


def member_role(text: str) -> tuple[str, str]:
    who, sep, role = text.rpartition(":")
    if not sep or not who.strip():
        raise MemberFormat(text=text)
    return who.strip(), role.strip()


def role_named(role: str) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise MemberFormat(text=role) from None
