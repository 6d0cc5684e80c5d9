"""Code Green's DIGEST catalogue in the product: every event of §1.3's event catalogue and every
error §1.1 and §1.3 name exist, under the product's name where it differs (each with its
reason); and every error code of ``domain/rulesets/code_green/errors.py`` is raised by a test.

How the last check is made, and why it is robust: ``REFUSALS`` below holds one refusal for each
error class ``errors.py`` defines, and this file runs every one of them (through the in-memory
engine, proving nothing is appended; the three that only a recorded log can break, through
replay). ``test_every_error_code_has_a_refusal`` compares the table with the classes the module
defines, so a new error without a refusal fails here. Collecting the codes other test files
raise (a run hook) would pass or fail with the selection of tests (``-k``, one file, xdist
workers); this check does not depend on what else runs.

The lists below are also compared with the digest itself (``docs/rules-digest.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from uuid import UUID

import pytest

from domain import errors as shared_errors
from domain import events as shared
from domain.commands import Command
from domain.errors import DomainError
from domain.events import Event, Role
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.code_green import errors
from domain.rulesets.code_green import events as cg
from domain.rulesets.code_green.character import CgCharacter
from domain.rulesets.code_green.commands import (
    Adapt,
    AssistTest,
    CreateCharacter,
    DeclareTest,
    DisplaceToken,
    PlaceTokens,
    Recover,
    RejectAssist,
    RenameCharacter,
    RollTest,
    SufferStrain,
)
from domain.rulesets.code_green.state import evolve
from domain.rulesets.code_green.tables import Form, Function, Square, Table
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import S1_FORM, S1_FUNCTION, event_count

DIGEST = Path(__file__).parents[2] / "docs" / "rules-digest.md"

# --- Events: DIGEST §1.3 "Code Green event catalogue (19)" and the shared ones it lists --------

# DIGEST name -> (product class, why the name differs; "" where it does not)
CG_PREFIX = "the digest prefixes Cg; the product's module (domain.rulesets.code_green) says it"
EVENTS: dict[str, tuple[type[Event], str]] = {
    "CgTraitRolled": (cg.TraitRolled, CG_PREFIX),
    "CgNameRolled": (cg.NameRolled, CG_PREFIX),
    "CgCharacterCreated": (cg.CharacterCreated, CG_PREFIX),
    "CharacterRenamed": (cg.CharacterRenamed, ""),
    "TokenPlaced": (cg.TokenPlaced, ""),
    "InitialTokensPlaced": (cg.InitialTokensPlaced, ""),
    "TestDeclared": (cg.TestDeclared, ""),
    "AssistanceGiven": (cg.AssistanceGiven, ""),
    "TestRolled": (cg.TestRolled, ""),
    "StrainRolled": (cg.StrainRolled, ""),
    "StrainSuffered": (cg.StrainSuffered, ""),
    "TokenDisplaced": (cg.TokenDisplaced, ""),
    "TokenRemoved": (cg.TokenRemoved, ""),
    "Incapacitated": (cg.Incapacitated, ""),
    "Adapted": (cg.Adapted, ""),
    "AdaptationImpossible": (cg.AdaptationImpossible, ""),
    "StrainMarksCleared": (cg.StrainMarksCleared, ""),
    "TokensReturned": (cg.TokensReturned, ""),
    "Recovered": (cg.Recovered, ""),
    # the shared events the catalogue names
    "SceneStarted": (shared.SceneStarted, ""),
    "SceneEnded": (shared.SceneEnded, ""),
    "GmRuled": (
        shared.RulingMade,
        "a GM judgement call is a parameter of the GM's command (strain, reject-assist, "
        "--foolhardy), recorded in the ruling's header with its dice, so amend can correct it",
    ),
    "RulingReverted": (
        shared.RulingRetracted,
        "undo appends RulingRetracted (one per stream the ruling wrote); replay skips the events",
    ),
}

# Product events the digest's catalogue does not name, and why they exist.
EXTRA_EVENTS: dict[type[Event], str] = {
    cg.AssistanceReceived: "the tester's side of AssistanceGiven: each stream records its own",
    cg.AssistanceRejected: "R-CG-04: the GM ruled the pair not applicable (GmRuled false)",
    shared.RosterRenamed: "CharacterRenamed's roster side: the roster lives on the campaign",
}


def test_every_catalogued_event_is_in_the_product() -> None:
    """Each DIGEST event maps to a product event class; each differing name says why."""
    for digest_name, (cls, why) in EVENTS.items():
        assert issubclass(cls, Event), digest_name
        assert (cls.__name__ == digest_name) == (why == ""), digest_name


def test_every_code_green_event_is_catalogued() -> None:
    """Every event Code Green defines is a catalogue entry or an extra with its reason."""
    defined = {
        value
        for value in vars(cg).values()
        if isinstance(value, type) and issubclass(value, Event) and value.__module__ == cg.__name__
    }
    named = {cls for cls, _ in EVENTS.values()} | set(EXTRA_EVENTS)
    assert set() == defined - named


# --- Errors: every one §1.1 and §1.3 name ------------------------------------------------------

DICE_CHECKED = "the dice are checked as they are entered, for every system: --dice 7 on a d6"
ERRORS: dict[str, tuple[tuple[type[DomainError], ...], str]] = {
    # R-CG-01
    "TraitCountInvalid": ((errors.TraitCountInvalid,), ""),
    "DuplicateTrait": ((errors.DuplicateTrait,), ""),
    "UnknownTrait": ((errors.UnknownTrait,), ""),
    "InvalidD66": ((errors.InvalidD66, shared_errors.InvalidDieFace), ""),
    "RolledTraitMismatch": ((errors.RolledTraitMismatch,), ""),
    "NameDiceInvalid": (
        (shared_errors.NotEnoughDice, shared_errors.TooManyDice, shared_errors.InvalidDieFace),
        f"{DICE_CHECKED}, too few or too many faces for the five name dice",
    ),
    "PartyFull": ((errors.PartyFull,), ""),
    # R-CG-02
    "SceneNotActive": ((shared_errors.SceneNotActive,), ""),
    "TokensAlreadyPlaced": ((errors.TokensAlreadyPlaced,), ""),
    "NotThreeTokens": ((errors.NotThreeTokens,), ""),
    "DuplicateSquare": ((errors.DuplicateSquare,), ""),
    "RolledSquareMismatch": ((errors.RolledSquareMismatch,), ""),
    "SquareMarked": ((errors.SquareMarked,), ""),
    "CharacterIncapacitated": ((errors.CharacterIncapacitated,), ""),
    # R-CG-03
    "AdaptationPending": ((errors.AdaptationPending,), ""),
    "TraitNotOnSheet": ((errors.TraitNotOnSheet,), ""),
    "PairMustBeFormAndFunction": ((errors.PairMustBeFormAndFunction,), ""),
    "TokensNotPlaced": ((errors.TokensNotPlaced,), ""),
    "AnotherTestOpen": ((errors.AnotherTestOpen,), ""),
    # R-CG-04
    "CannotAssistOwnTest": ((errors.CannotAssistOwnTest,), ""),
    "NoTokenOnSquare": ((errors.NoTokenOnSquare,), ""),
    "TestAlreadyRolled": ((errors.TestAlreadyRolled,), ""),
    "AlreadyAssistedThisTest": ((errors.AlreadyAssistedThisTest,), ""),
    "HelperIncapacitated": ((errors.HelperIncapacitated,), ""),
    "HelperNotInScene": ((errors.HelperNotInScene,), ""),
    "AssistNotApplicable": ((errors.AssistNotApplicable,), ""),
    # R-CG-05
    "StrainNotRuled": (
        (shared_errors.NotAllowed,),
        "`strain` is the GM's command: the GM issuing it is the ruling; a player's strain is "
        "refused NOT_ALLOWED (domain/rulesets/code_green/policy.py)",
    ),
    "NoTestForStrain": ((errors.NoTestForStrain,), ""),
    "DestinationOccupied": ((errors.DestinationOccupied,), ""),
    "DestinationMarked": ((errors.DestinationMarked,), ""),
    "DisplacementPending": ((errors.DisplacementPending,), ""),
    "AlreadyIncapacitated": ((errors.AlreadyIncapacitated,), ""),
    # R-CG-06
    "NoPendingAdaptation": ((errors.NoPendingAdaptation,), ""),
    "NoTokenAtSource": ((errors.NoTokenAtSource,), ""),
    "MustMoveToDifferentSquare": ((errors.MustMoveToDifferentSquare,), ""),
}


def test_every_named_error_is_in_the_product() -> None:
    """Each DIGEST error maps to product errors; where none bears its name, the reason says why."""
    for digest_name, (classes, why) in ERRORS.items():
        assert classes, digest_name
        same = any(cls.__name__ == digest_name for cls in classes)
        assert same or why, digest_name


def test_the_lists_are_the_digests() -> None:
    """The event catalogue and the errors of §1.1 and §1.3 are exactly the names above."""
    text = DIGEST.read_text(encoding="utf-8")
    section = text.split("## 1. CODE GREEN", 1)[1].split("## 2. ", 1)[0]
    catalogue = section.split("**Code Green event catalogue (19):**", 1)[1].split("\n", 1)[0]
    assert sorted(EVENTS) == sorted(re.findall(r"`(\w+)`", catalogue))
    # "a 7th gives the error `PartyFull`" (§1.1), "error `AssistNotApplicable`" (R-CG-04)
    named = set(re.findall(r"error `([A-Z]\w+)`", section))
    for block in re.findall(r"\* Errors:(.*?)(?=\n\*|\n\n)", section, flags=re.S):
        named |= set(re.findall(r"`([A-Z]\w+)`", block))
    assert sorted(ERRORS) == sorted(named)


# --- Every error code of errors.py, raised -----------------------------------------------------

ALICE, BOB, CAROL = "31415", "26535", "52214"
TABLE = {"alice": Role.PLAYER, "bob": Role.PLAYER, "carol": Role.PLAYER, "Rosa": Role.GM}
Step = Command | tuple[Command, tuple[int, ...]]


def _create(player: str, name_dice: tuple[int, ...], **picks: tuple[str, ...]) -> Step:
    form, function = picks.get("form", S1_FORM), picks.get("function", S1_FUNCTION)
    return (CreateCharacter(player=player, form=form, function=function), name_dice)


def _place(who: str, *squares: str) -> Step:
    return PlaceTokens(character=who, squares=squares or ("R1C1", "R2C2", "R3C3"))


def _tested(who: str) -> list[Step]:
    """A test with no applicable pair, rolled at once (nothing to roll): adaptation is due."""
    return [DeclareTest(character=who, form=None, function=None, roll=True)]


def _strain(who: str, *faces: int) -> Step:
    return (SufferStrain(character=who), faces)


def _incapacitated(who: str) -> list[Step]:
    """``who`` (placed R1C1, R2C2, R3C3) strained twice on R1C2: incapacitated, tests closed."""
    return [
        *_tested(who),
        _strain(who, 1, 5),  # 15 marks R1C2, which holds no token
        Adapt(character=who, source="R1C1", destination="R1C3"),
        *_tested(who),
        _strain(who, 1, 6),  # 16 strikes R1C2 again
        Adapt(character=who, source="R1C3", destination="R1C1"),
    ]


PLACED: list[Step] = [_place(ALICE), _place(BOB)]
DECLARED: list[Step] = [*PLACED, DeclareTest(character=ALICE, form="Legs", function="Cryptic")]
ASSISTED: list[Step] = [*DECLARED, AssistTest(helper=BOB, square="R1C1", justification="runs")]
PENDING: list[Step] = [*PLACED, *_tested(ALICE)]
MARKED_R1C2: list[Step] = [*PENDING, _strain(ALICE, 1, 5)]
STRUCK_R1C1: list[Step] = [*PENDING, _strain(ALICE, 1, 3)]


class Refusal:
    """Given these steps after the standard start (alice's and bob's S1 characters in a running
    scene, no tokens placed), ``when`` is refused with the error, appending nothing."""

    def __init__(
        self,
        given: Sequence[Step],
        when: Step,
        *,
        house_rules: dict[str, str] | None = None,
    ) -> None:
        self.given, self.when, self.house_rules = given, when, house_rules

    def run(self, engine: Engine) -> DomainError:
        engine.create_campaign("Lab", "code-green", members=TABLE, house_rules=self.house_rules)
        start: list[Step] = [
            StartSession(),
            StartScene(stage="The lab wakes up"),
            _create("alice", (3, 1, 4, 1, 5)),
            _create("bob", (2, 6, 5, 3, 5)),
        ]
        for step in (*start, *self.given):
            command, faces = step if isinstance(step, tuple) else (step, ())
            engine.execute("Lab", command, dice=DiceSpec(faces=faces))
        command, faces = self.when if isinstance(self.when, tuple) else (self.when, ())
        before = event_count(engine)
        with pytest.raises(DomainError) as raised:
            engine.execute("Lab", command, dice=DiceSpec(faces=faces))
        assert before == event_count(engine)
        return raised.value


def _replayed(*events: Event) -> Callable[[Engine], DomainError]:
    """An error only a recorded log can meet: replaying alice's S1 creation and ``events``."""

    def run(engine: Engine) -> DomainError:
        state: CgCharacter | None = evolve(_S1, None)
        for event in events[:-1]:
            state = evolve(event, state)
        with pytest.raises(DomainError) as raised:
            evolve(events[-1], state)
        return raised.value

    return run


_S1 = cg.CharacterCreated(
    character_id=UUID(int=1),
    name=ALICE,
    player="alice",
    form=(Form.LEGS, Form.TAIL, Form.TEETH),
    function=(Function.CRYPTIC, Function.INVULNERABLE, Function.PHASING),
)

FIVE_MORE = [_create(f"p{n}", (n, 1, 1, 1, 1)) for n in range(1, 5)]

REFUSALS: dict[type[DomainError], Refusal | Callable[[Engine], DomainError]] = {
    errors.TraitCountInvalid: Refusal([], _create("carol", (5, 2, 2, 1, 4), form=("Legs",))),
    errors.UnknownTrait: Refusal(
        [], _create("carol", (5, 2, 2, 1, 4), form=("Legs", "Tail", "Feet"))
    ),
    errors.DuplicateTrait: Refusal(
        [], _create("carol", (5, 2, 2, 1, 4), form=("Legs", "Legs", "Tail"))
    ),
    errors.InvalidD66: _replayed(
        cg.TraitRolled(table=Table.FORM, d66=17, flipped=False, trait="Blood", discarded=False)
    ),
    errors.RolledTraitMismatch: _replayed(
        cg.TraitRolled(table=Table.FORM, d66=35, flipped=False, trait="Skin", discarded=False)
    ),
    errors.RolledSquareMismatch: _replayed(
        cg.TokenPlaced(square=Square.R1C1, rolled=True, attempts=(35,), flipped=False)
    ),
    errors.PartyFull: Refusal(FIVE_MORE, _create("carol", (5, 2, 2, 1, 4))),
    errors.UnknownSquare: Refusal([], _place(ALICE, "R4C1", "R1C2", "R1C3")),
    errors.TokensAlreadyPlaced: Refusal(PLACED, _place(ALICE)),
    errors.NotThreeTokens: Refusal([], _place(ALICE, "R1C1", "R1C2")),
    errors.DuplicateSquare: Refusal([], _place(ALICE, "R1C1", "R1C1", "R2C2")),
    errors.SquareMarked: Refusal(
        [
            *MARKED_R1C2,
            Adapt(character=ALICE, source="R1C1", destination="R1C3"),
            EndScene(),
            StartScene(stage="The next room"),
        ],
        _place(ALICE, "R1C2", "R2C2", "R3C3"),
        house_rules={"marksPersistAcrossScenes": "true"},
    ),
    errors.TokensNotPlaced: Refusal([], DeclareTest(character=ALICE, form="Legs", function="Tail")),
    errors.CharacterIncapacitated: Refusal([*PLACED, *_incapacitated(ALICE)], _tested(ALICE)[0]),
    errors.AdaptationPending: Refusal(PENDING, _tested(ALICE)[0]),
    errors.DisplacementPending: Refusal(
        STRUCK_R1C1, Adapt(character=ALICE, source="R2C2", destination="R2C3")
    ),
    errors.TraitNotOnSheet: Refusal(
        PLACED, DeclareTest(character=ALICE, form="Wings", function="Cryptic")
    ),
    errors.PairMustBeFormAndFunction: Refusal(
        PLACED, DeclareTest(character=ALICE, form="Legs", function=None)
    ),
    errors.AnotherTestOpen: Refusal(
        DECLARED, DeclareTest(character=BOB, form="Tail", function="Cryptic")
    ),
    errors.NoOpenTest: Refusal(PLACED, RollTest()),
    errors.TestAlreadyRolled: Refusal(PENDING, RollTest(character=ALICE)),
    errors.CannotAssistOwnTest: Refusal(
        DECLARED, AssistTest(helper=ALICE, square="R1C1", justification="me")
    ),
    errors.NoTokenOnSquare: Refusal(
        DECLARED, AssistTest(helper=BOB, square="R1C2", justification="no token there")
    ),
    errors.AlreadyAssistedThisTest: Refusal(
        ASSISTED, AssistTest(helper=BOB, square="R2C2", justification="a second die")
    ),
    errors.HelperIncapacitated: Refusal(
        [
            *PLACED,
            *_incapacitated(BOB),
            DeclareTest(character=ALICE, form="Legs", function="Cryptic"),
        ],
        AssistTest(helper=BOB, square="R1C1", justification="it tries anyway"),
    ),
    errors.AssistNotApplicable: Refusal(
        [*ASSISTED, RejectAssist(helper=BOB, reason="running is no use")],
        AssistTest(helper=BOB, square="R1C1", justification="faster"),
    ),
    errors.NoAssistToReject: Refusal(DECLARED, RejectAssist(helper=BOB, reason="no")),
    errors.HelperNotInScene: Refusal(
        [_place(ALICE), DeclareTest(character=ALICE, form="Legs", function="Cryptic")],
        AssistTest(helper=BOB, square="R1C1", justification="not placed"),
    ),
    errors.NoTestForStrain: Refusal(PLACED, _strain(ALICE, 1, 5)),
    errors.StrainLimitReached: Refusal(MARKED_R1C2, _strain(ALICE, 5, 5)),
    errors.AlreadyIncapacitated: Refusal([*PLACED, *_incapacitated(ALICE)], _strain(ALICE, 5, 5)),
    errors.NoDisplacementPending: Refusal(
        PENDING, DisplaceToken(character=ALICE, destination="R1C2")
    ),
    errors.DestinationOccupied: Refusal(
        PENDING, Adapt(character=ALICE, source="R1C1", destination="R2C2")
    ),
    errors.DestinationMarked: Refusal(
        MARKED_R1C2, Adapt(character=ALICE, source="R1C1", destination="R1C2")
    ),
    errors.NoPendingAdaptation: Refusal(
        PLACED, Adapt(character=ALICE, source="R1C1", destination="R1C2")
    ),
    errors.NoTokenAtSource: Refusal(
        PENDING, Adapt(character=ALICE, source="R1C2", destination="R1C3")
    ),
    errors.MustMoveToDifferentSquare: Refusal(
        PENDING, Adapt(character=ALICE, source="R1C1", destination="R1C1")
    ),
    errors.AdaptationChoiceRequired: Refusal(PENDING, Adapt(character=ALICE)),
    errors.NotIncapacitated: Refusal(PLACED, Recover(character=ALICE)),
    errors.TestUnresolved: Refusal(DECLARED, EndScene()),
    errors.InvalidCharacterName: Refusal([], RenameCharacter(character=ALICE, new_name="Hu\x1bsh")),
    errors.NameUnchanged: Refusal([], RenameCharacter(character=ALICE, new_name=ALICE)),
    errors.NameIsAPlayer: Refusal([], RenameCharacter(character=ALICE, new_name="bob")),
}


def _defined_errors() -> set[type[DomainError]]:
    return {
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and issubclass(value, DomainError)
        and value.__module__ == errors.__name__
    }


def test_every_error_code_has_a_refusal() -> None:
    """REFUSALS holds exactly the errors errors.py defines (a new error needs a refusal)."""
    assert sorted(c.__name__ for c in _defined_errors()) == sorted(c.__name__ for c in REFUSALS)


@pytest.mark.parametrize(
    ("error", "refusal"), list(REFUSALS.items()), ids=[c.code for c in REFUSALS]
)
def test_every_error_code_is_raised(
    engine: Engine, error: type[DomainError], refusal: Refusal | Callable[[Engine], DomainError]
) -> None:
    """Each error of errors.py is raised, with its code, by its refusal (nothing appended)."""
    raised = refusal.run(engine) if isinstance(refusal, Refusal) else refusal(engine)
    assert (error, error.code) == (type(raised), raised.code)
