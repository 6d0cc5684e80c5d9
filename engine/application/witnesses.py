"""Witnesses: the head of a campaign's log as a member is shown it (the pages show it, a
member's browser and CLI keep it, signed), the log's heads at the versions a witness holds, and
the check of the log against witness statements (``engine.audit.witnessed``). ``Witnesses`` is a
base of ``Engine`` (``engine.application.engine``).

A member is shown the head at the latest ruling they may read: a link is a hash over the
stored bytes, so the head just after a hidden ruling, beside the one just before it, would let
them test guesses of the hidden ruling's bytes (docs/dice-and-trust.md, "Witnesses")."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING
from uuid import UUID

from domain.audience import Audience
from domain.events import RulingMade
from domain.visibility import hidden_from
from engine.application.core import Store
from engine.store.records import DIRECTORY_ID

if TYPE_CHECKING:
    from domain.campaign import DirectoryEntry
    from engine.audit.witness import Head, Statement
    from engine.audit.witnessed import HeadWalk, Links, WitnessCheck
    from engine.store.streams import Streams

MOST_ASKED = 1000  # versions asked for at once (``heads_at``)
BACK = 64  # headers read at once, walking back to the latest a member may read


class Witnesses(Store):
    """The uses ``witness_head``, ``heads_at`` and ``check_witnesses`` (see the module
    docstring)."""

    _live: LiveHeads | None = None

    def witness_head(self, campaign_name: str, *, audience: Audience) -> Head:
        """The head of the campaign's log as ``audience`` is shown it: at the latest ruling
        they may read, the campaign stream's version and link there, the digest over every
        stream's head there and the last seal before it. Kept between calls and caught up
        from the headers recorded since (one read of the last header's row when none was)."""
        entry = self.find_campaign(campaign_name)
        hidden = hidden_from(self.campaign(campaign_name), audience)
        if self._live is None:
            self._live = LiveHeads(self.streams)
        return self._live.head(entry, hidden)

    def heads_at(
        self, campaign_name: str, versions: Iterable[int], *, audience: Audience
    ) -> dict[int, Head | str]:
        """The log's head at each of ``versions`` of the campaign stream (at most
        ``MOST_ASKED``), as a witness compares it, or why there is none: past the stream's end,
        no ruling's header there, or a ruling ``audience`` may not read."""
        from engine.audit.rows import StoreRows
        from engine.audit.witnessed import heads_at

        entry = self.find_campaign(campaign_name)
        hidden = hidden_from(self.campaign(campaign_name), audience)
        asked = sorted(set(versions))[:MOST_ASKED]
        rows = StoreRows(self.store.recorder)
        found = heads_at(rows, entry.campaign_id, entry.name, asked)
        return {
            version: f"it holds ruling {head.ruling}, which you may not read"
            if not isinstance(head, str) and head.ruling in hidden
            else head
            for version, head in found.items()
        }

    def check_witnesses(self, campaign_name: str, statements: Iterable[Statement]) -> WitnessCheck:
        """Whether the log holds every head the ``statements`` of this campaign hold; the
        first it no longer holds is its fork (``engine.audit.witnessed``). Like ``verify``, it
        names places and heads, never what a ruling holds."""
        from engine.audit.rows import StoreRows
        from engine.audit.witnessed import check_witnesses

        entry = self.find_campaign(campaign_name)
        rows = StoreRows(self.store.recorder)
        return check_witnesses(rows, entry.campaign_id, entry.name, statements)

    def store_position(self) -> int:
        """The store's position: the notification id of the last event it recorded (0: none),
        one indexed read (``engine.application.store_changes``)."""
        from engine.application.store_changes import position

        return position(self)  # type: ignore[arg-type]  # a base of Engine

    def seals_recorded(self, after: int, upto: int) -> list[Head]:
        """The head at each session's end whose seal the store recorded after position
        ``after`` up to ``upto`` (its notification ids), in order, of any campaign: what the
        app posts to a campaign's linked channels (``web.discord.seals``). A session's end is
        read by the whole table: its head is nobody's secret."""
        from engine.audit.chain import SEALED
        from engine.audit.rows import StoreRows
        from engine.audit.witness import Head
        from engine.audit.witnessed import heads_at
        from engine.store.recorders import stream_id

        recorder = self.store.recorder
        rows = StoreRows(recorder)
        names = {e.campaign_id: e.name for e in self.directory().campaigns}
        found = []
        start = after
        while start < upto:
            page = recorder.select_notifications(
                start, BACK, stop=upto, topics=[SEALED], inclusive_of_start=False
            )
            for row in page:
                campaign = stream_id(row.originator_id)
                if campaign in names:
                    version = row.originator_version + 1  # its ruling's header
                    head = heads_at(rows, campaign, names[campaign], [version])[version]
                    if isinstance(head, Head):
                        found.append(head)
            if len(page) < BACK:
                break
            start = page[-1].id
        return found


class LiveHeads:
    """Each campaign's ``HeadWalk`` kept between calls (one engine serves a server's threads:
    a lock keeps it whole), caught up from the headers and seals recorded since."""

    def __init__(self, streams: Streams) -> None:
        self.streams = streams
        self._lock = threading.Lock()
        self._walks: dict[UUID, HeadWalk] = {}
        self._links: Links | None = None

    def head(self, entry: DirectoryEntry, hidden: frozenset[int]) -> Head:
        from engine.audit.rows import StoreRows
        from engine.audit.witnessed import WALKED, HeadWalk, Links, link_at

        campaign = entry.campaign_id
        rows = StoreRows(self.streams.store.recorder)
        with self._lock:
            walk = self._walks.get(campaign)
            moved = walk is not None and link_at(rows, campaign, walk.version) != walk.link
            if walk is None or (walk.version and moved):  # new, or rewritten under it
                walk = self._walks[campaign] = HeadWalk(campaign, entry.name)
            if self._links is None:
                self._links = Links(rows)
            for row in rows.picked(campaign, WALKED, gt=walk.version):
                walk.feed(row)
            return self._readable(walk, self._links, hidden)

    def _readable(self, walk: HeadWalk, links: Links, hidden: frozenset[int]) -> Head:
        """The head at the latest ruling not in ``hidden``: the other streams' heads there are
        those walked, less what the later rulings wrote (each stream's head goes back to just
        before the first version they wrote to it)."""
        from engine.audit.witnessed import make_head

        if walk.ruling not in hidden:
            return walk.head(links)
        back: dict[UUID, int] = {}
        lte = walk.version
        while lte > 0:
            page = self.streams.records_desc(walk.campaign, limit=BACK, lte=lte)
            for record in page:
                lte = record.originator_version - 1
                made = record.event
                if not isinstance(made, RulingMade):
                    continue
                if made.number not in hidden:
                    ends = {s: back.get(s, v + 1) - 1 for s, v in walk.ends.items()}
                    at = (record.originator_version, record.chain, made.number)
                    return make_head(walk, links, ends, at)
                for span in made.touched:
                    if span.stream not in (walk.campaign, DIRECTORY_ID):
                        back[span.stream] = min(back.get(span.stream, span.first), span.first)
            if not page:
                break
        return walk.head(links)  # no ruling they may read: ruling 1 (init) is everyone's
