"""How Sprawl Goons' events read in the log and in recaps."""

from __future__ import annotations

from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.tables import DEADLY_BAND, DiceMode, Kind, Purpose
from projections.describe import describe, faces, plural


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


@describe.register(sg.CharacterCreated)
def _created(event: sg.CharacterCreated) -> str:
    s = event.stats
    return (
        f"joins the crew: Morphology {s.morphology}, Reaction {s.reaction}, "
        f"Cognition {s.cognition}, Equilibrium {s.equilibrium}; Resilience {event.resilience}, "
        f"Inventory {event.inventory}, level {event.level}"
    )


@describe.register(sg.NpcCreated)
def _npc(event: sg.NpcCreated) -> str:
    if event.kind is Kind.SYSTEM:
        neural = ", deals neural damage" if event.neural else ""
        return f"a system to hack, DS {event.ds}{neural}"
    flags = [f for f, on in (("major", event.major), ("armoured", event.armoured)) if on]
    extra = f" ({', '.join(flags)})" if flags else ""
    return f"an NPC{extra}, DS {event.ds}"


@describe.register(sg.StartingCashRolled)
def _cash_rolled(event: sg.StartingCashRolled) -> str:
    return f"starting cash 3d6 {faces(event.dice)} x 10 = {event.cash}"


def burden(encumbrance: int) -> str:
    """What a character's bulky items cost them, as a GM says it."""
    return f"encumbrance -{encumbrance}" if encumbrance else "no encumbrance"


@describe.register(sg.ItemAcquired)
def _acquired(event: sg.ItemAcquired) -> str:
    item = event.item
    parts = [str(item.category), f"+{item.bonus}"]
    if item.uses is not None:
        rolled = f" (rolled {faces(event.uses_dice)})" if event.uses_dice else ""
        parts.append(f"{plural(item.uses, 'use')}{rolled}")
    if not item.bulky:
        parts.append("not bulky")
    approved = ", approved by the referee" if event.custom else ""
    return f"gets {item.name} ({', '.join(parts)}){approved}"


@describe.register(sg.ItemDropped)
def _dropped(event: sg.ItemDropped) -> str:
    return f"drops {event.item}"


@describe.register(sg.ItemBulkinessRuled)
def _bulk_ruled(event: sg.ItemBulkinessRuled) -> str:
    ruled = "bulky" if event.bulky else "not bulky"
    why = f" ({event.reason})" if event.reason else ""
    weight = burden(event.encumbrance)
    return f"the referee rules {event.item} {ruled}{why}: {event.bulky_items} bulky, {weight}"


@describe.register(sg.ItemUsed)
def _used(event: sg.ItemUsed) -> str:
    return f"uses {event.item}: {event.before} -> {event.after} left"


@describe.register(sg.TempModifierApplied)
def _boosted(event: sg.TempModifierApplied) -> str:
    return f"{event.source}: {_signed(event.value)} {event.stat} for the scene"


@describe.register(sg.CashChanged)
def _cash(event: sg.CashChanged) -> str:
    return f"cash {_signed(event.delta)} ({event.reason}): {event.before} -> {event.after}"


@describe.register(sg.WeaponReloaded)
def _reloaded(event: sg.WeaponReloaded) -> str:
    return f"reloads {event.item}"


@describe.register(sg.MagazineEmptied)
def _emptied(event: sg.MagazineEmptied) -> str:
    return f"{event.item}'s magazine is empty"


@describe.register(sg.BurstFired)
def _burst(event: sg.BurstFired) -> str:
    left = 3 - event.bursts
    return f"{event.item}: burst {event.bursts} of 3" + ("" if left else ", magazine empty")


def _kind(event: sg.ActionRolled) -> str:
    return event.stat.capitalize() if event.purpose is Purpose.GENERAL else str(event.purpose)


@describe.register(sg.ActionRolled)
def _rolled(event: sg.ActionRolled) -> str:
    parts = [f"{event.stat.capitalize()} {event.stat_value}"]
    parts += [
        f"{b.item} {_signed(b.bonus)}" + (f" ({b.note})" if b.note else "") for b in event.items
    ]
    parts += [f"{m.source} {_signed(m.value)}" for m in event.modifiers]
    if event.encumbrance:
        parts.append(f"encumbrance -{event.encumbrance}")
    mode = ""
    if event.mode is not DiceMode.NORMAL or event.called:
        called = "+".join(event.called)
        forced = ", forced by a critical injury" if event.forced_glitch else ""
        mode = f" {event.mode} dice (called: {called or 'none'}{forced}), kept {faces(event.kept)}"
    against = f"DS {event.ds}" + (f" ({event.target})" if event.target else "")
    verdict = "success" if event.success else "failure"
    text = (
        f"{_kind(event)} roll {faces(event.dice)}{mode} + {' + '.join(parts)} = {event.total} "
        f"vs {against}: {verdict} by {abs(event.margin)}"
    )
    for other in event.others:
        outcome = "success" if other.success else "failure"
        text += f"; vs DS {other.ds} ({other.target}): {outcome} by {abs(other.margin)}"
    return text


@describe.register(sg.AimTaken)
def _aimed(event: sg.AimTaken) -> str:
    return f"aims at {event.target} ({event.rounds} round(s), +{event.rounds})"


@describe.register(sg.InitiativeRolled)
def _initiative(event: sg.InitiativeRolled) -> str:
    parts = [f"d6 [{event.die}]", f"Reaction {event.reaction}"]
    parts += [f"{b.item} +{b.bonus}" for b in event.items]
    if event.modifier:
        parts.append(f"referee {_signed(event.modifier)}")
    if event.encumbrance:
        parts.append(f"encumbrance -{event.encumbrance}")
    tie = f", tie broken by a roll-off {faces(event.roll_off)}" if event.roll_off else ""
    return f"initiative {' + '.join(parts)} = {event.total}: goes {event.place} of {event.of}{tie}"


@describe.register(sg.RoundEnded)
def _round(event: sg.RoundEnded) -> str:
    return f"round {event.number} ends"


@describe.register(sg.SceneEffectsCleared)
def _scene_over(event: sg.SceneEffectsCleared) -> str:
    return "scene over: " + "; ".join(event.what)


@describe.register(sg.ResilienceLost)
def _lost(event: sg.ResilienceLost) -> str:
    how = f" {faces(event.dice)}" if event.dice else ""
    bonus = "".join(f" {_signed(b.value)} {b.source}" for b in event.bonuses)
    detail = f" ({event.base}{bonus})" if event.bonuses else ""
    return (
        f"takes {event.amount}{detail} from {event.source} ({event.cause}{how}): "
        f"{event.before} -> {event.after}"
    )


@describe.register(sg.CriticalInjuryRolled)
def _crit(event: sg.CriticalInjuryRolled) -> str:
    band = "7+" if event.band == DEADLY_BAND else str(event.band)
    plus = f" +{event.modifier}" if event.modifier else ""
    return (
        f"critical injury {event.number}: severity [{event.severity_die}]{plus} = {band} "
        f"({event.effect}), location [{event.location_die}] {event.location}"
    )


@describe.register(sg.DeathClockStarted)
def _dying(event: sg.DeathClockStarted) -> str:
    return f"is dying from injury {event.injury}: death at the end of the next round"


@describe.register(sg.DeathClockTicked)
def _ticked(event: sg.DeathClockTicked) -> str:
    return f"is dying: {event.rounds_left} round left"


@describe.register(sg.CharacterDied)
def _died(event: sg.CharacterDied) -> str:
    return f"dies ({event.cause})"


@describe.register(sg.ArmourSlagged)
def _slagged(event: sg.ArmourSlagged) -> str:
    return f"{event.item} is slagged to negate critical injury {event.injury}"


@describe.register(sg.CyberLimbDisabled)
def _limb_down(event: sg.CyberLimbDisabled) -> str:
    return f"{event.item} shuts down instead of taking critical injury {event.injury}"


@describe.register(sg.CyberLimbRepaired)
def _limb_fixed(event: sg.CyberLimbRepaired) -> str:
    return f"{event.item} repaired by {event.tech}"


@describe.register(sg.SystemBreached)
def _breached(event: sg.SystemBreached) -> str:
    return f"breached by {event.by}"


@describe.register(sg.SetOnFire)
def _ignited(event: sg.SetOnFire) -> str:
    return f"catches fire: {event.damage} a round for up to {event.rounds} rounds"


@describe.register(sg.FireBurned)
def _burned(event: sg.FireBurned) -> str:
    return f"burns ({event.rounds_left} round(s) of fire left)"


@describe.register(sg.FireExtinguished)
def _extinguished(event: sg.FireExtinguished) -> str:
    return f"the fire is out ({event.reason})"


@describe.register(sg.ResilienceRestored)
def _restored(event: sg.ResilienceRestored) -> str:
    return (
        f"regains {event.after - event.before} from {event.cause}: {event.before} -> {event.after}"
    )


@describe.register(sg.FirstAidReceived)
def _first_aid(event: sg.FirstAidReceived) -> str:
    verdict = "works" if event.success else "fails"
    return f"first aid from {event.healer} {verdict}"


@describe.register(sg.MedicalAttentionReceived)
def _treated(event: sg.MedicalAttentionReceived) -> str:
    numbers = ", ".join(str(n) for n in event.treated)
    return f"{event.provider} treats critical injuries {numbers}: no more Glitch dice"


@describe.register(sg.MissionCompleted)
def _mission(event: sg.MissionCompleted) -> str:
    return f"completes {event.mission}: a level is due"


@describe.register(sg.LevelGained)
def _levelled(event: sg.LevelGained) -> str:
    return (
        f"reaches level {event.level}: {event.stat.capitalize()} {event.stat_value}, "
        f"{event.secondary.capitalize()} {event.secondary_value}"
    )
