"""Sprawl Goons' verbs: characters and NPCs, Action Rolls, combat, hacking, healing, advancement."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from cli.sheets import Sheets, add_sheet_commands
from domain.errors import DomainError
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.events import Item
from domain.rulesets.sprawl_goons.tables import DEADLY_BAND, Kind, Stat
from engine.mapper import converter

F = TypeVar("F", bound=Callable[..., Any])


class StatsFormat(DomainError):
    template = (
        "give the four stats as M,R,C,E (Morphology, Reaction, Cognition, Equilibrium), "
        "e.g. 2,1,1,0; got {text!r}"
    )


def roll_options(f: F) -> F:
    """What the referee rules about an Action Roll: relevant items, bonuses, Glitch/Upgrade.

    The command receives them together as ``call`` (keyword arguments of the domain command)."""
    options = [
        click.option(
            "--item", "items", multiple=True, help="A relevant item (+its bonus); repeatable."
        ),
        click.option(
            "--bonus",
            "bonuses",
            multiple=True,
            metavar="SOURCE=+N",
            help="A situational bonus or penalty; repeatable.",
        ),
        click.option(
            "--glitch",
            is_flag=True,
            help="The referee calls the Glitch dice (3d6, keep the worst two).",
        ),
        click.option(
            "--upgrade",
            is_flag=True,
            help="The referee calls the Upgrade dice (3d6, keep the best two).",
        ),
    ]
    calls = ("items", "bonuses", "glitch", "upgrade")

    @functools.wraps(f)
    def with_call(*args: Any, **kwargs: Any) -> Any:
        call = {name: kwargs.pop(name) for name in calls}
        return f(*args, call=call, **kwargs)

    wrapped: F = cast(F, with_call)
    for option in reversed(options):
        wrapped = option(wrapped)
    return dice_options(wrapped)


# --- Characters ------------------------------------------------------------------------------


@click.group("character")
def character() -> None:
    """Create and show player characters.

    \b
    Example:
      campaign character show Tanner
    """


@character.command("create")
@click.argument("name")
@click.option("--player", default="", help="Who plays the character (default: the name).")
@click.option(
    "--stats",
    required=True,
    metavar="M,R,C,E",
    help="4 points: Morphology, Reaction, Cognition, Equilibrium.",
)
@click.option(
    "--item",
    "items",
    multiple=True,
    help="A starting item from the list (key or name; melee:NAME for those to specify).",
)
@click.option(
    "--custom",
    multiple=True,
    metavar="KIND:NAME",
    help="A starting item the referee approved (kind: melee, ranged, armour, implant, "
    "console, consumable, drug, gear).",
)
@dice_options
@pass_context
def create(
    ctx: Context,
    name: str,
    player: str,
    stats: str,
    items: tuple[str, ...],
    custom: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Make a PC: 4 stat points, Resilience 12, Inventory 10, three starting items, 3d6 x 10 cash.

    With --dice, give the three cash dice first, then the uses dice of a stolen credit card
    (2d6) or a blister of Lazarus Patches (d6), in item order.

    \b
    Example:
      campaign character create Tanner --player ana --stats 2,1,1,0 \\
          --item melee:Katana --item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2
    """
    values = [v.strip() for v in stats.split(",")]
    try:
        m, r, c, e = (int(v) for v in values)
    except ValueError:
        raise StatsFormat(text=stats) from None
    command = sg.CreateCharacter(name, player, m, r, c, e, items=items, custom=custom)
    run(ctx, command, faces=faces, seed=seed)


def status(c: SgCharacter) -> str:
    if c.kind is not Kind.PC:
        state = "dead" if c.dead else ("breached" if c.breached else "active")
        return f"{c.kind.upper()} DS {c.resilience}/{c.resilience_max}, {state}"
    parts = [f"level {c.level}", f"Resilience {c.resilience}/{c.resilience_max}"]
    if c.dead:
        parts.append("dead")
    elif c.death_clock is not None:
        parts.append("dying")
    if c.must_glitch:
        parts.append("Glitch dice until treated")
    if c.levels_due:
        parts.append(f"{c.levels_due} level(s) to take")
    return ", ".join(parts)


def sheet_json(c: SgCharacter) -> dict[str, Any]:
    data: dict[str, Any] = converter.unstructure(c)
    data["status"] = status(c)
    data["encumbrance"] = c.encumbrance
    return data


def _item(i: Item) -> str:
    notes = [f"{i.category} +{i.bonus}"]
    if i.uses is not None:
        notes.append(f"{i.uses} uses")
    if i.bursts_fired is not None:
        notes.append(
            "magazine empty" if i.bursts_fired >= 3 else f"{3 - i.bursts_fired} bursts left"
        )
    if i.condition.value != "intact":
        notes.append(i.condition.value)
    if not i.bulky:
        notes.append("not bulky")
    return f"{i.name} ({', '.join(notes)})"


def sheet_text(c: SgCharacter) -> str:
    lines = [f"{c.name} (played by {c.player}): {status(c)}"]
    if c.kind is not Kind.PC:
        return "\n".join(lines)
    lines.append("  ".join(f"{s.title} {c.stat(s)}" for s in Stat))
    lines.append(
        f"Resilience {c.resilience}/{c.resilience_max}  Inventory Score {c.inventory} "
        f"({c.bulky_items} bulky, encumbrance -{c.encumbrance})  Cash {c.cash}"
    )
    lines.append("Items: " + ("; ".join(_item(i) for i in c.items) or "none"))
    for b in c.boosts:
        lines.append(f"Boost: {b.source} +{b.value} {b.stat} this scene")
    for i in c.injuries:
        band = "7+" if i.band == DEADLY_BAND else str(i.band)
        how = (
            f"negated by {i.negated_by}"
            if i.negated_by
            else ("treated" if i.treated else "untreated")
        )
        lines.append(f"Injury {i.number}: {band} {i.location}, {i.effect} ({how})")
    if c.death_clock is not None:
        lines.append(f"Dying: {c.death_clock} round end(s) left")
    if c.aim is not None:
        lines.append(f"Aiming at {c.aim.target}: +{c.aim.rounds}")
    if c.fire is not None:
        lines.append(f"On fire: {c.fire.damage} a round, {c.fire.rounds_left} round(s) left")
    return "\n".join(lines)


@click.command("npc")
@click.argument("name")
@click.option(
    "--ds",
    required=True,
    help="Its Difficulty Score, also its Resilience (a number or easy..impossible).",
)
@click.option(
    "--major", is_flag=True, help="A major NPC: critical injuries instead of dying at DS 0."
)
@click.option(
    "--armoured",
    is_flag=True,
    help="It wears armour (monofilament does +1 only to the unarmoured).",
)
@click.option("--system", is_flag=True, help="A system to hack rather than a person.")
@click.option(
    "--neural", is_flag=True, help="With --system: a secure system that deals neural damage."
)
@pass_context
def npc(
    ctx: Context, name: str, ds: str, major: bool, armoured: bool, system: bool, neural: bool
) -> None:
    """The referee brings in an NPC or a system; its DS is also its Resilience.

    \b
    Example:
      campaign npc "Zone Boss ganger" --ds moderate
    """
    run(ctx, sg.CreateNpc(name, ds, major=major, armoured=armoured, system=system, neural=neural))


# --- Rolls and combat ------------------------------------------------------------------------


@click.command("roll")
@click.argument("who")
@click.argument("stat")
@click.option(
    "--ds",
    required=True,
    help="The Difficulty Score: a number or easy, moderate, challenging, hard, formidable, "
    "extreme, impossible.",
)
@click.option("--dangerous", is_flag=True, help="A failure costs the shortfall in Resilience.")
@click.option(
    "--vs-mono", is_flag=True, help="The danger is a monofilament blade: armour adds nothing."
)
@roll_options
@pass_context
def roll(
    ctx: Context,
    who: str,
    stat: str,
    ds: str,
    dangerous: bool,
    vs_mono: bool,
    call: dict[str, Any],
    faces: str | None,
    seed: int | None,
) -> None:
    """An Action Roll: 2d6 + stat + 1 per relevant item + bonuses, success on total >= DS.

    \b
    Example:
      campaign roll Tanner morphology --ds hard --item toolkit --dice 4,5
    """
    command = sg.ActionRoll(
        who,
        stat,
        ds,
        dangerous=dangerous,
        **call,
        vs_mono=vs_mono,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("attack")
@click.argument("who")
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--stat", required=True, help="Morphology for melee and brawling, Reaction for shooting."
)
@click.option("--full-auto", metavar="WEAPON", help="+4, and the weapon's magazine is empty.")
@click.option("--burst", metavar="WEAPON", help="+2; three bursts to a magazine.")
@click.option(
    "--shotgun",
    type=click.Choice(["point-blank", "close", "range"]),
    help="+3 damage point blank, +2 close; at range up to 3 bunched targets.",
)
@click.option(
    "--mono", is_flag=True, help="A monofilament weapon: +1 damage to an unarmoured target."
)
@click.option(
    "--vs-mono", is_flag=True, help="The target wields monofilament: armour adds nothing."
)
@click.option(
    "--damage",
    "damage_bonuses",
    multiple=True,
    metavar="SOURCE=+N",
    help="Extra damage on a hit; repeatable.",
)
@roll_options
@pass_context
def attack(
    ctx: Context,
    who: str,
    targets: tuple[str, ...],
    stat: str,
    full_auto: str | None,
    burst: str | None,
    shotgun: str | None,
    mono: bool,
    vs_mono: bool,
    damage_bonuses: tuple[str, ...],
    call: dict[str, Any],
    faces: str | None,
    seed: int | None,
) -> None:
    """A dangerous Action Roll against the target's DS: the margin is damage to the target, a
    shortfall is damage to the attacker.

    \b
    Example:
      campaign attack Tanner "Zone Boss ganger" --stat morphology \\
          --item katana --item kevlar --dice 3,5
    """
    command = sg.Attack(
        who,
        targets,
        stat,
        damage_bonuses=damage_bonuses,
        **call,
        full_auto=full_auto,
        burst=burst,
        shotgun=shotgun,
        mono=mono,
        vs_mono=vs_mono,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("hack")
@click.argument("who")
@click.argument("system")
@click.option("--console", help="The cyberspace console jacked in with (its bonus counts).")
@roll_options
@pass_context
def hack(
    ctx: Context,
    who: str,
    system: str,
    console: str | None,
    call: dict[str, Any],
    faces: str | None,
    seed: int | None,
) -> None:
    """Hack a system: Cognition + console against its DS; secure systems deal neural damage.

    \b
    Example:
      campaign hack Dixie "Maas mainframe" --console ono-sendai --bonus "ICE-breaker=+1" --dice 5,6
    """
    command = sg.Hack(who, system, console=console, **call)
    run(ctx, command, faces=faces, seed=seed)


@click.command("first-aid")
@click.argument("healer")
@click.argument("patient")
@click.option("--kit", help="The healer's first aid kit.")
@click.option(
    "--ds", default="10", show_default=True, help="The referee's DS for the Cognition roll."
)
@roll_options
@pass_context
def first_aid(
    ctx: Context,
    healer: str,
    patient: str,
    kit: str | None,
    ds: str,
    call: dict[str, Any],
    faces: str | None,
    seed: int | None,
) -> None:
    """An ally with a first aid kit rolls Cognition; success gains the patient 2 Resilience.

    \b
    Example:
      campaign first-aid Dixie Tanner --kit medkit --dice 5,4
    """
    command = sg.FirstAid(
        healer,
        patient,
        kit=kit,
        ds=ds,
        **call,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("grenade")
@click.argument("who")
@click.argument("targets", nargs=-1, required=True)
@click.option("--enclosed", is_flag=True, help="An enclosed space: +3 damage.")
@click.option("--grenade", "grenade", metavar="ITEM", help="The grenade item to spend a use of.")
@click.option("--fumble", is_flag=True, help="The referee rules a miss hurts the thrower.")
@roll_options
@pass_context
def grenade(
    ctx: Context,
    who: str,
    targets: tuple[str, ...],
    enclosed: bool,
    grenade: str | None,
    fumble: bool,
    call: dict[str, Any],
    faces: str | None,
    seed: int | None,
) -> None:
    """Throw a grenade: a Moderate (10) Reaction roll; each target takes the margin (+3 enclosed).

    \b
    Example:
      campaign grenade Katya "Genexus agent" --enclosed --dice 5,6
    """
    command = sg.ThrowGrenade(
        who,
        targets,
        enclosed=enclosed,
        grenade=grenade,
        **call,
        fumble=fumble,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("aim")
@click.argument("who")
@click.argument("target")
@pass_context
def aim(ctx: Context, who: str, target: str) -> None:
    """Spend a round scoping a target: +1 a round on the next attack, at most +3.

    \b
    Example:
      campaign aim Katya "Genexus agent"
    """
    run(ctx, sg.TakeAim(who, target))


@click.command("initiative")
@click.argument("combatants", nargs=-1, required=True)
@click.option(
    "--item",
    "items",
    multiple=True,
    metavar="WHO:ITEM",
    help="A relevant speedware augment or drug (+1); repeatable.",
)
@click.option(
    "--modifier",
    "modifiers",
    multiple=True,
    metavar="WHO=+N",
    help="The referee's modifier (NPCs have no stats); repeatable.",
)
@dice_options
@pass_context
def initiative(
    ctx: Context,
    combatants: tuple[str, ...],
    items: tuple[str, ...],
    modifiers: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Roll initiative: d6 + Reaction + 1 per relevant augment or drug, highest first.

    \b
    Example:
      campaign initiative Tanner Katya "Zone Boss ganger" --item "Katya:reflex booster" --dice 3,4,2
    """
    run(
        ctx, sg.RollInitiative(combatants, items=items, modifiers=modifiers), faces=faces, seed=seed
    )


@click.command("round")
@dice_options
@pass_context
def end_round(ctx: Context, faces: str | None, seed: int | None) -> None:
    """End the combat round: fire burns, and the dying come one round closer to death.

    \b
    Example:
      campaign round
    """
    run(ctx, sg.EndRound(), faces=faces, seed=seed)


@click.command("explode")
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--d6",
    "dice_count",
    type=WHOLE_NUMBER,
    default=2,
    show_default=True,
    help="2 or 3 dice of damage, by type.",
)
@click.option("--what", default="planted explosive", show_default=True, help="What went off.")
@dice_options
@pass_context
def explode(
    ctx: Context,
    targets: tuple[str, ...],
    dice_count: int,
    what: str,
    faces: str | None,
    seed: int | None,
) -> None:
    """Planted explosives go off: 2d6 or 3d6 damage to everyone in the blast, no roll.

    \b
    Example:
      campaign explode "Zone Boss ganger" --d6 3 --what "shaped charge" --dice 4,4,5
    """
    run(ctx, sg.Detonate(dice_count, targets, what=what), faces=faces, seed=seed)


@click.command("fall")
@click.argument("who")
@click.argument("metres", type=WHOLE_NUMBER)
@dice_options
@pass_context
def fall(ctx: Context, who: str, metres: int, faces: str | None, seed: int | None) -> None:
    """Falling: 1 damage per 3 metres, rounded up (crit dice if it reaches 0).

    \b
    Example:
      campaign fall Tanner 7
    """
    run(ctx, sg.Fall(who, metres), faces=faces, seed=seed)


@click.command("ignite")
@click.argument("who")
@click.option("--damage", type=WHOLE_NUMBER, required=True, help="Damage at each round's end.")
@click.option(
    "--rounds", type=WHOLE_NUMBER, default=3, show_default=True, help="How long it burns (1 to 3)."
)
@pass_context
def ignite(ctx: Context, who: str, damage: int, rounds: int) -> None:
    """Set a character on fire: repeat damage at each round's end, up to 3 rounds.

    \b
    Example:
      campaign ignite "Zone Boss ganger" --damage 2
    """
    run(ctx, sg.Ignite(who, damage, rounds))


@click.command("extinguish")
@click.argument("who")
@click.option("--how", default="put out", help="How the fire was put out.")
@pass_context
def extinguish(ctx: Context, who: str, how: str) -> None:
    """Put out the fire on a character.

    \b
    Example:
      campaign extinguish Tanner --how "rolled in a puddle"
    """
    run(ctx, sg.Extinguish(who, how))


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
    run(ctx, sg.Reload(who, weapon))


# --- Injuries, healing and advancement -------------------------------------------------------


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
    run(ctx, sg.SlagArmour(who, armour, injury))


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
    run(ctx, sg.DisableCyberLimb(who, limb, injury))


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
    run(ctx, sg.RepairCyberLimb(who, limb, tech))


@click.command("rest")
@click.argument("who", nargs=-1, required=True)
@click.option(
    "--hours", type=WHOLE_NUMBER, default=8, show_default=True, help="Hours of rest (8 needed)."
)
@click.option("--unsafe", is_flag=True, help="The area is not safe (then rest does not heal).")
@pass_context
def rest(ctx: Context, who: tuple[str, ...], hours: int, unsafe: bool) -> None:
    """8 hours' rest in a safe area: all lost Resilience returns (critical injuries stay).

    \b
    Example:
      campaign rest Tanner Katya --hours 8
    """
    run(ctx, sg.Rest(who, hours, not unsafe))


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
    run(ctx, sg.ApplyPatch(who, patient, item))


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
    run(ctx, sg.MedicalAttention(who, provider))


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
    run(ctx, sg.CompleteMission(name))


@click.command("level-up")
@click.argument("who")
@click.argument("stat")
@click.argument("secondary", type=click.Choice(["resilience", "inventory"]))
@pass_context
def level_up(ctx: Context, who: str, stat: str, secondary: str) -> None:
    """Take a level: a stat +1, and Resilience or Inventory Score +1.

    \b
    Example:
      campaign level-up Tanner reaction resilience
    """
    run(ctx, sg.LevelUp(who, stat, secondary))


# --- Kit ---------------------------------------------------------------------------------------


@click.command("use")
@click.argument("who")
@click.argument("item")
@pass_context
def use(ctx: Context, who: str, item: str) -> None:
    """Spend a use of a consumable (a drug like Hyperdex gives +1 for the scene).

    \b
    Example:
      campaign use Tanner hyperdex
    """
    run(ctx, sg.UseItem(who, item))


@click.group("item")
def item() -> None:
    """Add or drop items.

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
    run(ctx, sg.AddItem(who, name, kind, bonus, uses, bulky))


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
    run(ctx, sg.DropItem(who, name))


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
    run(ctx, sg.ChangeCash(who, gain - spend, reason))


SHEETS = Sheets(text=lambda c, _: sheet_text(c), json=sheet_json, status=status)
add_sheet_commands(character, SHEETS, "Tanner")

VERBS = click.Group("sprawl-goons", help="Sprawl Goons: Upgraded's verbs.")
for _command in (
    character, npc, roll, attack, hack, first_aid, grenade, aim, initiative, end_round,
    explode, fall, ignite, extinguish, reload, slag, limb_down, repair, rest, patch, medical,
    mission, level_up, use, item, cash,
):  # fmt: skip
    VERBS.add_command(_command)
