"""Kit: items found, bought or dropped, consumables used, cash, and a fresh magazine."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import run
from domain.rulesets.sprawl_goons import commands as sg


@click.command("use-item")
@click.argument("who")
@click.argument("item")
@pass_context
def use_item(ctx: Context, who: str, item: str) -> None:
    """Spend a use of a consumable (a drug like Hyperdex gives +1 for the scene).

    \b
    Example:
      campaign use-item Tanner hyperdex
    """
    run(ctx, sg.UseItem(character=who, item=item))


@click.group("item")
def item() -> None:
    """Add or drop items, or rule whether one is bulky.

    \b
    Example:
      campaign item add Katya "Frag grenades" --kind consumable --uses 2
    """


@item.command("add")
@click.argument("who")
@click.argument("name")
@click.option(
    "--kind",
    required=True,
    help="melee, ranged, armour, implant, console, consumable, drug or gear.",
)
@click.option(
    "--bonus", type=WHOLE_NUMBER, default=1, show_default=True, help="What it adds when relevant."
)
@click.option("--uses", type=WHOLE_NUMBER, help="Uses, for a consumable.")
@click.option(
    "--bulky/--not-bulky", default=None, help="Counts towards the Inventory (implants never do)."
)
@pass_context
def item_add(
    ctx: Context, who: str, name: str, kind: str, bonus: int, uses: int | None, bulky: bool | None
) -> None:
    """An item joins a character's kit (cybernetic limbs: an implant named "Cybernetic arm").

    \b
    Example:
      campaign item add Tanner "Pump shotgun" --kind ranged
    """
    command = sg.AddItem(
        character=who, item=name, category=kind, bonus=bonus, uses=uses, bulky=bulky
    )
    run(ctx, command)


@item.command("bulk")
@click.argument("who")
@click.argument("name")
@click.option(
    "--bulky/--not-bulky",
    required=True,
    help="Whether it counts towards the Inventory Score (implants never do).",
)
@click.option("--reason", default="", help="Why, as the referee rules it.")
@pass_context
def item_bulk(ctx: Context, who: str, name: str, bulky: bool, reason: str) -> None:
    """The referee rules whether an item is bulky (counts towards the Inventory Score).

    \b
    Example:
      campaign item bulk Tanner Mirrorshades --not-bulky --reason "they fold into a pocket"
    """
    run(ctx, sg.RuleBulkiness(character=who, item=name, bulky=bulky, reason=reason))


@item.command("drop")
@click.argument("who")
@click.argument("name")
@pass_context
def item_drop(ctx: Context, who: str, name: str) -> None:
    """An item leaves a character's kit.

    \b
    Example:
      campaign item drop Tanner "Kevlar jacket"
    """
    run(ctx, sg.DropItem(character=who, item=name))


@click.command("cash")
@click.argument("who")
@click.option("--gain", type=WHOLE_NUMBER, default=0, help="Cash gained.")
@click.option("--spend", type=WHOLE_NUMBER, default=0, help="Cash spent.")
@click.option("--reason", required=True, help="What it was for.")
@pass_context
def cash(ctx: Context, who: str, gain: int, spend: int, reason: str) -> None:
    """Cash gained or spent (the rules set no prices: the referee's call).

    \b
    Example:
      campaign cash Tanner --spend 40 --reason "a medkit from the night market"
    """
    run(ctx, sg.ChangeCash(character=who, delta=gain - spend, reason=reason))


@click.command("reload")
@click.argument("who")
@click.argument("weapon")
@pass_context
def reload(ctx: Context, who: str, weapon: str) -> None:
    """A fresh magazine for a ranged weapon.

    \b
    Example:
      campaign reload Katya "shard pistol"
    """
    run(ctx, sg.Reload(character=who, item=weapon))


COMMANDS = (use_item, item, cash, reload)
