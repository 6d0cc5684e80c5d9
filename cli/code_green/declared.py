"""What Code Green's verbs are on the command line beyond what the registry says of them
(``cli.generated``): positional parameters, option names and help, the shapes of the lines
that are not one field a value (a test's two traits, the comma lists of a new character's
traits, adapting's two squares), and examples."""

from __future__ import annotations

from typing import Any

from cli.generated import Arg, Group, Line, Opt
from domain.errors import DomainError
from domain.kinds import Flag, ListOf, Text
from domain.rulesets.code_green.tables import TOKENS

COMMANDS = "domain.rulesets.code_green.commands"
ROLLED = ",".join(["roll"] * TOKENS)  # a new character's traits when none are chosen
WORDS = ListOf(item=Text())
TRAITS = ("form", "function")


class TraitsWithNoPair(DomainError):
    template = "name one Form and one Function trait (e.g. Legs Invulnerable), or pass --no-pair"


class AdaptNeedsTwoSquares(DomainError):
    template = "adapt takes a FROM and a TO square (or none when nothing can move), got {count}"


def _traits(fields: dict[str, Any]) -> dict[str, Any]:
    """``--form`` and ``--function`` as lists (``A,B,C``); the player named is given a seat."""
    three = {key: tuple(item.strip() for item in fields[key].split(",")) for key in TRAITS}
    return {**fields, **three, "seat_player": True}


def _pair(fields: dict[str, Any]) -> dict[str, Any]:
    """``TRAITS...`` as the Form and the Function trait: two of them, or none with
    ``--no-pair``."""
    traits, no_pair = fields.pop("traits"), fields.pop("no_pair")
    if (no_pair and traits) or (not no_pair and len(traits) != 2):
        raise TraitsWithNoPair()
    form, function = (None, None) if no_pair else traits
    return {**fields, "form": form, "function": function}


def _move(fields: dict[str, Any]) -> dict[str, Any]:
    """``FROM TO`` as the token's source and destination, or neither."""
    squares = fields.pop("squares")
    if len(squares) not in (0, 2):
        raise AdaptNeedsTwoSquares(count=len(squares))
    source, destination = squares or (None, None)
    return {**fields, "source": source, "destination": destination}


GROUPS = {
    "character": Group(help="Create and show characters.", example="campaign character show 31415"),
}

LINES = {
    "character create": Line(
        command="CreateCharacter",
        options={
            "player": Opt(
                help="Who plays the character (given a seat as a player if they have none)."
            ),
            "form": Opt(
                field="",
                kind=Text(),
                default=ROLLED,
                show_default=True,
                help="Three Form traits in slot order (rows); 'roll' rolls d66 for a slot.",
            ),
            "function": Opt(
                field="",
                kind=Text(),
                default=ROLLED,
                show_default=True,
                help="Three Function traits in slot order (columns); 'roll' rolls d66 for a slot.",
            ),
        },
        shaped=(*TRAITS, "seat_player"),
        shape=_traits,
        example="campaign character create --player alice --form Legs,Tail,Teeth \\\n"
        "    --function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
    ),
    "character rename": Line(
        command="RenameCharacter",
        arguments={"who": "character", "new_name": "new_name"},
        example="campaign character rename 31415 Frost",
    ),
    "place": Line(
        command="PlaceTokens",
        arguments={"who": "character", "squares": Arg(field="squares", nargs=TOKENS)},
        example="campaign place 31415 R1C1 Tail/Invulnerable roll --dice 3,3",
    ),
    "test": Line(
        command="DeclareTest",
        arguments={"who": "character", "traits": Arg(kind=WORDS)},
        options={
            "no-pair": Opt(
                field="",
                kind=Flag(),
                help="No pair of traits applies (roll only assist dice).",
            ),
            "roll": Opt(help="Roll at once (no assistance)."),
        },
        shaped=TRAITS,
        shape=_pair,
        example="campaign test 31415 Legs Invulnerable --roll --dice 2,5",
    ),
    "assist": Line(
        command="AssistTest",
        arguments={"helper": "helper", "square": "square"},
        options={
            "why": Opt(
                field="justification",
                help="How the helper's pair helps (the rules ask for it).",
            ),
        },
        example='campaign assist 52231 Teeth/Cryptic --why "bites through the cable"',
    ),
    "reject-assist": Line(
        command="RejectAssist",
        arguments={"helper": "helper"},
        options={"reason": Opt(help="Why the helper's pair does not apply.")},
        example='campaign reject-assist bob --reason "his blood cannot reach the radio from here"',
    ),
    "roll": Line(
        command="RollTest",
        arguments={"who": "character"},
        example="campaign roll --dice 3,6",
    ),
    "strain": Line(
        command="SufferStrain",
        arguments={"who": "character"},
        options={
            "to": Opt(field="destination", help="Where a struck token goes, if it must move."),
            "foolhardy": Opt(
                help="A most foolhardy effort: strain past house rule maxStrainPerTest."
            ),
        },
        example="campaign strain 31415 --to R1C2 --dice 1,3",
    ),
    "displace": Line(
        command="DisplaceToken",
        arguments={"who": "character", "square": "destination"},
        example="campaign displace 31415 R1C2",
    ),
    "adapt": Line(
        command="Adapt",
        arguments={"who": "character", "squares": Arg(kind=WORDS)},
        shaped=("source", "destination"),
        shape=_move,
        example="campaign adapt 31415 R1C1 R2C3",
    ),
    "recover": Line(
        command="Recover",
        arguments={"who": "character"},
        example="campaign recover 31415",
    ),
}
"""Every verb of Code Green, in the order `campaign --help` lists them."""
