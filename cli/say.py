"""``--say TEXT`` on every ruling verb: the narration of the ruling ("Tanner vaults the rail"),
recorded in the same ruling as its command (``domain.said``). The option is added to the verbs
once they are registered (``add_say``), so no verb has to declare it."""

from __future__ import annotations

from collections.abc import Iterable

import click

from cli.context import Context

# Verbs that record no ruling of their own to narrate: reads (a sheet), a post (its text is
# the narration), and the corrections (`amend --set say=TEXT` corrects a ruling's narration).
NOT_NARRATED = frozenset({"character list", "character show", "post", "resolve"})
SHARED_NARRATED = (
    "dice",
    "discord link",
    "discord unlink",
    "dispute",
    "entropy",
    "member add",
    "member key",
    "member link",
    "member remove",
    "note",
    "reveal",
    "scene end",
    "scene start",
    "session close-entropy",
    "session end",
    "session start",
)


def _said(ctx: click.Context, _: click.Parameter, value: str | None) -> None:
    found = ctx.find_object(Context)
    if value is not None and found is not None:
        found.say = value


def say_option() -> click.Option:
    return click.Option(
        ["--say"],
        metavar="TEXT",
        expose_value=False,
        callback=_said,
        help="Narrate the ruling (Markdown), recorded with it: `campaign thread` shows it.",
    )


def leaves(group: click.Group, prefix: str = "") -> Iterable[tuple[str, click.Command]]:
    """Every verb under ``group`` with its path (``character create``)."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from leaves(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def add_say(group: click.Group, only: Iterable[str] | None = None) -> None:
    """Give ``--say`` to the ruling verbs under ``group`` (those named in ``only``, when given;
    else every verb but ``NOT_NARRATED``), once."""
    wanted = None if only is None else set(only)
    for path, command in leaves(group):
        if path in NOT_NARRATED or (wanted is not None and path not in wanted):
            continue
        if not any(p.name == "say" for p in command.params):
            command.params.append(say_option())
