"""How the recap commands write what the engine gives: Markdown, HTML or JSON,, out or to a file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from domain.errors import DomainError
from projections.render_html import campaign_timeline_html, recap_html, timeline_html
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from projections.views import CampaignTimeline, HeroTimeline, Recap

View = Recap | HeroTimeline | CampaignTimeline
FORMATS = ("md", "html", "json")

# Each kind's renderers take that kind's view (``recap``: a Recap, ...), which the key cannot say.
RENDER: dict[str, dict[str, Callable[[Any], str]]] = {
    "recap": {"md": recap_md, "html": recap_html},
    "timeline": {"md": timeline_md, "html": timeline_html},
    "campaign": {"md": campaign_timeline_md, "html": campaign_timeline_html},
}


class FormatContradicts(DomainError):
    template = "--json asks for JSON and --format {fmt} for {what}: give one of them"


def emit(view: View, kind: str, fmt: str | None, out: str | None, as_json: bool) -> None:
    """Write ``view`` as ``fmt`` (default Markdown; JSON under --json, which no other --format
    may contradict) to stdout or the file ``out``."""
    if as_json and fmt not in (None, "json"):
        raise FormatContradicts(fmt=fmt, what="HTML" if fmt == "html" else "Markdown")
    fmt = "json" if as_json else fmt or "md"
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
