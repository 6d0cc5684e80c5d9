"""Plain text for a terminal, from the Markdown a view is rendered to: the recap and the Exposure
timelines are written once as Markdown (``render_md``), and their text is that Markdown read by
markdown-it-py and written out without its markup: headings underlined, list items and quotes
indented, a table's rows as cells between bars, every user text cleaned of controls
(``plain_text``). Escapes are undone by the parser, so ``x\\_y`` reads ``x_y``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from projections.plain_text import plain_text
from projections.render_md import campaign_timeline_md, recap_md, timeline_md
from projections.views import CampaignTimeline, HeroTimeline, Recap

_UNDERLINE = {"h1": "=", "h2": "-"}


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def _inline(token: Token) -> str:
    """An inline run's words, without emphasis, code or link markup (a link reads as its text
    and, when they differ, its address in brackets)."""
    out: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif child.type == "link_close":
            continue
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            out.append(f"<{href}> " if href else "")
    return plain_text("".join(out))


def markdown_text(source: str) -> str:
    """``source`` (Markdown) as plain text."""
    lines: list[str] = []
    depth = 0  # list nesting
    quoted = 0
    row: list[str] = []
    pending = ""  # a list item's bullet, put before its first line
    tokens: Sequence[Token] = _parser().parse(source)
    for i, token in enumerate(tokens):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            if not depth:
                _blank(lines)
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif kind == "list_item_open":
            pending = f"{token.info}. " if token.info else "- "
        elif kind == "blockquote_open":
            quoted += 1
        elif kind == "blockquote_close":
            quoted -= 1
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            lines.append(" | ".join(row))
        elif kind == "inline":
            text = _inline(token)
            parent = tokens[i - 1].type if i else ""
            if parent in ("th_open", "td_open"):
                row.append(text)
                continue
            if parent == "heading_open":
                tag = tokens[i - 1].tag
                _blank(lines)
                lines.append(text)
                if tag in _UNDERLINE:
                    lines.append(_UNDERLINE[tag] * max(len(text), 3))
                continue
            indent = "  " * max(depth - 1, 0) + "> " * quoted
            if depth:
                lines.append(f"{indent}{pending or '  '}{text}")
                pending = ""
            else:
                _blank(lines)
                lines.append(f"{indent}{text}")
        elif kind == "table_open":
            _blank(lines)
    return "\n".join(lines).strip("\n") + "\n"


def _blank(lines: list[str]) -> None:
    """A blank line before a new block, unless one is there (or nothing is)."""
    if lines and lines[-1] != "":
        lines.append("")


def recap_text(r: Recap) -> str:
    """A session recap for the terminal."""
    return markdown_text(recap_md(r))


def timeline_text(t: HeroTimeline) -> str:
    """One hero's Exposure timeline for the terminal (its table as rows of cells)."""
    return markdown_text(timeline_md(t))


def campaign_timeline_text(view: CampaignTimeline) -> str:
    """Every hero's timeline for the terminal."""
    return markdown_text(campaign_timeline_md(view))
