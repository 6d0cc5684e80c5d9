"""The verbs on the store's campaigns as a whole: `init` makes one, `list` shows them, `use`
picks the current one."""

from __future__ import annotations

import sys

import click

from cli.completion import campaign_names
from cli.context import Context, key_value, pass_context
from cli.render import clean, emit_json, print_table, say, show_ruling
from domain.errors import DomainError, InvalidHouseRule
from domain.events import Role
from domain.rulesets import SYSTEMS


@click.command("init")
@click.argument("name")
@click.option(
    "--system",
    required=True,
    type=click.Choice(sorted(SYSTEMS)),
    help="The rule system the campaign is played under.",
)
@click.option(
    "--gm",
    help="The game moderator's name (asked for on a terminal when not given; required elsewhere).",
)
@click.option(
    "--house-rule",
    "house_rules",
    multiple=True,
    metavar="KEY=VALUE",
    help="A house rule (repeatable), e.g. maxStrainPerTest=0.",
)
@click.option(
    "--member",
    "members",
    multiple=True,
    metavar="NAME:ROLE",
    help="Seat somebody at the table from the start (repeatable), e.g. ana:player; roles gm, "
    "player, observer.",
)
@pass_context
def init(
    ctx: Context,
    name: str,
    system: str,
    gm: str | None,
    house_rules: tuple[str, ...],
    members: tuple[str, ...],
) -> None:
    """Create a campaign in the store and make it the current one.

    \b
    Example:
      campaign init "Night Shift" --system code-green --gm Rosa --member ana:player \\
          --house-rule marksPersistAcrossScenes=true
    """
    rules = dict(key_value(item, InvalidHouseRule) for item in house_rules)
    seats = {who: role_named(role) for who, role in (member_role(m) for m in members)}
    if gm is None:
        gm = ask_for_gm()
    ctx.creates = True
    result = ctx.engine.create_campaign(name, system, gm=gm, house_rules=rules, members=seats)
    ctx.remember(name)
    show_ruling(result, ctx.as_json)


@click.command("list")
@pass_context
def list_campaigns(ctx: Context) -> None:
    """List the campaigns in this store.

    \b
    Example:
      campaign --db table.db list
    """
    rows = []
    for entry in ctx.engine.directory().campaigns:
        state = ctx.engine.campaign(entry.name)
        rows.append(
            {
                "name": entry.name,
                "system": entry.system,
                "characters": len(state.roster),
                "sessions": state.sessions,
                "rulings": state.rulings,
            }
        )
    if ctx.as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo(
            "no campaigns yet: create one with `campaign init NAME --system code-green --gm NAME`"
        )
        return
    from rich.markup import escape
    from rich.table import Column, Table

    counts = (
        Column(h, no_wrap=True, justify="right") for h in ("characters", "sessions", "rulings")
    )
    table = Table(Column("campaign", min_width=8), Column("system", no_wrap=True), *counts)
    for row in rows:  # names as plain text: no terminal controls, no rich markup
        table.add_row(*(escape(clean(v)) for v in row.values()))
    print_table(table)


@click.command("use")
@click.argument("name", shell_complete=campaign_names)
@pass_context
def use(ctx: Context, name: str) -> None:
    """Make NAME the current campaign for later commands on this store.

    \b
    Example:
      campaign use "Night Shift"
    """
    ctx.engine.find_campaign(name)
    ctx.remember(name)
    say(f"current campaign: {name}")


class GmNotNamed(DomainError):
    template = (
        "a campaign is made with its GM's name: give --gm NAME (it is asked for only when "
        "`campaign init` runs on a terminal)"
    )


def interactive() -> bool:
    """Whether somebody is at a terminal to answer a question (not a script or a pipe)."""
    return sys.stdin.isatty()


def ask_for_gm() -> str:
    """The GM's name, asked for on the terminal (on stderr, so --json output stays JSON); with
    nobody to ask, a refusal."""
    if not interactive():
        raise GmNotNamed()
    name: str = click.prompt("The GM's name (--gm)", err=True)
    return name


class MemberFormat(DomainError):
    template = "give a member as NAME:ROLE (roles: gm, player, observer), got {text!r}"


def member_role(text: str) -> tuple[str, str]:
    who, sep, role = text.rpartition(":")
    if not sep or not who.strip():
        raise MemberFormat(text=text)
    return who.strip(), role.strip()


def role_named(role: str) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise MemberFormat(text=role) from None


COMMANDS = (init, list_campaigns, use)
