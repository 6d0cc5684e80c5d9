"""What Sprawl Goons' verbs are on the command line beyond what the registry says of them
(``cli.generated``): positional parameters, option names, metavars and help, and examples."""

from __future__ import annotations

from typing import Any

from cli.generated import Group, Line, Opt
from domain.errors import DomainError
from domain.kinds import Integer
from domain.rulesets.sprawl_goons.tables import EXPLOSIVE_DICE

COMMANDS = "domain.rulesets.sprawl_goons.commands"


class StatsFormat(DomainError):
    template = (
        "give the four stats as M,R,C,E (Morphology, Reaction, Cognition, Equilibrium), "
        "e.g. 2,1,1,0; got {text!r}"
    )


ROLL = {  # what the referee rules about an Action Roll (the rolling verbs' fields)
    "item": Opt(field="items", help="A relevant item (+its bonus); repeatable."),
    "bonus": Opt(
        field="bonuses", metavar="SOURCE=+N", help="A situational bonus or penalty; repeatable."
    ),
    "glitch": Opt(help="The referee calls the Glitch dice (3d6, keep the worst two)."),
    "upgrade": Opt(help="The referee calls the Upgrade dice (3d6, keep the best two)."),
}
INJURY = Opt(help="Which critical injury (default: the latest).")
DS_HELP = (
    "The Difficulty Score: a number or easy, moderate, challenging, hard, formidable, "
    "extreme, impossible."
)


def _stats(fields: dict[str, Any]) -> dict[str, Any]:
    """``--stats M,R,C,E`` as the four stats; a player named is given a seat."""
    text = fields.pop("stats")
    try:
        m, r, c, e = (int(v.strip()) for v in text.split(","))
    except ValueError:
        raise StatsFormat(text=text) from None
    four = {"morphology": m, "reaction": r, "cognition": c, "equilibrium": e}
    return {**fields, **four, "seat_player": bool(fields["player"].strip())}


def _cash(fields: dict[str, Any]) -> dict[str, Any]:
    """``--gain`` and ``--spend`` as one change."""
    delta = fields.pop("gain") - fields.pop("spend")
    return {**fields, "delta": delta}


GROUPS = {
    "character": Group(
        help="Create and show player characters.", example="campaign character show Tanner"
    ),
    "item": Group(
        help="Add or drop items, or rule whether one is bulky.",
        example='campaign item add Katya "Frag grenades" --kind consumable --uses 2',
    ),
    "mission": Group(
        help="Missions: each one completed gives every living PC a level.",
        example='campaign mission complete "The Docklands job"',
    ),
}

LINES = {
    # Characters and NPCs
    "character create": Line(
        command="CreateCharacter",
        arguments={"name": "character"},
        options={
            "player": Opt(
                default="",
                help="Who plays the character (default: the name); given a seat as a player "
                "if they have none.",
            ),
            "stats": Opt(
                field="",
                required=True,
                metavar="M,R,C,E",
                help="4 points: Morphology, Reaction, Cognition, Equilibrium.",
            ),
            "item": Opt(
                field="items",
                help="A starting item from the list (key or name; melee:NAME for those to "
                "specify).",
            ),
            "custom": Opt(
                metavar="KIND:NAME",
                help="A starting item the referee approved (kind: melee, ranged, armour, "
                "implant, console, consumable, drug, gear).",
            ),
        },
        shaped=("morphology", "reaction", "cognition", "equilibrium", "seat_player"),
        shape=_stats,
        example="campaign character create Tanner --player ana --stats 2,1,1,0 \\\n"
        '    --item melee:Katana --item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
    ),
    "npc": Line(
        command="CreateNpc",
        arguments={"name": "character"},
        options={
            "ds": Opt(
                help="Its Difficulty Score, also its Resilience (a number or easy..impossible)."
            ),
            "major": Opt(help="A major NPC: critical injuries instead of dying at DS 0."),
            "armoured": Opt(help="It wears armour (monofilament does +1 only to the unarmoured)."),
            "system": Opt(help="A system to hack rather than a person."),
            "neural": Opt(help="With --system: a secure system that deals neural damage."),
        },
        example='campaign npc "Zone Boss ganger" --ds moderate',
    ),
    # Action Rolls outside a fight
    "roll": Line(
        command="MakeActionRoll",
        arguments={"who": "character", "stat": "stat"},
        options={
            "ds": Opt(help=DS_HELP),
            "dangerous": Opt(help="A failure costs the shortfall in Resilience."),
            "vs-mono": Opt(help="The danger is a monofilament blade: armour adds nothing."),
            **ROLL,
        },
        example="campaign roll Tanner morphology --ds hard --item toolkit --dice 4,5",
    ),
    "hack": Line(
        command="Hack",
        arguments={"who": "character", "system": "system"},
        options={
            "console": Opt(help="The cyberspace console jacked in with (its bonus counts)."),
            **ROLL,
        },
        example='campaign hack Dixie "Maas mainframe" --console ono-sendai '
        '--bonus "ICE-breaker=+1" --dice 5,6',
    ),
    # Combat
    "attack": Line(
        command="Attack",
        arguments={"who": "character", "targets": "targets"},
        options={
            "stat": Opt(help="Morphology for melee and brawling, Reaction for shooting."),
            "full-auto": Opt(metavar="WEAPON", help="+4, and the weapon's magazine is empty."),
            "burst": Opt(metavar="WEAPON", help="+2; three bursts to a magazine."),
            "shotgun": Opt(
                metavar="[point-blank|close|range]",
                help="+3 damage point blank, +2 close; at range up to 3 bunched targets.",
            ),
            "mono": Opt(help="A monofilament weapon: +1 damage to an unarmoured target."),
            "vs-mono": Opt(help="The target wields monofilament: armour adds nothing."),
            "damage": Opt(
                field="damage_bonuses",
                metavar="SOURCE=+N",
                help="Extra damage on a hit; repeatable.",
            ),
            **ROLL,
        },
        example='campaign attack Tanner "Zone Boss ganger" --stat morphology \\\n'
        "    --item katana --item kevlar --dice 3,5",
    ),
    "grenade": Line(
        command="ThrowGrenade",
        arguments={"who": "character", "targets": "targets"},
        options={
            "enclosed": Opt(help="An enclosed space: +3 damage."),
            "grenade": Opt(metavar="ITEM", help="The grenade item to spend a use of."),
            "fumble": Opt(help="The referee rules a miss hurts the thrower."),
            **ROLL,
        },
        example='campaign grenade Katya "Genexus agent" --enclosed --dice 5,6',
    ),
    "aim": Line(
        command="TakeAim",
        arguments={"who": "character", "target": "target"},
        example='campaign aim Katya "Genexus agent"',
    ),
    "initiative": Line(
        command="RollInitiative",
        arguments={"combatants": "combatants"},
        options={
            "item": Opt(
                field="items",
                metavar="WHO:ITEM",
                help="A relevant speedware augment or drug (+1); repeatable.",
            ),
            "modifier": Opt(
                field="modifiers",
                metavar="WHO=+N",
                help="The referee's modifier (NPCs have no stats); repeatable.",
            ),
        },
        example='campaign initiative Tanner Katya "Zone Boss ganger" '
        '--item "Katya:reflex booster" --dice 3,4,2',
    ),
    "round": Line(command="EndRound", example="campaign round"),
    # Harm without an attack roll
    "explode": Line(
        command="Detonate",
        arguments={"targets": "targets"},
        options={
            "d6": Opt(
                field="dice_count",
                default=min(EXPLOSIVE_DICE),
                show_default=True,
                help="2 or 3 dice of damage, by type.",
            ),
            "what": Opt(show_default=True, help="What went off."),
        },
        example='campaign explode "Zone Boss ganger" --d6 3 --what "shaped charge" --dice 4,4,5',
    ),
    "fall": Line(
        command="Fall",
        arguments={"who": "character", "metres": "metres"},
        example="campaign fall Tanner 7",
    ),
    "ignite": Line(
        command="Ignite",
        arguments={"who": "character"},
        options={
            "damage": Opt(help="Damage at each round's end."),
            "rounds": Opt(show_default=True, help="How long it burns (1 to 3)."),
        },
        example='campaign ignite "Zone Boss ganger" --damage 2',
    ),
    "extinguish": Line(
        command="Extinguish",
        arguments={"who": "character"},
        options={"how": Opt(field="reason", help="How the fire was put out.")},
        example='campaign extinguish Tanner --how "rolled in a puddle"',
    ),
    # After the damage
    "first-aid": Line(
        command="GiveFirstAid",
        arguments={"healer": "healer", "patient": "patient"},
        options={
            "kit": Opt(help="The healer's first aid kit."),
            "ds": Opt(show_default=True, help="The referee's DS for the Cognition roll."),
            **ROLL,
        },
        example="campaign first-aid Dixie Tanner --kit medkit --dice 5,4",
    ),
    "slag": Line(
        command="SlagArmour",
        arguments={"who": "character", "armour": "armour"},
        options={"injury": INJURY},
        example="campaign slag Tanner kevlar",
    ),
    "limb-down": Line(
        command="DisableCyberLimb",
        arguments={"who": "character", "limb": "limb"},
        options={"injury": INJURY},
        example='campaign limb-down Katya "cybernetic arm"',
    ),
    "repair": Line(
        command="RepairCyberLimb",
        arguments={"who": "character", "limb": "limb"},
        options={"tech": Opt(help="The competent tech who repairs it.")},
        example='campaign repair Katya "cybernetic arm" --tech "Finn"',
    ),
    "rest": Line(
        command="Rest",
        arguments={"who": "characters"},
        options={
            "hours": Opt(show_default=True, help="Hours of rest (8 needed)."),
            "unsafe": Opt(field="safe", help="The area is not safe (then rest does not heal)."),
        },
        example="campaign rest Tanner Katya --hours 8",
    ),
    "patch": Line(
        command="ApplyPatch",
        arguments={"who": "character"},
        options={
            "on": Opt(field="patient", help="Who gets the patch (default: WHO)."),
            "item": Opt(show_default=True, help="The blister of patches."),
        },
        example="campaign patch Katya --on Tanner",
    ),
    "medical": Line(
        command="GiveMedicalAttention",
        arguments={"who": "character"},
        options={"by": Opt(field="provider", help="The medical professional.")},
        example='campaign medical Tanner --by "Dr Ng\'s back-room clinic"',
    ),
    # Kit
    "use-item": Line(
        command="UseItem",
        arguments={"who": "character", "item": "item"},
        example="campaign use-item Tanner hyperdex",
    ),
    "item add": Line(
        command="AddItem",
        arguments={"who": "character", "name": "item"},
        options={
            "kind": Opt(
                field="category",
                help="melee, ranged, armour, implant, console, consumable, drug or gear.",
            ),
            "bonus": Opt(show_default=True, help="What it adds when relevant."),
            "uses": Opt(help="Uses, for a consumable."),
            "bulky": Opt(help="Counts towards the Inventory (implants never do)."),
        },
        example='campaign item add Tanner "Pump shotgun" --kind ranged',
    ),
    "item bulk": Line(
        command="RuleBulkiness",
        arguments={"who": "character", "name": "item"},
        options={
            "bulky": Opt(help="Whether it counts towards the Inventory Score (implants never do)."),
            "reason": Opt(help="Why, as the referee rules it."),
        },
        example='campaign item bulk Tanner Mirrorshades --not-bulky --reason "they fold into a '
        'pocket"',
    ),
    "item drop": Line(
        command="DropItem",
        arguments={"who": "character", "name": "item"},
        example='campaign item drop Tanner "Kevlar jacket"',
    ),
    "cash": Line(
        command="ChangeCash",
        arguments={"who": "character"},
        options={
            "gain": Opt(field="", kind=Integer(), default=0, help="Cash gained."),
            "spend": Opt(field="", kind=Integer(), default=0, help="Cash spent."),
            "reason": Opt(help="What it was for."),
        },
        shaped=("delta",),
        shape=_cash,
        example='campaign cash Tanner --spend 40 --reason "a medkit from the night market"',
    ),
    "reload": Line(
        command="Reload",
        arguments={"who": "character", "weapon": "item"},
        example='campaign reload Katya "shard pistol"',
    ),
    # Advancement
    "mission complete": Line(
        command="CompleteMission",
        arguments={"name": "mission"},
        example='campaign mission complete "The Docklands job"',
    ),
    "level-up": Line(
        command="LevelUp",
        arguments={"who": "character", "stat": "stat", "secondary": "secondary"},
        example="campaign level-up Tanner reaction resilience",
    ),
}
"""Every verb of Sprawl Goons, in the order `campaign --help` lists them by theme."""
