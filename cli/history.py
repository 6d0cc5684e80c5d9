"""Looking back: a character or the campaign as it stood then, differences, history, replay.

The history readers are the engine's (``ruling_at``, ``history``, ``session_rulings``); the
differences between two states come with them and load when a command here runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any

import click

from cli import systems
from cli.completion import character_names
from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.errors import INTERRUPTED
from cli.render import emit_json, json_line, say, say_lines
from domain.campaign import CampaignState
from domain.errors import NotYetCreated
from engine import converter


def point_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--at RULING, --session N or --time ISO, and --corrected."""
    for option in reversed(
        [
            click.option(
                "--at", "at_ruling", type=WHOLE_NUMBER, help="As it stood after this ruling."
            ),
            click.option(
                "--session", "session", type=WHOLE_NUMBER, help="As it stood when session N ended."
            ),
            click.option(
                "--time",
                "moment",
                type=click.DateTime(
                    ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%d %H:%M"]
                ),
                help="As it stood at that moment (ISO; local time unless an offset is given).",
            ),
            click.option(
                "--corrected", is_flag=True, help="Apply the undos and amendments made since."
            ),
        ]
    ):
        f = option(f)
    return f


def _point(
    ctx: Context, at_ruling: int | None, session: int | None, moment: datetime | None
) -> int | None:
    if at_ruling is None and session is None and moment is None:
        return None
    return ctx.engine.ruling_at(ctx.campaign(), ruling=at_ruling, session=session, time=moment)


def _state(ctx: Context, who: str | None, ruling: int | None, corrected: bool) -> Any:
    name = ctx.campaign()
    if who is None:
        if ruling is None:
            return ctx.engine.campaign(name)
        return ctx.engine.campaign_at(name, ruling=ruling, corrected=corrected)
    if ruling is None:
        return ctx.engine.character(name, who, audience=ctx.audience)
    return ctx.engine.character_at(
        name, who, ruling=ruling, corrected=corrected, audience=ctx.audience
    )


def campaign_text(c: CampaignState) -> str:
    lines = [f"{c.name} ({c.system}), GM {c.gm}: {c.rulings} rulings"]
    lines.append(f"session {c.session} running" if c.session else f"{c.sessions} sessions played")
    if c.scene:
        lines.append(f"scene {c.scene}: {c.stage}")
    lines.extend(f"  {e.name} ({e.player})" for e in c.roster)
    if c.retracted:
        lines.append("undone rulings: " + ", ".join(str(n) for n in sorted(c.retracted)))
    return "\n".join(lines)


@click.command("show")
@click.argument("who", required=False, shell_complete=character_names)
@point_options
@pass_context
def show(
    ctx: Context,
    who: str | None,
    at_ruling: int | None,
    session: int | None,
    moment: datetime | None,
    corrected: bool,
) -> None:
    """Show a character (or, without WHO, the campaign) now or as it stood at a point.

    At a point the default view is the log as recorded then; --corrected applies the undos and
    amendments made since to that past.

    \b
    Example:
      campaign show 31415 --session 1 --corrected
    """
    ruling = _point(ctx, at_ruling, session, moment)
    state = _state(ctx, who, ruling, corrected)
    if state is None:
        raise NotYetCreated(who=who or "the campaign", ruling=ruling)
    campaign = ctx.engine.campaign(ctx.campaign())
    sheets = systems.sheets(campaign.system)
    if ctx.as_json:
        from engine import character_view

        shown = state if who is None else character_view(campaign.system, state)
        emit_json(converter.unstructure(shown))
        return
    say_lines(campaign_text(state) if who is None else sheets.text(state, campaign))
    if corrected and ruling is not None:
        _corrected_since(ctx, ruling)


def _corrected_since(ctx: Context, ruling: int) -> None:
    """Say which later corrections changed the past at ``ruling`` (undone, amended and
    re-decided rulings up to it)."""
    lines = [
        line
        for logged in ctx.engine.log(ctx.campaign(), audience=ctx.audience)
        if logged.ruling.number <= ruling
        for line in logged.corrected_after(ruling)
    ]
    if lines:
        say("corrected since: " + "; ".join(lines))


@click.command("diff")
@click.argument("who", required=False)
@click.argument("first", type=WHOLE_NUMBER)
@click.argument("second", type=WHOLE_NUMBER, required=False)
@click.option(
    "--views", is_flag=True, help="At FIRST: the past as recorded against as corrected since."
)
@pass_context
def diff(ctx: Context, who: str | None, first: int, second: int | None, views: bool) -> None:
    """What changed for a character (or the campaign) between two rulings, field by field.

    With --views, what later undos and amendments changed about the past at ruling FIRST.

    \b
    Example:
      campaign diff 31415 8 12
    """
    from engine import differences, field_changes

    if views:
        before = _state(ctx, who, first, False)
        after = _state(ctx, who, first, True)
    else:
        last = ctx.engine.ruling_at(ctx.campaign())
        before = _state(ctx, who, first, True)
        after = _state(ctx, who, second if second is not None else last, True)
    changes = differences(before, after)
    if ctx.as_json:
        emit_json(converter.unstructure(field_changes(changes)))
        return
    if not changes:
        say("no differences")
    for field, old, new in changes:
        say(f"{field}: {old} -> {new}")
    if views:
        _corrected_since(ctx, first)


@click.command("history")
@click.argument("who", shell_complete=character_names)
@pass_context
def character_history(ctx: Context, who: str) -> None:
    """Every change to a character, with the ruling that caused it (undone and amended marked).

    \b
    Example:
      campaign history 31415
    """
    from engine import history_entries, history_lines

    name = ctx.campaign()
    campaign = ctx.engine.campaign(name)
    changes = ctx.engine.history(name, who, audience=ctx.audience)
    entries = history_entries(changes, campaign)
    if ctx.as_json:
        emit_json(converter.unstructure(entries))
        return
    for entry in entries:
        for line in history_lines(entry):
            say(line)


@click.command("replay")
@click.option(
    "--session", "session", type=WHOLE_NUMBER, help="Which session (default: the latest)."
)
@click.option("--step", is_flag=True, help="Wait for a key between rulings.")
@pass_context
def replay(ctx: Context, session: int | None, step: bool) -> None:
    """Narrate a session ruling by ruling, with the characters' state after each (as corrected).
    With --json, one JSON object per line and ruling.

    \b
    Example:
      campaign replay --session 1 --step
    """
    from engine import replay_lines, replay_step

    name = ctx.campaign()
    campaign = ctx.engine.campaign(name)
    summarize = systems.sheets(campaign.system).status
    who = {e.character_id: e.name for e in campaign.roster}
    progress = None if step else progress_line(f"replaying session {session or 'latest'}")
    for narrated in ctx.engine.replay(name, session, audience=ctx.audience, progress=progress):
        after = sorted((who[c], summarize(s)) for c, s in narrated.after.items() if s is not None)
        shown = replay_step(narrated.logged, campaign, after)
        if ctx.as_json:
            click.echo(json_line(converter.unstructure(shown)))
            continue
        for line in replay_lines(shown):
            say(line)
        if step and not next_ruling():
            return


PROGRESS_FROM = 200  # rulings: a shorter session is narrated before a line would help
PROGRESS_EVERY = 50


def progress_line(what: str) -> Callable[[int, int], None] | None:
    """A progress line on the terminal (stderr) while the narration goes to a file or a pipe;
    None when there is no terminal to show it on or the narration itself is on it."""
    if not sys.stderr.isatty() or sys.stdout.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        if done % PROGRESS_EVERY == 0 or done == total:
            end = "\n" if done == total else ""
            click.echo(f"\r{what}: {done:,} of {total:,} rulings{end}", err=True, nl=False)

    return show


QUIT_KEYS = {"q", "Q", "\x1b", "\x04"}  # q, Esc, Ctrl-D
CTRL_C = "\x03"


def next_ruling() -> bool:
    """Wait for a key: False when it asks to stop (q, Esc, Ctrl-D, or no more input); Ctrl-C
    ends the run there, with exit code 130 and no traceback."""
    click.echo("  (any key: next ruling; q or Esc: stop) ", nl=False)
    try:
        key = click.getchar() if sys.stdin.isatty() else sys.stdin.read(1)  # piped: a character
    except EOFError:
        key = ""
    except (KeyboardInterrupt, click.Abort):
        key = CTRL_C
    click.echo()
    if key == CTRL_C:
        raise click.exceptions.Exit(INTERRUPTED)
    return bool(key) and key not in QUIT_KEYS


COMMANDS = (show, diff, character_history, replay)
