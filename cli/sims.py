"""The Sims RPG's verbs: sheets, situations, conflicts, damage, recovery and upgrades."""

from __future__ import annotations

from typing import Any

import click

from cli.context import Context, pass_context
from cli.dice import dice_options, run
from cli.sheets import Sheets, add_sheet_commands
from domain.rulesets.sims import commands as c
from domain.rulesets.sims.state import SimsCharacter
from domain.rulesets.sims.tables import Danger, RankKind, SheetKind, rank_name
from engine.mapper import converter

penalty_option = click.option(
    "--penalty", "penalties", multiple=True, metavar="WHY", help="A GM downshift (repeatable)."
)
badass_option = click.option("--badass", is_flag=True, help="GM: Being Badass, one upshift.")
with_option = click.option(
    "--with", "helpers", multiple=True, metavar="WHO:QUALITY", help="Join forces (repeatable)."
)


# --- Characters ----------------------------------------------------------------------------------


@click.group("character")
def character() -> None:
    """Create and show characters.

    \b
    Example:
      campaign character show Neo
    """


@character.command("create")
@click.argument("name")
@click.option("--player", default="GM", show_default=True, help="Who plays the character.")
@click.option(
    "--quality", "qualities", multiple=True, metavar="NAME:AREA:RANK", help="A quality (x10)."
)
@click.option("--npc", is_flag=True, help="A major NPC: any sheet.")
@click.option("--secondary", metavar="NAME:RANK", help="A secondary NPC: one Difficulty rank.")
@click.option("--custom", is_flag=True, help="GM: a player character outside the creation rules.")
@click.option("--strength", "strengths", multiple=True, help="A strength (repeatable).")
@click.option("--weakness", "weaknesses", multiple=True, help="A weakness (repeatable).")
@pass_context
def create(
    ctx: Context,
    name: str,
    player: str,
    qualities: tuple[str, ...],
    npc: bool,
    secondary: str | None,
    custom: bool,
    strengths: tuple[str, ...],
    weaknesses: tuple[str, ...],
) -> None:
    """Make a sheet: ten qualities (two Combat), two Good, one Poor, the rest Average.

    Areas: Physical, Mental, Social, Professional, Combat. Ranks: Poor, Average, Good, Expert,
    Master. NPCs (--npc) and GM sheets (--custom) skip the creation rules; a secondary NPC
    (--secondary) is a single rank.

    \b
    Example:
      campaign character create Ninja --secondary Henchman:Average
    """
    kind = SheetKind.SECONDARY if secondary else SheetKind.NPC if npc else SheetKind.PC
    specs = (secondary,) if secondary else qualities
    command = c.CreateCharacter(
        name, player, specs, kind=kind, custom=custom, strengths=strengths, weaknesses=weaknesses
    )
    run(ctx, command)


def status(s: SimsCharacter) -> str:
    notes = []
    if s.killed:
        return "killed"
    if s.pending is not None:
        notes.append(f"must allocate {s.pending.ranks} {s.pending.kind} Rank(s)")
    if s.ties:
        notes.append(f"must re-roll the tied attack on {s.ties[0].setup.defender}")
    if s.recovery_pending:
        notes.append(f"must place {s.recovery_pending} recovered rank(s)")
    if s.out:
        notes.append("out of the scene")
    if s.recovery_available:
        notes.append("may roll for recovery")
    if s.turn:
        notes.append(f"has turn {s.last_turn}")
    if s.strategy:
        notes.append(f"plays {s.strategy}")
    if s.upgrades:
        notes.append(f"{s.upgrades} upgrade(s) to spend")
    return "; ".join(notes) or "ready"


def sheet_json(s: SimsCharacter) -> dict[str, Any]:
    data: dict[str, Any] = converter.unstructure(s)
    data["out"] = s.out
    data["status"] = status(s)
    for q, quality in zip(data["qualities"], s.qualities, strict=True):
        q["current"] = rank_name(quality.current)
    return data


def sheet_text(s: SimsCharacter) -> str:
    lines = [f"{s.name} ({s.kind}, played by {s.player}): {status(s)}"]
    lines.append(f"  {'quality':<22}{'area':<14}{'base':<9}current")
    for q in s.qualities:
        lost = f"  (-{q.lost_damage} Damage)" if q.lost_damage else ""
        lost += f"  (-{q.lost_failure} Failure)" if q.lost_failure else ""
        current = rank_name(q.current)
        lines.append(f"  {q.name:<22}{q.area:<14}{q.base:<9}{current}{lost}")
    if s.strengths:
        lines.append(f"  strengths: {', '.join(s.strengths)}")
    if s.weaknesses:
        lines.append(f"  weaknesses: {', '.join(s.weaknesses)}")
    return "\n".join(lines)


@click.command("replace")
@click.argument("who")
@click.argument("quality")
@click.argument("new_name")
@click.option("--area", help="The new quality's area (default: the old one's).")
@click.option("--gm-approved", is_flag=True, help="The GM approved the change.")
@pass_context
def replace(
    ctx: Context, who: str, quality: str, new_name: str, area: str | None, gm_approved: bool
) -> None:
    """Swap a quality that sees no use for one that fits better, at the same rank.

    \b
    Example:
      campaign replace Neo Sailor Parkour --area Physical --gm-approved
    """
    run(ctx, c.ReplaceQuality(who, quality, new_name, area=area, gm_approved=gm_approved))


# --- Situations ----------------------------------------------------------------------------------


@click.command("simple")
@click.argument("who")
@click.argument("quality")
@click.option("--difficulty", required=True, help="The task's Difficulty rank.")
@click.option("--task", default="", help="What the character tries.")
@pass_context
def simple(ctx: Context, who: str, quality: str, difficulty: str, task: str) -> None:
    """Simple situation: a rank higher than the difficulty succeeds without a roll; otherwise
    it becomes complicated. QUALITY 'none' means the default Average.

    \b
    Example:
      campaign simple Neo Outdoorsman --difficulty Average --task "climb the wall"
    """
    run(ctx, c.JudgeSimple(who, quality, difficulty, task=task))


@click.command("roll")
@click.argument("who")
@click.argument("qualities", nargs=-1)
@click.option("--difficulty", required=True, help="The task's Difficulty rank (TN 5..13).")
@click.option("--task", default="", help="What the character tries.")
@click.option("--hazardous", is_flag=True, help="Failing deals TN - total Damage Ranks.")
@badass_option
@penalty_option
@with_option
@dice_options
@pass_context
def roll(
    ctx: Context,
    who: str,
    qualities: tuple[str, ...],
    difficulty: str,
    task: str,
    hazardous: bool,
    badass: bool,
    penalties: tuple[str, ...],
    helpers: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Complicated situation: 2d6 + modifiers, match or beat the difficulty's target number.

    No QUALITIES means the default Average; several combine their modifiers.

    \b
    Example:
      campaign roll Cypher --difficulty Good --task "down the wall" --hazardous --dice 3,5
    """
    command = c.RollComplicated(
        who, qualities, difficulty, task, hazardous, badass, penalties, helpers
    )
    run(ctx, command, faces=faces, seed=seed)


# --- Conflicts -----------------------------------------------------------------------------------


@click.command("turns")
@click.argument("entries", nargs=-1, required=True)
@pass_context
def turns(ctx: Context, entries: tuple[str, ...]) -> None:
    """Start a conflict: WHO:QUALITY for each side; the higher fighting rank goes first.

    \b
    Example:
      campaign turns "Kristov:Dirty Fighter" Jefferson:Biker
    """
    run(ctx, c.SetTurnOrder(entries))


@click.command("next")
@pass_context
def next_turn(ctx: Context) -> None:
    """End the current turn; the next character who can act takes its turn.

    \b
    Example:
      campaign next
    """
    run(ctx, c.NextTurn())


@click.command("strategy")
@click.argument("who")
@click.argument("strategy", type=click.Choice(["full-attack", "full-defense"]))
@pass_context
def strategy(ctx: Context, who: str, strategy: str) -> None:
    """Play Full Attack (own turn) or Full Defense (also as a reaction) until the next turn.

    \b
    Example:
      campaign strategy Ninja full-defense
    """
    run(ctx, c.DeclareStrategy(who, strategy))


@click.command("attack")
@click.argument("who")
@click.argument("qualities", nargs=-1)
@click.option(
    "--target",
    "targets",
    multiple=True,
    required=True,
    metavar="WHO[:QUALITY]",
    help="A defender and its defending quality (repeat to split the attack).",
)
@click.option(
    "--kind",
    type=click.Choice(["damage", "failure"]),
    default="damage",
    show_default=True,
    help="Damage Ranks (combat) or Failure Ranks (social, mental).",
)
@click.option("--full-attack", is_flag=True, help="Play Full Attack with this attack.")
@click.option(
    "--full-defense", multiple=True, metavar="WHO", help="A defender reacts with Full Defense."
)
@badass_option
@penalty_option
@with_option
@click.option("--killing", is_flag=True, help="Killing damage (house rule lethality).")
@dice_options
@pass_context
def attack(
    ctx: Context,
    who: str,
    qualities: tuple[str, ...],
    targets: tuple[str, ...],
    kind: str,
    full_attack: bool,
    full_defense: tuple[str, ...],
    badass: bool,
    penalties: tuple[str, ...],
    helpers: tuple[str, ...],
    killing: bool,
    faces: str | None,
    seed: int | None,
) -> None:
    """Conflict: roll against each defender's rank as a Difficulty. Higher than the TN hits for
    the difference in ranks; equal ties and is rolled again (`campaign reroll`).

    \b
    Example:
      campaign attack Draco Cutlass --target Ninja --dice 3,6
    """
    command = c.Attack(
        who,
        qualities,
        targets,
        kind=RankKind(kind.capitalize()),
        full_attack=full_attack,
        full_defense=full_defense,
        badass=badass,
        penalties=penalties,
        helpers=helpers,
        killing=killing,
    )
    run(ctx, command, faces=faces, seed=seed)


@click.command("reroll")
@click.argument("who", required=False)
@dice_options
@pass_context
def reroll(ctx: Context, who: str | None, faces: str | None, seed: int | None) -> None:
    """Roll a tied attack again, everything as it was.

    \b
    Example:
      campaign reroll Draco --dice 4,4
    """
    run(ctx, c.Reroll(who), faces=faces, seed=seed)


@click.command("allocate")
@click.argument("who")
@click.argument("steps", nargs=-1, required=True)
@pass_context
def allocate(ctx: Context, who: str, steps: tuple[str, ...]) -> None:
    """Distribute the ranks taken: one quality per rank, in order (a quality may repeat).

    \b
    Example:
      campaign allocate Kristov Brawler Brawler "Dirty Fighter"
    """
    run(ctx, c.AllocateRanks(who, steps))


@click.command("kill")
@click.argument("attacker")
@click.argument("victim")
@pass_context
def kill(ctx: Context, attacker: str, victim: str) -> None:
    """Out for Blood: on the attacker's next turn, kill a character who is out of the scene.

    \b
    Example:
      campaign kill Jefferson Kristov
    """
    run(ctx, c.Kill(attacker, victim))


# --- Recovery and improvement ------------------------------------------------------------------


@click.command("danger")
@click.argument("danger", type=click.Choice(["momentary", "continuing"]))
@click.argument("characters", nargs=-1)
@pass_context
def danger(ctx: Context, danger: str, characters: tuple[str, ...]) -> None:
    """GM: momentary danger (all ranks back at scene end) or continuing (a 1d6 recovery roll).

    \b
    Example:
      campaign danger continuing Kristov
    """
    run(ctx, c.DeclareDanger(Danger(danger), characters))


@click.command("authorize-recovery")
@click.argument("who")
@click.option("--reason", default="the GM says to roll again", help="Why.")
@pass_context
def authorize_recovery(ctx: Context, who: str, reason: str) -> None:
    """GM: the character may roll for recovery (again).

    \b
    Example:
      campaign authorize-recovery Kristov
    """
    run(ctx, c.AuthorizeRecovery(who, reason))


@click.command("recover")
@click.argument("who")
@click.argument("steps", nargs=-1)
@dice_options
@pass_context
def recover(
    ctx: Context, who: str, steps: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """Roll 1d6 for recovery; STEPS place the ranks now (or later with `campaign restore`).

    \b
    Example:
      campaign recover Soren Pirate Toughness Toughness --dice 3
    """
    run(ctx, c.RollRecovery(who, steps), faces=faces, seed=seed)


@click.command("restore")
@click.argument("who")
@click.argument("steps", nargs=-1, required=True)
@pass_context
def restore(ctx: Context, who: str, steps: tuple[str, ...]) -> None:
    """Place the ranks a recovery roll brought back, one quality per rank.

    \b
    Example:
      campaign restore Soren Pirate Toughness Toughness
    """
    run(ctx, c.PlaceRecovery(who, steps))


@click.command("campaign-success")
@pass_context
def campaign_success(ctx: Context) -> None:
    """The campaign succeeded: every player character earns one upgrade.

    \b
    Example:
      campaign campaign-success
    """
    run(ctx, c.CampaignSucceeded())


@click.group("mission")
def mission() -> None:
    """Upgrade Missions, announced in advance by the GM.

    \b
    Example:
      campaign mission announce "The Vault" Neo
    """


@mission.command("announce")
@click.argument("name")
@click.argument("characters", nargs=-1, required=True)
@pass_context
def mission_announce(ctx: Context, name: str, characters: tuple[str, ...]) -> None:
    """Announce that a mission is an Upgrade Mission for these characters.

    \b
    Example:
      campaign mission announce "The Vault" Neo Trinity
    """
    run(ctx, c.AnnounceMission(name, characters))


@mission.command("succeed")
@click.argument("name")
@click.argument("characters", nargs=-1)
@pass_context
def mission_succeed(ctx: Context, name: str, characters: tuple[str, ...]) -> None:
    """The Upgrade Mission succeeded: each character it was announced to earns one upgrade.

    \b
    Example:
      campaign mission succeed "The Vault"
    """
    run(ctx, c.MissionSucceeded(name, characters))


@click.command("upgrade")
@click.argument("who")
@click.argument("quality")
@pass_context
def upgrade(ctx: Context, who: str, quality: str) -> None:
    """Spend an upgrade: one quality one rank higher (not above Master).

    \b
    Example:
      campaign upgrade Rocky Boxer
    """
    run(ctx, c.UpgradeQuality(who, quality))


@click.command("master-plus")
@click.argument("who")
@click.argument("qualities", nargs=2)
@pass_context
def master_plus(ctx: Context, who: str, qualities: tuple[str, ...]) -> None:
    """Master in three qualities: spend an upgrade on two new qualities, both Good.

    \b
    Example:
      campaign master-plus Trinity Telepathy Flight
    """
    run(ctx, c.TakeMasterPlus(who, qualities))


@click.command("rebirth")
@click.argument("who")
@click.option("--quality", "qualities", multiple=True, metavar="NAME:AREA:RANK", help="x10.")
@click.option("--extra", multiple=True, metavar="NAME[:extraordinary]", help="x4, all Good.")
@pass_context
def rebirth(ctx: Context, who: str, qualities: tuple[str, ...], extra: tuple[str, ...]) -> None:
    """Master in six qualities, no Master+: spend an upgrade on a whole new sheet plus four Good
    qualities (one may be psychic or extraordinary).

    \b
    Example:
      campaign rebirth Trinity --quality Kicks:Combat:Good ... --extra Psi:extraordinary
    """
    run(ctx, c.Rebirth(who, qualities, extra))


SHEETS = Sheets(text=lambda s, _: sheet_text(s), json=sheet_json, status=status)
add_sheet_commands(character, SHEETS, "Neo")

VERBS = click.Group("sims", help="The Sims RPG's verbs.")
for _command in (
    character,
    replace,
    simple,
    roll,
    turns,
    next_turn,
    strategy,
    attack,
    reroll,
    allocate,
    kill,
    danger,
    authorize_recovery,
    recover,
    restore,
    campaign_success,
    mission,
    upgrade,
    master_plus,
    rebirth,
):
    VERBS.add_command(_command)
