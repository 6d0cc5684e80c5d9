"""Each session's seal, posted by the app in every Discord channel linked to its campaign as
soon as the store records it (whatever recorded it: the table page, the API, a slash command,
`campaign session end` on the same store): a public witness of the log the GM does not write.
The message holds the head of the log at the session's end as a witness statement (unsigned:
the app has no key of a member's; ``engine.audit.witness``), which a member copies into a file
for `campaign witness import` or `campaign verify --witness`.

A server process looks at the store's position every ``POLL`` seconds (one indexed read, on a
pooled connection it does not keep: the live pages' listener holds the one a process keeps) in a
thread of its own, started when the bot's token is set (``CAMPAIGN_DISCORD_TOKEN``), and posts
through the app's webhook of the channel (``web.discord.voices``). Several processes on one
store post each seal once: the post is claimed in the store first (``Engine.answer_once``). A
seal recorded while no server ran is not posted later."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from domain.links import DISCORD
from engine import APP, Head, Statement, witness_stamp
from web.discord import direct, voices

if TYPE_CHECKING:
    from web.engines import Engines

log = logging.getLogger(__name__)
KEPT_FOR = timedelta(days=3650)  # a seal posted is never posted again
POLL = 1.0  # seconds between looks at the store's position


def statement(head: Head, channel: str) -> Statement:
    """The app's statement of ``head``, seen now in ``channel``."""
    return Statement(head=head, at=witness_stamp(), by=APP, seen=f"the Discord channel {channel}")


def message(head: Head, channel: str) -> dict[str, Any]:
    """The seal's message: the session, its seal and the head, and the statement to keep."""
    return {
        "content": (
            f"**{head.name}: session {head.session} sealed.** Seal `{head.seal}`; the log's "
            f"head, ruling {head.ruling}: `{head.link}`, every stream's `{head.digest}`.\n"
            "A witness of the log: copy this message into a file, then `campaign witness "
            "import FILE` (or `campaign verify --witness FILE`).\n"
            f"```json\n{statement(head, channel).line()}\n```"
        )
    }


def post(engine: Any, head: Head) -> list[str]:
    """Post the seal of ``head`` in each Discord channel linked to its campaign (once, whatever
    process asks); the channels it was posted in now."""
    channels = [c for p, c in engine.campaign(head.name).channels if p == DISCORD]
    posted = []
    for channel in channels:
        key = f"discord seal {head.campaign} {head.session} {channel}"
        sent: list[str] = []

        def send(channel: str = channel, sent: list[str] = sent) -> str:
            answer = voices.app_post(channel, message(head, channel))
            sent.append(channel)
            return str((answer or {}).get("id", ""))

        try:
            engine.answer_once(key, send, kept_for=KEPT_FOR)
        except Exception:
            log.exception("session %s's seal could not be posted in %s", head.session, channel)
        posted += sent
    return posted


class SealPoster:
    """The thread that follows the store and posts each new seal (``start``, ``stop``)."""

    def __init__(self, engines: Engines, poll: float = POLL) -> None:
        self.engines = engines
        self.poll = poll
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not direct.can_send() or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._follow, name="campaign-seals", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _follow(self) -> None:
        last: int | None = None
        while not self._stop.is_set():
            try:
                engine = self.engines.get()
                position = engine.store_position()
                if last is not None and position > last:
                    for head in engine.seals_recorded(last, position):
                        post(engine, head)
                last = position
            except Exception:  # the store failed: say so, look again at the next turn
                log.exception("looking for new seals to post failed; trying again")
            self._stop.wait(self.poll)
