"""The `campaign` command: global options, error handling, and where its verbs are found.

One process runs one verb, so it imports that verb and what only it needs, when it runs: the
shared verbs are registered by name (``cli.manifest``), a system's verbs are imported with their
system once the current campaign names it, and `--help`, `--version` and `completion` import no
engine. The verbs on campaigns as a whole (`init`, `list`, `use`) are in ``cli.campaigns``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from typing import Any

import click

from cli import manifest, start_up
from cli.completion import campaign_names
from cli.context import Context
from cli.defaults import DEFAULT_DB
from cli.errors import (
    INTERRUPTED,
    NotAVerbOf,
    Usage,
    check_text,
    global_options,
    leading_options,
    one_line_text,
    report,
)
from cli.in_context import MistypedVerb, closest, system_here, verbs_here
from domain.errors import CodedError

ARGV = "campaign.argv"  # the command line as the group got it (``ctx.meta``)


class SharedVerbs(MutableMapping[str, click.Command]):
    """The group's own verbs by name: each is imported from its module (``manifest.SHARED``)
    the first time it is looked up, so a run imports the verb it runs and no other."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, click.Command] = {}

    def loaded(self, name: str) -> click.Command | None:
        return self._loaded.get(name)

    def __getitem__(self, name: str) -> click.Command:
        command = self._loaded.get(name)
        if command is None:
            command = self._loaded[name] = _shared_verb(name, self._modules[name])
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._modules.pop(name, None)
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._modules or name in self._loaded

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._modules), **dict.fromkeys(self._loaded)})

    def __len__(self) -> int:
        return len(self._modules.keys() | self._loaded.keys())


def _shared_verb(name: str, module: str) -> click.Command:
    """A shared verb from its module's ``COMMANDS``, its ruling verbs narrating (``--say``)."""
    from cli.say import SHARED_NARRATED, add_say

    commands: tuple[click.Command, ...] = importlib.import_module(module).COMMANDS
    command = next(c for c in commands if c.name == name)
    add_say(click.Group(commands=[command]), SHARED_NARRATED)
    return command


def _listed(name: str, shown: Mapping[str, Any]) -> click.Command:
    """A command as `campaign --help` lists it, from the manifest: its name and short help."""
    return click.Command(name, **shown)


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


def _owning(verb: str) -> list[str]:
    """The rule systems that have ``verb`` (from the manifest: none of them is imported)."""
    return [system for system, (_, verbs) in manifest.SYSTEM_VERBS.items() if verb in verbs]


def _verb_of(system: str, verb: str) -> click.Command:
    """``system``'s command for ``verb``, importing that system's CLI (and only that one)."""
    from cli import systems

    return systems.verbs(system).commands[verb]


def _owners(verb: str) -> dict[str, click.Command]:
    """Each rule system that has ``verb``, with its command."""
    return {system: _verb_of(system, verb) for system in _owning(verb)}


def _campaign_system(ctx: click.Context) -> str:
    """The current campaign's system (a refusal when there is no campaign or store)."""
    shared_context = ctx.find_object(Context) or _context(ctx)
    return shared_context.engine.find_campaign(shared_context.campaign()).system


class CampaignGroup(click.Group):
    """Shared verbs first, then the verbs of the current campaign's rule system (so systems can
    each have a `roll`). A refusal becomes one line on stderr and exit code 2.

    Verbs are imported when resolved: the shared ones by name (``manifest.SHARED``), a system's
    with its system, found from the current campaign; `campaign --help` lists them all from the
    manifest, importing none."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        verbs = SharedVerbs(manifest.SHARED)
        verbs.update(self.commands)
        self.commands = verbs

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        shared = super().get_command(ctx, cmd_name)
        if shared is not None:
            return shared
        owners = _owning(cmd_name)
        if not owners:
            return None
        try:
            system = _campaign_system(ctx)
        except CodedError:  # no campaign, or a store that does not open
            if len(owners) == 1:
                return _verb_of(owners[0], cmd_name)  # its own command will say what is missing
            raise
        if system not in owners:
            raise NotAVerbOf(verb=cmd_name, system=system)
        return _verb_of(system, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The verb, imported (the end of start-up: ``start_up.resumed``)."""
        try:
            return self._resolve(ctx, args)
        finally:
            start_up.resumed()

    def _resolve(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """`campaign roll --help` works anywhere: with no campaign to say whose `roll`, the help
        of every system's `roll` (and no store is opened or made)."""
        name = args[0] if args else ""
        if name not in self.commands and {"--help", "-h"} & set(args[1:]):
            owners = _owning(name)
            if len(owners) > 1:
                try:
                    system = _campaign_system(ctx)
                except CodedError:
                    return name, EverySystem(name, _owners(name)), args[1:]
                if system in owners:
                    return name, _verb_of(system, name), args[1:]
                return name, EverySystem(name, _owners(name)), args[1:]
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            verbs = verbs_here(self.commands, system_here(leading_options(ctx.meta[ARGV])))
            raise MistypedVerb(
                error.command_name, closest(error.command_name, verbs), ctx
            ) from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[ARGV] = list(args)  # `--help` is printed before click reads --db and --campaign
        options = leading_options(args)
        if options.get("--all") and not options.get("verb") and not ctx.resilient_parsing:
            args = [*args, "--help"]  # `campaign --all`: every system's verbs
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        verbs = {name for _, names in manifest.SYSTEM_VERBS.values() for name in names}
        return [*super().list_commands(ctx), *sorted(verbs - set(self.commands))]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """`campaign --help` lists the shared verbs, then the current campaign's system's (every
        system's with --all, or outside a campaign), each under its system's name, importing
        none of them (their short help is in the manifest) and no engine when the current
        campaign's system is remembered beside the store (``cli.in_context``)."""
        shared = self.commands
        assert isinstance(shared, SharedVerbs)
        options = leading_options(ctx.meta.get(ARGV, ()))
        system = None if options.get("--all") else system_here(options)
        systems = manifest.SYSTEM_VERBS
        if system is not None:
            systems = {system: systems[system]}
        sections = [
            (
                "Shared verbs",
                {
                    name: shared.loaded(name) or _listed(name, manifest.SHARED_HELP[name])
                    for name in shared
                },
            )
        ]
        sections += [
            (title, {name: _listed(name, shown) for name, shown in verbs.items()})
            for title, verbs in systems.values()
        ]
        for title, commands in sections:
            rows = [
                (name, command.get_short_help_str(limit=formatter.width - 20))
                for name, command in sorted(commands.items())
                if not command.hidden
            ]
            with formatter.section(title):
                formatter.write_dl(rows)
        formatter.write_paragraph()
        if system is not None:
            formatter.write_text(
                f"The shared verbs and {systems[system][0]} only ({system} is the current "
                "campaign's rule system): `campaign --all --help` lists every system's."
            )
        else:
            formatter.write_text(
                "Every system's verbs: in a campaign, `campaign --help` lists its system's."
            )

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
        except click.Abort as stopped:
            if isinstance(stopped.__cause__, KeyboardInterrupt):  # Ctrl-C: no "Aborted!"
                click.echo(err=True)
                code = INTERRUPTED
            else:
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
    "--all",
    "all_systems",
    is_flag=True,
    help="With --help: every rule system's verbs, not only the current campaign's.",
)
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
    ctx: click.Context,
    db: str,
    campaign: str | None,
    as_json: bool,
    all_systems: bool,
    actor: str | None,
) -> None:
    """An event-sourced campaign log: every roll and ruling recorded, undoable, replayable.

    \b
    Example:
      campaign init "Night Shift" --system code-green --gm Rosa
    """
    _context(ctx)


def main() -> None:
    """The `campaign` program. Text that the terminal's encoding cannot show is escaped, never
    a crash (a Latin-1 terminal and a name in Cyrillic)."""
    start_up.pause()  # until the verb is found
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    campaign(prog_name="campaign")
