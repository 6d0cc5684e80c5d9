"""A local SMTP server for the notices' mail (aiosmtpd on 127.0.0.1, a free port): it keeps
every mail it is given, as the recipients and the parsed message."""

from __future__ import annotations

import email
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller
from attrs import define, field


@define
class Mail:
    to: tuple[str, ...]
    message: EmailMessage

    @property
    def text(self) -> str:
        body = self.message.get_body(("plain",))
        assert body is not None
        return str(body.get_content())


@define
class Inbox:
    host: str = "127.0.0.1"
    port: int = 0
    mails: list[Mail] = field(factory=list)
    _lock: threading.Lock = field(factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(parsed, EmailMessage)
        with self._lock:
            self.mails.append(Mail(tuple(envelope.rcpt_tos), parsed))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Mail]:
        return [m for m in self.mails if address in m.to]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    """The server, listening until the block ends."""
    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname=inbox.host, port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
