"""Looking things up for a command: house rules, characters by name, stats, item kinds, DS and
modifiers."""

from __future__ import annotations

import re
from collections.abc import Iterable

from domain.commands import View
from domain.events import Event
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.checks import check_alive
from domain.rulesets.sprawl_goons.events import Modifier
from domain.rulesets.sprawl_goons.settings import Settings, settings_from
from domain.rulesets.sprawl_goons.state import evolve
from domain.rulesets.sprawl_goons.tables import (
    Category,
    Kind,
    Stat,
    difficulty_named,
    find_category,
    find_stat,
)


def settings(view: View) -> Settings:
    return settings_from(view.campaign.house_rules)


def character(view: View, ref: str) -> SgCharacter:
    state: SgCharacter = view.character(view.campaign.find(ref).character_id)
    return state


def roster(view: View) -> list[SgCharacter]:
    return [view.character(e.character_id) for e in view.campaign.roster]


def stat(text: str) -> Stat:
    found = find_stat(text)
    if found is None:
        raise errors.UnknownStat(text=text)
    return found


def category(text: str) -> Category:
    """An item kind by name (``armor`` reads as ``armour``)."""
    found = find_category(text)
    if found is None:
        known = ", ".join(c.value for c in Category)
        raise errors.UnknownCategory(text=text, known=known)
    return found


def difficulty(text: str) -> int:
    """A DS as a number or a guideline name; a DS below 1 is refused, and none at all is the
    referee's ruling missing (DIGEST §0.3 RulingRequired)."""
    if not text.strip():
        raise errors.DsRequired()
    value = difficulty_named(text)
    if value is None or value < 1:
        raise errors.InvalidDs(ds=text)
    return value


def modifiers(texts: Iterable[str]) -> tuple[Modifier, ...]:
    """Situational bonuses written SOURCE=+N (or SOURCE=-N)."""
    found = []
    for text in texts:
        match = re.fullmatch(r"\s*(.+?)\s*=\s*([+-]?\d+)\s*", text)
        if match is None:
            raise errors.InvalidModifier(text=text)
        found.append(Modifier(source=match.group(1), value=int(match.group(2))))
    return tuple(found)


def target(view: View, ref: str, attacker: SgCharacter, what: str) -> SgCharacter:
    """A living NPC or PC to hit (not a system, not the attacker)."""
    t = character(view, ref)
    if t.id == attacker.id:
        raise errors.CannotTargetSelf(name=t.name)
    if t.kind is Kind.SYSTEM:
        raise errors.WrongTarget(name=t.name, kind="system", what=what)
    check_alive(t, f"be {what}")
    return t


def after(state: SgCharacter, events: Iterable[Event]) -> SgCharacter:
    """The state once the given events apply (a command's own events, in order)."""
    current: SgCharacter | None = state
    for event in events:
        current = evolve(event, current)
    assert current is not None
    return current
