"""The Action Roll and what damage does: the dice core every rolling command shares."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from domain.dice import DiceSource
from domain.events import Event
from domain.plain import Plain
from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons.character import SgCharacter
from domain.rulesets.sprawl_goons.checks import check_can_act, check_usable, find_item
from domain.rulesets.sprawl_goons.events import (
    ActionRolled,
    Against,
    CharacterDied,
    CriticalInjuryRolled,
    DeathClockStarted,
    ItemBonus,
    Modifier,
    ResilienceLost,
    SystemBreached,
)
from domain.rulesets.sprawl_goons.lookup import after
from domain.rulesets.sprawl_goons.settings import (
    CritBonusScope,
    CriticalTrigger,
    GlitchUpgradeBoth,
    Settings,
)
from domain.rulesets.sprawl_goons.tables import (
    CRIT_BONUS,
    DEADLY_BAND,
    SEVERITY,
    Category,
    Cause,
    DiceMode,
    Kind,
    Purpose,
    Stat,
    band_for,
    location_for,
)


@frozen(kw_only=True)
class RollSpec(Plain):
    """What the referee called: stat, DS (or targets' DS), relevant items, bonuses, dice."""

    purpose: Purpose
    stat: Stat
    ds: int
    target: str | None = None
    others: tuple[tuple[str, int], ...] = ()
    dangerous: bool = False
    items: tuple[str, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    glitch: bool = False
    upgrade: bool = False
    vs_mono: bool = False


def dice_mode(
    glitch: bool, upgrade: bool, forced: bool, rules: Settings
) -> tuple[DiceMode, tuple[DiceMode, ...]]:
    """Only the referee calls Glitch or Upgrade, except the Glitch an untreated critical
    injury forces; both at once cancel (SG-A3, house rule glitchUpgradeBoth)."""
    called = tuple(
        mode
        for mode, on in ((DiceMode.GLITCH, glitch or forced), (DiceMode.UPGRADE, upgrade))
        if on
    )
    if len(called) == 2:
        wins = {
            GlitchUpgradeBoth.CANCEL: DiceMode.NORMAL,
            GlitchUpgradeBoth.GLITCH_WINS: DiceMode.GLITCH,
            GlitchUpgradeBoth.UPGRADE_WINS: DiceMode.UPGRADE,
        }
        return wins[rules.glitch_upgrade_both], called
    return (called[0] if called else DiceMode.NORMAL), called


def keep(mode: DiceMode, faces: tuple[int, ...]) -> tuple[int, ...]:
    """Glitch keeps the two worst of three, Upgrade the two best (in the order rolled)."""
    if mode is DiceMode.NORMAL:
        return faces
    dropped = faces.index(max(faces) if mode is DiceMode.GLITCH else min(faces))
    return faces[:dropped] + faces[dropped + 1 :]


def item_bonuses(c: SgCharacter, names: Sequence[str], vs_mono: bool) -> tuple[ItemBonus, ...]:
    bonuses: list[ItemBonus] = []
    for name in names:
        item = find_item(c, name)
        if any(b.item == item.name for b in bonuses):
            raise errors.DuplicateItem(item=item.name)
        check_usable(item)
        if vs_mono and item.category is Category.ARMOUR:
            bonuses.append(ItemBonus(item=item.name, bonus=0, note="negated by monofilament"))
        else:
            bonuses.append(ItemBonus(item=item.name, bonus=item.bonus))
    return tuple(bonuses)


def action_roll(c: SgCharacter, spec: RollSpec, rules: Settings, dice: DiceSource) -> ActionRolled:
    """2d6 (3d6 keeping two) + stat + 1 per relevant item + situational bonuses; success on
    total >= DS (The Action Roll)."""
    check_can_act(c)
    items = item_bonuses(c, spec.items, spec.vs_mono)
    boosts = tuple(Modifier(source=b.source, value=b.value) for b in c.boost(spec.stat))
    modifiers = (*boosts, *spec.modifiers)
    mode, called = dice_mode(spec.glitch, spec.upgrade, c.must_glitch, rules)
    faces = tuple(dice.roll(6) for _ in range(2 if mode is DiceMode.NORMAL else 3))
    kept = keep(mode, faces)
    encumbrance = c.penalty(spec.stat)
    total = (
        sum(kept)
        + c.stat(spec.stat)
        + sum(b.bonus for b in items)
        + sum(m.value for m in modifiers)
        - encumbrance
    )
    others = tuple(
        Against(target=name, ds=ds, margin=total - ds, success=total >= ds)
        for name, ds in spec.others
    )
    return ActionRolled(
        purpose=spec.purpose,
        stat=spec.stat,
        stat_value=c.stat(spec.stat),
        items=items,
        modifiers=modifiers,
        encumbrance=encumbrance,
        mode=mode,
        called=called,
        forced_glitch=c.must_glitch,
        dice=faces,
        kept=kept,
        total=total,
        ds=spec.ds,
        target=spec.target,
        margin=total - spec.ds,
        success=total >= spec.ds,
        dangerous=spec.dangerous,
        others=others,
    )


def comparisons(rolled: ActionRolled) -> tuple[Against, ...]:
    """Each target (or the one DS) the roll was compared with."""
    first = Against(
        target=rolled.target or "", ds=rolled.ds, margin=rolled.margin, success=rolled.success
    )
    return (first, *rolled.others)


# --- Damage, critical injuries and death -------------------------------------------------------


def _crit_due(before: int, amount: int, rules: Settings) -> bool:
    """SG-A1: reaching 0 (and every later hit at 0), or only damage beyond 0."""
    if rules.critical_trigger is CriticalTrigger.ON_OVERFLOW:
        return amount > before
    return amount >= 1 and before - amount <= 0


def damage(
    c: SgCharacter,
    *,
    amount: int,
    cause: Cause,
    source: str,
    rules: Settings,
    dice: DiceSource,
    base: int | None = None,
    bonuses: tuple[Modifier, ...] = (),
    faces: tuple[int, ...] = (),
) -> list[Event]:
    """Damage to a PC, an NPC or a system, and what follows: an NPC dies at DS 0, a system is
    breached, a PC (or a major NPC) takes critical damage (Character Death)."""
    if amount <= 0:
        return []
    before = c.resilience
    lost = ResilienceLost(
        amount=amount,
        cause=cause,
        source=source,
        base=amount if base is None else base,
        bonuses=bonuses,
        dice=faces,
        before=before,
        after=max(0, before - amount),
    )
    events: list[Event] = [lost]
    if c.kind is Kind.SYSTEM:
        if lost.after == 0 and not c.breached:
            events.append(SystemBreached(by=source))
    elif c.kind is Kind.NPC and not c.major:
        if lost.after == 0:
            events.append(CharacterDied(cause=f"DS reached 0 ({source})"))
    elif _crit_due(before, amount, rules):
        events.extend(critical(after(c, events), rules, dice))
    return events


def critical(c: SgCharacter, rules: Settings, dice: DiceSource) -> list[Event]:
    """The referee rolls one d6 for severity (+3 after an earlier critical injury) and one for
    location; 7+ is death in 1 round."""
    severity = dice.roll(6)
    location = dice.roll(6)
    earlier = (
        c.must_glitch
        if rules.crit_bonus_scope is CritBonusScope.UNTREATED
        else (c.criticals_taken > 0)
    )
    modifier = CRIT_BONUS if earlier else 0
    band = band_for(severity + modifier)
    rolled = CriticalInjuryRolled(
        number=len(c.injuries) + 1,
        severity_die=severity,
        modifier=modifier,
        total=severity + modifier,
        band=band,
        effect=SEVERITY[band],
        location_die=location,
        location=location_for(location),
    )
    events: list[Event] = [rolled]
    if band == DEADLY_BAND and c.death_clock is None:
        events.append(DeathClockStarted(injury=rolled.number))
    return events
