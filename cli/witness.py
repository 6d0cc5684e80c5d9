"""`campaign witness`: the heads of campaigns' logs this machine witnessed (each head its
`verify-dice` and `thread` were shown, signed with the member's key, and the statements it was
given), kept beside the key; and the reading and rendering of witness files for `verify
--witness` and `verify-dice --witness`. These verbs open no store."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cli.context import Context, pass_context
from cli.render import emit_json, say

if TYPE_CHECKING:  # the engine is imported when a verb runs
    from engine import Head, Statement, WitnessCheck, Witnessed

FILE = click.option(
    "--file",
    "path",
    help="Your key file (default $CAMPAIGN_KEY, else ~/.config/campaign-log/player-key.pem): "
    "the statements are kept beside it.",
)
WITNESS = click.option(
    "--witness",
    "witnesses",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A witness file (`campaign witness export`, the dice page's download, a member's, the "
    "app's post in Discord): the log must still hold every head it holds. Repeatable.",
)


@click.group("witness")
def witness() -> None:
    """The heads of campaigns' logs your machine witnessed, signed by your key and kept beside
    it, and those others gave you: a log rewritten since no longer holds them.

    \b
    Example:
      campaign witness list
    """


@witness.command("list")
@FILE
@pass_context
def witness_list(ctx: Context, path: str | None) -> None:
    """List the statements kept beside your key: each head (ruling, version of the campaign
    stream, last seal), who saw it, where and when, and whether its signature holds.

    \b
    Example:
      campaign witness list
    """
    from engine import converter, kept, key_path, witness_file

    where = key_path(path)
    statements = kept(where)
    if ctx.as_json:
        emit_json(
            {"file": str(witness_file(where)), "statements": converter.unstructure(statements)}
        )
        return
    if not statements:
        say(f"no witnessed heads kept in {witness_file(where)}")
        return
    for s in statements:
        head = s.head
        sealed = f", session {head.session}'s seal {head.seal[:16]}" if head.session else ""
        signed = "signature holds" if s.holds() else "unsigned" if not s.key else "NOT HOLDING"
        say(
            f"{head.name} ruling {head.ruling} (version {head.version}, digest "
            f"{head.digest[:16]}{sealed}): seen by {_who(s)}, {signed}"
        )
    say(f"kept in {witness_file(where)}")


@witness.command("export")
@click.option(
    "--out", type=click.Path(dir_okay=False, writable=True), help="File (default: stdout)."
)
@FILE
@pass_context
def witness_export(ctx: Context, out: str | None, path: str | None) -> None:
    """Write the statements kept beside your key as a witness file (one JSON line each), for
    `verify --witness` and `verify-dice --witness` on any machine, or to give another member.

    \b
    Example:
      campaign witness export --out ana.witness.jsonl
    """
    from engine import kept, key_path

    lines = [s.line() for s in kept(key_path(path))]
    if out is None:
        for line in lines:
            click.echo(line)
        return
    Path(out).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    click.echo(f"{len(lines)} statements written to {out}", err=True)


@witness.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@FILE
@pass_context
def witness_import(ctx: Context, files: tuple[str, ...], path: str | None) -> None:
    """Keep the statements of witness FILES beside your key (another member's export, the dice
    page's download, the app's post in a Discord channel copied to a file). A statement whose
    signature does not hold is not kept.

    \b
    Example:
      campaign witness import bo.witness.jsonl
    """
    from engine import keep, key_path

    statements = read_files(files)
    forged = [s for s in statements if s.key and not s.holds()]
    added = keep(key_path(path), [s for s in statements if not (s.key and not s.holds())])
    if ctx.as_json:
        emit_json({"read": len(statements), "kept": len(added), "not_holding": len(forged)})
        return
    say(f"{len(added)} new statements kept, of {len(statements)} read")
    for s in forged:
        say(f"WARNING: not kept, its signature does not hold: {_who(s)} of ruling {s.head.ruling}")


def read_files(paths: Iterable[str]) -> list[Statement]:
    """Every statement of the witness files ``paths`` (a line that is not a statement is
    refused ``WITNESS_UNREADABLE``, naming the file and the line)."""
    from engine import read_statements

    found: list[Statement] = []
    for path in paths:
        with open(path, "rb") as handle:
            found += read_statements(handle, path)
    return found


KEY_VARIABLE, DEFAULT_KEY = "CAMPAIGN_KEY", "~/.config/campaign-log/player-key.pem"


def own_key(given: str | None) -> Path | None:
    """The member's key file when there is one (``--key``/``--file``, else ``$CAMPAIGN_KEY``,
    else the default, as ``engine.key_path`` finds it): their machine keeps what it witnessed
    beside it. Looked for before the key's module is imported (it loads ``cryptography``,
    which a `thread` without a key does not need)."""
    found = Path(given or os.environ.get(KEY_VARIABLE) or DEFAULT_KEY).expanduser()
    if not found.is_file():
        return None
    from engine import key_path

    return key_path(given)


def remember(key: Path | None, head: Head | None, by: str, seen: str) -> Statement | None:
    """Sign and keep ``head`` as ``by`` saw it in ``seen``, when there is a key to sign with."""
    if key is None or head is None:
        return None
    from engine import witness as witnessed

    return witnessed(key, head, by=by, seen=seen)


def _who(s: Statement) -> str:
    return f"{s.by or 'someone'} at {s.at} ({s.seen})"


def check_lines(check: WitnessCheck) -> list[str]:
    """The witnesses' check as text: what was checked, the fork (the first head the log no
    longer holds, with who saw it and when), and the statements that are not evidence."""
    checked = check.checked
    lines = []
    if check.others:
        lines.append(f"witnesses: {check.others} statements of other campaigns not checked")
    if not checked:
        return lines
    by: dict[str, int] = {}
    for w in checked:
        name = w.statement.by or "someone"
        by[name] = by.get(name, 0) + 1
    seen = ", ".join(f"{who} {n}" for who, n in by.items())
    rulings = f"rulings {checked[0].statement.head.ruling} to {checked[-1].statement.head.ruling}"
    fork = check.fork
    if fork is None:
        many = "s" if len(checked) != 1 else ""
        lines.append(
            f"witnesses: the log holds every head of {len(checked)} statement{many} ({seen}), "
            f"of {rulings}"
        )
    else:
        after = [w for w in checked if w.fork and w is not fork]
        lines.append(f"FORK: {_fork(fork)}")
        if after:
            lines.append(f"  and {len(after)} more heads witnessed after it are not in the log")
    for w in checked:
        if w.signature == "does not hold":
            lines.append(f"WARNING: not evidence, its signature does not hold: {_who(w.statement)}")
        elif w.statement.key and not w.seated:
            lines.append(
                f"WARNING: signed by a key the log never put on {w.statement.by or 'anyone'}'s "
                f"seat: {_who(w.statement)} of ruling {w.statement.head.ruling}"
            )
    return lines


def _fork(w: Witnessed) -> str:
    s = w.statement
    signed = {"holds": "signed", "unsigned": "unsigned"}.get(w.signature, w.signature)
    return (
        f"ruling {s.head.ruling} (version {s.head.version}), seen by {s.by or 'someone'} at "
        f"{s.at} ({s.seen}, {signed}), is not in the log: {w.problem}"
    )


def check_json(check: WitnessCheck) -> dict[str, Any]:
    from engine import converter

    return {
        **converter.unstructure(check),
        "fork": converter.unstructure(check.fork) if check.fork else None,
    }


def witnessed_line(statement: Statement, key: Path) -> str:
    head = statement.head
    from engine import witness_file

    return (
        f"witnessed: ruling {head.ruling} (version {head.version}, digest {head.digest[:16]}), "
        f"kept in {witness_file(key)}"
    )


def statements_of(paths: Sequence[str], key: Path | None) -> list[Statement]:
    """The statements of ``paths`` and those kept beside ``key``."""
    from engine import kept

    return read_files(paths) + (kept(key) if key is not None else [])


COMMANDS = (witness,)
