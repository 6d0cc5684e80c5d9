"""A character's state: a hero's sheet, scores, what the public knows and this session's GM
calls; or an NPC (``npc``), with the traits the Ability Sequence reads and its Motivation."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.the_code.tables import LADDER, Detail, RevealCause, Scale


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
class StepRuling(Plain):
    """The GM's call on where the character stands on the Ability Sequence for a task."""

    task: str
    profession: bool
    advantage: bool
    weakness: bool
    step: int


@frozen(kw_only=True)
class SolvedProblem(Plain):
    """A community problem the hero solved with Reward Points, and whether it came back."""

    description: str
    scale: Scale
    session: int
    recurred: bool = False


def same_text(a: str, b: str) -> bool:
    """Tasks and problems are named as the GM says them: case and outer spaces do not matter."""
    return a.strip().casefold() == b.strip().casefold()


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
    npc: bool = False  # a non-player character: traits and Motivation only (NpcCreated)
    has_motivation: bool = True  # False: "a person without a Motivation score" (an NPC)
    steps: tuple[StepRuling, ...] = ()
    problems: tuple[SolvedProblem, ...] = ()

    @property
    def max_motivation(self) -> int:
        return self.base_max + self.bonus_max

    @property
    def motivation_score(self) -> int | None:
        """Current Motivation, or None for a person without a Motivation score."""
        return self.motivation if self.has_motivation else None

    def step_for(self, task: str) -> StepRuling | None:
        """The GM's ruling on the character's step for ``task``, if there is one."""
        return next((s for s in self.steps if same_text(s.task, task)), None)

    def open_problem(self, description: str) -> SolvedProblem | None:
        """The latest solved problem of that description that has not come back."""
        found = [
            p for p in self.problems if not p.recurred and same_text(p.description, description)
        ]
        return found[-1] if found else None

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
