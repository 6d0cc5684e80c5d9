"""What `campaign serve` is told about notices (``web.notify``): the mail server a digest goes
through (SMTP), how often a member may be mailed, and the address the links in a notice open."""

from __future__ import annotations

import os
from datetime import timedelta
from urllib.parse import urlsplit

from attrs import field, frozen

from domain.errors import DomainError, ErrorKind

SECURITY = ("starttls", "tls", "none")  # how the SMTP connection is secured
PASSWORD = "CAMPAIGN_SMTP_PASSWORD"  # the SMTP password is read from the environment only


@frozen(kw_only=True)
class MailSettings:
    """The SMTP server digests are sent through: ``host`` and ``port``, the ``sender`` address,
    the account (``user``, ``password``: none for a server that asks none), ``security``
    (``starttls`` upgrades a plain connection, ``tls`` opens one on TLS, ``none`` for a relay on
    the machine itself), and ``every``: a member is mailed at most once in that time."""

    host: str
    sender: str
    port: int = 587
    user: str = ""
    password: str = field(default="", repr=False)  # never in a log line
    security: str = "starttls"
    every: timedelta = timedelta(minutes=15)
    timeout: float = 30.0


@frozen(kw_only=True)
class NoticeSettings:
    """How a server tells members: by mail (``mail``; None: no mail), and in Discord (with the
    bot's token in the environment, as posts in a character's voice are). ``links``: the
    address the links in a notice start with ("": the one the store keeps, `campaign serve
    --public-url`, else the one the server listens on: ``listening``)."""

    mail: MailSettings | None = None
    links: str = ""
    listening: str = "http://127.0.0.1:8000"


class MailNeedsSender(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "--smtp-host {host} needs --smtp-from, the address the mails come from (as the mail"
        " server lets this account send: table@example.org)"
    )


class InvalidNoticeUrl(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{address!r} is not an address the links of a notice can open: give"
        " http(s)://HOST[:PORT], as the players type it"
    )


def mail_settings(
    host: str | None,
    sender: str | None,
    *,
    port: int = 587,
    user: str = "",
    security: str = "starttls",
    every: int = 15,
) -> MailSettings | None:
    """The mail server `campaign serve` was given (None: no ``host``, no mail), its password
    from ``CAMPAIGN_SMTP_PASSWORD``; refused ``MAIL_NEEDS_SENDER`` without a sender."""
    if not host:
        return None
    if not sender or not sender.strip():
        raise MailNeedsSender(host=host)
    return MailSettings(
        host=host,
        sender=sender.strip(),
        port=port,
        user=user,
        password=os.environ.get(PASSWORD, ""),
        security=security,
        every=timedelta(minutes=every),
    )


def links_base(url: str | None) -> str:
    """The address the links of a notice start with ("" when none is given), or
    ``INVALID_NOTICE_URL``."""
    if not url:
        return ""
    base = url.strip().rstrip("/")
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or " " in base:
        raise InvalidNoticeUrl(address=url[:200])
    return base


def notice_settings(
    listening: str,
    *,
    smtp_host: str | None,
    smtp_from: str | None,
    smtp_port: int,
    smtp_user: str,
    smtp_security: str,
    mail_every: int,
    notice_url: str | None,
) -> NoticeSettings:
    """The notices' settings from `campaign serve`'s options (``listening``: the address it
    listens on)."""
    mail = mail_settings(
        smtp_host,
        smtp_from,
        port=smtp_port,
        user=smtp_user,
        security=smtp_security,
        every=mail_every,
    )
    return NoticeSettings(mail=mail, links=links_base(notice_url), listening=listening)
