"""What The Code's verbs are on the command line beyond what the registry says of them
(``cli.generated``): positional parameters, option names, metavars and help, and examples."""

from __future__ import annotations

from typing import Any

from cli.generated import Group, Line, Opt

COMMANDS = "domain.rulesets.the_code.commands"

REVEAL = Opt(  # the GM's choice of the details new Exposure levels reveal (several verbs)
    metavar="DETAIL",
    help="A detail the GM chooses to reveal instead of the ladder's (repeatable, in order).",
)


def _seated(fields: dict[str, Any]) -> dict[str, Any]:
    """A hero's player is given a seat as a player if they have none."""
    return {**fields, "seat_player": True}


GROUPS = {
    "character": Group(
        help="Create and show heroes (and show NPCs).",
        example='campaign character show "The Hawk"',
    ),
}

LINES = {
    # Heroes and NPCs
    "character create": Line(
        command="CreateHero",
        arguments={"code_name": "code_name"},
        options={
            "player": Opt(help="Who plays the hero (given a seat as a player if none)."),
            "identity": Opt(
                field="secret_identity", help="The secret identity (the hero's real name)."
            ),
            "public": Opt(field="public_identity", help="The identity is public."),
            "description": Opt(field="physical_description", help="The physical description."),
            "profession": Opt(help="The Profession."),
            "advantage": Opt(field="advantages", help="An Advantage."),
            "weakness": Opt(help="The Weakness."),
            "objective": Opt(help="The Objective."),
            "score": Opt(field="objective_score", help="The Objective's score, 1 to 10."),
            "mo": Opt(field="modus_operandi", help="The Modus Operandi."),
            "exposure": Opt(show_default=True, help="Starting Exposure."),
            "popularity": Opt(show_default=True, help="Starting Popularity."),
            "reward-points": Opt(show_default=True, help="Starting RP."),
            "violent": Opt(help="The GM rules the hero violent."),
            "secretive": Opt(help="The GM rules the hero secretive."),
            "reveal": REVEAL,
        },
        shaped=("seat_player",),
        shape=_seated,
        example='campaign character create "The Hawk" --player dana --identity "Mitch Mason" \\\n'
        '    --description "tall, trench coat, limps" --profession "private eye (ex-cop)" \\\n'
        '    --advantage "keen eyes" --weakness "bum leg" --objective "catch criminals" \\\n'
        '    --score 6 --mo "handcuffs crooks to a phone booth"',
    ),
    "npc": Line(
        command="CreateNpc",
        arguments={"name": "character"},
        options={
            "profession": Opt(help="Its Profession (for the Ability Sequence)."),
            "advantage": Opt(field="advantages", help="An Advantage (repeatable)."),
            "weakness": Opt(help="Its Weakness."),
            "motivation": Opt(
                help="Its Motivation score, spent in contests (default: a person without one)."
            ),
        },
        example='campaign npc "Mister Grin" --profession "mob accountant" '
        '--advantage "nerves of steel" \\\n    --weakness "vanity" --motivation 3',
    ),
    # Tasks
    "step": Line(
        command="RuleAbilityStep",
        arguments={"who": "character", "task": "task"},
        options={
            "profession": Opt(help="WHO's Profession is relevant to the task."),
            "advantage": Opt(help="An Advantage of WHO's is relevant."),
            "weakness": Opt(help="WHO's Weakness applies (step 5, whatever else)."),
        },
        example='campaign step "The Hawk" "spot the crook in the alley" --profession',
    ),
    "challenge": Line(
        command="RuleChallenge",
        arguments={"who": "hero", "task": "task"},
        options={
            "needs-motivation": Opt(
                help="The task needs Motivation, and why (else it simply succeeds)."
            ),
            "weakness": Opt(help="The hero's Weakness comes into play."),
        },
        example='campaign challenge "The Hawk" "jump to the next roof" --weakness',
    ),
    "motivation": Line(
        command="UseMotivation",
        arguments={"who": "hero", "dice": "dice"},
        example='campaign motivation "The Hawk" 2 --dice 6,7',
    ),
    "contest": Line(
        command="SettleContest",
        arguments={"task": "task", "who": "hero"},
        options={
            "step": Opt(help="WHO's step (1-5), if not ruled with `campaign step`."),
            "roll": Opt(field="dice", help="Motivation dice WHO rolls."),
            "vs": Opt(field="opponent", help="The other hero or NPC, or a passer-by with --npc."),
            "vs-step": Opt(
                field="opponent_step", help="The opponent's step (1-5), if not ruled with `step`."
            ),
            "vs-roll": Opt(field="opponent_dice", help="Motivation dice the opponent rolls."),
            "npc": Opt(help="The opponent is an NPC the campaign does not track."),
            "npc-motivation": Opt(help="The NPC's Motivation (default: it has none)."),
        },
        example='campaign contest "spot the crook in the alley" "The Hawk" --step 2 --roll 1 \\\n'
        '    --vs "the crook" --vs-step 1 --npc --dice 7',
    ),
    # The session's calls
    "mo": Line(
        command="FollowMo",
        arguments={"who": "hero", "description": "description"},
        example='campaign mo "The Hawk" "left the mugger cuffed to a phone booth"',
    ),
    "weakness": Line(
        command="RuleWeaknessInPlay",
        arguments={"who": "hero", "task": "task"},
        example='campaign weakness "The Hawk" "chasing the van on foot"',
    ),
    "conduct": Line(
        command="RuleConduct",
        arguments={"who": "hero"},
        options={
            "violent": Opt(default=False, help="The hero is violent."),
            "secretive": Opt(default=False, help="The hero is secretive."),
        },
        example='campaign conduct "The Hawk" --violent',
    ),
    "day-off": Line(
        command="TakeDaysOff",
        arguments={"who": "hero", "days": "days"},
        example='campaign day-off "The Hawk" 2',
    ),
    # The Objective and Reward Points
    "objective": Line(
        command="AccomplishObjective",
        arguments={"who": "hero"},
        options={"reveal": REVEAL},
        example='campaign objective "The Hawk" --dice 6,8,3,7,1,4,7',
    ),
    "solve": Line(
        command="SolveProblem",
        arguments={"who": "hero", "scale": "scale", "description": "description"},
        options={"reveal": REVEAL},
        example='campaign solve "The Hawk" minor "petty theft on Elm Street" --dice 3,5,9,2',
    ),
    "recur": Line(
        command="RecurProblem",
        arguments={"who": "hero", "description": "description"},
        options={"note": Opt(help="How it came back.")},
        example='campaign recur "The Hawk" "petty crime on Elm Street" '
        '--note "a new gang moved in"',
    ),
    "buy-motivation": Line(
        command="BuyMotivation",
        arguments={"who": "hero"},
        example='campaign buy-motivation "The Hawk" --dice 4',
    ),
    "alter-objective": Line(
        command="AlterObjective",
        arguments={"who": "hero"},
        options={
            "objective": Opt(help="The new Objective."),
            "score": Opt(help="The new score (1-10)."),
        },
        example='campaign alter-objective "The Hawk" --objective "break the Falcone gang" '
        "--score 8",
    ),
    # Exposure and Popularity
    "exposure": Line(
        command="RollExposure",
        arguments={"who": "hero"},
        options={
            "mo-followed": Opt(help="GM ruling: the MO was followed this session."),
            "off": Opt(help="The hero took the session off: no roll."),
            "reduce": Opt(help="With --off: lower Exposure by 1."),
            "reveal": REVEAL,
        },
        example='campaign exposure "The Hawk" --mo-followed --dice 2,4,6,8,1 --reveal appearance',
    ),
    "lower-exposure": Line(
        command="LowerExposure",
        arguments={"who": "hero"},
        example='campaign lower-exposure "The Hawk"',
    ),
    "blab": Line(
        command="Blab",
        arguments={"who": "hero", "details": "details"},
        options={"by": Opt(field="confidant", help="Who blabbed.")},
        example='campaign blab "The Hawk" profession --by "his old partner"',
    ),
    "reaction": Line(
        command="RollReaction",
        arguments={"who": "hero", "audience": "audience"},
        options={
            "extra-dice": Opt(help="Motivation spent on extra dice."),
            "because": Opt(field="justification", help="How the Profession or Advantage helps."),
            "conflict": Opt(help="At Popularity 10: an extreme conflict."),
        },
        example='campaign reaction "The Hawk" "a beat cop" --extra-dice 1 --because "ex-cop" '
        "--dice 7,3",
    ),
}
"""Every verb of The Code, in the order `campaign --help` lists them by theme."""
