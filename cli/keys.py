"""A player's own key, on the player's own machine: made once, its public half registered on
their seat, then used to sign the entropy they add to a session's committed dice. These verbs
open no store: the player needs only the commitment the GM posted."""

from __future__ import annotations

import shlex
from typing import Any

import click

from cli.context import Context, pass_context
from cli.render import emit_json, say

FILE = click.option(
    "--file",
    "path",
    help="The key file (default $CAMPAIGN_KEY, else ~/.config/campaign-log/player-key.pem).",
)


@click.group("key")
def key() -> None:
    """Your own signing key as a player: the entropy you add counts only when signed by it.

    \b
    Example:
      campaign key new
    """


@key.command("new")
@FILE
@pass_context
def key_new(ctx: Context, path: str | None) -> None:
    """Make your key (on your own machine; it never leaves the file) and print its public half,
    which the GM, or you through the table server, puts on your seat.

    \b
    Example:
      campaign key new
    """
    from engine import key_path, new_key

    where = key_path(path)
    public = new_key(where)
    _public(ctx, where, public)


@key.command("show")
@FILE
@pass_context
def key_show(ctx: Context, path: str | None) -> None:
    """Print your key's public half (what goes on your seat with `campaign member key`).

    \b
    Example:
      campaign key show
    """
    from engine import key_path, public_key_of

    where = key_path(path)
    _public(ctx, where, public_key_of(where))


def _public(ctx: Context, where: object, public: str) -> None:
    if ctx.as_json:
        emit_json({"file": str(where), "public_key": public})
        return
    say(f"your public key: {public}")
    say(f"  on your seat: campaign member key NAME {public}")


@key.command("sign")
@click.argument("words")
@click.option(
    "--commitment",
    required=True,
    help="The session's commitment: the seed hash `session start` printed, as the GM posted it.",
)
@click.option("--member", required=True, help="Your name at the table (your seat).")
@FILE
@pass_context
def key_sign(ctx: Context, words: str, commitment: str, member: str, path: str | None) -> None:
    """Sign WORDS as your entropy for the session committed to COMMITMENT, and print the
    command that records it (send it to the GM, or run it yourself on the table's store).

    \b
    Example:
      campaign key sign "pancakes at midnight" --member bea --commitment 4f4d1b...
    """
    from engine import key_path, sign_entropy

    signature = sign_entropy(key_path(path), commitment, member, words)
    if ctx.as_json:
        emit_json({"member": member, "words": words.strip(), "signature": signature})
        return
    say(f"signature: {signature}")
    line = f"campaign entropy {shlex.quote(words.strip())} --by {shlex.quote(member)}"
    say(f"  record it: {line} --signature {signature}")


@key.command("seal")
@click.argument("text_file", metavar="FILE", type=click.File("r", encoding="utf-8"), default="-")
@FILE
@pass_context
def key_seal(ctx: Context, text_file: Any, path: str | None) -> None:
    """Seal a roll of yours: sign the text `--seal-text` printed (in FILE, or on standard
    input) with your key, and print the seal to record the roll with (`--seal`). Its dice then
    come from the committed seed and your seal, which the GM's machine cannot foresee. Your
    machine keeps what it sealed, beside the key, so that `verify-dice --key` finds a sealed
    roll the log lacks.

    \b
    Example:
      campaign --as ana dice 1d20 --seal-text | campaign key seal
    """
    from engine import key_path, sign_roll

    text = text_file.read().removesuffix("\n")
    seal = sign_roll(key_path(path), text)
    if ctx.as_json:
        emit_json({"text": text, "seal": seal})
        return
    lines = text.split("\n")
    say(f"you seal {lines[2]}'s sealed roll {lines[3]}: {lines[4]} {lines[5]}")
    say(f"seal: {seal}")
    say("  record it: the same command with --seal, as the player who asked for it")


COMMANDS = (key,)
