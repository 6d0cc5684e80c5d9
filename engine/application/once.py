"""Requests answered once: a front end that may hear the same request again (Discord's
interactions, each with its id) runs it the first time and gives every copy that reply
(``engine.application.replies`` keeps them beside the store). ``Once`` is a base of
``Engine`` (``engine.application.engine``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from domain.errors import DomainError
from engine.application.core import Store

if TYPE_CHECKING:  # the replies table loads with its first use (a roll uses none)
    from engine.application.replies import Replies

KEPT_FOR = timedelta(days=1)  # how long a reply is kept for the copies of its request


class StillAnswering(DomainError):
    template = (
        "this request ({key}) was run once already and its reply is not kept (it is still"
        " running, or it failed): it is not run again"
    )


class Once(Store):
    """The use ``answer_once`` (see the module docstring)."""

    _replies: Replies | None = None

    @property
    def replies(self) -> Replies:
        """The replies table, made the first time it is needed."""
        if self._replies is None:
            from engine.application.replies import replies_for

            self._replies = replies_for(self.db, self.store)
        return self._replies

    def answer_once(
        self, key: str, answer: Callable[[], str], *, kept_for: timedelta = KEPT_FOR
    ) -> str:
        """The reply to the request ``key``: ``answer()`` the first time it is asked (kept
        ``kept_for``), the reply kept for every copy after (``answer`` not called again). A copy
        arriving while the first still runs, or after it failed, is refused
        ``STILL_ANSWERING``: a request whose reply is not known is never run twice."""
        now = self.ledger.now()
        if not self.replies.claim(key, now, now - kept_for):
            kept = self.replies.reply(key)
            if kept is None:
                raise StillAnswering(key=key[:80])
            return kept
        reply = answer()
        self.replies.keep(key, reply)
        return reply
