"""After the damage: first aid, rest, Lazarus Patches, a doctor, and the armour or cybernetic limb
that takes a critical injury instead."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import run
from cli.sprawl_goons.options import roll_options
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.sprawl_goons.tables import FIRST_AID_DS, REST_HOURS


@click.command("first-aid")
@click.argument("healer")
@click.argument("patient")
@click.option("--kit", help="The healer's first aid kit.")
@click.option(
    "--ds",
    default=str(FIRST_AID_DS),
    show_default=True,
    help="The referee's DS for the Cognition roll.",
)
@roll_options
@pass_context
def first_aid(
    ctx: Context,
    healer: str,
    patient: str,
    kit: str | None,
    ds: str,
    items: tuple[str, ...],
    bonuses: tuple[str, ...],
    glitch: bool,
    upgrade: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """An ally with a first aid kit rolls Cognition; success gains the patient 2 Resilience.

    \b
    Example:
      campaign first-aid Dixie Tanner --kit medkit --dice 5,4
    """
    command = sg.GiveFirstAid(
        healer=healer,
        patient=patient,
        kit=kit,
        ds=ds,
        items=items,
        bonuses=bonuses,
        glitch=glitch,
        upgrade=upgrade,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("slag")
@click.argument("who")
@click.argument("armour")
@click.option("--injury", type=WHOLE_NUMBER, help="Which critical injury (default: the latest).")
@pass_context
def slag(ctx: Context, who: str, armour: str, injury: int | None) -> None:
    """Slag armour to negate a critical injury; the armour is useless from then on.

    \b
    Example:
      campaign slag Tanner kevlar
    """
    run(ctx, sg.SlagArmour(character=who, armour=armour, injury=injury))


@click.command("limb-down")
@click.argument("who")
@click.argument("limb")
@click.option("--injury", type=WHOLE_NUMBER, help="Which critical injury (default: the latest).")
@pass_context
def limb_down(ctx: Context, who: str, limb: str, injury: int | None) -> None:
    """A critical injury to a cybernetic arm or leg: the limb shuts down instead.

    \b
    Example:
      campaign limb-down Katya "cybernetic arm"
    """
    run(ctx, sg.DisableCyberLimb(character=who, limb=limb, injury=injury))


@click.command("repair")
@click.argument("who")
@click.argument("limb")
@click.option("--tech", required=True, help="The competent tech who repairs it.")
@pass_context
def repair(ctx: Context, who: str, limb: str, tech: str) -> None:
    """A tech repairs a cybernetic limb that shut down.

    \b
    Example:
      campaign repair Katya "cybernetic arm" --tech "Finn"
    """
    run(ctx, sg.RepairCyberLimb(character=who, limb=limb, tech=tech))


@click.command("rest")
@click.argument("who", nargs=-1, required=True)
@click.option(
    "--hours",
    type=WHOLE_NUMBER,
    default=REST_HOURS,
    show_default=True,
    help="Hours of rest (8 needed).",
)
@click.option("--unsafe", is_flag=True, help="The area is not safe (then rest does not heal).")
@pass_context
def rest(ctx: Context, who: tuple[str, ...], hours: int, unsafe: bool) -> None:
    """8 hours' rest in a safe area: all lost Resilience returns (critical injuries stay).

    \b
    Example:
      campaign rest Tanner Katya --hours 8
    """
    run(ctx, sg.Rest(characters=who, hours=hours, safe=not unsafe))


@click.command("patch")
@click.argument("who")
@click.option("--on", "patient", help="Who gets the patch (default: WHO).")
@click.option("--item", default="Lazarus", show_default=True, help="The blister of patches.")
@pass_context
def patch(ctx: Context, who: str, patient: str | None, item: str) -> None:
    """Apply a Lazarus Patch: +3 Resilience at once.

    \b
    Example:
      campaign patch Katya --on Tanner
    """
    run(ctx, sg.ApplyPatch(character=who, patient=patient, item=item))


@click.command("medical")
@click.argument("who")
@click.option("--by", "provider", required=True, help="The medical professional.")
@pass_context
def medical(ctx: Context, who: str, provider: str) -> None:
    """Medical attention: every untreated critical injury is treated; no more Glitch dice.

    \b
    Example:
      campaign medical Tanner --by "Dr Ng's back-room clinic"
    """
    run(ctx, sg.GiveMedicalAttention(character=who, provider=provider))


COMMANDS = (first_aid, slag, limb_down, repair, rest, patch, medical)
