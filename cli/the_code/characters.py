"""Making heroes (`character create`) and NPCs (`npc`); `character show` and `list` are added
from the sheets."""

from __future__ import annotations

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.dice import run
from cli.the_code.options import reveal_option
from domain.rulesets.the_code.commands import CreateHero, CreateNpc
from domain.rulesets.the_code.tables import STARTING_POPULARITY


@click.group("character")
def character() -> None:
    """Create and show heroes (and show NPCs).

    \b
    Example:
      campaign character show "The Hawk"
    """


@character.command("create")
@click.argument("code_name")
@click.option(
    "--player", required=True, help="Who plays the hero (given a seat as a player if none)."
)
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
    "--popularity",
    type=WHOLE_NUMBER,
    default=STARTING_POPULARITY,
    show_default=True,
    help="Starting Popularity.",
)
@click.option(
    "--reward-points", type=WHOLE_NUMBER, default=0, show_default=True, help="Starting RP."
)
@click.option("--violent", is_flag=True, help="The GM rules the hero violent.")
@click.option("--secretive", is_flag=True, help="The GM rules the hero secretive.")
@reveal_option
@pass_context
def create(
    ctx: Context,
    code_name: str,
    player: str,
    identity: str,
    public_identity: bool,
    description: str,
    profession: str,
    advantages: tuple[str, ...],
    weakness: str,
    objective: str,
    score: int,
    mo: str,
    exposure: int,
    popularity: int,
    reward_points: int,
    violent: bool,
    secretive: bool,
    reveal: tuple[str, ...],
) -> None:
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
    command = CreateHero(
        player=player,
        code_name=code_name,
        secret_identity=identity,
        physical_description=description,
        profession=profession,
        advantages=advantages,
        weakness=weakness,
        objective=objective,
        objective_score=score,
        modus_operandi=mo,
        public_identity=public_identity,
        exposure=exposure,
        popularity=popularity,
        reward_points=reward_points,
        violent=violent,
        secretive=secretive,
        reveal=reveal,
        seat_player=True,
    )
    run(ctx, command)


@click.command("npc")
@click.argument("name")
@click.option("--profession", default="", help="Its Profession (for the Ability Sequence).")
@click.option("--advantage", "advantages", multiple=True, help="An Advantage (repeatable).")
@click.option("--weakness", default="", help="Its Weakness.")
@click.option(
    "--motivation",
    type=WHOLE_NUMBER,
    help="Its Motivation score, spent in contests (default: a person without one).",
)
@pass_context
def npc(
    ctx: Context,
    name: str,
    profession: str,
    advantages: tuple[str, ...],
    weakness: str,
    motivation: int | None,
) -> None:
    """The GM brings in an NPC: a villain or rival with a Motivation score that contests spend
    (and days off restore), or a person without one. `character show` shows it.

    \b
    Example:
      campaign npc "Mister Grin" --profession "mob accountant" --advantage "nerves of steel" \\
          --weakness "vanity" --motivation 3
    """
    command = CreateNpc(
        character=name,
        profession=profession,
        advantages=advantages,
        weakness=weakness,
        motivation=motivation,
    )
    run(ctx, command)
