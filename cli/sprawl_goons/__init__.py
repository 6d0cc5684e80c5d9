"""Sprawl Goons' verbs: characters and NPCs, Action Rolls, combat, hacking, healing, advancement.

``cli.systems`` reads the two names this package defines: ``VERBS`` (the verbs, each module a
theme; each verb's module imported the first time the verb is looked up, so a roll imports the
rolls alone) and ``SHEETS`` (how a character shows, ``cli.sprawl_goons.sheet``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cli.systems import LazyVerbs

if TYPE_CHECKING:
    from cli.sheets import Sheets

# Each verb and the module that defines it (its ``COMMANDS``), in the order they are listed.
MODULES = {
    **dict.fromkeys(("character", "npc"), "cli.sprawl_goons.characters"),
    **dict.fromkeys(("roll", "hack"), "cli.sprawl_goons.rolls"),
    **dict.fromkeys(("attack", "grenade", "aim", "initiative", "round"), "cli.sprawl_goons.combat"),
    **dict.fromkeys(("explode", "fall", "ignite", "extinguish"), "cli.sprawl_goons.hazards"),
    **dict.fromkeys(
        ("first-aid", "slag", "limb-down", "repair", "rest", "patch", "medical"),
        "cli.sprawl_goons.healing",
    ),
    **dict.fromkeys(("use-item", "item", "cash", "reload"), "cli.sprawl_goons.kit"),
    **dict.fromkeys(("mission", "level-up"), "cli.sprawl_goons.advancement"),
}

VERBS = click.Group("sprawl-goons", help="Sprawl Goons: Upgraded's verbs.")
VERBS.commands = LazyVerbs(MODULES)


def __getattr__(name: str) -> Any:
    if name == "SHEETS":
        from cli.sprawl_goons.sheet import SHEETS

        sheets: Sheets = SHEETS
        return sheets
    raise AttributeError(name)
