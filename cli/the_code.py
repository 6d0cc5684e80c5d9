"""The Code's verbs: heroes, challenges, contests, the Objective, Reward Points, Exposure."""

from __future__ import annotations

from typing import Any

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from cli.sheets import Sheets, add_sheet_commands
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    AlterObjective,
    Blab,
    BuyMotivation,
    Contest,
    CreateHero,
    FollowMo,
    LowerExposure,
    RollExposure,
    RollReaction,
    RuleChallenge,
    RuleConduct,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
    WeaknessInPlay,
)
from domain.rulesets.the_code.tables import NeedReason, Scale
from engine.mapper import converter
from projections.the_code import scores, sheet_text

REVEAL_HELP = "A detail the GM chooses to reveal instead of the ladder's (repeatable, in order)."


def _reveal_option(f: Any) -> Any:
    return click.option("--reveal", multiple=True, metavar="DETAIL", help=REVEAL_HELP)(f)


# --- Heroes ---------------------------------------------------------------------------------------


@click.group("character")
def character() -> None:
    """Create and show heroes.

    \b
    Example:
      campaign character show "The Hawk"
    """


@character.command("create")
@click.argument("code_name")
@click.option("--player", required=True, help="Who plays the hero.")
@click.option("--identity", required=True, help="The secret identity (the hero's real name).")
@click.option("--public", "public_identity", is_flag=True, help="The identity is public.")
@click.option("--description", required=True, help="The physical description.")
@click.option("--profession", required=True, help="The Profession.")
@click.option("--advantage", "advantages", multiple=True, required=True, help="An Advantage.")
@click.option("--weakness", required=True, help="The Weakness.")
@click.option("--objective", required=True, help="The Objective.")
@click.option("--score", type=WHOLE_NUMBER, required=True, help="The Objective's score, 1 to 10.")
@click.option("--mo", required=True, help="The Modus Operandi.")
@click.option(
    "--exposure", type=WHOLE_NUMBER, default=0, show_default=True, help="Starting Exposure."
)
@click.option(
    "--popularity", type=WHOLE_NUMBER, default=3, show_default=True, help="Starting Popularity."
)
@click.option(
    "--reward-points", type=WHOLE_NUMBER, default=0, show_default=True, help="Starting RP."
)
@click.option("--violent", is_flag=True, help="The GM rules the hero violent.")
@click.option("--secretive", is_flag=True, help="The GM rules the hero secretive.")
@_reveal_option
@pass_context
def create(ctx: Context, /, code_name: str, **fields: Any) -> None:
    """Make a hero: every detail the Exposure ladder can reveal, and the starting scores.

    Motivation starts full at half the Objective score (rounded down). A hero starting at
    Exposure 2 or more has the ladder's details for those levels public already.

    \b
    Example:
      campaign character create "The Hawk" --player dana --identity "Mitch Mason" \\
          --description "tall, trench coat, limps" --profession "private eye (ex-cop)" \\
          --advantage "keen eyes" --weakness "bum leg" --objective "catch criminals" \\
          --score 6 --mo "handcuffs crooks to a phone booth"
    """
    fields["modus_operandi"] = fields.pop("mo")
    fields["physical_description"] = fields.pop("description")
    fields["secret_identity"] = fields.pop("identity")
    fields["objective_score"] = fields.pop("score")
    command = CreateHero(code_name=code_name, **fields)
    run(ctx, command)


def sheet_json(h: TcHero) -> dict[str, Any]:
    data: dict[str, Any] = converter.unstructure(h)
    data["max_motivation"] = h.max_motivation
    return data


# --- Tasks -------------------------------------------------------------------------------------


@click.command("challenge")
@click.argument("who")
@click.argument("task")
@click.option(
    "--needs-motivation",
    type=click.Choice([r.value for r in NeedReason]),
    help="The task needs Motivation, and why (else it simply succeeds).",
)
@click.option("--weakness", is_flag=True, help="The hero's Weakness comes into play.")
@pass_context
def challenge(
    ctx: Context, who: str, task: str, needs_motivation: str | None, weakness: bool
) -> None:
    """GM ruling on an unopposed task: it succeeds, or it needs a Motivation roll.

    \b
    Example:
      campaign challenge "The Hawk" "jump to the next roof" --weakness
    """
    reason = NeedReason(needs_motivation) if needs_motivation else None
    run(ctx, RuleChallenge(hero=who, task=task, needs_motivation=reason, weakness=weakness))


@click.command("motivation")
@click.argument("who")
@click.argument("dice", type=WHOLE_NUMBER)
@dice_options
@pass_context
def motivation(ctx: Context, who: str, dice: int, faces: str | None, seed: int | None) -> None:
    """Roll DICE Motivation dice for the task that needs it: any 5+ succeeds, each die above 5
    costs a point. 0 dice: the hero declines and the task fails.

    \b
    Example:
      campaign motivation "The Hawk" 2 --dice 6,7
    """
    run(ctx, UseMotivation(hero=who, dice=dice), faces=faces, seed=seed)


@click.command("contest")
@click.argument("task")
@click.argument("who")
@click.option(
    "--step", type=WHOLE_NUMBER, required=True, help="WHO's step on the Ability Sequence (1-5)."
)
@click.option(
    "--roll", "dice_count", type=WHOLE_NUMBER, default=0, help="Motivation dice WHO rolls."
)
@click.option("--vs", "opponent", required=True, help="The other hero, or an NPC with --npc.")
@click.option("--vs-step", type=WHOLE_NUMBER, required=True, help="The opponent's step (1-5).")
@click.option("--vs-roll", type=WHOLE_NUMBER, default=0, help="Motivation dice the opponent rolls.")
@click.option("--npc", is_flag=True, help="The opponent is a non-player character.")
@click.option(
    "--npc-motivation", type=WHOLE_NUMBER, help="The NPC's Motivation (default: it has none)."
)
@dice_options
@pass_context
def contest(ctx: Context, /, task: str, who: str, **options: Any) -> None:
    """A contested challenge: the better step wins unless someone rolls Motivation; the lower
    step bids at x2..x5 up front; ties are removed pairwise; winning dice cost a point each.

    \b
    Example:
      campaign contest "spot the crook in the alley" "The Hawk" --step 2 --roll 1 \\
          --vs "the crook" --vs-step 1 --npc --dice 7
    """
    faces, seed = options.pop("faces"), options.pop("seed")
    command = Contest(
        task=task,
        hero=who,
        step=options["step"],
        dice=options["dice_count"],
        opponent=options["opponent"],
        opponent_step=options["vs_step"],
        opponent_dice=options["vs_roll"],
        npc=options["npc"],
        npc_motivation=options["npc_motivation"],
    )
    run(ctx, command, faces=faces, seed=seed)


# --- The GM's calls for the session ---------------------------------------------------------------


@click.command("mo")
@click.argument("who")
@click.argument("description", required=False, default="")
@pass_context
def mo(ctx: Context, who: str, description: str) -> None:
    """GM ruling: the hero followed their MO this session (an extra Exposure die, a bonus die
    when the Objective is accomplished).

    \b
    Example:
      campaign mo "The Hawk" "left the mugger cuffed to a phone booth"
    """
    run(ctx, FollowMo(hero=who, description=description))


@click.command("weakness")
@click.argument("who")
@click.argument("task")
@pass_context
def weakness(ctx: Context, who: str, task: str) -> None:
    """GM ruling: the hero's Weakness came into play this session.

    \b
    Example:
      campaign weakness "The Hawk" "chasing the van on foot"
    """
    run(ctx, WeaknessInPlay(hero=who, task=task))


@click.command("conduct")
@click.argument("who")
@click.option("--violent/--not-violent", default=False, help="The hero is violent.")
@click.option("--secretive/--not-secretive", default=False, help="The hero is secretive.")
@pass_context
def conduct(ctx: Context, who: str, violent: bool, secretive: bool) -> None:
    """GM ruling: is the hero violent or secretive? (They lose Popularity on a roll with no evens.)

    \b
    Example:
      campaign conduct "The Hawk" --violent
    """
    run(ctx, RuleConduct(hero=who, violent=violent, secretive=secretive))


@click.command("day-off")
@click.argument("who")
@click.argument("days", type=WHOLE_NUMBER, default=1)
@pass_context
def day_off(ctx: Context, who: str, days: int) -> None:
    """Days off: each returns a point of Motivation, up to the maximum.

    \b
    Example:
      campaign day-off "The Hawk" 2
    """
    run(ctx, TakeDaysOff(hero=who, days=days))


# --- The Objective and Reward Points -----------------------------------------------------------


@click.command("objective")
@click.argument("who")
@_reveal_option
@dice_options
@pass_context
def objective(
    ctx: Context, who: str, reveal: tuple[str, ...], faces: str | None, seed: int | None
) -> None:
    """GM ruling: the Objective is accomplished. Rolls maximum Motivation (+1 die for the
    Weakness, +1 for the MO this session): each die at or above the score earns Reward Points
    and Motivation; an even MO die gains Exposure. Then the Popularity roll.

    \b
    Example:
      campaign objective "The Hawk" --dice 6,8,3,7,1,4,7
    """
    run(ctx, AccomplishObjective(hero=who, reveal=reveal), faces=faces, seed=seed)


@click.command("solve")
@click.argument("who")
@click.argument("scale", type=click.Choice([s.value for s in Scale]))
@click.argument("description")
@_reveal_option
@dice_options
@pass_context
def solve(
    ctx: Context,
    who: str,
    scale: str,
    description: str,
    reveal: tuple[str, ...],
    faces: str | None,
    seed: int | None,
) -> None:
    """Spend Reward Points on a community problem of the scale the GM rules (minor 25, general
    50, major 100): Exposure and Popularity rise 1/2/3, then the Popularity roll.

    \b
    Example:
      campaign solve "The Hawk" minor "petty theft on Elm Street" --dice 3,5,9,2
    """
    command = SolveProblem(hero=who, description=description, scale=Scale(scale), reveal=reveal)
    run(ctx, command, faces=faces, seed=seed)


@click.command("buy-motivation")
@click.argument("who")
@dice_options
@pass_context
def buy_motivation(ctx: Context, who: str, faces: str | None, seed: int | None) -> None:
    """Spend 25 Reward Points on one die: even raises the maximum Motivation by one.

    \b
    Example:
      campaign buy-motivation "The Hawk" --dice 4
    """
    run(ctx, BuyMotivation(hero=who), faces=faces, seed=seed)


@click.command("alter-objective")
@click.argument("who")
@click.option("--objective", "text", help="The new Objective.")
@click.option("--score", type=WHOLE_NUMBER, help="The new score (1-10).")
@pass_context
def alter_objective(ctx: Context, who: str, text: str | None, score: int | None) -> None:
    """Change the Objective: Motivation becomes half the new score; bought Motivation is lost.

    \b
    Example:
      campaign alter-objective "The Hawk" --objective "break the Falcone gang" --score 8
    """
    run(ctx, AlterObjective(hero=who, objective=text, score=score))


# --- Exposure and Popularity ------------------------------------------------------------------


@click.command("exposure")
@click.argument("who")
@click.option("--mo-followed", is_flag=True, help="GM ruling: the MO was followed this session.")
@click.option("--off", is_flag=True, help="The hero took the session off: no roll.")
@click.option("--reduce", is_flag=True, help="With --off: lower Exposure by 1.")
@_reveal_option
@dice_options
@pass_context
def exposure(ctx: Context, /, who: str, **options: Any) -> None:
    """The end-of-session Exposure roll, made for every hero before `campaign session end`.

    One die per point of Exposure, one more if the MO was followed; any even die gains 1 (2 for
    a public identity); with no gain all session, Exposure drops by 1. Each new level above 1
    reveals a detail.

    \b
    Example:
      campaign exposure "The Hawk" --mo-followed --dice 2,4,6,8,1 --reveal appearance
    """
    faces, seed = options.pop("faces"), options.pop("seed")
    run(ctx, RollExposure(hero=who, **options), faces=faces, seed=seed)


@click.command("lower-exposure")
@click.argument("who")
@pass_context
def lower_exposure(ctx: Context, who: str) -> None:
    """Give up a point of Popularity to lower Exposure by one (nothing public is forgotten).

    \b
    Example:
      campaign lower-exposure "The Hawk"
    """
    run(ctx, LowerExposure(hero=who))


@click.command("blab")
@click.argument("who")
@click.argument("details", nargs=-1, required=True)
@click.option("--by", "confidant", required=True, help="Who blabbed.")
@pass_context
def blab(ctx: Context, who: str, details: tuple[str, ...], confidant: str) -> None:
    """Someone the hero confided in blabbed: each detail becomes public, +1 Exposure each.

    \b
    Example:
      campaign blab "The Hawk" profession --by "his old partner"
    """
    run(ctx, Blab(hero=who, details=details, confidant=confidant))


@click.command("reaction")
@click.argument("who")
@click.argument("audience")
@click.option("--extra-dice", type=WHOLE_NUMBER, default=0, help="Motivation spent on extra dice.")
@click.option("--because", default="", help="How the Profession or Advantage helps.")
@click.option("--conflict", is_flag=True, help="At Popularity 10: an extreme conflict.")
@dice_options
@pass_context
def reaction(ctx: Context, /, who: str, audience: str, **options: Any) -> None:
    """How the public, the media or the authorities react: a d10 at or under Popularity.

    \b
    Example:
      campaign reaction "The Hawk" "a beat cop" --extra-dice 1 --because "ex-cop" --dice 7,3
    """
    faces, seed = options.pop("faces"), options.pop("seed")
    command = RollReaction(
        hero=who,
        audience=audience,
        extra_dice=options["extra_dice"],
        justification=options["because"],
        conflict=options["conflict"],
    )
    run(ctx, command, faces=faces, seed=seed)


SHEETS = Sheets(text=lambda h, _: sheet_text(h), json=sheet_json, status=scores)
add_sheet_commands(character, SHEETS, '"The Hawk"')

VERBS = click.Group("the-code", help="The Code's verbs.")
for _command in (
    character,
    challenge,
    motivation,
    contest,
    mo,
    weakness,
    conduct,
    day_off,
    objective,
    solve,
    buy_motivation,
    alter_objective,
    exposure,
    lower_exposure,
    blab,
    reaction,
):
    VERBS.add_command(_command)
