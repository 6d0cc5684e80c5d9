"""What a player may amend of their own words (``amend N --set KEY=...``): the text of a post they
wrote (``text``) and the narration of a ruling they made (``say``: its author is the member who
made the call). Everything else of a ruling, and anyone else's words, are the GMs' to amend.
An observer's own words (an out-of-character post) are theirs as a player's are."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.campaign import CampaignState
from domain.errors import NotAllowed
from domain.events import AMEND, Role
from domain.policy import acting_member, check_gm
from domain.posts import POST, check_edit_dice
from domain.said import SAY
from domain.table import UpholdRuling

RESOLVE = UpholdRuling.name  # the verb that resolves a dispute
TEXT = "text"  # a post's text (``domain.posts.WritePost.text``)
OWN_WORDS = frozenset({TEXT, SAY})


def edits_own_words(campaign: CampaignState, who: str, changes: Mapping[str, str]) -> bool:
    """Whether ``who`` (not a GM) asks to amend only words an author may amend (a post's text,
    a ruling's narration); the ruling is checked to be theirs by ``check_own_words``."""
    member = acting_member(campaign, who)
    return member.role is not Role.GM and bool(changes) and set(changes) <= OWN_WORDS


def check_may_amend(
    campaign: CampaignState, who: str, changes: Mapping[str, str], *, resolves: bool = False
) -> None:
    """Refuse an amendment by anyone but a GM, except an author's edit of their own words; one
    that ``resolves`` a dispute is the GM's whatever it amends (the GM resolves disputes)."""
    if resolves:
        check_gm(campaign, who, RESOLVE)
    if not edits_own_words(campaign, who, changes):
        check_gm(campaign, who, AMEND)


def check_own_words(
    campaign: CampaignState,
    who: str,
    changes: Mapping[str, str],
    *,
    command: str,
    args: Mapping[str, Any],
    author: str,
) -> None:
    """A player amending a ruling made by ``author`` (the ``command`` with ``args``): refused
    unless the text is of a post they wrote and the narration of a ruling they made."""
    member = acting_member(campaign, who)
    if member.role is Role.GM:
        return
    own_post = command == POST and args.get("by") == who
    if (TEXT in changes and not own_post) or (SAY in changes and author != who):
        rule = (
            "a player amends only the text of their own posts and the narration of their own "
            "rulings; the rest is the GM's"
        )
        raise NotAllowed(who=who, role=member.role, what=AMEND, rule=rule)


def check_amendment(
    campaign: CampaignState,
    who: str,
    changes: Mapping[str, str],
    *,
    ruling: int,
    command: str,
    args: Mapping[str, Any],
    author: str,
    new_dice: int,
    resolves: bool,
) -> None:
    """Every check of who may amend, in the order ``amend`` makes them as it learns what it
    needs (``check_may_amend``, then ``check_own_words`` once it read ruling ``ruling``, made by
    ``author`` with ``command`` and ``args``, then ``check_edit_dice`` once it knows the
    ``new_dice`` it rolled): ``verify`` holds a recorded amendment to them all at once."""
    check_may_amend(campaign, who, changes, resolves=resolves)
    check_own_words(campaign, who, changes, command=command, args=args, author=author)
    check_edit_dice(campaign, who, ruling, new_dice)
