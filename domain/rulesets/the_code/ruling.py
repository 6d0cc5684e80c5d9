"""Building one hero's share of a ruling: each event is applied as it is decided (so the next
rule reads the state it leaves), plus the consequences several commands share: Exposure changes
and the details they reveal, and the Popularity gain roll."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import Change
from domain.dice import DiceSource
from domain.events import Event
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.checks import check_unrevealed
from domain.rulesets.the_code.events import (
    DetailRevealed,
    ExposureChanged,
    IdentityMadePublic,
    PopularityChanged,
    PopularityRolled,
)
from domain.rulesets.the_code.rolls import any_even, popularity_delta, roll
from domain.rulesets.the_code.settings import RevealPolicy, Settings
from domain.rulesets.the_code.state import evolve
from domain.rulesets.the_code.tables import (
    LADDER,
    REVEAL_CAUSE,
    Detail,
    ExposureCause,
    PopularityCause,
    RevealCause,
    clamp,
    ladder_detail,
)


class HeroRuling:
    """The events one ruling records on one hero's stream, applied to the hero as they are added."""

    def __init__(self, hero: TcHero | None, rules: Settings, session: int | None) -> None:
        self._hero = hero
        self.rules = rules
        self.session = session
        self.events: list[Event] = []

    @property
    def hero(self) -> TcHero:
        assert self._hero is not None, "the hero is created by the first event"
        return self._hero

    def add(self, event: Event) -> None:
        self._hero = evolve(event, self._hero)
        self.events.append(event)

    def changes(self) -> tuple[Change, ...]:
        return tuple(Change(self.hero.id, e) for e in self.events)

    # --- Exposure and reveals ----------------------------------------------------------------

    def change_exposure(
        self, delta: int, cause: ExposureCause, choices: Sequence[Detail] = ()
    ) -> None:
        """Move Exposure (clamped 0..10); a gain reveals one detail per new level (TC-A12)."""
        c = self.hero
        after = clamp(c.exposure + delta)
        levels = self._new_levels(c, after) if delta > 0 and cause in REVEAL_CAUSE else []
        if cause is not ExposureCause.BLAB and len(choices) > len(levels):
            raise errors.RevealChoiceUnused(given=len(choices), levels=len(levels))
        self.add(
            ExposureChanged(
                before=c.exposure,
                after=after,
                delta=delta,
                cause=cause,
                peak_before=c.peak,
                peak_after=max(c.peak, after),
                session=self.session,
            )
        )
        if cause is not ExposureCause.BLAB:
            self.reveal_levels(levels, REVEAL_CAUSE.get(cause, RevealCause.CREATION), choices)

    def _new_levels(self, c: TcHero, after: int) -> list[int]:
        start = c.peak if self.rules.reveal_policy is RevealPolicy.HIGH_WATER else c.exposure
        return [level for level in range(start + 1, after + 1) if level >= 2]

    def reveal_levels(
        self,
        levels: Sequence[int],
        cause: RevealCause,
        choices: Sequence[Detail] = (),
        source: str = "ExposureChanged",
    ) -> None:
        """One detail per level: the GM's choice, else the ladder's (the next one still secret)."""
        for index, level in enumerate(levels):
            suggested = suggestion(self.hero, level)
            chosen = choices[index] if index < len(choices) else suggested
            if chosen is None:
                continue  # everything is public already: nothing is left to reveal
            self.reveal(chosen, cause, level=level, suggested=suggested, source=source)

    def reveal(
        self,
        detail: Detail,
        cause: RevealCause,
        *,
        level: int | None,
        suggested: Detail | None,
        source: str,
    ) -> None:
        c = self.hero
        check_unrevealed(c, detail)
        self.add(
            DetailRevealed(
                detail=detail,
                level=level,
                exposure=c.exposure,
                cause=cause,
                suggested=suggested,
                gm_override=suggested is not None and detail is not suggested,
                value=c.value_of(detail),
                session=self.session,
                source=source,
            )
        )
        if (
            detail is Detail.SECRET_IDENTITY
            and not c.public_identity
            and self.rules.revealed_identity_becomes_public
        ):
            self.add(IdentityMadePublic(session=self.session))

    # --- Popularity ------------------------------------------------------------------------------

    def change_popularity(self, delta: int, cause: PopularityCause) -> None:
        """Move Popularity within 0..10; at the cap (or the floor) nothing changes, and nothing
        is recorded (no "Popularity 10 -> 10")."""
        c = self.hero
        after = clamp(c.popularity + delta)
        if after != c.popularity:
            self.add(PopularityChanged(before=c.popularity, after=after, delta=delta, cause=cause))

    def popularity_roll(self, dice: DiceSource) -> None:
        """Gaining Popularity after an Objective or a solved problem (or once a session)."""
        assert self.session is not None
        c = self.hero
        if (
            self.rules.popularity_roll_once_per_session
            and c.flags_for(self.session).popularity_rolled
        ):
            return
        faces = roll(dice, c.popularity, self.rules.die_sides)
        harsh = c.violent or c.secretive
        delta = popularity_delta(faces, harsh)
        self.add(
            PopularityRolled(
                session=self.session,
                dice=faces,
                any_even=any_even(faces),
                violent_or_secretive=harsh,
                delta=delta,
            )
        )
        if delta:
            self.change_popularity(delta, PopularityCause.GAIN_ROLL)


def suggestion(c: TcHero, level: int) -> Detail | None:
    """The ladder's detail for a level; if it is public already, the next secret one in ladder
    order (wrapping round to the start); None when everything is public."""
    start = LADDER.index(ladder_detail(level))
    for detail in (*LADDER[start:], *LADDER[:start]):
        if not c.is_revealed(detail):
            return detail
    return None
