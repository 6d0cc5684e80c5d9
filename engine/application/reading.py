"""Where each member stands in the thread: their read position per session, kept beside the
store (``engine.application.read_positions``), moved forward as a page shows them the thread
(``mark_read``), and what is new to them since (``unread``: the campaign list's count, the
table page's marks). ``Reading`` is a base of ``Engine`` (``engine.application.engine``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.audience import Audience, Member
from domain.errors import DomainError, ErrorKind
from domain.policy import acting_member
from engine.application.reads import Reads

if TYPE_CHECKING:
    from engine.application.read_positions import ReadPositions
    from engine.reads.unread import Unread

BEFORE_SESSIONS = 0  # the key of the rulings before the first session


class NoReadPosition(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{audience} keeps no read position: what is new is asked for one member (their seat's name)"
    )


class Reading(Reads):
    """The read positions' uses of the application API (see the module docstring)."""

    _positions: ReadPositions | None = None

    @property
    def read_positions(self) -> ReadPositions:
        """The read positions table, made the first time it is needed."""
        if self._positions is None:
            from engine.application.read_positions import positions_for

            self._positions = positions_for(self.db, self.store)
        return self._positions

    def mark_read(
        self, campaign_name: str, session: int | None, ruling: int, *, member: str
    ) -> int:
        """Keep that ``member`` was shown ``session``'s thread (None: the rulings before the
        first session) up to ruling ``ruling`` (at most the campaign's last); a position never
        moves back. The position kept now. A name with no seat is refused ``NOT_A_MEMBER``."""
        campaign = self.campaign(campaign_name)
        acting_member(campaign, member)
        upto = max(0, min(ruling, campaign.rulings))
        key = session or BEFORE_SESSIONS
        kept = self.read_positions.positions(campaign.id, member).get(key, 0)
        if kept >= upto:  # a page shown again writes nothing
            return kept
        return self.read_positions.mark(campaign.id, member, key, upto)

    def read_position(self, campaign_name: str, session: int | None, *, member: str) -> int:
        """The last ruling of ``session``'s thread ``member`` was shown (0: none yet)."""
        campaign = self.campaign(campaign_name)
        acting_member(campaign, member)
        kept = self.read_positions.positions(campaign.id, member)
        return kept.get(session or BEFORE_SESSIONS, 0)

    def unread(
        self, campaign_name: str, session: int | None = None, *, audience: Audience
    ) -> Unread:
        """What is new to ``audience`` (a member) in a session's thread (default: the latest;
        before the first session, the rulings so far): the entries they may read that others
        recorded after their read position. The GMs and the table keep no position
        (``NO_READ_POSITION``)."""
        from engine.reads.timeline import NoSuchPoint
        from engine.reads.unread import unread_of
        from projections.thread import build_thread

        if not isinstance(audience, Member):
            raise NoReadPosition(audience=str(audience))
        campaign = self.campaign(campaign_name)
        try:
            thread = self.thread(campaign_name, session, audience=audience)
        except NoSuchPoint:
            if session is not None:
                raise
            logged = self.log(campaign_name, audience=audience)
            thread = build_thread(campaign, logged, None)
        read = self.read_position(campaign_name, thread.session, member=audience.name)
        return unread_of(campaign_name, audience.name, thread.session, read, thread.entries)
