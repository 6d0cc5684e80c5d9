"""A Sims character's state: its qualities and lost ranks, and where it stands in the scene."""

from __future__ import annotations

from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from domain.rulesets.sims.events import ConflictTied, TurnSlot
from domain.rulesets.sims.tables import ZEROED, Area, Danger, Rank, RankKind, SheetKind, Strategy


@frozen(kw_only=True)
class Quality(Plain):
    name: str
    area: Area
    base: Rank
    lost_failure: int = 0
    lost_damage: int = 0

    @property
    def lost(self) -> int:
        return self.lost_failure + self.lost_damage

    @property
    def current(self) -> int:
        """The rank index after lost ranks; -1 (zeroed) at the lowest."""
        return max(ZEROED, self.base.level - self.lost)


@frozen(kw_only=True)
class Pending(Plain):
    """Ranks taken and not yet distributed over the qualities."""

    ranks: int
    kind: RankKind
    source: str
    killing: bool


@frozen(kw_only=True)
class SimsCharacter(Plain):
    id: UUID
    name: str
    player: str
    kind: SheetKind
    qualities: tuple[Quality, ...]
    strengths: tuple[str, ...] = ()
    weaknesses: tuple[str, ...] = ()
    custom: bool = False
    pending: Pending | None = None
    ties: tuple[ConflictTied, ...] = ()
    strategy: Strategy | None = None
    defense_penalty: bool = False
    order: tuple[TurnSlot, ...] = ()
    turn: bool = False
    last_turn: int = 0
    out_turn: int | None = None
    killed: bool = False
    danger: Danger = Danger.MOMENTARY
    danger_declared: bool = False
    recovery_available: bool = False
    recovery_pending: int = 0
    upgrades: int = 0
    missions: tuple[str, ...] = ()
    rebirths: int = 0
    simple: tuple[str, ...] = ()  # tasks the GM ruled simple successes in scene simple_scene
    simple_scene: int | None = None

    @property
    def out(self) -> bool:
        return any(q.current < 0 for q in self.qualities)

    @property
    def lost(self) -> int:
        return sum(q.lost for q in self.qualities)

    @property
    def in_conflict(self) -> bool:
        return bool(self.order)

    @property
    def masters(self) -> int:
        return sum(1 for q in self.qualities if q.base is Rank.MASTER)

    @property
    def has_master_plus(self) -> bool:
        return any(q.area is Area.MASTER_PLUS for q in self.qualities)

    def quality(self, name: str) -> Quality | None:
        cleaned = name.strip().lower()
        return next((q for q in self.qualities if q.name.lower() == cleaned), None)

    def with_quality(self, quality: Quality) -> tuple[Quality, ...]:
        return tuple(quality if q.name == quality.name else q for q in self.qualities)

    @property
    def has_scene_state(self) -> bool:
        return bool(
            self.strategy or self.defense_penalty or self.order or self.turn or self.danger_declared
        )
