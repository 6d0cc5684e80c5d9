"""What an engine reads for a front end: the log, a character's history, recaps and Exposure
timelines, verify, export and import; each read for the audience it names (``audience``:
a member, the GMs or the table, ``domain.audience``), never a default.
``Reads`` is a base of ``Engine`` (``engine.application.engine``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import attrs

from domain.audience import GMS, Audience, GMs
from domain.events import AMEND, RulingMade
from domain.visibility import check_copy_for, check_whole_log, hidden_from, reads_all
from engine.application.core import Store
from engine.store.records import Recorded

if TYPE_CHECKING:  # verify, the log, replay and transfer import theirs when called
    from domain.campaign import CampaignState
    from engine.audit.verify import Report
    from engine.corrections.undo import LoggedRuling
    from engine.reads.indexed import Indexed
    from engine.reads.narration import Narrated
    from engine.reads.recaps import Recaps
    from engine.reads.search import SearchResult
    from engine.reads.timeline import Change as Changed
    from engine.transfer.export_import import Imported
    from projections.dice_stats import FaceCounts
    from projections.thread import Thread
    from projections.views import CampaignTimeline, HeroTimeline, Recap


class Reads(Store):
    """The reads of the application API (see the module docstring)."""

    def verify(self, campaign_name: str) -> Report:
        """Check the campaign's hash chains, ruling ranges and session seals in the stored rows,
        replay its streams, and compare the read models the store keeps with the log. A
        directory that does not decode is named, not raised: the campaign is found in its
        stored bytes."""
        from engine.audit import verify as audit
        from engine.audit.decoding import registered
        from engine.store.campaign_store import StoredEventUnreadable, store_fault

        try:
            campaign_id = self.find_campaign(campaign_name).campaign_id
        except Exception as error:  # a row of the directory that no read decodes
            unreadable = isinstance(store_fault(error, self.db), StoredEventUnreadable)
            found = registered(self.store, campaign_name) if unreadable else None
            if found is None:
                raise
            campaign_id = found
        return audit.verify(self.store, campaign_id, self.read_models)

    def headers(self, campaign_name: str, *, audience: Audience) -> list[Recorded]:
        """Each ruling's header (its ``RulingMade`` in its envelope), in order: the log without
        the rulings' events, read from the campaign stream alone (those ``audience`` may read)."""
        from engine.corrections import undo as rulings

        campaign_id = self.find_campaign(campaign_name).campaign_id
        found = rulings.headers(self.streams.records(campaign_id))
        if isinstance(audience, GMs):
            return found
        campaign = self.campaign(campaign_name)
        if reads_all(campaign, audience):
            return found
        hidden = hidden_from(campaign, audience)
        return [h for h in found if h.ruling not in hidden and not _gm_note(h.event)]

    def log(
        self,
        campaign_name: str,
        *,
        session: int | None = None,
        rulings: Collection[int] | None = None,
        audience: Audience,
    ) -> list[LoggedRuling]:
        """Every ruling in order (only session ``session``'s, only the ``rulings`` numbered, when
        given), with its events, as ``audience`` may read them."""
        from engine.corrections import undo as log

        campaign_id = self.find_campaign(campaign_name).campaign_id
        one_of_them = (session is None) != (rulings is None)
        indexed = self._indexed() if one_of_them else None
        if indexed is not None and session is not None:  # one session: through the index
            logged = indexed.log(campaign_id, session)
        elif indexed is not None and rulings is not None:  # some rulings: through the index
            logged = indexed.log_of(campaign_id, rulings)
        else:
            logged = log.read_log(self.streams, campaign_id, session=session, rulings=rulings)
        return self._as_read_by(campaign_name, audience, logged)

    def iter_log(self, campaign_name: str, *, audience: Audience) -> Iterator[LoggedRuling]:
        """Every ruling in order, as ``log`` gives them, read a page of rulings at a time
        through the ruling index: memory does not grow with the campaign's length."""
        indexed = self._indexed()
        if indexed is None:
            yield from self.log(campaign_name, audience=audience)
            return
        campaign = self.campaign(campaign_name)
        for page in indexed.log_pages(campaign.id, campaign.rulings):
            yield from self._as_read_by(campaign_name, audience, page)

    def _indexed(self) -> Indexed | None:
        """The reads through the ruling index and dice models (None: the store keeps none)."""
        from engine.reads.indexed import indexed

        return indexed(self.read_models, self.streams)

    def _as_read_by(
        self, campaign_name: str, audience: Audience, logged: list[LoggedRuling]
    ) -> list[LoggedRuling]:
        if isinstance(audience, GMs):
            return logged
        from engine.reads.readers import as_read_by

        return as_read_by(self.campaign(campaign_name), audience, logged)

    def history(self, campaign_name: str, ref: str, *, audience: Audience) -> list[Changed]:
        """Every ruling that changed a character, in order, with its events on that character,
        as ``audience`` may read them."""
        from engine.reads import timeline

        campaign = self.campaign(campaign_name)
        indexed = self._indexed()
        if indexed is not None:  # the character's rulings only, found through the index
            changes = indexed.history(campaign, ref)
        else:
            changes = timeline.history(self.streams, campaign, ref)
        if isinstance(audience, GMs):
            return changes
        logged = [c.logged for c in changes]
        shown = {e.ruling.number: e for e in self._as_read_by(campaign_name, audience, logged)}
        return [
            attrs.evolve(c, logged=seen, events=tuple(r for r in c.events if r in seen.events))
            for c in changes
            if (seen := shown.get(c.logged.ruling.number)) is not None
        ]

    def dice_stats(
        self,
        campaign_name: str,
        *,
        session: int | None = None,
        character: str | None = None,
        audience: Audience,
    ) -> list[FaceCounts]:
        """Face counts per die size and source (session ``session``'s rulings only, those that
        touched ``character`` only, when given), of the rulings ``audience`` may read."""
        from projections.dice_stats import tally

        campaign = self.campaign(campaign_name)
        stream = campaign.find(character).character_id if character else None
        indexed = self._indexed()
        if indexed is not None:
            return indexed.dice(campaign, session=session, stream=stream, audience=audience)
        dice = [
            (die, made.provenance)
            for header in self.headers(campaign_name, audience=audience)
            if isinstance(made := header.event, RulingMade) and made.command != AMEND
            if session is None or header.session == session
            if stream is None or any(span.stream == stream for span in made.touched)
            for die in made.dice
        ]
        return tally(dice)

    def ruling_at(
        self,
        campaign_name: str,
        *,
        ruling: int | None = None,
        session: int | None = None,
        time: datetime | None = None,
    ) -> int:
        """The last ruling at a point: a ruling number, the end of session N, or a moment."""
        from engine.reads import timeline

        indexed = self._indexed() if time is None else None
        if indexed is not None:  # a number, a session's end or the latest: no headers read
            campaign = self.campaign(campaign_name)
            if ruling is not None and not 1 <= ruling <= campaign.rulings:
                raise timeline.NoSuchPoint(what=f"ruling {ruling}")
            if session is None:
                return ruling if ruling is not None else campaign.rulings
            end = indexed.session_end(campaign.id, session)
            if end is None:
                raise timeline.NoSuchPoint(what=f"session {session}")
            return end
        made = self.headers(campaign_name, audience=GMS)  # a point in the log, not its text
        return timeline.ruling_at(made, ruling=ruling, session=session, time=time)

    def session_rulings(
        self, campaign_name: str, session: int | None = None, *, audience: Audience
    ) -> list[LoggedRuling]:
        """The rulings of one session (default: the latest session), in order, as ``audience``
        may read them."""
        from engine.reads import timeline

        campaign_id = self.find_campaign(campaign_name).campaign_id
        indexed = self._indexed()
        if indexed is None:
            chosen = timeline.session_rulings(self.streams, campaign_id, session)
        else:  # the session's rulings only, through the index
            wanted = session if session is not None else self._latest_session(campaign_id)
            chosen = indexed.log(campaign_id, wanted)
            if not chosen:
                raise timeline.NoSuchPoint(what=f"session {wanted}")
        return self._as_read_by(campaign_name, audience, chosen)

    def thread(
        self, campaign_name: str, session: int | None = None, *, audience: Audience
    ) -> Thread:
        """A session's thread (default: the latest): its posts and rulings in order, as
        ``audience`` may read them (``projections.thread``)."""
        from projections.thread import build_thread

        campaign = self.campaign(campaign_name)
        number = session if session is not None else self._latest_session(campaign.id)
        logged = self.session_rulings(campaign_name, number, audience=audience)
        return build_thread(campaign, logged, number)

    def _latest_session(self, campaign_id: UUID) -> int:
        """The latest session any ruling was recorded in (its start may have been undone since),
        read back from the campaign stream's end to the last ruling recorded in a session."""
        from engine.corrections.tail import read_back
        from engine.reads.timeline import NoSuchPoint

        records = read_back(self.streams, campaign_id, lambda found: any(r.session for r in found))
        latest = max((r.session for r in records if r.session), default=None)
        if latest is None:
            raise NoSuchPoint(what="session yet")
        return latest

    def replay(
        self,
        campaign_name: str,
        session: int | None = None,
        *,
        audience: Audience,
        progress: Callable[[int, int], None] | None = None,
    ) -> Iterator[Narrated]:
        """A session ruling by ruling (default: the latest), each with the states after it of
        the characters it touched, as corrected since; each character's stream read once.
        ``progress(done, total)`` hears of each ruling narrated."""
        campaign = self.campaign(campaign_name)
        logged = self.session_rulings(campaign_name, session, audience=audience)
        narrated_rulings = self._narrated(campaign_name, campaign, logged, audience)
        for done, narrated in enumerate(narrated_rulings, 1):
            yield narrated
            if progress is not None:
                progress(done, len(logged))

    def _narrated(
        self,
        campaign_name: str,
        campaign: CampaignState,
        logged: list[LoggedRuling],
        audience: Audience,
    ) -> Iterator[Narrated]:
        from engine.reads.narration import Narrated, narrate

        if not hidden_from(campaign, audience):
            evolve = self.ruleset(campaign).evolve_character
            yield from narrate(
                self.streams, logged, {e.character_id: evolve for e in campaign.roster}
            )
            return
        names = {e.character_id: e.name for e in campaign.roster}
        for entry in logged:  # a reader kept from some rulings: each state as they may know it
            events = entry.standing
            after = {
                r.originator_id: self.character_at(
                    campaign_name,
                    names[r.originator_id],
                    ruling=entry.ruling.number,
                    corrected=True,
                    audience=audience,
                )
                for r in events
                if r.originator_id in names
            }
            yield Narrated(entry, after)

    # --- Recaps and timelines (the projections' read models) --------------------------------

    @property
    def recaps(self) -> Recaps:
        from engine.reads.recaps import Recaps

        return Recaps(self.read_models)

    def recap(
        self,
        campaign_name: str,
        session: int | None = None,
        *,
        gm: bool = False,
        audience: Audience,
    ) -> Recap:
        """A session's recap (default: the latest) as plain data, as ``audience`` may read it;
        ``gm`` keeps the GM-only notes (a GM's copy, never for a player)."""
        campaign = self.campaign(campaign_name)
        hidden = hidden_from(campaign, audience)  # none for a GM
        everything = reads_all(campaign, audience)
        return self.recaps.session(campaign, session, gm=gm and everything, hidden=hidden)

    def hero_timeline(self, campaign_name: str, ref: str, *, audience: Audience) -> HeroTimeline:
        """One hero's Exposure reveal timeline (The Code) as plain data, as ``audience`` may
        read it."""
        campaign = self.campaign(campaign_name)
        return self.recaps.hero(campaign, ref, hidden_from(campaign, audience))

    def campaign_timelines(self, campaign_name: str, *, audience: Audience) -> CampaignTimeline:
        """Every hero's Exposure timeline in a campaign of The Code, as plain data."""
        campaign = self.campaign(campaign_name)
        return self.recaps.campaign(campaign, hidden_from(campaign, audience))

    def search(
        self,
        campaign_name: str,
        query: str,
        *,
        audience: Audience,
        character: str | None = None,
        session: int | None = None,
        limit: int = 20,
        before: int | None = None,
    ) -> SearchResult:
        """The texts written into the campaign that hold every word of ``query``, newest first,
        as ``audience`` may read them (``engine.reads.search``)."""
        from engine.reads.search import search

        return search(
            self,
            campaign_name,
            query,
            audience=audience,
            character=character,
            session=session,
            limit=limit,
            before=before,
        )

    def catch_up(self, model: str, progress: Callable[[int, int], None] | None = None) -> int:
        """Bring read model ``model`` (``recaps``, ``exposure``) up to the end of the log; how
        many events it processed. Reads catch up by themselves: this is for a worker."""
        from engine.reads.recaps import MODELS

        return self.read_models.catch_up(MODELS[model], progress=progress)

    def rebuild(self, model: str, progress: Callable[[int, int], None] | None = None) -> int:
        """Throw read model ``model``'s documents away and process the whole log again."""
        from engine.reads.recaps import MODELS

        return self.read_models.rebuild(MODELS[model], progress=progress)

    # --- Moving campaigns between stores ------------------------------------------------------

    def export(self, campaign_name: str, *, audience: Audience) -> Iterator[str]:
        """The campaign as JSON lines (verified first): a header, then every stored event. The
        whole log, hidden rulings and GM-only notes too (a hash chain cannot skip a row): the
        GM's to give, after the session's hidden rulings are revealed."""
        from engine.transfer.export_import import export_lines

        if not isinstance(audience, GMs):
            check_whole_log(self.campaign(campaign_name), audience, "export the whole log")
        entry = self.find_campaign(campaign_name)
        return export_lines(self.store, entry, self.verify(campaign_name), spec=self.db)

    def member_copy(self, campaign_name: str, member: str, *, audience: Audience) -> Iterator[str]:
        """``member``'s own copy of the campaign as JSON lines (``engine.transfer.member_copy``):
        what they may read whole, every other row as its body's digest and its link, so that it
        verifies link by link and seal by seal and its digest is the whole export's. The GMs',
        a GM's or the member's own to take."""
        from engine.transfer.member_copy import copy_lines

        campaign = self.campaign(campaign_name)
        check_copy_for(campaign, audience, member)
        entry = self.find_campaign(campaign_name)
        report = self.verify(campaign_name)
        return copy_lines(self.store, entry, report, campaign, member, spec=self.db)

    def import_campaign(
        self, lines: Iterable[str | bytes], progress: Callable[[int], None] | None = None
    ) -> Imported:
        """Verify an export completely, then write it into this store in one transaction."""
        from engine.transfer.export_import import import_lines

        return import_lines(self.ledger, lines, progress, self.read_models)


def _gm_note(made: Any) -> bool:
    """A GM-only note's ruling in a log written before such rulings were marked the GM's."""
    from projections.dice_model import gm_note

    return gm_note(made)
