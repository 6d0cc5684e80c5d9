"""The verbs of play every system shares: sessions and scenes, the players' entropy, notes,
and the log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.render import emit_json_list, logged_json, say, show_log, show_ruling
from domain.events import DiceCommitted
from domain.lifecycle import (
    AddEntropy,
    AddNote,
    CloseEntropy,
    EndScene,
    EndSession,
    StartScene,
    StartSession,
)

if TYPE_CHECKING:
    from engine import LoggedRuling


@click.group("session")
def session() -> None:
    """Start or end a game session.

    \b
    Example:
      campaign session start
    """


@session.command("start")
@click.option(
    "--physical-dice",
    is_flag=True,
    help="The table rolls real dice: players may type the faces they rolled (--dice); the "
    "players' check lists every such die.",
)
@pass_context
def session_start(ctx: Context, physical_dice: bool) -> None:
    """Start the next session; its digital dice are committed: the seed's hash is printed
    before anyone adds entropy (post it). Then the players add theirs with `campaign entropy`.

    \b
    Example:
      campaign session start
    """
    command = StartSession(physical_dice=physical_dice)
    result = ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say)
    show_ruling(result, ctx.as_json)
    committed = [e.seed_hash for e in result.events if isinstance(e, DiceCommitted)]
    if committed and not ctx.as_json:
        for line in entropy_hint(committed[0]):
            say(line)


def entropy_hint(seed_hash: str) -> list[str]:
    """What the players do next, after `session start`: sign their words against the seed hash
    just printed (the commitment), with a key made once and put on their seat."""
    return [
        "  players: add your entropy now, before the first digital roll, signed against the "
        "seed hash above:",
        f'    campaign key sign "your words" --member NAME --commitment {seed_hash}',
        "  no key yet? make one once with `campaign key new`, and put its public half on your "
        "seat from the table page or Discord (`/member key`): one put there with `campaign "
        "member key NAME PUBLIC_KEY`, at the GM's keyboard, signs words that are not counted",
    ]


@click.command("entropy")
@click.argument("words")
@click.option("--by", "by", required=True, help="Who adds it (a player's name).")
@click.option(
    "--signature",
    default="",
    help="The player's signature of the words, as `campaign key sign` prints it (128 "
    "lowercase hex digits; any other spelling is refused); needed once a key is on their seat.",
)
@pass_context
def entropy(ctx: Context, words: str, by: str, signature: str) -> None:
    """Add a player's words to the running session's committed dice, after the seed's hash was
    published and before the first digital roll (which closes the window; it waits for every
    player with a key, unless the GM closes it: `session close-entropy`). Only players add
    entropy, and only words signed with the key on the player's seat count; every roll of the
    session then depends on all of them.

    \b
    Example:
      campaign entropy "pancakes at midnight" --by bea --signature 9c1e...
    """
    command = AddEntropy(words=words, by=by, signature=signature)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@session.command("close-entropy")
@click.option("--reason", required=True, help="Why the dice go on without the words left out.")
@pass_context
def session_close_entropy(ctx: Context, reason: str) -> None:
    """Close the running session's entropy window before every player with a key has added
    words (the first committed roll waits for them otherwise), saying why; the ruling names who
    was left out.

    \b
    Example:
      campaign session close-entropy --reason "bo is away tonight"
    """
    command = CloseEntropy(reason=reason)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@session.command("end")
@pass_context
def session_end(ctx: Context) -> None:
    """End the running session (its scene must have ended).

    \b
    Example:
      campaign session end
    """
    show_ruling(
        ctx.engine.execute(ctx.campaign(), EndSession(), actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@click.group("scene")
def scene() -> None:
    """Start or end a scene.

    \b
    Example:
      campaign scene start "A loading dock at midnight"
    """


@scene.command("start")
@click.argument("stage")
@pass_context
def scene_start(ctx: Context, stage: str) -> None:
    """Set the stage for a new scene: a challenge, a peril, a mystery.

    \b
    Example:
      campaign scene start "The night guard hears something in the lab"
    """
    result = ctx.engine.execute(
        ctx.campaign(), StartScene(stage=stage), actor=ctx.actor, say=ctx.say
    )
    show_ruling(result, ctx.as_json)


@scene.command("end")
@pass_context
def scene_end(ctx: Context) -> None:
    """End the scene: what the rule system does then (Code Green: marks clear, tokens return).

    \b
    Example:
      campaign scene end
    """
    show_ruling(
        ctx.engine.execute(ctx.campaign(), EndScene(), actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@click.command("note")
@click.argument("text")
@click.option("--gm-only", "gm_only", is_flag=True, help="Kept out of public recaps.")
@pass_context
def note(ctx: Context, text: str, gm_only: bool) -> None:
    """Write a note into the log (--gm-only: for the GM's eyes, never in a public recap).

    \b
    Example:
      campaign note "The guard's name is Dolores"
    """
    command = AddNote(text=text, gm_only=gm_only)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@click.command("log")
@click.option("--session", "session_number", type=WHOLE_NUMBER, help="Only this session's rulings.")
@pass_context
def log(ctx: Context, session_number: int | None) -> None:
    """Show every ruling in order, with its events and whether (and why) it was undone.

    \b
    Example:
      campaign log --session 1
    """
    name = ctx.campaign()
    state = ctx.engine.campaign(name)
    if session_number is None:  # the whole log, read and shown a page at a time
        rulings: Iterable[LoggedRuling] = ctx.engine.iter_log(name, audience=ctx.audience)
    else:
        rulings = ctx.engine.log(name, session=session_number, audience=ctx.audience)
    if ctx.as_json:
        emit_json_list(logged_json(logged, state) for logged in rulings)
    else:
        show_log(rulings, state)


COMMANDS = (session, entropy, scene, note, log)
