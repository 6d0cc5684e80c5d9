"""Replaying a Sprawl Goons character from its events (strict: a misfit raises)."""

from __future__ import annotations

from functools import singledispatch

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.events import Event, RulingRetracted
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as ev
from domain.rulesets.sprawl_goons.character import Aim, Boost, SgCharacter
from domain.rulesets.sprawl_goons.checks import (
    check_alive,
    check_bulkiness,
    check_can_act,
    check_ranged,
    check_usable,
    find_item,
    is_empty,
)
from domain.rulesets.sprawl_goons.tables import (
    BURSTS_PER_MAGAZINE,
    MAX_AIM_ROUNDS,
    STARTING_CASH_PER_PIP,
    Purpose,
    Secondary,
)
from domain.rulesets.sprawl_goons.values import Item, Stats


@singledispatch
def evolve(event: Event, state: SgCharacter | None) -> SgCharacter | None:
    """Apply one event. Raises a DomainError or ReplayMismatch when the event does not fit."""
    raise TypeError(f"no Sprawl Goons rule for {type(event).__name__}")


def require(state: SgCharacter | None) -> SgCharacter:
    if state is None:
        raise ReplayMismatch("a character stream must start with its creation")
    return state


def swap_item(c: SgCharacter, old: Item, new: Item | None) -> SgCharacter:
    """Replace an item (or drop it, with None)."""
    items: list[Item] = []
    for i in c.items:
        if i is not old:
            items.append(i)
        elif new is not None:
            items.append(new)
    return replace(c, items=tuple(items))


@evolve.register(RulingRetracted)
def _audit_only(event: Event, state: SgCharacter | None) -> SgCharacter | None:
    return state


@evolve.register(ev.CharacterCreated)
def _created(event: ev.CharacterCreated, state: SgCharacter | None) -> SgCharacter:
    if state is not None:
        raise ReplayMismatch("a character is created once")
    return SgCharacter(
        id=event.character_id,
        name=event.name,
        player=event.player,
        stats=event.stats,
        resilience=event.resilience,
        resilience_max=event.resilience,
        inventory=event.inventory,
        level=event.level,
    )


@evolve.register(ev.NpcCreated)
def _npc(event: ev.NpcCreated, state: SgCharacter | None) -> SgCharacter:
    if state is not None:
        raise ReplayMismatch("a character is created once")
    return SgCharacter(
        id=event.character_id,
        name=event.name,
        player="referee",
        kind=event.kind,
        resilience=event.ds,
        resilience_max=event.ds,
        major=event.major,
        armoured=event.armoured,
        neural=event.neural,
    )


@evolve.register(ev.StartingCashRolled)
def _cash_rolled(event: ev.StartingCashRolled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if event.cash != STARTING_CASH_PER_PIP * sum(event.dice):
        raise ReplayMismatch("starting cash is 3d6 x 10")
    return replace(c, cash=event.cash)


@evolve.register(ev.ItemAcquired)
def _acquired(event: ev.ItemAcquired, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if any(i.name.lower() == event.item.name.lower() for i in c.items):
        raise errors.ItemAlreadyHeld(name=c.name, item=event.item.name)
    return replace(c, items=(*c.items, event.item))


@evolve.register(ev.ItemDropped)
def _dropped(event: ev.ItemDropped, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    return swap_item(c, find_item(c, event.item), None)


@evolve.register(ev.ItemUsed)
def _used(event: ev.ItemUsed, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    if item.uses != event.before or event.after != event.before - 1 or event.after < 0:
        raise ReplayMismatch(f"{item.name} has {item.uses} uses, not {event.before}")
    return swap_item(c, item, replace(item, uses=event.after))


@evolve.register(ev.ItemBulkinessRuled)
def _bulk_ruled(event: ev.ItemBulkinessRuled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    check_bulkiness(c, item, event.bulky)
    c = swap_item(c, item, replace(item, bulky=event.bulky))
    if (event.bulky_items, event.encumbrance) != (c.bulky_items, c.encumbrance):
        raise ReplayMismatch(f"{c.name} carries {c.bulky_items} bulky items")
    return c


@evolve.register(ev.TempModifierApplied)
def _boosted(event: ev.TempModifierApplied, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    boost = Boost(stat=event.stat, value=event.value, source=event.source)
    return replace(c, boosts=(*c.boosts, boost))


@evolve.register(ev.CashChanged)
def _cash(event: ev.CashChanged, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if event.before != c.cash or event.after != c.cash + event.delta:
        raise ReplayMismatch(f"{c.name} has {c.cash} cash, not {event.before}")
    if event.after < 0:
        raise errors.InsufficientCash(name=c.name, cash=c.cash, amount=-event.delta)
    return replace(c, cash=event.after)


@evolve.register(ev.WeaponReloaded)
def _reloaded(event: ev.WeaponReloaded, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    check_ranged(item)
    return swap_item(c, item, replace(item, bursts_fired=0))


@evolve.register(ev.MagazineEmptied)
def _emptied(event: ev.MagazineEmptied, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    check_ranged(item)
    if is_empty(item):
        raise errors.MagazineEmpty(item=item.name)
    return swap_item(c, item, replace(item, bursts_fired=BURSTS_PER_MAGAZINE))


@evolve.register(ev.BurstFired)
def _burst(event: ev.BurstFired, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    check_ranged(item)
    if is_empty(item):
        raise errors.MagazineEmpty(item=item.name)
    if event.bursts != (item.bursts_fired or 0) + 1:
        raise ReplayMismatch(f"{item.name} has fired {item.bursts_fired} bursts")
    return swap_item(c, item, replace(item, bursts_fired=event.bursts))


@evolve.register(ev.ActionRolled)
def _rolled(event: ev.ActionRolled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_can_act(c)
    if event.stat_value != c.stat(event.stat) or event.encumbrance != c.penalty(event.stat):
        raise ReplayMismatch(f"{c.name}'s {event.stat} roll does not match the sheet")
    if event.forced_glitch != c.must_glitch:
        raise ReplayMismatch(f"{c.name}'s Glitch dice depend on untreated critical injuries")
    for bonus in event.items:
        check_usable(find_item(c, bonus.item))
    return replace(c, aim=None) if event.purpose is Purpose.ATTACK else c


@evolve.register(ev.AimTaken)
def _aimed(event: ev.AimTaken, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_can_act(c)
    before = c.aim.rounds if c.aim is not None and c.aim.target == event.target else 0
    if before >= MAX_AIM_ROUNDS:
        raise errors.AimLimitReached(name=c.name, target=event.target)
    if event.rounds != before + 1:
        raise ReplayMismatch(f"{c.name} had aimed {before} rounds")
    return replace(c, aim=Aim(target=event.target, rounds=event.rounds))


@evolve.register(ev.InitiativeRolled)
def _initiative(event: ev.InitiativeRolled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c)
    return replace(c, initiative=event.total, initiative_place=event.place)


@evolve.register(ev.RoundEnded)
def _round(event: ev.RoundEnded, state: SgCharacter | None) -> SgCharacter:
    return replace(require(state), round=event.number)


@evolve.register(ev.SceneEffectsCleared)
def _scene_over(event: ev.SceneEffectsCleared, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    return replace(
        c, boosts=(), aim=None, fire=None, initiative=None, initiative_place=None, round=0
    )


@evolve.register(ev.MissionCompleted)
def _mission(event: ev.MissionCompleted, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_can_act(c, "level up")
    return replace(c, levels_due=c.levels_due + 1)


@evolve.register(ev.LevelGained)
def _levelled(event: ev.LevelGained, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "level up")
    if c.levels_due < 1:
        raise errors.NoLevelDue(name=c.name)
    if event.level != c.level + 1 or event.stat_value != c.stat(event.stat) + 1:
        raise ReplayMismatch(f"{c.name} is level {c.level}")
    stats: Stats = replace(c.stats, **{event.stat.value: event.stat_value})
    c = replace(c, level=event.level, levels_due=c.levels_due - 1, stats=stats)
    if event.secondary is Secondary.RESILIENCE:
        if event.secondary_value != c.resilience_max + 1:
            raise ReplayMismatch(f"{c.name}'s Resilience is {c.resilience_max}")
        return replace(c, resilience_max=c.resilience_max + 1, resilience=c.resilience + 1)
    if event.secondary_value != c.inventory + 1:
        raise ReplayMismatch(f"{c.name}'s Inventory Score is {c.inventory}")
    return replace(c, inventory=c.inventory + 1)
