"""Advancement: a mission completed, and the level each living PC then takes."""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.dice import run
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.sprawl_goons.tables import Secondary


@click.group("mission")
def mission() -> None:
    """Missions: each one completed gives every living PC a level.

    \b
    Example:
      campaign mission complete "The Docklands job"
    """


@mission.command("complete")
@click.argument("name")
@pass_context
def mission_complete(ctx: Context, name: str) -> None:
    """End a mission: each living PC has a level to take (`level-up`).

    \b
    Example:
      campaign mission complete "The Docklands job"
    """
    run(ctx, sg.CompleteMission(mission=name))


@click.command("level-up")
@click.argument("who")
@click.argument("stat")
@click.argument("secondary", type=click.Choice([s.value for s in Secondary]))
@pass_context
def level_up(ctx: Context, who: str, stat: str, secondary: str) -> None:
    """Take a level: a stat +1, and Resilience or Inventory Score +1.

    \b
    Example:
      campaign level-up Tanner reaction resilience
    """
    run(ctx, sg.LevelUp(character=who, stat=stat, secondary=secondary))


COMMANDS = (mission, level_up)
