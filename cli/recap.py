"""Reading the log as players do: session recaps, The Code's Exposure timelines, and rebuilding
the read models behind them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cli.context import Context, pass_context
from cli.render import emit_json
from domain.errors import DomainError
from engine import Engine
from engine.readmodels import ReadModel, catch_up, rebuild, views_of
from engine.timeline import NoSuchPoint
from projections.recap import recap
from projections.recap_model import RecapModel
from projections.render_html import campaign_timeline_html, recap_html, timeline_html
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from projections.timeline import campaign_timeline, timeline
from projections.timeline_model import TimelineModel

Doc = dict[str, Any]
RECAPS = RecapModel()
EXPOSURE = TimelineModel()
MODELS: dict[str, ReadModel] = {RECAPS.name: RECAPS, EXPOSURE.name: EXPOSURE}
FORMATS = ("md", "html", "json")


class NotTheCode(DomainError):
    template = "{campaign!r} is played under {system}: Exposure timelines are The Code's"


class NotAHero(DomainError):
    template = "{ref!r} is not a hero of The Code in this campaign"


def _fresh(engine: Engine, model: ReadModel, key: str) -> Any:
    """A document of a read model, after it caught up with the log."""
    views = views_of(engine)
    catch_up(engine, model, views=views)
    return views.document(model.name, key)


def session_recap(
    engine: Engine, name: str, session: int | None = None, *, gm: bool = False
) -> Doc:
    """The recap of session ``session`` (default: the latest) as plain data."""
    campaign = engine.campaign(name)
    number = session if session is not None else campaign.sessions
    if not 1 <= number <= campaign.sessions:
        raise NoSuchPoint(what=f"session {number}" if number else "session yet")
    doc = _fresh(engine, RECAPS, f"session/{campaign.id}/{number}")
    return recap(doc, gm=gm)


def _the_code(engine: Engine, name: str) -> Any:
    campaign = engine.campaign(name)
    if campaign.system != "the-code":
        raise NotTheCode(campaign=name, system=campaign.system)
    return campaign


def hero_timeline(engine: Engine, name: str, ref: str) -> Doc:
    """One hero's Exposure reveal timeline as plain data."""
    campaign = _the_code(engine, name)
    hero = campaign.find(ref).character_id
    doc = _fresh(engine, EXPOSURE, f"hero/{campaign.id}/{hero}")
    if doc is None:
        raise NotAHero(ref=ref)
    meta = views_of(engine).document(EXPOSURE.name, f"campaign/{campaign.id}")
    return timeline(doc, meta)


def campaign_timelines(engine: Engine, name: str) -> Doc:
    """Every hero's timeline in a campaign, and where each stood at each session's end."""
    campaign = _the_code(engine, name)
    meta = _fresh(engine, EXPOSURE, f"campaign/{campaign.id}") or {"heroes": [], "sessions": {}}
    meta.setdefault("name", name)
    views = views_of(engine)
    heroes = [views.document(EXPOSURE.name, f"hero/{campaign.id}/{h}") for h in meta["heroes"]]
    return campaign_timeline(meta, heroes)


RENDER: dict[str, dict[str, Callable[[Doc], str]]] = {
    "recap": {"md": recap_md, "html": recap_html},
    "timeline": {"md": timeline_md, "html": timeline_html},
    "campaign": {"md": campaign_timeline_md, "html": campaign_timeline_html},
}


def _emit(view: Doc, kind: str, fmt: str, out: str | None, as_json: bool) -> None:
    if as_json:
        fmt = "json"
    if fmt == "json":
        text = json.dumps(view, indent=2, ensure_ascii=False) + "\n"
    else:
        text = RENDER[kind][fmt](view)
    if out is None:
        click.echo(text, nl=False)
        return
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")
    click.echo(f"wrote {out}", err=as_json)


def _format_option(function: Callable[..., Any]) -> Callable[..., Any]:
    function = click.option(
        "--out", "out", type=click.Path(dir_okay=False), help="Write to this file."
    )(function)
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="md",
        show_default=True,
        help="Markdown (forums, chat), one self-contained HTML page, or JSON (bots).",
    )(function)


@click.command("recap")
@click.option("--session", "session", type=int, help="Which session (default: the latest).")
@click.option("--gm", "gm", is_flag=True, help="Include GM-only lines (never post these).")
@_format_option
@pass_context
def recap_command(ctx: Context, session: int | None, gm: bool, fmt: str, out: str | None) -> None:
    """A session's recap: scenes, one line per ruling, highlights, each character's scores at
    the start and the end, and the corrections (undone and amended rulings, who and why).

    \b
    Example:
      campaign recap --session 2 --format html --out session-2.html
    """
    view = session_recap(ctx.engine, ctx.campaign(), session, gm=gm)
    _emit(view, "recap", fmt, out, ctx.as_json)


@click.command("timeline")
@click.argument("hero", required=False)
@_format_option
@pass_context
def timeline_command(ctx: Context, hero: str | None, fmt: str, out: str | None) -> None:
    """The Code: a hero's Exposure reveal timeline (every change with its cause and dice, every
    detail revealed, what the public knew at each session's end, undone rulings voided); without
    HERO, every hero of the campaign on one chart.

    \b
    Example:
      campaign timeline "The Hawk" --format html --out hawk.html
    """
    if hero is None:
        _emit(campaign_timelines(ctx.engine, ctx.campaign()), "campaign", fmt, out, ctx.as_json)
    else:
        _emit(hero_timeline(ctx.engine, ctx.campaign(), hero), "timeline", fmt, out, ctx.as_json)


@click.command("rebuild")
@click.option(
    "--projection",
    "names",
    multiple=True,
    type=click.Choice(sorted(MODELS)),
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
        for name in names or sorted(MODELS):
            task = bar.add_task(f"rebuilding {name}", total=None)

            def step(position: int, stop: int, task: Any = task) -> None:
                bar.update(task, completed=position, total=stop)

            done[name] = rebuild(engine, MODELS[name], progress=step)
            if not done[name]:
                bar.update(task, completed=1, total=1)  # an empty store is rebuilt at once
    if ctx.as_json:
        emit_json({"rebuilt": done})
    else:
        for name, count in done.items():
            click.echo(f"{name}: {count} events processed")


COMMANDS = (recap_command, timeline_command, rebuild_command)
