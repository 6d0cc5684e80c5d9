"""`campaign member invite`: a one-time sign-in link (or Discord code) for a member, naming the
campaign it is for, at the address the players' browsers reach the table server by."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.render import clean, emit_json
from domain.errors import DomainError, ErrorKind


class CampaignNotNamed(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "this store holds {count} campaigns ({names}): name the one to invite to, "
        "`campaign --campaign NAME member invite ...`"
    )


class NoServerAddress(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "no address of the table server is known for this store: start it with `campaign serve "
        "--public-url URL` (the address the players open, remembered), or give --url URL"
    )


def invited_campaign(ctx: Context) -> str:
    """The campaign named by ``--campaign``, or the store's only one; with several and none
    named, ``CAMPAIGN_NOT_NAMED`` (a link to the wrong table is sent before anyone notices)."""
    if ctx.campaign_option:
        return ctx.campaign_option
    campaigns = ctx.engine.directory().campaigns
    if len(campaigns) > 1:
        names = ", ".join(sorted(repr(c.name) for c in campaigns))
        raise CampaignNotNamed(count=len(campaigns), names=names)
    return ctx.campaign()


def _address(ctx: Context, base: str | None) -> tuple[str, str]:
    """The links' base, and a note on where it came from ("" for none needed)."""
    from engine import server_address_of

    if base is not None:
        return server_address_of(base), ""
    kept = ctx.engine.server_address()
    if kept is None:
        raise NoServerAddress()
    if kept.public:
        return kept.url, ""
    return kept.url, (
        f"{kept.url} is where `campaign serve` last listened; for players on other machines, "
        "run it with --public-url URL"
    )


@click.command("invite")
@click.argument("name")
@click.option(
    "--url",
    "base",
    default=None,
    help="Where the players' browsers reach the table server (default: the address "
    "`campaign serve --public-url` gave, else where it last listened).",
)
@click.option(
    "--discord",
    "for_discord",
    is_flag=True,
    help="A one-time code for `/join CODE` in the campaign's Discord channel instead.",
)
@pass_context
def member_invite(ctx: Context, name: str, base: str | None, for_discord: bool) -> None:
    """Print a one-time sign-in link for a member of a campaign (the GM's call): opening it
    signs their browser in to that campaign on the table server, beside any other it is
    signed in to. It works once, for a week; keep it private until sent. With several
    campaigns in the store, name the one with --campaign.

    \b
    Example:
      campaign member invite ana --url https://table.example.org
      campaign --campaign "Neon Alley" member invite ana
      campaign member invite ana --discord
    """
    campaign = invited_campaign(ctx)
    if for_discord:
        code = ctx.engine.discord_invite(campaign, name, actor=ctx.actor)
        if ctx.as_json:
            emit_json({"campaign": campaign, "member": name, "code": code})
            return
        click.echo(clean(f"{name}'s /join code for {campaign} (once, for a week):"), err=True)
        click.echo(f"/join code:{code}")  # whole, never wrapped: it is copied
        return
    url, note = _address(ctx, base)
    secret = ctx.engine.invite(campaign, name, actor=ctx.actor)
    link = f"{url}/join/{secret}"
    if ctx.as_json:
        emit_json({"campaign": campaign, "member": name, "link": link})
        return
    click.echo(clean(f"{name}'s sign-in link to {campaign} (once, for a week):"), err=True)
    click.echo(link)  # whole, never wrapped: it is copied
    if note:
        click.echo(f"note: {note}", err=True)
