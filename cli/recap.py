"""The recap, timeline and rebuild commands (the read models load only when one of them runs)."""

from __future__ import annotations

from typing import Any

import click

from cli.audiences import FOR_HELP, audience_of
from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.render import emit_json
from projections.format_list import FORMAT_NAMES

# engine.MODELS, not imported until a command runs
MODEL_NAMES = ("dice", "exposure", "index", "recaps", "search")


def _format_option(function: Any) -> Any:
    function = click.option(
        "--post",
        "post",
        metavar="[URL]",
        is_flag=False,
        flag_value="",
        help="Post it to this Discord webhook as --format discord messages, in order. The URL is "
        "a secret: give --post alone to read it from $CAMPAIGN_WEBHOOK.",
    )(function)
    function = click.option(
        "--max-chars",
        "max_chars",
        type=WHOLE_NUMBER,
        help="Characters in one Discord message (default 2000, at least 100).",
    )(function)
    function = click.option(
        "--out", "out", type=click.Path(dir_okay=False), help="Write to this file."
    )(function)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMAT_NAMES),
        help="Markdown (forums, chat; the default), plain text for the terminal, one "
        "self-contained HTML page, JSON (bots; also --json), or Discord messages (lists, no "
        "tables; numbered parts of --max-chars).",
    )(function)


@click.command("recap")
@click.option(
    "--session", "session", type=WHOLE_NUMBER, help="Which session (default: the latest)."
)
@click.option("--gm", "gm", is_flag=True, help="The GMs' copy: GM-only lines too (never posted).")
@click.option("--for", "member", metavar="AUDIENCE", help=FOR_HELP)
@_format_option
@pass_context
def recap_command(
    ctx: Context,
    session: int | None,
    gm: bool,
    member: str | None,
    fmt: str | None,
    out: str | None,
    max_chars: int | None,
    post: str | None,
) -> None:
    """A session's recap: scenes, one line per ruling, highlights, each character's scores at
    the start and the end, and the corrections (undone and amended rulings, who and why).
    `--for MEMBER` is the GM writing one member's private recap (as `--as MEMBER` reads it);
    `--for table` what every member may read. Discord messages and `--post` (a Discord
    channel's webhook, cut into messages) are the table's copy unless `--for` names another,
    which `--post` never sends.

    \b
    Example:
      campaign recap --session 2 --format html --out session-2.html
    """
    from cli.recap_views import emit, format_of

    public = format_of(fmt, out, ctx.as_json, max_chars=max_chars, post=post) == "discord"
    audience = audience_of(ctx, member, public=public, posted=post is not None, gm=gm)
    view = ctx.engine.recap(ctx.campaign(), session, gm=gm, audience=audience)
    emit(view, "recap", fmt, out, ctx.as_json, max_chars=max_chars, post=post)


@click.command("timeline")
@click.argument("hero", required=False)
@click.option("--for", "asked", metavar="AUDIENCE", help=FOR_HELP)
@_format_option
@pass_context
def timeline_command(
    ctx: Context,
    hero: str | None,
    asked: str | None,
    fmt: str | None,
    out: str | None,
    max_chars: int | None,
    post: str | None,
) -> None:
    """The Code: a hero's Exposure reveal timeline (every change with its cause and dice, every
    detail revealed, what the public knew at each session's end, undone rulings voided); without
    HERO, every hero of the campaign on one chart.

    \b
    Example:
      campaign timeline "The Hawk" --format html --out hawk.html
    """
    from cli.recap_views import View, emit, format_of

    public = format_of(fmt, out, ctx.as_json, max_chars=max_chars, post=post) == "discord"
    audience = audience_of(ctx, asked, public=public, posted=post is not None)
    if hero is None:
        view: View = ctx.engine.campaign_timelines(ctx.campaign(), audience=audience)
        kind = "campaign"
    else:
        view = ctx.engine.hero_timeline(ctx.campaign(), hero, audience=audience)
        kind = "timeline"
    emit(view, kind, fmt, out, ctx.as_json, max_chars=max_chars, post=post)


@click.command("rebuild")
@click.option(
    "--projection",
    "names",
    multiple=True,
    type=click.Choice(MODEL_NAMES),
    help="Which read model (repeatable; default: all).",
)
@pass_context
def rebuild_command(ctx: Context, names: tuple[str, ...]) -> None:
    """Rebuild read models from the whole log, with a progress bar (they are otherwise kept up
    to date one ruling at a time).

    \b
    Example:
      campaign rebuild --projection recaps
    """
    from rich.console import Console
    from rich.progress import Progress

    engine = ctx.engine
    done: dict[str, int] = {}
    console = Console(stderr=True)
    with Progress(console=console, disable=ctx.as_json, transient=False) as bar:
        for name in names or MODEL_NAMES:
            task = bar.add_task(f"rebuilding {name}", total=None)

            def step(position: int, stop: int, task: Any = task) -> None:
                bar.update(task, completed=position, total=stop)

            done[name] = engine.rebuild(name, progress=step)
            if not done[name]:
                bar.update(task, completed=1, total=1)  # an empty store is rebuilt at once
    if ctx.as_json:
        emit_json({"rebuilt": done})
    else:
        for name, count in done.items():
            click.echo(f"{name}: {count} events processed")


@click.command("projections")
@click.option("--once", is_flag=True, help="Catch up once and stop.")
@click.option(
    "--interval", type=float, default=2.0, show_default=True, help="Seconds between checks."
)
@click.option("--stop-after", type=float, help="Stop after this many seconds (default: never).")
@pass_context
def projections_command(
    ctx: Context, once: bool, interval: float, stop_after: float | None
) -> None:
    """Keep the read models (recaps, timelines, the ruling index, the dice counts) up to date
    as a worker, beside the writers of the store.

    Useful on PostgreSQL, where many processes write; on a SQLite file `recap` catches up by
    itself before it renders.

    \b
    Example:
      campaign --db postgresql://gm@db/tables projections --interval 5
    """
    import time

    started = time.monotonic()
    while True:
        for name in MODEL_NAMES:
            processed = ctx.engine.catch_up(name)
            if processed:
                click.echo(f"{name}: {processed} events processed")
        if once or (stop_after is not None and time.monotonic() - started >= stop_after):
            return
        time.sleep(interval)


COMMANDS = (recap_command, timeline_command, rebuild_command, projections_command)
