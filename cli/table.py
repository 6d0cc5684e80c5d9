"""The table's people: members and their roles, and disputes of rulings."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.invites import member_invite
from cli.notices import member_email
from cli.render import emit_json, say, show_ruling
from domain.events import Role
from domain.links import LinkMember
from domain.table import AddMember, DisputeRuling, RegisterKey, RemoveMember, RevealRuling


@click.group("member")
def member() -> None:
    """Who sits at the table: the GM, players bound to their characters, observers.

    \b
    Example:
      campaign member add ana --role player --character Tanner
    """


@member.command("add")
@click.argument("name")
@click.option(
    "--role", required=True, type=click.Choice([r.value for r in Role]), help="What they may do."
)
@click.option(
    "--character",
    "characters",
    multiple=True,
    help="A character the player plays (repeatable; also every character created with "
    "them as its player).",
)
@pass_context
def member_add(ctx: Context, name: str, role: str, characters: tuple[str, ...]) -> None:
    """Seat somebody at the table (the GM's call). A player issues commands for their own
    characters only; an observer reads and disputes.

    \b
    Example:
      campaign member add ana --role player --character Tanner
    """
    command = AddMember(member=name, role=Role(role), characters=characters)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@member.command("remove")
@click.argument("name")
@pass_context
def member_remove(ctx: Context, name: str) -> None:
    """Unseat a member; what they did stays in the log under their name.

    \b
    Example:
      campaign member remove ana
    """
    command = RemoveMember(member=name)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@member.command("key")
@click.argument("name")
@click.argument("public_key")
@pass_context
def member_key(ctx: Context, name: str, public_key: str) -> None:
    """Put a player's public key on their seat (the player's own call, or the GM's with the key
    the player sent): their entropy then counts only when signed by it.

    From this machine the key is recorded as put there at the GM's keyboard (`--as` included):
    from protocol 4 the entropy it signs is listed, not counted. A key the player puts on their
    seat from their own signed-in client (the table page, Discord's /member) counts.

    \b
    Example:
      campaign member key bea 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c
    """
    command = RegisterKey(member=name, key=public_key)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


@member.command("link")
@click.argument("name")
@click.option("--discord", "account", required=True, help="Their Discord user id (a snowflake).")
@pass_context
def member_link(ctx: Context, name: str, account: str) -> None:
    """Link a member's Discord account (the GM's call): what it does in a channel that plays
    the campaign (`campaign discord link`) is done by the member.

    \b
    Example:
      campaign member link ana --discord 80351110224678912
    """
    command = LinkMember(member=name, discord=account)
    show_ruling(ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor), ctx.as_json)


@member.command("list")
@pass_context
def member_list(ctx: Context) -> None:
    """The campaign's members, their roles and the characters each plays.

    \b
    Example:
      campaign member list
    """
    from engine import converter, member_views

    members = member_views(ctx.engine.campaign(ctx.campaign()))
    if ctx.as_json:
        emit_json(converter.unstructure(members))
        return
    for m in members:
        plays = f", plays {', '.join(m.characters)}" if m.characters else ""
        say(f"{m.name} ({m.role}{plays})")


member.add_command(member_invite)


@member.command("token")
@click.argument("name")
@pass_context
def member_token(ctx: Context, name: str) -> None:
    """Print a bearer token for a member's bot (the GM's call), shown this once: the bot sends
    `Authorization: Bearer TOKEN`. It works until the member is removed (or `member revoke`).

    \b
    Example:
      campaign member token dicebot
    """
    secret = ctx.engine.token(ctx.campaign(), name, actor=ctx.actor)
    if ctx.as_json:
        emit_json({"member": name, "token": secret})
        return
    click.echo(secret)


@member.command("revoke")
@click.argument("name")
@pass_context
def member_revoke(ctx: Context, name: str) -> None:
    """Sign a member out everywhere (the GM's call): their links, sessions and tokens stop
    working and the server pages they have open close within a second; they keep their seat.

    \b
    Example:
      campaign member revoke dicebot
    """
    gone = ctx.engine.revoke(ctx.campaign(), name, actor=ctx.actor)
    if ctx.as_json:
        emit_json({"member": name, "revoked": gone})
        return
    say(f"{name}: {gone} sign-ins revoked")


@click.command("dispute")
@click.argument("ruling", type=WHOLE_NUMBER)
@click.option("--reason", required=True, help="What is wrong with the ruling.")
@pass_context
def dispute(ctx: Context, ruling: int, reason: str) -> None:
    """Object to a ruling (a player or an observer, with --as NAME): it stays open until the GM
    resolves it (`campaign resolve`).

    \b
    Example:
      campaign --as ana dispute 12 --reason "the katana was in my hand, not my bag"
    """
    name = ctx.campaign()
    by = ctx.actor or ctx.engine.campaign(name).gm
    command = DisputeRuling(ruling=ruling, reason=reason, by=by)
    show_ruling(ctx.engine.execute(name, command, actor=ctx.actor, say=ctx.say), ctx.as_json)


@click.command("disputes")
@click.option("--all", "every", is_flag=True, help="Resolved disputes too.")
@pass_context
def disputes(ctx: Context, every: bool) -> None:
    """The open disputes (with --all, every dispute and how it was resolved).

    \b
    Example:
      campaign disputes
    """
    from engine import converter, dispute_view

    campaign = ctx.engine.campaign(ctx.campaign())
    shown = [dispute_view(d) for d in (campaign.disputes if every else campaign.open_disputes())]
    if ctx.as_json:
        emit_json(converter.unstructure(shown))
        return
    if not shown:
        say("no open disputes" if not every else "no disputes")
    for d in shown:
        state = f"{d.outcome}: {d.resolution}" if d.outcome else "open"
        say(f"dispute {d.dispute}: ruling {d.ruling}, by {d.by}: {d.reason} ({state})")


@click.command("reveal")
@click.argument("ruling", type=WHOLE_NUMBER)
@pass_context
def reveal(ctx: Context, ruling: int) -> None:
    """Show the table a hidden ruling (`--hidden` on a rolling verb): its dice and outcome.

    \b
    Example:
      campaign reveal 14
    """
    command = RevealRuling(ruling=ruling)
    show_ruling(
        ctx.engine.execute(ctx.campaign(), command, actor=ctx.actor, say=ctx.say), ctx.as_json
    )


COMMANDS = (member, dispute, disputes, reveal)
member.add_command(member_email)  # cli.notices
