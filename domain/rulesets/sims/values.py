"""Values the Sims RPG's events carry: qualities as written and as used, shifts, rolls."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.sims.tables import Area, DiceMode, Rank, RankKind, ShiftSource


@frozen(kw_only=True)
class QualitySpec(Plain):
    """A quality as written on a sheet."""

    name: str
    area: Area
    rank: Rank


@frozen(kw_only=True)
class QualityUsed(Plain):
    """One quality brought to bear (``quality`` None: no applicable quality, default Average)."""

    character_id: UUID
    character: str
    quality: str | None
    base: Rank
    current: int
    modifier: int


@frozen(kw_only=True)
class Shift(Plain):
    """An upshift (+) or downshift (-) of ``steps`` ranks and where it came from."""

    source: ShiftSource
    steps: int
    note: str = ""


@frozen(kw_only=True)
class Roll(Plain):
    """Dice as rolled for one action: mode, faces in order, modifier and total (None: auto-fail)."""

    qualities: tuple[QualityUsed, ...]
    shifts: tuple[Shift, ...]
    effective: int | None  # the effective rank of a single quality; None for combined qualities
    modifier: int
    mode: DiceMode
    dice: tuple[int, ...]
    total: int | None


@frozen(kw_only=True)
class AttackSetup(Plain):
    """Everything an attack on one defender resolves with, before the dice (kept for a re-roll)."""

    defender_id: UUID
    defender: str
    target: int
    targets: int
    defense: QualityUsed
    defender_shifts: tuple[Shift, ...]
    tn: int
    kind: RankKind
    bonus_ranks: int  # +1 when a Full Attack upshifts the damage
    killing: bool


@frozen(kw_only=True)
class TurnSlot(Plain):
    """A place in the turn order: the quality that set it, and the faces of the 1d6 roll-off
    that broke a tie with another character of the same rank (each round, in order)."""

    character_id: UUID
    name: str
    quality: str | None
    rank: int
    roll_off: tuple[int, ...] = ()


@frozen(kw_only=True)
class RankRestored(Plain):
    quality: str
    before: int
    after: int
