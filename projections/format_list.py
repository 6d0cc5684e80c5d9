"""The output formats every front end serves, by name: what each is called, its media type over
HTTP and the suffix of its route and files. Kept apart from their renderers
(``projections.formats``) so that a command line can list the choices without loading them."""

from __future__ import annotations

from attrs import frozen


@frozen
class Format:
    """An output format: its name (``--format``), what it is called, its media type over HTTP
    and the suffix of its route and files."""

    name: str
    title: str
    media_type: str
    suffix: str


TEXT = Format("text", "plain text", "text/plain; charset=utf-8", "txt")
MD = Format("md", "Markdown", "text/markdown; charset=utf-8", "md")
HTML = Format("html", "HTML", "text/html; charset=utf-8", "html")
JSON = Format("json", "JSON", "application/json", "json")
DISCORD = Format("discord", "Discord messages", "application/json", "discord")
FORMATS: dict[str, Format] = {f.name: f for f in (TEXT, MD, HTML, JSON, DISCORD)}
FORMAT_NAMES = tuple(FORMATS)
