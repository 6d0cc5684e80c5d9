"""Looking things up for a command: house rules, characters, qualities, whose turn it is."""

from __future__ import annotations

from domain.commands import View
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_nothing_owed
from domain.rulesets.sims.events import QualitySpec
from domain.rulesets.sims.settings import Settings, settings_from
from domain.rulesets.sims.tables import Area, Rank, find_area, find_rank


def settings(view: View) -> Settings:
    return settings_from(view.campaign.house_rules)


def character(view: View, ref: str) -> SimsCharacter:
    state: SimsCharacter = view.character(view.campaign.find(ref).character_id)
    return state


def everyone(view: View) -> list[SimsCharacter]:
    return [view.character(e.character_id) for e in view.campaign.roster]


def check_table_clear(view: View) -> None:
    """Ranks to distribute and tied attacks come before anyone else acts (Damage; Ex. 3 note)."""
    for c in everyone(view):
        if c.pending is not None or c.ties:
            check_nothing_owed(c)


def turn_holder(view: View) -> SimsCharacter | None:
    return next((c for c in everyone(view) if c.turn), None)


def turn_number(view: View) -> int:
    """The number of the conflict turn running now (0 outside a conflict)."""
    return max((c.last_turn for c in everyone(view) if c.in_conflict), default=0)


def split_ref(text: str) -> tuple[str, str | None]:
    """'Kristov:Dirty Fighter' -> ('Kristov', 'Dirty Fighter'); 'Ninja' -> ('Ninja', None)."""
    who, sep, quality = text.partition(":")
    return who.strip(), (quality.strip() or None) if sep else None


def parse_quality(text: str, *, default_area: Area | None = None) -> QualitySpec:
    """NAME:AREA:RANK (or NAME:RANK when a default area applies)."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 2 and default_area is not None:
        parts = [parts[0], default_area.value, parts[1]]
    if len(parts) != 3 or not parts[0]:
        raise errors.UnreadableQuality(text=text)
    name, area_text, rank_text = parts
    area = find_area(area_text)
    if area is None:
        raise errors.UnknownArea(area=area_text, known=", ".join(a.value for a in Area))
    rank = find_rank(rank_text)
    if rank is None:
        raise errors.UnknownRank(rank=rank_text)
    return QualitySpec(name=name, area=area, rank=rank)


def parse_rank(text: str) -> Rank:
    rank = find_rank(text)
    if rank is None:
        raise errors.UnknownRank(rank=text)
    return rank


def check_turn(view: View, c: SimsCharacter) -> None:
    """In a conflict with a turn order, only the character whose turn it is attacks."""
    if c.in_conflict and not c.turn:
        holder = turn_holder(view)
        raise errors.NotYourTurn(name=c.name, current=holder.name if holder else "nobody")
