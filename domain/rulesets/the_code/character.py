"""A hero's state: the sheet, the scores, what the public knows, and this session's GM calls."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.the_code.tables import LADDER, Detail, RevealCause


@frozen(kw_only=True)
class SessionFlags(Plain):
    """What happened to the hero in one session (a later session starts with fresh flags)."""

    session: int | None = None
    mo_followed: bool = False
    weakness: bool = False
    exposure_gains: int = 0
    exposure_settled: bool = False
    popularity_rolled: bool = False


@frozen(kw_only=True)
class Reveal(Plain):
    """A detail the public knows: the ladder level, why, and its value when it was revealed."""

    detail: Detail
    level: int | None
    cause: RevealCause
    value: str
    session: int | None


@frozen(kw_only=True)
class TcHero(Plain):
    id: UUID
    name: str
    player: str
    secret_identity: str
    public_identity: bool
    physical_description: str
    profession: str
    advantages: tuple[str, ...]
    weakness: str
    objective: str
    objective_score: int
    modus_operandi: str
    motivation: int
    base_max: int
    bonus_max: int = 0
    reward_points: int = 0
    exposure: int = 0
    peak: int = 0
    popularity: int = 0
    violent: bool = False
    secretive: bool = False
    revealed: tuple[Reveal, ...] = ()
    flags: SessionFlags = SessionFlags()
    pending_task: str | None = None

    @property
    def max_motivation(self) -> int:
        return self.base_max + self.bonus_max

    def flags_for(self, session: int | None) -> SessionFlags:
        """This session's flags (fresh ones when nothing has happened to the hero in it yet)."""
        if session is not None and self.flags.session == session:
            return self.flags
        return SessionFlags(session=session)

    def is_revealed(self, detail: Detail) -> bool:
        return any(r.detail is detail for r in self.revealed)

    def unrevealed(self) -> tuple[Detail, ...]:
        return tuple(d for d in LADDER if not self.is_revealed(d))

    def value_of(self, detail: Detail) -> str:
        """The detail as the public would learn it now."""
        values = {
            Detail.PHYSICAL_DESCRIPTION: self.physical_description,
            Detail.CODE_NAME: self.name,
            Detail.MODUS_OPERANDI: self.modus_operandi,
            Detail.OBJECTIVE: f"{self.objective} ({self.objective_score})",
            Detail.ADVANTAGE: ", ".join(self.advantages),
            Detail.WEAKNESS: self.weakness,
            Detail.PROFESSION: self.profession,
            Detail.MOTIVATION: f"{self.motivation}/{self.max_motivation}",
            Detail.SECRET_IDENTITY: self.secret_identity,
        }
        return values[detail]
