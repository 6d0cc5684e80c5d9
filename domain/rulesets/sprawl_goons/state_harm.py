"""Replaying harm and healing: damage, critical injuries, death, armour and cyber limbs, fire,
breaches and healing (registered on ``state.evolve``; strict like the rest)."""

from __future__ import annotations

from attrs import evolve as replace

from domain.errors import ReplayMismatch
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as ev
from domain.rulesets.sprawl_goons.character import Fire, Injury, SgCharacter
from domain.rulesets.sprawl_goons.checks import check_alive, check_armour_intact, find_item
from domain.rulesets.sprawl_goons.state import evolve, require, swap_item
from domain.rulesets.sprawl_goons.tables import CRIT_BONUS, DEADLY_BAND, Condition, Kind

DEATH_CLOCK_ROUNDS = 2  # the round it started in ends, then the next one: "death in 1 round"


@evolve.register(ev.ResilienceLost)
def _lost(event: ev.ResilienceLost, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "take more damage")
    if event.before != c.resilience or event.after != max(0, event.before - event.amount):
        raise ReplayMismatch(f"{c.name} had {c.resilience}, not {event.before}")
    return replace(c, resilience=event.after)


@evolve.register(ev.CriticalInjuryRolled)
def _crit(event: ev.CriticalInjuryRolled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "take more damage")
    if event.number != len(c.injuries) + 1:
        raise ReplayMismatch(f"{c.name} has {len(c.injuries)} critical injuries")
    bonus_due = event.modifier == CRIT_BONUS and c.criticals_taken > 0
    if not (bonus_due or (event.modifier == 0 and not c.must_glitch)):
        raise ReplayMismatch("the +3 depends on the critical injuries taken before")
    injury = Injury(
        number=event.number, band=event.band, effect=event.effect, location=event.location
    )
    return replace(c, injuries=(*c.injuries, injury))


@evolve.register(ev.DeathClockStarted)
def _dying(event: ev.DeathClockStarted, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    injury = c.injury(event.injury)
    if injury is None or injury.band != DEADLY_BAND or c.death_clock is not None:
        raise ReplayMismatch("a death clock starts once, on a 7+ critical injury")
    return replace(c, death_clock=DEATH_CLOCK_ROUNDS, dying_from=event.injury)


@evolve.register(ev.DeathClockTicked)
def _ticked(event: ev.DeathClockTicked, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if c.death_clock is None or event.rounds_left != c.death_clock - 1:
        raise ReplayMismatch(f"{c.name} is not dying with that many rounds left")
    return replace(c, death_clock=event.rounds_left)


@evolve.register(ev.CharacterDied)
def _died(event: ev.CharacterDied, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "die twice")
    return replace(c, dead=True, death_clock=None)


def _negate(c: SgCharacter, number: int, by: str) -> SgCharacter:
    injury = c.injury(number)
    if injury is None or injury.negated_by is not None:
        raise errors.NoCriticalInjury(name=c.name, what=f"is numbered {number} and not negated")
    injuries = tuple(replace(i, negated_by=by) if i is injury else i for i in c.injuries)
    dying = c.dying_from == number
    return replace(
        c,
        injuries=injuries,
        death_clock=None if dying else c.death_clock,
        dying_from=None if dying else c.dying_from,
    )


@evolve.register(ev.ArmourSlagged)
def _slagged(event: ev.ArmourSlagged, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    check_armour_intact(item)
    c = swap_item(c, item, replace(item, condition=Condition.SLAGGED))
    return _negate(c, event.injury, item.name)


@evolve.register(ev.CyberLimbDisabled)
def _limb_down(event: ev.CyberLimbDisabled, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    injury = c.injury(event.injury)
    if item.limb is None or item.condition is not Condition.INTACT:
        raise errors.NotACyberLimb(item=item.name)
    if injury is None or injury.location is not item.limb:
        raise ReplayMismatch(f"injury {event.injury} did not strike {item.name}")
    c = swap_item(c, item, replace(item, condition=Condition.BROKEN))
    return _negate(c, event.injury, item.name)


@evolve.register(ev.CyberLimbRepaired)
def _limb_fixed(event: ev.CyberLimbRepaired, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    item = find_item(c, event.item)
    if item.limb is None:
        raise errors.NotACyberLimb(item=item.name)
    if item.condition is not Condition.BROKEN:
        raise errors.LimbWorking(item=item.name)
    return swap_item(c, item, replace(item, condition=Condition.INTACT))


@evolve.register(ev.SystemBreached)
def _breached(event: ev.SystemBreached, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if c.kind is not Kind.SYSTEM or c.breached:
        raise errors.SystemAlreadyBreached(name=c.name)
    return replace(c, breached=True)


@evolve.register(ev.SetOnFire)
def _ignited(event: ev.SetOnFire, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "catch fire")
    return replace(c, fire=Fire(damage=event.damage, rounds_left=event.rounds))


@evolve.register(ev.FireBurned)
def _burned(event: ev.FireBurned, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if c.fire is None or event.rounds_left != c.fire.rounds_left - 1:
        raise errors.NotOnFire(name=c.name)
    fire = replace(c.fire, rounds_left=event.rounds_left) if event.rounds_left else None
    return replace(c, fire=fire)


@evolve.register(ev.FireExtinguished)
def _extinguished(event: ev.FireExtinguished, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    if c.fire is None:
        raise errors.NotOnFire(name=c.name)
    return replace(c, fire=None)


@evolve.register(ev.ResilienceRestored)
def _restored(event: ev.ResilienceRestored, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "heal")
    expected = min(c.resilience_max, event.before + event.amount)
    if event.before != c.resilience or event.after != expected:
        raise ReplayMismatch(f"{c.name} had {c.resilience} Resilience, not {event.before}")
    return replace(c, resilience=event.after)


@evolve.register(ev.FirstAidReceived)
def _first_aid(event: ev.FirstAidReceived, state: SgCharacter | None) -> SgCharacter:
    return replace(require(state), first_aid_scene=event.scene)


@evolve.register(ev.MedicalAttentionReceived)
def _treated(event: ev.MedicalAttentionReceived, state: SgCharacter | None) -> SgCharacter:
    c = require(state)
    check_alive(c, "be treated")
    open_ = tuple(i.number for i in c.injuries if i.open)
    if not event.treated or event.treated != open_:
        raise errors.NothingToTreat(name=c.name)
    injuries = tuple(replace(i, treated=True) if i.open else i for i in c.injuries)
    dying = c.dying_from in event.treated
    return replace(
        c,
        injuries=injuries,
        death_clock=None if dying else c.death_clock,
        dying_from=None if dying else c.dying_from,
    )
