"""Tasks: Ability steps, unopposed challenges and the Motivation rolls they need, contests, and
days off."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import dice_options, run
from domain.rulesets.the_code.commands import (
    RuleAbilityStep,
    RuleChallenge,
    SettleContest,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.tables import NeedReason


@click.command("step")
@click.argument("who")
@click.argument("task")
@click.option("--profession", is_flag=True, help="WHO's Profession is relevant to the task.")
@click.option("--advantage", is_flag=True, help="An Advantage of WHO's is relevant.")
@click.option("--weakness", is_flag=True, help="WHO's Weakness applies (step 5, whatever else).")
@pass_context
def step(
    ctx: Context, who: str, task: str, profession: bool, advantage: bool, weakness: bool
) -> None:
    """GM ruling: WHO's step on the Ability Sequence for TASK (1 Profession and Advantage, 2
    Profession, 3 Advantage, 4 neither, 5 Weakness). Contests and challenges on TASK use it.

    \b
    Example:
      campaign step "The Hawk" "spot the crook in the alley" --profession
    """
    command = RuleAbilityStep(
        character=who, task=task, profession=profession, advantage=advantage, weakness=weakness
    )
    run(ctx, command)


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
    "--step", type=WHOLE_NUMBER, help="WHO's step (1-5), if not ruled with `campaign step`."
)
@click.option(
    "--roll", "dice_count", type=WHOLE_NUMBER, default=0, help="Motivation dice WHO rolls."
)
@click.option(
    "--vs", "opponent", required=True, help="The other hero or NPC, or a passer-by with --npc."
)
@click.option(
    "--vs-step", type=WHOLE_NUMBER, help="The opponent's step (1-5), if not ruled with `step`."
)
@click.option("--vs-roll", type=WHOLE_NUMBER, default=0, help="Motivation dice the opponent rolls.")
@click.option("--npc", is_flag=True, help="The opponent is an NPC the campaign does not track.")
@click.option(
    "--npc-motivation", type=WHOLE_NUMBER, help="The NPC's Motivation (default: it has none)."
)
@dice_options
@pass_context
def contest(
    ctx: Context,
    task: str,
    who: str,
    step: int | None,
    dice_count: int,
    opponent: str,
    vs_step: int | None,
    vs_roll: int,
    npc: bool,
    npc_motivation: int | None,
    faces: str | None,
    seed: int | None,
) -> None:
    """A contested challenge: the better step wins unless someone rolls Motivation; the lower
    step bids at x2..x5 up front; ties are removed pairwise; winning dice cost a point each.
    Each side's step is the one ruled for TASK (`campaign step`) unless given here.

    \b
    Example:
      campaign contest "spot the crook in the alley" "The Hawk" --step 2 --roll 1 \\
          --vs "the crook" --vs-step 1 --npc --dice 7
    """
    command = SettleContest(
        task=task,
        hero=who,
        step=step,
        dice=dice_count,
        opponent=opponent,
        opponent_step=vs_step,
        opponent_dice=vs_roll,
        npc=npc,
        npc_motivation=npc_motivation,
    )
    run(ctx, command, faces=faces, seed=seed)


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
