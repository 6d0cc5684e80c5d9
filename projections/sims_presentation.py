"""How the shared code shows the Sims (``projections.presentation``): the drawn sheet lists the
qualities with their current rank, their base rank and the ranks lost to Damage and Failure,
the strengths and weaknesses, and what the character owes in the scene; the turn panel gives the
conflict's turn order (whose turn it is) and the ranks still to allocate."""

from __future__ import annotations

from collections.abc import Sequence

from domain.campaign import CampaignState
from domain.rulesets.sims.character import Quality, SimsCharacter
from domain.rulesets.sims.tables import rank_name
from projections.drawing import Badge, Drawing, Row, Rows, Turn, TurnGroup
from projections.presentation import Presentation
from projections.sims_recap import HIGHLIGHTS, moved
from projections.sims_sheet import owed, sheet_extras, sheet_text, status


def _quality(q: Quality) -> Row:
    badges = [Badge(str(q.area))]
    if q.lost_damage:
        badges.append(Badge(f"-{q.lost_damage} Damage", "bad"))
    if q.lost_failure:
        badges.append(Badge(f"-{q.lost_failure} Failure", "warn"))
    if q.current < 0:
        badges.append(Badge("zeroed", "bad"))
    return Row(
        label=q.name, value=rank_name(q.current), badges=tuple(badges), note=f"base {q.base}"
    )


def sheet_drawing(c: SimsCharacter, campaign: CampaignState) -> Drawing:
    """The qualities, then the strengths and weaknesses, then what is in play."""
    traits = [Row("Strength", s, (Badge("strength", "good"),)) for s in c.strengths]
    traits += [Row("Weakness", w, (Badge("weakness", "warn"),)) for w in c.weaknesses]
    in_play = [Row("Owed", what, (Badge("owed", "warn"),)) for what in owed(c)]
    if c.turn:
        in_play.append(Row("Turn", str(c.last_turn), (Badge("acting now", "good"),)))
    if c.strategy:
        in_play.append(Row("Strategy", str(c.strategy)))
    if c.out:
        in_play.append(Row("Out of the scene", badges=(Badge("out", "bad"),)))
    if c.upgrades:
        in_play.append(Row("Upgrades to spend", str(c.upgrades)))
    in_play.append(Row("Ranks lost", str(c.lost)))
    return Drawing(
        summary=f"{c.name} ({c.kind}, played by {c.player}): {status(c)}",
        parts=(
            Rows(title="Qualities", rows=tuple(_quality(q) for q in c.qualities)),
            Rows(title="Strengths and weaknesses", rows=tuple(traits)),
            Rows(title="In play", rows=tuple(in_play)),
        ),
    )


def turns(characters: Sequence[SimsCharacter], campaign: CampaignState) -> tuple[TurnGroup, ...]:
    """The conflict's turn order with whose turn it is, and the ranks owed."""
    groups = []
    fighting = [c for c in characters if c.in_conflict]
    if fighting:
        by_id = {c.id: c for c in characters}
        number = max(c.last_turn for c in fighting)
        order = []
        for slot in fighting[0].order:
            c = by_id.get(slot.character_id)
            what = f"{slot.quality or 'no quality'} ({rank_name(slot.rank)})"
            if c is not None and c.out:
                what += ", out"
            order.append(Turn(slot.name, what, now=c is not None and c.turn))
        title = f"Conflict, turn {number}: turn order" if number else "Conflict: turn order"
        groups.append(TurnGroup(title=title, turns=tuple(order), ordered=True))
    due = tuple(Turn(c.name, what, now=True) for c in characters for what in owed(c))
    if due:
        groups.append(TurnGroup(title="Owed", turns=due))
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
