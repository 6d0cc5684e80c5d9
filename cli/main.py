"""The `campaign` command: global options, error handling, and the verbs every system shares.

One process runs one verb, so a verb imports what only it needs (the log readers, exports, rich)
when it runs, and registering the verbs stays cheap: a `roll` loads little beyond the engine and
its own system's rules.
"""

from __future__ import annotations

import json
from typing import Any

import click

from cli import audit, history, recap, systems
from cli.context import Context, pass_context
from cli.dice import dice_options
from cli.render import emit_json, log_json, show_log, show_ruling
from domain.dice import parse_faces
from domain.errors import DomainError, HistoryConflict, InvalidHouseRule, InvalidParameter
from domain.events import RulingMade
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets import SYSTEMS
from engine.assembly import RulingResult
from engine.dice_sources import DiceSpec
from engine.store import DEFAULT_DB


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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DomainError as error:
            obj = ctx.find_object(Context)
            if obj is not None and obj.as_json:
                click.echo(_json_line({"error": error.as_dict()}), err=True)
            else:
                click.echo(f"error: {error.code}: {error.reason}", err=True)
            ctx.exit(2)
        except HistoryConflict as conflict:
            click.echo(
                f"error: HISTORY_CONFLICT: the stored log does not replay: {conflict}", err=True
            )
            ctx.exit(1)


class NotAVerbOf(DomainError):
    template = "`{verb}` is not a verb of {system}, the current campaign's system"


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


def _json_line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


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
    from rich.table import Table

    table = Table("campaign", "system", "characters", "sessions", "rulings")
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
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
    click.echo(f"current campaign: {name}")


@campaign.group("session")
def session() -> None:
    """Start or end a game session.

    \b
    Example:
      campaign session start
    """


@session.command("start")
@click.option(
    "--entropy",
    default="",
    help="Words or numbers from the players, mixed into the session's committed dice seed.",
)
@pass_context
def session_start(ctx: Context, entropy: str) -> None:
    """Start the next session; its digital dice are committed (the seed's hash is printed).

    \b
    Example:
      campaign session start --entropy "Bea: 4471, Carl: pancakes"
    """
    result = ctx.engine.execute(ctx.campaign(), StartSession(entropy=entropy), actor=ctx.actor)
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
@click.option("--session", "session_number", type=int, help="Only this session's rulings.")
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


@campaign.command("verify")
@pass_context
def verify(ctx: Context) -> None:
    """Check that the log was not edited: every hash chain, ruling and session seal.

    Exits 1 and names the first broken link of each stream (with its ruling) if any row was
    changed, deleted or reordered. Compare each session's seal with the one the GM posted.

    \b
    Example:
      campaign verify
    """
    report = ctx.engine.verify(ctx.campaign())
    if ctx.as_json:
        emit_json(
            {
                "intact": report.intact,
                "digest": report.digest,
                "streams": report.streams,
                "events": report.events,
                "seals": [
                    {"session": s.session, "digest": s.digest, "intact": s.intact}
                    for s in report.seals
                ],
                "dice": [
                    {
                        "session": d.session,
                        "rulings": d.rulings,
                        "revealed": d.revealed,
                        "problems": list(d.problems),
                    }
                    for d in report.dice
                ],
                "breaks": [
                    {
                        "stream": str(b.stream),
                        "version": b.version,
                        "ruling": b.ruling,
                        "problem": b.problem,
                    }
                    for b in report.breaks
                ],
            }
        )
    else:
        click.echo(f"{report.events} events in {report.streams} streams; digest {report.digest}")
        for s in report.seals:
            click.echo(f"session {s.session} seal {s.digest}: {'intact' if s.intact else 'BROKEN'}")
        for d in report.dice:
            state = "not revealed yet" if not d.revealed else "; ".join(d.problems) or "verified"
            click.echo(f"session {d.session} committed dice ({d.rulings} rulings): {state}")
        for b in report.breaks:
            ruling = f" (ruling {b.ruling})" if b.ruling else ""
            click.echo(f"BROKEN: stream {b.stream} version {b.version}{ruling}: {b.problem}")
        click.echo("the log is intact" if report.intact else "the log was tampered with")
    if not report.intact:
        ctx_exit(1)


def ctx_exit(code: int) -> None:
    click.get_current_context().exit(code)


@campaign.command("amend")
@click.argument("ruling", type=int)
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
@click.argument("ruling", type=int, required=False)
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
    campaign(prog_name="campaign")
