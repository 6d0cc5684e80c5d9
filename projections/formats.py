"""The output formats, registered once: each format's name, what it is, its media type and file
suffix, and the renderer of each kind of view in it. A format registered here is one every front
end serves: the CLI's ``--format`` choices and the server's routes (``/recap.md``,
``/thread.txt``, ...) are made from this list, so a new format is one entry per kind here and
nothing in the front ends.

The kinds: a session's ``recap``, a hero's Exposure ``timeline``, every hero's timelines
(``campaign``) and a session's ``thread``. Each renderer returns text; ``discord`` is the text a
chat channel takes, cut into messages by ``messages`` (Discord's limit by default), and ``json``
is the view's plain data (``data``) written as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from projections.format_list import DISCORD, FORMATS, JSON
from projections.render_discord import (
    MAX_CHARS,
    campaign_timeline_discord,
    recap_discord,
    split,
    timeline_discord,
)
from projections.render_html import campaign_timeline_html, recap_html, timeline_html
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from projections.render_text import campaign_timeline_text, recap_text, timeline_text
from projections.render_thread import thread_html, thread_json, thread_md, thread_text

KINDS = ("recap", "timeline", "campaign", "thread")

# The plain data of each kind's view, as JSON gives it (the views are plain data, but a thread).
_DATA: dict[str, Callable[[Any], Any]] = {"thread": thread_json}

# Each kind's renderers take that kind's view (``recap``: a Recap, ...), which the key cannot say.
_RENDER: dict[str, dict[str, Callable[[Any], str]]] = {
    "recap": {"text": recap_text, "md": recap_md, "html": recap_html, "discord": recap_discord},
    "timeline": {
        "text": timeline_text,
        "md": timeline_md,
        "html": timeline_html,
        "discord": timeline_discord,
    },
    "campaign": {
        "text": campaign_timeline_text,
        "md": campaign_timeline_md,
        "html": campaign_timeline_html,
        "discord": campaign_timeline_discord,
    },
    "thread": {"text": thread_text, "md": thread_md, "html": thread_html, "discord": thread_md},
}


def data(kind: str, view: Any) -> Any:
    """The view's plain data (what ``json`` writes)."""
    return _DATA.get(kind, _same)(view)


def _same(view: Any) -> Any:
    return view


def render(kind: str, fmt: str, view: Any) -> str:
    """The view of ``kind`` in the format named ``fmt`` (``discord``: the text before it is cut
    into messages)."""
    if fmt == JSON.name:
        return json.dumps(data(kind, view), indent=2, ensure_ascii=False) + "\n"
    return _RENDER[kind][fmt](view)


def messages(kind: str, view: Any, limit: int = MAX_CHARS) -> list[str]:
    """The view as chat messages of at most ``limit`` characters each, in order."""
    return split(render(kind, DISCORD.name, view), limit)


def check() -> None:
    """Every kind has a renderer for every format (the test suite asks this of the registry)."""
    for kind in KINDS:
        missing = [f for f in FORMATS if f != JSON.name and f not in _RENDER[kind]]
        if missing:
            raise LookupError(f"{kind} has no renderer for {', '.join(missing)}")
