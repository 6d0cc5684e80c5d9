"""How the shared code shows Sprawl Goons (``projections.presentation``): the drawn sheet has the
stats, the Resilience bar, the bulk carried against the Inventory Score, the items with their
uses, bursts and bulk, the critical injuries and what runs in the scene; an NPC's or a system's
is its DS bar. The turn panel gives the initiative order of the round, the dying, and the levels
to take."""

from __future__ import annotations

from collections.abc import Sequence

from domain.campaign import CampaignState
from domain.rulesets.sprawl_goons.character import Injury, SgCharacter
from domain.rulesets.sprawl_goons.tables import (
    BURSTS_PER_MAGAZINE,
    DEADLY_BAND,
    ENCUMBERED_STATS,
    Condition,
    Kind,
    Stat,
)
from domain.rulesets.sprawl_goons.values import Item
from projections.describe import plural
from projections.drawing import Badge, Bar, Drawing, Part, Row, Rows, Turn, TurnGroup
from projections.presentation import Presentation
from projections.sprawl_goons import burden
from projections.sprawl_goons_recap import HIGHLIGHTS, moved
from projections.sprawl_goons_sheet import sheet_extras, sheet_text, status


def _stats(c: SgCharacter) -> Rows:
    def row(s: Stat) -> Row:
        badges = tuple(Badge(f"+{b.value} {b.source}", "good") for b in c.boost(s))
        if s in ENCUMBERED_STATS and c.encumbrance:
            badges += (Badge(f"-{c.encumbrance} encumbrance", "warn"),)
        return Row(label=s.title, value=str(c.stat(s)), badges=badges)

    return Rows(title="Stats", rows=tuple(row(s) for s in Stat))


def _item(i: Item) -> Row:
    badges = []
    if i.uses is not None:
        badges.append(Badge(plural(i.uses, "use"), "" if i.uses else "bad"))
    if i.bursts_fired is not None:
        left = BURSTS_PER_MAGAZINE - i.bursts_fired
        badges.append(Badge("magazine empty", "bad") if left <= 0 else Badge(f"{left} bursts left"))
    if i.condition is not Condition.INTACT:
        badges.append(Badge(i.condition.value, "bad"))
    badges.append(Badge("bulky" if i.bulky else "not bulky"))
    return Row(label=i.name, value=f"{i.category} +{i.bonus}", badges=tuple(badges))


def _injury(i: Injury) -> Row:
    band = f"{DEADLY_BAND}+" if i.band == DEADLY_BAND else str(i.band)
    if i.negated_by:
        state = Badge(f"negated by {i.negated_by}", "good")
    else:
        state = Badge("treated", "good") if i.treated else Badge("untreated", "bad")
    return Row(
        label=f"Injury {i.number}", value=f"{band} {i.location}", badges=(state,), note=i.effect
    )


def _scene(c: SgCharacter) -> tuple[Row, ...]:
    rows = []
    if c.death_clock is not None:
        rows.append(
            Row("Dying", plural(c.death_clock, "round end") + " left", (Badge("dying", "bad"),))
        )
    if c.aim is not None:
        rows.append(Row("Aiming", f"at {c.aim.target}", (Badge(f"+{c.aim.rounds}"),)))
    if c.fire is not None:
        burning = f"{c.fire.damage} a round, {plural(c.fire.rounds_left, 'round')} left"
        rows.append(Row("On fire", burning, (Badge("burning", "bad"),)))
    if c.initiative is not None:
        rows.append(Row("Initiative", str(c.initiative)))
    return tuple(rows)


def _resilience(c: SgCharacter, title: str) -> Bar:
    tone = "bad" if c.dead or c.death_clock is not None or c.resilience <= 0 else ""
    note = "dead" if c.dead else ("dying" if c.death_clock is not None else "")
    return Bar(title=title, value=c.resilience, maximum=c.resilience_max, note=note, tone=tone)


def sheet_drawing(c: SgCharacter, campaign: CampaignState) -> Drawing:
    """A PC's stats, Resilience, bulk, items, injuries and scene effects; an NPC's or a
    system's DS."""
    summary = f"{c.name} (played by {c.player}): {status(c)}"
    if c.kind is not Kind.PC:
        state = "dead" if c.dead else ("breached" if c.breached else "active")
        return Drawing(
            summary=summary,
            parts=(
                _resilience(c, f"{c.kind.upper()} DS"),
                Rows(title="State", rows=(Row("Now", state),)),
            ),
        )
    bulk = Bar(
        title="Bulky items",
        value=c.bulky_items,
        maximum=c.inventory,
        note=f"Inventory Score {c.inventory}, {burden(c.encumbrance)}",
        tone="warn" if c.encumbrance else "",
    )
    standing = [Row("Level", str(c.level)), Row("Cash", str(c.cash))]
    if c.levels_due:
        standing.append(Row("Levels to take", str(c.levels_due), (Badge("owed", "warn"),)))
    if c.must_glitch:
        standing.append(Row("Glitch dice", "until treated", (Badge("untreated injury", "bad"),)))
    parts: list[Part] = [_stats(c), _resilience(c, "Resilience"), bulk]
    parts.append(Rows(title="Items", rows=tuple(_item(i) for i in c.items)))
    boosts = tuple(Row(b.source, f"+{b.value} {b.stat}", note="this scene") for b in c.boosts)
    parts.append(Rows(title="Critical injuries", rows=tuple(_injury(i) for i in c.injuries)))
    parts.append(Rows(title="In play", rows=(*standing, *boosts, *_scene(c))))
    return Drawing(summary=summary, parts=tuple(parts))


def turns(characters: Sequence[SgCharacter], campaign: CampaignState) -> tuple[TurnGroup, ...]:
    """The round's initiative order (the combatants still standing), who is dying, and the
    levels the PCs have to take."""
    fighting = [c for c in characters if c.initiative is not None and not c.dead]
    fighting.sort(key=lambda c: (c.initiative_place or 99, -(c.initiative or 0)))
    groups = []
    if fighting:
        round_ = max(c.round for c in fighting) + 1
        order = tuple(Turn(c.name, f"initiative {c.initiative}") for c in fighting)
        groups.append(
            TurnGroup(title=f"Round {round_}: initiative order", turns=order, ordered=True)
        )
    owed = [
        Turn(c.name, f"dying: {plural(c.death_clock, 'round end')} left", now=True)
        for c in characters
        if c.death_clock is not None and not c.dead
    ]
    owed += [
        Turn(c.name, f"{plural(c.levels_due, 'level')} to take")
        for c in characters
        if c.levels_due and not c.dead
    ]
    if owed:
        groups.append(TurnGroup(title="Owed", turns=tuple(owed)))
    return tuple(groups)


PRESENTATION = Presentation(
    sheet_text=lambda c, _: sheet_text(c),
    sheet_drawing=sheet_drawing,
    sheet_extras=sheet_extras,
    status=status,
    highlights=HIGHLIGHTS,
    moved=moved,
    turns=turns,
)
