"""The server's notices: after each ruling, whoever the table now waits on is told (``Engine
.notices``: their turn, a roll or adaptation owed, a private post to them, a dispute resolved or
filed), where they chose (``Engine.notice_choices``): a mention of their Discord account in the
campaign's channel for what the table may read, a direct message for what it may not, and a mail
at most every few minutes to the address they gave.

A process learns of new rulings from the store, whichever process recorded them: once a second
it reads the store's position (``Engine.store_position``, one indexed ``MAX`` on a connection it
gives back at once: no connection is held while it waits, so the pool a server is sized for is
not one smaller), and when it moved claims each campaign's new rulings in the store
(``Engine.claim_notices``): of the server processes of one store exactly one tells what a
ruling leaves waiting, the others nothing. The mails are claimed the same way
(``Engine.due_mail``), looked at every ``TICK`` seconds. Nothing is kept in the process.

``tell`` and ``mail`` do the work of one turn and may be called directly (tests do); ``start``
runs them in a thread of its own."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from attrs import define, field

from domain.audience import TABLE, Member
from domain.links import DISCORD
from engine import Digest, Engine, Notice, NoticeChoices
from web.discord.direct import DM
from web.notify import discord, mail
from web.notify.settings import NoticeSettings

if TYPE_CHECKING:
    from domain.campaign import CampaignState

log = logging.getLogger("campaign.notices")
POLL = 1.0  # seconds between reads of the store's position (one indexed MAX)
TICK = 20.0  # seconds between looks at the mail due
PRIVATE = "private"


@define
class Told:
    """What one turn told (for the log and tests): the channel's messages, the direct messages
    by member, the notices kept for mail by member."""

    channel: list[dict[str, object]] = field(factory=list)
    direct: dict[str, list[Notice]] = field(factory=dict)
    mailed: dict[str, list[Notice]] = field(factory=dict)


class Notifier:
    """The process's teller of notices (see the module docstring), on ``engine()``'s store."""

    def __init__(
        self,
        engine: Callable[[], Engine],
        settings: NoticeSettings,
        *,
        poll: float = POLL,
        tick: float = TICK,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.poll = poll
        self.tick = tick
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- The thread ----------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="notices", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=3)

    def _work(self) -> None:
        seen: int | None = None
        mail_at = 0.0
        while True:
            try:
                moved = self.engine().store_position()
                if moved != seen:
                    self.tell()
                    seen = moved
                if time.monotonic() >= mail_at:
                    mail_at = time.monotonic() + self.tick
                    self.mail()
            except Exception:  # the store or a server failed: say so, try at the next turn
                log.exception("telling the table's notices failed; trying again")
            if self._stop.wait(self.poll):
                return

    # --- One turn ------------------------------------------------------------------------------

    def base(self) -> str:
        """The address the links of a notice start with."""
        if self.settings.links:
            return self.settings.links.rstrip("/")
        kept = getattr(self.engine(), "server_address", None)  # `campaign serve --public-url`
        found = kept() if callable(kept) else None
        url = getattr(found, "url", "")
        return str(url or self.settings.listening).rstrip("/")

    def tell(self) -> dict[str, Told]:
        """Tell what every campaign's new rulings leave waiting (those this process claims);
        what was told, by campaign. The turn reads each stream's head once
        (``Engine.checked_once``): a campaign is loaded for each of its members' choices, and
        on a busy PostgreSQL server those reads were a twentieth of the process's time."""
        engine = self.engine()
        told = {}
        with engine.checked_once():
            for entry in engine.directory().campaigns:
                after = engine.claim_notices(entry.name)
                if after is not None:
                    told[entry.name] = self.tell_campaign(entry.name, after)
        return told

    def tell_campaign(self, name: str, after: int) -> Told:
        """Tell what campaign ``name``'s rulings after ruling ``after`` leave waiting (nothing
        is read for a campaign none of whose members may be told anything)."""
        engine = self.engine()
        campaign = engine.campaign(name)
        reached = _reached(engine, name, campaign)
        told = Told()
        if not reached:
            return told
        channel = next((c for platform, c in campaign.channels if platform == DISCORD), None)
        public: set[str] = set()
        if channel is not None and any(account for _, account in reached.values()):
            public = {n.about for n in engine.notices(name, after=after, audience=TABLE)}
        mentions: list[tuple[str, Notice]] = []
        for member, (choices, account) in reached.items():
            read = engine.notices(name, after=after, audience=Member(member))
            mine = [n for n in read if n.member == member and n.kind in choices.kinds]
            if not mine:
                continue
            if choices.email:  # mailed by whichever process of the store has a mail server
                engine.queue_mail(name, member, mine)
                told.mailed[member] = mine
            if account is not None:
                mentions += self._in_discord(engine, name, (member, account), mine, public, told)
        if mentions and channel is not None:
            told.channel = discord.mentions(name, mentions, self._link(name))
            self._channel(channel, told.channel)
        return told

    def _in_discord(
        self,
        engine: Engine,
        name: str,
        told_to: tuple[str, str],
        mine: list[Notice],
        public: set[str],
        told: Told,
    ) -> list[tuple[str, Notice]]:
        """Tell a member (``told_to``: their name and Discord account) their notices ``mine``
        in Discord: those about what the table may read (``public``) are the mentions returned
        for the channel, the others are sent by direct message (a private post's only once)."""
        member, account = told_to
        mentions: list[tuple[str, Notice]] = []
        private: list[Notice] = []
        for notice in mine:
            if notice.about in public:
                mentions.append((account, notice))
            elif notice.kind != PRIVATE or engine.told_once(name, notice.ruling, member, DM):
                private.append(notice)
        if private:
            told.direct[member] = private
            self._direct(account, discord.direct_message(name, private, self._link(name)))
        return mentions

    def _link(self, campaign: str) -> str:
        return mail.table_link(self.base(), campaign)

    def _channel(self, channel: str, messages: list[dict[str, object]]) -> None:
        try:
            discord.post_mentions(channel, messages)
        except Exception:
            log.exception("the notices could not be posted in channel %s", channel)

    def _direct(self, account: str, messages: list[dict[str, object]]) -> None:
        try:
            discord.send_direct(account, messages)
        except Exception:
            log.exception("the notices could not be sent to account %s by DM", account)

    def mail(self) -> list[Digest]:
        """Send the mails due now (those this process claims); those sent."""
        settings = self.settings.mail
        if settings is None:
            return []
        engine = self.engine()
        due = engine.due_mail(settings.every)
        try:
            return mail.send(due, settings, self.base(), engine.mail_failed)
        except Exception:
            where = f"{settings.host}:{settings.port}"
            log.exception("the mail server %s could not be reached", where)
            return []


def _reached(
    engine: Engine, name: str, campaign: CampaignState
) -> dict[str, tuple[NoticeChoices, str | None]]:
    """The members of campaign ``name`` who may be told anything: their choices, and their
    Discord account if they are told there (and the server can send to Discord)."""
    in_discord = discord.can_send()
    reached = {}
    for seat in campaign.seats:
        choices = engine.notice_choices(name, seat.name)
        account = campaign.account_of(DISCORD, seat.name)
        account = account if in_discord and choices.discord else None
        if choices.kinds and (choices.email or account):
            reached[seat.name] = (choices, account)
    return reached
