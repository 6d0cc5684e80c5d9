"""`campaign member email`: the address a member is mailed at when the table waits on them (the
server's notices, ``web.notify``); the member gives or removes it on the table's Notices page
too."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.render import emit_json, say


@click.command("email")
@click.argument("name")
@click.argument("address", required=False)
@click.option("--stop", is_flag=True, help="Mail them no more (their address is forgotten).")
@pass_context
def member_email(ctx: Context, name: str, address: str | None, stop: bool) -> None:
    """Give the address a member is mailed at when the table waits on them (the GM's call, or
    the member's own with --as): `campaign serve --smtp-host` mails them a digest. Without
    ADDRESS, print the one they gave.

    \b
    Example:
      campaign member email ana ana@example.org
      campaign member email ana --stop
    """
    engine, campaign = ctx.engine, ctx.campaign()
    chosen = engine.notice_choices(campaign, name)
    if stop or address is not None:
        chosen = engine.choose_notices(
            campaign,
            name,
            kinds=chosen.kinds,
            discord=chosen.discord,
            email="" if stop else address or "",
            actor=ctx.actor,
        )
    if ctx.as_json:
        emit_json({"member": name, "email": chosen.email})
    elif chosen.email:
        say(f"{name} is mailed at {chosen.email} when the table waits on them")
    else:
        say(f"{name} is mailed nothing (no address)")
