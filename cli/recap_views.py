"""What the recap commands show: read models caught up, rendered as Markdown, HTML or JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click

from domain.errors import DomainError
from engine import Engine
from engine.readmodels import ReadModel, catch_up, views_of
from engine.timeline import NoSuchPoint
from projections.recap import recap
from projections.recap_model import RecapModel, session_document
from projections.render_html import campaign_timeline_html, recap_html, timeline_html
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from projections.timeline import campaign_timeline, timeline
from projections.timeline_model import TimelineModel, hero_document

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
    key = f"session/{campaign.id}/{number}"
    _fresh(engine, RECAPS, key)
    return recap(session_document(partial(views_of(engine).document, RECAPS.name), key), gm=gm)


def _the_code(engine: Engine, name: str) -> Any:
    campaign = engine.campaign(name)
    if campaign.system != "the-code":
        raise NotTheCode(campaign=name, system=campaign.system)
    return campaign


def hero_timeline(engine: Engine, name: str, ref: str) -> Doc:
    """One hero's Exposure reveal timeline as plain data."""
    campaign = _the_code(engine, name)
    hero = campaign.find(ref).character_id
    key = f"hero/{campaign.id}/{hero}"
    _fresh(engine, EXPOSURE, key)
    read = partial(views_of(engine).document, EXPOSURE.name)
    doc = hero_document(read, key)
    if doc is None:
        raise NotAHero(ref=ref)
    return timeline(doc, read(f"campaign/{campaign.id}"))


def campaign_timelines(engine: Engine, name: str) -> Doc:
    """Every hero's timeline in a campaign, and where each stood at each session's end."""
    campaign = _the_code(engine, name)
    meta = _fresh(engine, EXPOSURE, f"campaign/{campaign.id}") or {"heroes": [], "sessions": {}}
    meta.setdefault("name", name)
    read = partial(views_of(engine).document, EXPOSURE.name)
    heroes = [hero_document(read, f"hero/{campaign.id}/{h}") for h in meta["heroes"]]
    return campaign_timeline(meta, [doc for doc in heroes if doc is not None])


RENDER: dict[str, dict[str, Callable[[Doc], str]]] = {
    "recap": {"md": recap_md, "html": recap_html},
    "timeline": {"md": timeline_md, "html": timeline_html},
    "campaign": {"md": campaign_timeline_md, "html": campaign_timeline_html},
}


def emit(view: Doc, kind: str, fmt: str, out: str | None, as_json: bool) -> None:
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
