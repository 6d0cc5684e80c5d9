"""The server's notices: after each ruling, whoever the table now waits on is told (``Engine
.notices``: their turn, a roll or adaptation owed, a private post to them, a dispute resolved or
filed), where they chose (``Engine.notice_choices``): a mention of their Discord account in the
campaign's channel for what the table may read, a direct message for what it may not, and a mail
at most every few minutes to the address they gave.

A process learns of new rulings from the store as the live pages do (``engine.store_changes``:
LISTEN on PostgreSQL, a short poll of a SQLite file), whichever process recorded them, and then
claims each campaign's new rulings in the store (``Engine.claim_notices``): of the server
processes of one store exactly one tells what a ruling leaves waiting, the others nothing. The
mails are claimed the same way (``Engine.due_mail``). Nothing is kept in the process.

``tell`` and ``mail`` do the work of one turn and may be called directly (tests do); ``start``
runs them in two threads of their own: one follows the store, one tells and mails."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from attrs import define, field

from domain.audience import TABLE, Member
from domain.links import DISCORD
from engine import Digest, Engine, Notice, store_changes
from web.discord.direct import DM
from web.notify import discord, mail
from web.notify.settings import NoticeSettings

log = logging.getLogger("campaign.notices")
TICK = 20.0  # seconds between looks at the mail due while the store is quiet
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
        poll: float = 0.25,
        tick: float = TICK,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.poll = poll
        self.tick = tick
        self._due = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # --- Threads -------------------------------------------------------------------------------

    def start(self) -> None:
        if self._threads:
            return
        for name, target in (("notice-watcher", self._watch), ("notices", self._work)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        self._due.set()
        threads, self._threads = self._threads, []
        for thread in threads:
            thread.join(timeout=3)

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                for _ in store_changes(self.engine(), self._stop, poll=self.poll):
                    self._due.set()
            except Exception:  # a lost connection: say so, wait, listen again
                log.exception("watching the store for notices failed; trying again")
                self._stop.wait(1.0)

    def _work(self) -> None:
        while not self._stop.is_set():
            self._due.wait(self.tick)
            self._due.clear()
            if self._stop.is_set():
                return
            try:
                self.tell()
                self.mail()
            except Exception:  # the store or a server failed: say so, try at the next turn
                log.exception("telling the table's notices failed; trying again")

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
        what was told, by campaign."""
        engine = self.engine()
        told = {}
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
        in_discord = discord.can_send()
        reached = {}  # member -> (their choices, their Discord account if they are told there)
        for seat in campaign.seats:
            choices = engine.notice_choices(name, seat.name)
            account = campaign.account_of(DISCORD, seat.name)
            account = account if in_discord and choices.discord else None
            if choices.kinds and (choices.email or account):
                reached[seat.name] = (choices, account)
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
            if account is None:
                continue
            private: list[Notice] = []
            for notice in mine:
                if notice.about in public:
                    mentions.append((account, notice))
                elif notice.kind != PRIVATE or engine.told_once(name, notice.ruling, member, DM):
                    private.append(notice)
            if private:
                told.direct[member] = private
                self._direct(account, discord.direct_message(name, private, self._link(name)))
        if mentions and channel is not None:
            told.channel = discord.mentions(name, mentions, self._link(name))
            self._channel(channel, told.channel)
        return told

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
