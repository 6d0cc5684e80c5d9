"""Code Green's events, recorded on a character's stream (squares as R{row}C{column})."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.dice import PoolMode
from domain.events import Event
from domain.rulesets.code_green.tables import Band, Form, Function, Square, Table


@frozen(kw_only=True)
class TraitRolled(Event):
    """A trait pick was rolled on a d66 table (or a roll flipped); discarded when a duplicate."""

    table: Table
    d66: int
    flipped: bool
    trait: str
    discarded: bool


@frozen(kw_only=True)
class NameRolled(Event):
    """Five d6 were rolled in order; their digits are the character's only name."""

    dice: tuple[int, ...]
    name: str


@frozen(kw_only=True)
class CharacterCreated(Event):
    """A character was made: its name, its Form slots (rows) and Function slots (columns)."""

    character_id: UUID
    name: str
    player: str
    form: tuple[Form, ...]
    function: tuple[Function, ...]


@frozen(kw_only=True)
class TokenPlaced(Event):
    """A token went onto a square, chosen or rolled (``attempts``: the d66 values looked up)."""

    square: Square
    rolled: bool
    attempts: tuple[int, ...]
    flipped: bool


@frozen(kw_only=True)
class InitialTokensPlaced(Event):
    """All three tokens are on the grid for this scene."""

    squares: tuple[Square, ...]


@frozen(kw_only=True)
class TestDeclared(Event):
    """A test was declared with a Form × Function pair (or with no applicable pair)."""

    test: int
    form: Form | None
    function: Function | None
    consulted: tuple[Square, ...]
    own_tokens: int


@frozen(kw_only=True)
class AssistanceReceived(Event):
    """A friend handed one die to this character's test."""

    test: int
    helper: UUID
    helper_name: str
    square: Square
    form: Form
    function: Function
    justification: str


@frozen(kw_only=True)
class AssistanceGiven(Event):
    """This character handed one die to a friend's test, using the pair under one of its tokens."""

    tester: UUID
    tester_name: str
    test: int
    square: Square
    form: Form
    function: Function
    justification: str


@frozen(kw_only=True)
class TestRolled(Event):
    """A test's pool was rolled and read (highest, lowest of two, or nothing rolled)."""

    test: int
    pool: int
    mode: PoolMode
    dice: tuple[int, ...]
    result: int | None
    band: Band


@frozen(kw_only=True)
class StrainRolled(Event):
    """The GM ruled strain; a d66 picked the square it strikes."""

    test: int | None
    d66: int
    square: Square


@frozen(kw_only=True)
class StrainSuffered(Event):
    """A square was marked with strain."""

    square: Square
    marks: int


@frozen(kw_only=True)
class TokenDisplaced(Event):
    """Strain pushed a token to an empty, unmarked square of the player's choice."""

    source: Square
    destination: Square


@frozen(kw_only=True)
class TokenRemoved(Event):
    """Strain struck a token with fewer than three unmarked squares left: it left the grid."""

    square: Square


@frozen(kw_only=True)
class Incapacitated(Event):
    """Strain struck a square that was marked already: no more tests until recovery."""

    square: Square
    d66: int


@frozen(kw_only=True)
class Adapted(Event):
    """After a test the character moved one token to another square."""

    test: int
    source: Square
    destination: Square


@frozen(kw_only=True)
class AdaptationImpossible(Event):
    """After a test no token could move anywhere (no tokens, or no free unmarked square)."""

    test: int
    reason: str


@frozen(kw_only=True)
class StrainMarksCleared(Event):
    """The scene ended; its strain marks are gone."""

    squares: tuple[Square, ...]


@frozen(kw_only=True)
class TokensReturned(Event):
    """The scene ended; all three tokens are back in hand for the next scene."""

    squares: tuple[Square, ...]


@frozen(kw_only=True)
class Recovered(Event):
    """The character is no longer incapacitated."""

    reason: str


@frozen(kw_only=True)
class CharacterRenamed(Event):
    """The character took a new name (its five rolled digits are only its first one)."""

    previous: str
    name: str


@frozen(kw_only=True)
class AssistanceRejected(Event):
    """The GM ruled a friend's pair not applicable to this test: its die is taken back."""

    test: int
    helper: UUID
    helper_name: str
    square: Square
    form: Form
    function: Function
    reason: str
