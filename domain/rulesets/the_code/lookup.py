"""Looking things up for a command: house rules, heroes by name, details by name, the task."""

from __future__ import annotations

from collections.abc import Sequence

from domain.commands import View
from domain.errors import EmptyText, NotAPlayerCharacter
from domain.rulesets.the_code import errors
from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.settings import Settings, settings_from
from domain.rulesets.the_code.tables import Detail, find_detail


def settings(view: View) -> Settings:
    return settings_from(view.campaign.house_rules)


def character(view: View, ref: str) -> TcHero:
    """A character of the campaign: a hero or an NPC."""
    state: TcHero = view.character(view.campaign.find(ref).character_id)
    return state


def hero(view: View, ref: str) -> TcHero:
    """A hero: an NPC takes part in contests, Ability steps and days off only."""
    state = character(view, ref)
    check_hero(state)
    return state


def check_hero(state: TcHero) -> None:
    """Refuse an NPC what only heroes do."""
    if state.npc:
        raise NotAPlayerCharacter(
            name=state.name,
            what="are heroes, with an Objective, Reward Points, Exposure and Popularity",
            rule="The Code: an NPC takes part in contests, Ability steps and days off",
        )


def parse_details(texts: Sequence[str]) -> tuple[Detail, ...]:
    """Details named on the command line; an unknown name is refused."""
    found: list[Detail] = []
    for text in texts:
        detail = find_detail(text)
        if detail is None:
            raise errors.UnknownDetail(text=text, known=", ".join(Detail))
        found.append(detail)
    return tuple(found)


def parse_task(text: str) -> str:
    """The task a command names (what the hero attempts); an empty one is refused."""
    task = text.strip()
    if not task:
        raise EmptyText(what="the task")
    return task
