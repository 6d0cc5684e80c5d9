"""Code Green's commands: each decides, from the state and the dice, the events of one ruling.

The commands live in four modules; this one names them all. A command's module is imported the
first time the command is looked up here (``domain.rulesets.lazy``), so a process that runs one
command does not build the classes of the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.kinds import ACTOR, CHARACTER, MEMBER, Declared
from domain.rulesets.lazy import lent_names

if TYPE_CHECKING:
    from domain.rulesets.code_green.creation import CreateCharacter, RenameCharacter
    from domain.rulesets.code_green.making_tests import (
        Adapt,
        AssistTest,
        DeclareTest,
        RejectAssist,
        RollTest,
    )
    from domain.rulesets.code_green.placement import PlaceTokens
    from domain.rulesets.code_green.strain import DisplaceToken, Recover, SufferStrain

__all__ = [
    "Adapt",
    "AssistTest",
    "CreateCharacter",
    "DeclareTest",
    "DisplaceToken",
    "PlaceTokens",
    "Recover",
    "RejectAssist",
    "RenameCharacter",
    "RollTest",
    "SufferStrain",
]

# submodule -> the commands it defines
__getattr__, __dir__ = lent_names(
    __name__,
    "domain.rulesets.code_green",
    {
        "creation": ("CreateCharacter", "RenameCharacter"),
        "making_tests": ("Adapt", "AssistTest", "DeclareTest", "RejectAssist", "RollTest"),
        "placement": ("PlaceTokens",),
        "strain": ("DisplaceToken", "Recover", "SufferStrain"),
    },
)

PARAMETERS: Declared = {
    "Adapt": {"character": ACTOR},
    "AssistTest": {"helper": ACTOR},
    "CreateCharacter": {"player": MEMBER},
    "DeclareTest": {"character": ACTOR},
    "DisplaceToken": {"character": ACTOR},
    "PlaceTokens": {"character": ACTOR},
    "Recover": {"character": ACTOR},
    "RejectAssist": {"helper": CHARACTER},
    "RenameCharacter": {"character": ACTOR},
    "RollTest": {"character": ACTOR},
    "SufferStrain": {"character": ACTOR},
}
"""What the annotations alone do not say of the commands' parameters (``domain.kinds``)."""
