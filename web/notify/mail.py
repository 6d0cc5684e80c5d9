"""A member's digest as a mail, and its sending through the SMTP server `campaign serve` names
(``MailSettings``): plain text, the notices as the member may read them (each was read for them,
``Engine.notices`` with ``audience=Member(name)``), the links to the table and to their choices,
and a link that stops the mail without signing in, also in the ``List-Unsubscribe`` headers a
mail program shows as its own button (RFC 2369, and RFC 8058's one-click POST)."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote

from engine import Digest
from projections.plain_text import plain_text
from web.notify.settings import MailSettings


def unsubscribe_link(base: str, token: str) -> str:
    return f"{base}/unsubscribe/{token}"


def table_link(base: str, campaign: str) -> str:
    return f"{base}/campaigns/{quote(campaign, safe='')}"


def compose(digest: Digest, sender: str, base: str) -> EmailMessage:
    """The mail of ``digest``, from ``sender``, its links under ``base``."""
    count = len(digest.notices)
    campaign = plain_text(digest.campaign)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = digest.address
    things = "1 thing waits" if count == 1 else f"{count} things wait"
    message["Subject"] = f"{campaign}: {things} on you"
    message["Date"] = formatdate()
    message["Message-ID"] = make_msgid(domain="campaign-log.invalid")
    stop = unsubscribe_link(base, digest.token)
    message["List-Unsubscribe"] = f"<{stop}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"  # no vacation replies (RFC 3834)
    table = table_link(base, digest.campaign)
    lines = [
        f"Hello {plain_text(digest.member)},",
        "",
        f"the table of {campaign} waits on you:",
        "",
        *(f"- {plain_text(n.line)}" for n in digest.notices),
        "",
        f"The table: {table}",
        f"What you are told, and where: {table}/notices",
        f"Stop these mails: {stop}",
        "",
    ]
    message.set_content("\n".join(lines))
    return message


def send(
    digests: Sequence[Digest],
    settings: MailSettings,
    base: str,
    failed: Callable[[Digest], None],
) -> list[Digest]:
    """Mail each of ``digests`` through one connection to the SMTP server; those sent. A
    digest that could not be sent is handed to ``failed`` (kept for the member's next mail)."""
    if not digests:
        return []
    sent: list[Digest] = []
    done: list[Digest] = []  # sent, refused or handed back
    try:
        with _connect(settings) as smtp:
            for digest in digests:
                try:
                    smtp.send_message(compose(digest, settings.sender, base))
                    sent.append(digest)
                except smtplib.SMTPRecipientsRefused:
                    pass  # the server refuses this address: not kept, it would be again
                except smtplib.SMTPException:
                    failed(digest)
                done.append(digest)
    except (OSError, smtplib.SMTPException):
        for digest in digests:
            if digest not in done:
                failed(digest)
        raise
    return sent


def _connect(settings: MailSettings) -> smtplib.SMTP:
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.security == "tls":
        smtp = smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=context
        )
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        if settings.security == "starttls":
            smtp.starttls(context=context)
    if settings.user:
        smtp.login(settings.user, settings.password)
    return smtp
