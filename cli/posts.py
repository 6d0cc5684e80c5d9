"""Posts and the thread, verbs every system shares: `post` writes to the table's thread as a
ruling of its own; `thread` reads a session as the table lived it."""

from __future__ import annotations

import click

from cli.audiences import FOR_HELP, audience_of
from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from domain.audience import Audience
from domain.posts import WritePost
from projections.format_list import FORMAT_NAMES


@click.command("post")
@click.argument("text")
@click.option("--character", metavar="NAME", help="Speak or act as this character.")
@click.option("--npc", metavar="NAME", help="Speak as an NPC (the GM).")
@click.option("--ooc", is_flag=True, help="Out of character (anyone, observers too).")
@click.option(
    "--to",
    "to",
    multiple=True,
    metavar="MEMBER",
    help="Private: only you, MEMBER (repeatable) and the GMs read it.",
)
@dice_options
@pass_context
def post(
    ctx: Context,
    text: str,
    character: str | None,
    npc: str | None,
    ooc: bool,
    to: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Post TEXT (Markdown) to the table's thread, as a ruling of its own: narration by the GM
    (the default for a GM), in character (--character: a player's own, any for the GM), as an
    NPC (--npc, the GM), or out of character (--ooc). A player who plays one character speaks
    as them. A roll in brackets ([2d6+1], [4d6kh3 for the climb]) is rolled in the post's
    ruling, as `campaign dice` rolls; --hidden keeps the whole post the GMs' until revealed.

    \b
    Example:
      campaign --as alice post "Tanner vaults the rail [2d6+1 for the jump]" --character Tanner
    """
    by = ctx.actor or ctx.engine.campaign(ctx.campaign()).gm
    command = WritePost(text=text, by=by, character=character, npc=npc, ooc=ooc, to=to)
    run(ctx, command, faces=faces, seed=seed)


@click.command("thread")
@click.option("--session", type=WHOLE_NUMBER, help="The session (default: the latest).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMAT_NAMES),
    default="text",
    show_default=True,
    help="text for the terminal, md for forums, html for a page, json, discord (split into "
    "messages, as recaps are).",
)
@click.option("--for", "reader", metavar="AUDIENCE", help=FOR_HELP)
@pass_context
def thread(ctx: Context, session: int | None, fmt: str, reader: str | None) -> None:
    """Show a session as the table lived it: posts and rulings in order, each post under its
    speaker (the character and their player), private posts only for those who may read them,
    struck and edited posts marked.

    \b
    Example:
      campaign thread --session 1 --format md
    """
    from cli.recap_views import emit

    audience = audience_of(ctx, reader, public=fmt == "discord" and not ctx.as_json)
    found = ctx.engine.thread(ctx.campaign(), session, audience=audience)
    emit(found, "thread", "json" if ctx.as_json else fmt, None, ctx.as_json)
    witnessed(ctx, audience)


def witnessed(ctx: Context, audience: Audience) -> None:
    """With a key of the member's own on this machine, keep the head of the log the thread was
    read at, signed by it (`campaign witness`)."""
    from cli.witness import own_key, remember

    key = own_key(None)
    if key is not None:
        name = ctx.campaign()
        head = ctx.engine.witness_head(name, audience=audience)
        remember(key, head, ctx.actor or ctx.engine.campaign(name).gm, "campaign thread")


COMMANDS = (post, thread)
