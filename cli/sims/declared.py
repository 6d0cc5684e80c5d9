"""What the Sims RPG's verbs are on the command line beyond what the registry says of them
(``cli.generated``): positional parameters, option names, metavars and help, and examples."""

from __future__ import annotations

from typing import Any

from cli.generated import Group, Line, Opt
from domain.kinds import Choice, Flag
from domain.rulesets.sims.tables import RankKind, SheetKind, TieBreak

COMMANDS = "domain.rulesets.sims.commands"

# The GM's shifts and joining forces (``roll`` and ``attack``)
BADASS = Opt(help="GM: Being Badass, one upshift.")
PENALTY = Opt(field="penalties", metavar="WHY", help="A GM downshift (repeatable).")
WITH = Opt(field="helpers", metavar="WHO:QUALITY", help="Join forces (repeatable).")
SHIFTS = {"badass": BADASS, "penalty": PENALTY, "with": WITH}
TASK = Opt(help="What the character tries.")


def _qualities(help: str) -> Opt:
    """``--quality NAME:AREA:RANK``, repeatable (none: a secondary NPC's, or the rule refuses)."""
    return Opt(field="qualities", default=(), metavar="NAME:AREA:RANK", help=help)


def _sheet(fields: dict[str, Any]) -> dict[str, Any]:
    """``--npc`` and ``--secondary NAME:RANK`` as the sheet's kind (a secondary NPC's one
    quality, its rank); a player named is given a seat."""
    npc, secondary = fields.pop("npc"), fields.pop("secondary")
    kind = SheetKind.SECONDARY if secondary else SheetKind.NPC if npc else SheetKind.PC
    qualities = (secondary,) if secondary else fields["qualities"]
    seat = bool(fields["player"].strip())
    return {**fields, "kind": kind, "qualities": qualities, "seat_player": seat}


def _rank_kind(fields: dict[str, Any]) -> dict[str, Any]:
    """``--kind damage|failure`` as the ranks an attack deals."""
    return {**fields, "kind": RankKind(fields["kind"].capitalize())}


GROUPS = {
    "character": Group(help="Create and show characters.", example="campaign character show Neo"),
    "adventure": Group(
        help="Adventures: the parts a campaign is made of.",
        example='campaign adventure complete "The Merovingian\'s club"',
    ),
    "mission": Group(
        help="Upgrade Missions, announced in advance by the GM.",
        example='campaign mission announce "The Vault" Neo',
    ),
}

LINES = {
    # Sheets
    "character create": Line(
        command="CreateCharacter",
        arguments={"name": "character"},
        options={
            "player": Opt(
                default="",
                help="Who plays the character (given a seat as a player if they have none; an "
                "NPC's default: the campaign's GM).",
            ),
            "quality": _qualities("A quality (x10)."),
            "npc": Opt(field="", kind=Flag(), help="A major NPC: any sheet."),
            "secondary": Opt(
                field="", metavar="NAME:RANK", help="A secondary NPC: one Difficulty rank."
            ),
            "custom": Opt(help="GM: a player character outside the creation rules."),
            "strength": Opt(field="strengths", help="A strength (repeatable)."),
            "weakness": Opt(field="weaknesses", help="A weakness (repeatable)."),
        },
        shaped=("kind", "seat_player"),
        shape=_sheet,
        example="campaign character create Ninja --secondary Henchman:Average",
    ),
    "replace": Line(
        command="ReplaceQuality",
        arguments={"who": "character", "quality": "quality", "new_name": "new_name"},
        options={
            "area": Opt(help="The new quality's area (default: the old one's)."),
            "gm-approved": Opt(help="The GM approved the change."),
        },
        example="campaign replace Neo Sailor Parkour --area Physical --gm-approved",
    ),
    # Situations
    "simple": Line(
        command="JudgeSimple",
        arguments={"who": "character", "quality": "quality"},
        options={"difficulty": Opt(help="The task's Difficulty rank."), "task": TASK},
        example='campaign simple Neo Outdoorsman --difficulty Average --task "climb the wall"',
    ),
    "roll": Line(
        command="RollComplicated",
        arguments={"who": "character", "qualities": "qualities"},
        optional=("qualities",),
        options={
            "difficulty": Opt(help="The task's Difficulty rank (TN 5..13)."),
            "task": TASK,
            "hazardous": Opt(help="Failing deals TN - total Damage Ranks."),
            **SHIFTS,
        },
        example='campaign roll Cypher --difficulty Good --task "down the wall" --hazardous '
        "--dice 3,5",
    ),
    # Conflict turns
    "turns": Line(
        command="SetTurnOrder",
        arguments={"entries": "entries"},
        options={
            "ties": Opt(
                default=TieBreak.ROLL_OFF.value,
                show_default=True,
                help="Equal ranks: a PC before an NPC, then a 1d6 roll-off; or the order listed "
                "(the GM's).",
            )
        },
        example='campaign turns "Kristov:Dirty Fighter" Jefferson:Biker Ninja Samurai --dice 5,2',
    ),
    "next": Line(command="EndTurn", example="campaign next"),
    "strategy": Line(
        command="DeclareStrategy",
        arguments={"who": "character", "strategy": "strategy"},
        example="campaign strategy Ninja full-defense",
    ),
    # Conflicts
    "attack": Line(
        command="Attack",
        arguments={"who": "attacker", "qualities": "qualities"},
        optional=("qualities",),
        options={
            "target": Opt(
                field="targets",
                metavar="WHO[:QUALITY]",
                help="A defender and its defending quality (repeat to split the attack).",
            ),
            "kind": Opt(
                field="",
                kind=Choice(values=("damage", "failure")),
                default="damage",
                show_default=True,
                help="Damage Ranks (combat) or Failure Ranks (social, mental).",
            ),
            "full-attack": Opt(help="Play Full Attack with this attack."),
            "full-defense": Opt(metavar="WHO", help="A defender reacts with Full Defense."),
            **SHIFTS,
            "killing": Opt(help="Killing damage (house rule lethality)."),
        },
        shaped=("kind",),
        shape=_rank_kind,
        example="campaign attack Draco Cutlass --target Ninja --dice 3,6",
    ),
    "reroll": Line(
        command="Reroll", arguments={"who": "attacker"}, example="campaign reroll Draco --dice 4,4"
    ),
    "allocate": Line(
        command="AllocateRanks",
        arguments={"who": "character", "steps": "steps"},
        example='campaign allocate Kristov Brawler Brawler "Dirty Fighter"',
    ),
    "kill": Line(
        command="Kill",
        arguments={"attacker": "attacker", "victim": "victim"},
        example="campaign kill Jefferson Kristov",
    ),
    # Recovery
    "danger": Line(
        command="DeclareDanger",
        arguments={"danger": "danger", "characters": "characters"},
        example="campaign danger continuing Kristov",
    ),
    "authorize-recovery": Line(
        command="AuthorizeRecovery",
        arguments={"who": "character"},
        options={"reason": Opt(help="Why.")},
        example="campaign authorize-recovery Kristov",
    ),
    "recover": Line(
        command="RollRecovery",
        arguments={"who": "character", "steps": "steps"},
        example="campaign recover Soren Pirate Toughness Toughness --dice 3",
    ),
    "restore": Line(
        command="PlaceRecovery",
        arguments={"who": "character", "steps": "steps"},
        example="campaign restore Soren Pirate Toughness Toughness",
    ),
    # Characters Improvement
    "adventure complete": Line(
        command="CompleteAdventure",
        arguments={"name": "adventure"},
        example='campaign adventure complete "The Merovingian\'s club"',
    ),
    "campaign-success": Line(command="SucceedCampaign", example="campaign campaign-success"),
    "mission announce": Line(
        command="AnnounceMission",
        arguments={"name": "mission", "characters": "characters"},
        example='campaign mission announce "The Vault" Neo Trinity',
    ),
    "mission succeed": Line(
        command="SucceedMission",
        arguments={"name": "mission", "characters": "characters"},
        example='campaign mission succeed "The Vault"',
    ),
    "upgrade": Line(
        command="UpgradeQuality",
        arguments={"who": "character", "quality": "quality"},
        example="campaign upgrade Rocky Boxer",
    ),
    "master-plus": Line(
        command="TakeMasterPlus",
        arguments={"who": "character", "qualities": "qualities"},
        example="campaign master-plus Trinity Telepathy Flight",
    ),
    "rebirth": Line(
        command="TakeRebirth",
        arguments={"who": "character"},
        options={
            "quality": _qualities("x10."),
            "extra": Opt(default=(), metavar="NAME[:extraordinary]", help="x4, all Good."),
        },
        example="campaign rebirth Trinity --quality Kicks:Combat:Good ... "
        "--extra Psi:extraordinary",
    ),
}
"""Every verb of the Sims RPG, in the order `campaign --help` lists them by theme."""
