"""Code Green's commands: each decides, from the state and the dice, the events of one ruling."""

from domain.rulesets.code_green.creation import CreateCharacter, PlaceTokens
from domain.rulesets.code_green.lookup import ROLL, parse_square
from domain.rulesets.code_green.play import (
    Adapt,
    AssistTest,
    DeclareTest,
    DisplaceToken,
    Recover,
    RollTest,
    SufferStrain,
)

__all__ = [
    "ROLL",
    "Adapt",
    "AssistTest",
    "CreateCharacter",
    "DeclareTest",
    "DisplaceToken",
    "PlaceTokens",
    "Recover",
    "RollTest",
    "SufferStrain",
    "parse_square",
]
