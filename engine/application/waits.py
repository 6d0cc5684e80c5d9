"""What the table waits on after some rulings, each thing naming the member it waits on: the
notices a server tells them (``web.notify``), read, as every read is, by an audience.

- **turn**: a line of the turn panel (``projections.presentation``: ``Presentation.turns``)
  that the rulings made, of a character the member plays (their NPCs, for the GM): the one to
  act now in an order (a conflict's turn), or anything owed (a test open or rolled and its
  adaptation, a displacement, a Motivation or Exposure roll, levels to take, tokens to place);
  an order with nobody marked to act now waits on nobody.
- **private**: a post written privately to the member (by someone else).
- **dispute**: the member's dispute resolved (upheld, undone or amended); for a GM, a dispute
  filed, which waits on their ruling.

A turn is found by comparing the panel as the audience knew it after ruling ``after`` with the
panel now, so a line that came and went between the two is not told (it waits on nobody now);
a post or a dispute is found in the rulings after ``after`` (those undone since are not told).
Each notice says ``about`` what it is in words the same for every reader, so the table's copy of
a notice (``audience=TABLE``) tells which of a member's own may be said in a channel."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from attrs import frozen

from domain.audience import Audience
from domain.campaign import CampaignState
from domain.events import DisputeResolved, PostKind, PostWritten, Role, RulingDisputed
from domain.plain import Plain
from projections.plain_text import plain_text

if TYPE_CHECKING:
    from engine.application.engine import Engine
    from engine.store.log import LoggedRuling

TURN, PRIVATE, DISPUTE = "turn", "private", "dispute"
NOTICE_KINDS = (TURN, PRIVATE, DISPUTE)  # what a member may choose to be told about
EXCERPT = 300  # characters of a private post a notice quotes
DETAILS = r"\s*\([^()]*\)"  # compiled when first used (re caches it)


@frozen(kw_only=True)
class Notice(Plain):
    """One thing the table waits on ``member`` for (``kind``: one of ``NOTICE_KINDS``), found at
    ruling ``ruling``, in one line as its reader may read it; ``about`` names it the same way
    for every reader."""

    member: str
    kind: str
    ruling: int
    line: str
    about: str


def notices_after(
    engine: Engine, campaign_name: str, after: int, audience: Audience
) -> list[Notice]:
    """What the rulings after ruling ``after`` leave the table waiting on, as ``audience`` may
    read it: every member's notices that it may read (a member reads their own, and what the
    table reads of the others'; the table reads no private post)."""
    campaign = engine.campaign(campaign_name)
    if after >= campaign.rulings:
        return []
    logged = engine.log(
        campaign_name, rulings=range(after + 1, campaign.rulings + 1), audience=audience
    )
    standing = [entry for entry in logged if entry.retraction is None]
    found = [
        *_turns(engine, campaign, after, audience),
        *_posts(campaign, standing),
        *_disputes(campaign, standing),
    ]
    return [n for n in found if campaign.member(n.member) is not None]


# --- Turns -------------------------------------------------------------------------------------


def _turns(engine: Engine, campaign: CampaignState, after: int, audience: Audience) -> list[Notice]:
    before = engine.campaign_then(campaign.name, after)
    owed_then = set()
    if before is not None:  # (none before the campaign's first ruling)
        existed = {e.name for e in before.roster}
        then = [
            engine.character_at(campaign.name, entry.name, ruling=after, audience=audience)
            for entry in campaign.roster
            if entry.name in existed
        ]
        owed_then = {about for about, _, _ in _owed(campaign, before, then)}
    now = engine.characters(campaign.name, audience=audience)
    return [
        Notice(member=member, kind=TURN, ruling=campaign.rulings, line=line, about=about)
        for about, member, line in _owed(campaign, campaign, now)
        if about not in owed_then
    ]


def _owed(
    campaign: CampaignState, at: CampaignState, characters: Sequence[Any]
) -> Iterator[tuple[str, str, str]]:
    """Each line of the turn panel that waits on a member, as (about, member, line)."""
    players = {entry.name: entry.player for entry in campaign.roster}
    known = [c for c in characters if c is not None]
    from projections.presentation import presentation_of  # loaded when notices are asked

    for group in presentation_of(campaign.system).turns(known, at):
        for turn in group.turns:
            if group.ordered and not turn.now:
                continue  # a place in an order, not (yet) the one to act
            member = players.get(turn.who)
            if member is None:
                continue
            # what it waits for, without the details in brackets that change while it waits
            # (an assist adds a die to an open test: still the same test to roll)
            what = re.sub(DETAILS, "", turn.what)
            about = f"turn {group.title}: {turn.who}, {what}, {'now' if turn.now else 'owed'}"
            if group.ordered:  # the one to act now
                yield about, member, f"{turn.who}'s turn: {turn.what} ({group.title})"
            else:
                yield about, member, f"{turn.who}: {turn.what} ({group.title})"


# --- Posts and disputes ------------------------------------------------------------------------


def _posts(campaign: CampaignState, logged: list[LoggedRuling]) -> Iterator[Notice]:
    for entry in logged:
        for post in (r.event for r in entry.standing if isinstance(r.event, PostWritten)):
            from projections.post_text import with_rolls

            text = plain_text(with_rolls(post.text, post.rolls))
            if len(text) > EXCERPT:
                text = text[: EXCERPT - 1].rstrip() + "…"
            who = _speaker(post)
            for member in post.to:
                if member == post.by:
                    continue
                number = entry.ruling.number
                line = f"#{number} {who} wrote to you privately: {text}"
                yield Notice(
                    member=member, kind=PRIVATE, ruling=number, line=line, about=f"private {number}"
                )


def _speaker(post: PostWritten) -> str:
    if post.kind in (PostKind.CHARACTER, PostKind.NPC) and post.speaker:
        return f"{post.speaker} ({post.by})"
    return post.by


def _disputes(campaign: CampaignState, logged: list[LoggedRuling]) -> Iterator[Notice]:
    by_number = {d.number: d for d in campaign.disputes}
    gms = [m.name for m in campaign.seats if m.role is Role.GM]
    for entry in logged:
        number = entry.ruling.number
        for event in (r.event for r in entry.standing):
            if isinstance(event, RulingDisputed):
                line = f"#{number} {event.by} disputes ruling {event.ruling}: {event.reason}"
                for gm in gms:
                    about = f"disputed {event.dispute}"
                    yield Notice(member=gm, kind=DISPUTE, ruling=number, line=line, about=about)
            elif isinstance(event, DisputeResolved):
                dispute = by_number.get(event.dispute)
                if dispute is None:
                    continue
                line = (
                    f"#{number} your dispute of ruling {event.ruling} was resolved: "
                    f"{event.outcome.value} ({event.reason})"
                )
                about = f"resolved {event.dispute}"
                yield Notice(member=dispute.by, kind=DISPUTE, ruling=number, line=line, about=about)
