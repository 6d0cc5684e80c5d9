"""Code Green's refusals. Each names the rule it enforces (rule text section in brackets)."""

from __future__ import annotations

from domain.errors import DomainError


class TraitCountInvalid(DomainError):
    template = "a character has exactly three {table} traits, got {count} (Character Creation)"


class UnknownTrait(DomainError):
    template = "{trait!r} is not on the {table} table; choose one of: {known} (Character Creation)"


class DuplicateTrait(DomainError):
    template = "{trait} is chosen twice; your three {table} traits must differ (Character Creation)"


class InvalidD66(DomainError):
    template = "{value} is not a d66 result: both digits are 1 to 6, 11 to 66 (Rolling Dice)"


class RolledTraitMismatch(DomainError):
    template = (
        "d66 {d66} on the {table} table is {expected}, not {trait} (Character Creation, "
        "Table 1 and Table 2)"
    )


class RolledSquareMismatch(DomainError):
    template = (
        "d66 {d66} lands on {expected} (by the gridRanges house rule), not {square} "
        "(Initial Token Placement, Suffering Strain)"
    )


class PartyFull(DomainError):
    template = "Code Green is for up to six players; this campaign has {count} characters already"


class UnknownSquare(DomainError):
    template = (
        "{text!r} is not a Profile Grid square: use R1C1..R3C3, a pair such as Legs/Cryptic, "
        "or 'roll'"
    )


class TokensAlreadyPlaced(DomainError):
    template = "{name} has placed its tokens for this scene already (Initial Token Placement)"


class NotThreeTokens(DomainError):
    template = "place each of your three tokens: got {count} squares (Initial Token Placement)"


class DuplicateSquare(DomainError):
    template = (
        "{square} is named twice; each token goes on a different square (Initial Token Placement)"
    )


class SquareMarked(DomainError):
    template = "{square} is marked by strain; tokens may not be placed on marked squares"


class TokensNotPlaced(DomainError):
    template = (
        "{name} has not placed its tokens in this scene yet; `campaign place` places them "
        "(Initial Token Placement)"
    )


class CharacterIncapacitated(DomainError):
    template = "{name} is incapacitated and may not take part in tests until it recovers (Strain)"


class AdaptationPending(DomainError):
    template = "{name} must adapt after test {test} before anything else (Adapting is not optional)"


class DisplacementPending(DomainError):
    template = (
        "{name} must first move the token strain struck on {square} to an empty square "
        "(`campaign displace`) (Suffering Strain)"
    )


class TraitNotOnSheet(DomainError):
    template = "{name} has no {table} trait {trait}; its {table} traits are {own} (Making Tests)"


class PairMustBeFormAndFunction(DomainError):
    template = "a test uses one Form trait and one Function trait, got {given} (Making Tests)"


class AnotherTestOpen(DomainError):
    template = (
        "{name}'s test {test} is still open ({what}); a scene has one test open at a time: "
        "it is rolled, its strain resolved and its adaptation made before another is declared "
        "(Making Tests, Adapting)"
    )


ANYONE = "anyone in this scene"
"""Whom ``NoOpenTest`` names when no character was named: the scene has no test waiting."""


class NoOpenTest(DomainError):
    template = (
        "no declared test is waiting to be rolled for {who}; a test is declared with "
        "`campaign test` first (Making Tests)"
    )


class TestAlreadyRolled(DomainError):
    template = "{name}'s test {test} has been rolled already"


class CannotAssistOwnTest(DomainError):
    template = "{name} cannot assist its own test (Assistance)"


class NoTokenOnSquare(DomainError):
    template = (
        "{name} has no token on {square} ({pair}); only pairs under your own tokens can assist "
        "(Assistance)"
    )


class AlreadyAssistedThisTest(DomainError):
    template = "{name} already handed one die to this test; one die per helper (Assistance)"


class HelperIncapacitated(DomainError):
    template = (
        "{name} is incapacitated and may not take part in tests, so it cannot assist (Strain)"
    )


class AssistNotApplicable(DomainError):
    template = (
        "the GM ruled {name}'s {pair} not applicable to test {test}; assist with another pair "
        "under one of its tokens (Assistance)"
    )


class NoAssistToReject(DomainError):
    template = (
        "{name} has handed no die to test {test}; there is no assistance to rule out (Assistance)"
    )


class HelperNotInScene(DomainError):
    template = "{name} has no tokens on its grid in this scene, so it cannot assist (Assistance)"


class NoTestForStrain(DomainError):
    template = (
        "{name} has no rolled test awaiting adaptation; strain is a consequence of a test and "
        "comes before adapting (house rule allowEnvironmentalStrain allows strain outside tests)"
    )


class StrainLimitReached(DomainError):
    template = (
        "test {test} has caused {count} strain already; house rule maxStrainPerTest is {limit} "
        "(the GM rules a most foolhardy effort with --foolhardy) (Suffering Strain)"
    )


class AlreadyIncapacitated(DomainError):
    template = "{name} is incapacitated already; further strain has no effect (Suffering Strain)"


class NoDisplacementPending(DomainError):
    template = "{name} has no token waiting to be displaced by strain"


class DestinationOccupied(DomainError):
    template = "{square} already holds a token; move it to a square without one"


class DestinationMarked(DomainError):
    template = (
        "{square} is marked by strain; tokens may not be moved to marked squares for the rest "
        "of the scene (Suffering Strain)"
    )


class NoPendingAdaptation(DomainError):
    template = "{name} has no rolled test to adapt after (Adapting)"


class NoTokenAtSource(DomainError):
    template = "{name} has no token on {square} to move (Adapting)"


class MustMoveToDifferentSquare(DomainError):
    template = (
        "the token must end on a different square than {square} while a valid destination "
        "exists (Adapting)"
    )


class AdaptationChoiceRequired(DomainError):
    template = "{name} must choose a token and where it goes, e.g. {example} (Adapting)"


class NotIncapacitated(DomainError):
    template = "{name} is not incapacitated"


class TestUnresolved(DomainError):
    template = "{name}'s test {test} is not resolved ({what}); finish it before the scene ends"


class InvalidCharacterName(DomainError):
    template = (
        "a character's name is 1 to 80 printable characters, got {name!r} (Character Creation)"
    )


class NameUnchanged(DomainError):
    template = (
        "{name} is its name already; a new name must differ from the old one (Character Creation)"
    )


class NameIsAPlayer(DomainError):
    template = (
        "{name!r} is the name of a player at this table; characters are found by their name or "
        "their player's, so a character may not take a player's name (Character Creation)"
    )
