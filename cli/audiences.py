"""Whom a read on the command line is for (``domain.audience``): the member ``--as`` names, or
the GMs at the keyboard without it; ``--for`` names another (``table``, ``gms`` or a member);
and the table wherever the result goes to a place the whole table reads (Discord messages, a
webhook), unless ``--for`` names another audience, which ``--post`` never sends."""

from __future__ import annotations

from cli.context import Context
from domain.audience import TABLE, Audience, Member, Table, named
from domain.errors import DomainError

FOR_HELP = (
    "Whom it is for: 'table' (what every member may read), 'gms', or a member's name "
    "(default: as --as reads it, or the GM; the table for Discord messages)."
)


class PostedReadsAsTable(DomainError):
    template = (
        "{place} is read by the whole table: it sends what the table may read, never "
        "{audience}'s copy (leave out {option})"
    )


def audience_of(
    ctx: Context, asked: str | None, *, public: bool, posted: bool = False, gm: bool = False
) -> Audience:
    """The audience of one read: ``asked`` (``--for``), else the GMs for ``gm`` (their copy,
    GM-only lines included), else the table when the result goes somewhere ``public``, else the
    one at the keyboard. ``posted`` (``--post``) refuses any audience but the table."""
    audience = ctx.audience  # the one at the keyboard (the GMs without --as; their copy: --gm)
    if asked is not None:
        audience = named(asked)
    elif public and not gm:
        audience = TABLE
    if posted and (gm or audience != TABLE):
        option = "--gm" if gm else f"--for {asked}"
        whose = "the GMs" if gm else str(audience)
        raise PostedReadsAsTable(place="a webhook's channel", audience=whose, option=option)
    check_may_read_as(ctx, audience)
    return audience


def check_may_read_as(ctx: Context, audience: Audience) -> None:
    """A member reads as themself or as the table; only a GM reads as anyone else."""
    if ctx.actor is None or isinstance(audience, Table) or audience == Member(ctx.actor):
        return
    from domain.policy import check_gm

    check_gm(ctx.engine.campaign(ctx.campaign()), ctx.actor, f"read it as {audience}")
