"""How the recap, timeline and thread commands write what the engine gives, in any format
registered (``projections.formats``: text, Markdown, HTML, JSON, Discord messages): out, to a
file, or posted to a webhook."""

from __future__ import annotations

from pathlib import Path

import click

from cli.render import emit_json
from domain.errors import DomainError
from projections.format_list import DISCORD, FORMATS
from projections.formats import messages, render
from projections.render_discord import MAX_CHARS
from projections.thread import Thread
from projections.views import CampaignTimeline, HeroTimeline, Recap

View = Recap | HeroTimeline | CampaignTimeline | Thread


class FormatContradicts(DomainError):
    template = "--json asks for JSON and --format {fmt} for {what}: give one of them"


class OptionsContradict(DomainError):
    template = "{first} and {second}: give one of them"


def emit(
    view: View,
    kind: str,
    fmt: str | None,
    out: str | None,
    as_json: bool,
    *,
    max_chars: int | None = None,
    post: str | None = None,
) -> None:
    """Write ``view`` as ``fmt`` (default Markdown; JSON under --json, which no other --format
    may contradict) to stdout or the file ``out``; or, with ``post`` (a URL, or "" for the one in
    $CAMPAIGN_WEBHOOK), post it as Discord messages and say how many."""
    fmt = format_of(fmt, out, as_json, max_chars=max_chars, post=post)
    if fmt == DISCORD.name:
        parts = messages(kind, view, max_chars or MAX_CHARS)
        if post is not None:
            _post(parts, post, as_json)
            return
        text = "\n\n".join(parts) + "\n"
    else:
        text = render(kind, fmt, view)
    if out is None:
        click.echo(text, nl=False)
        return
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text, encoding="utf-8")
    click.echo(f"wrote {out}", err=as_json)


def format_of(
    fmt: str | None, out: str | None, as_json: bool, *, max_chars: int | None, post: str | None
) -> str:
    """The format asked for, or the refusal of options that ask for two."""
    if post is not None:  # --json then only asks for the report of the post as JSON
        if fmt is not None and fmt != "discord":
            raise OptionsContradict(first="--post sends Discord messages", second=_asks(fmt))
        if out is not None:
            raise OptionsContradict(first="--post sends it", second="--out writes it to a file")
        return "discord"
    if max_chars is not None:
        if as_json or (fmt is not None and fmt != "discord"):
            second = "--json asks for JSON" if as_json or fmt is None else _asks(fmt)
            raise OptionsContradict(first="--max-chars cuts Discord messages", second=second)
        return "discord"
    if as_json and fmt not in (None, "json"):
        raise FormatContradicts(fmt=fmt, what=FORMATS[fmt].title)
    return "json" if as_json else fmt or "md"


def _asks(fmt: str) -> str:
    return f"--format {fmt} asks for {FORMATS[fmt].title}"


def _post(parts: list[str], post: str, as_json: bool) -> None:
    from cli.post import post_parts, webhook_url

    posted = post_parts(webhook_url(post), parts)
    if as_json:
        emit_json({"posted": posted})
    else:
        click.echo(f"posted {posted} message{'' if posted == 1 else 's'} to the webhook")
