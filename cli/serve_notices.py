"""`campaign serve`'s options for notices (``web.notify``): the mail server, how often a member
may be mailed, and the address the links of a notice open."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from cli.context import WHOLE_NUMBER

OPTIONS = (
    click.option(
        "--smtp-host",
        envvar="CAMPAIGN_SMTP_HOST",
        help="The mail server digests go through (env CAMPAIGN_SMTP_HOST; its password in "
        "CAMPAIGN_SMTP_PASSWORD). Without it, no mail.",
    ),
    click.option(
        "--smtp-port",
        default=587,
        show_default=True,
        envvar="CAMPAIGN_SMTP_PORT",
        type=WHOLE_NUMBER,
        help="Its port (env CAMPAIGN_SMTP_PORT).",
    ),
    click.option(
        "--smtp-from",
        envvar="CAMPAIGN_SMTP_FROM",
        help="The address the mails come from (env CAMPAIGN_SMTP_FROM).",
    ),
    click.option(
        "--smtp-user",
        default="",
        envvar="CAMPAIGN_SMTP_USER",
        help="The account to sign in to the mail server with (env CAMPAIGN_SMTP_USER).",
    ),
    click.option(
        "--smtp-security",
        type=click.Choice(["starttls", "tls", "none"]),
        default="starttls",
        show_default=True,
        envvar="CAMPAIGN_SMTP_SECURITY",
        help="STARTTLS (port 587), TLS from the start (port 465), or none (a relay on this "
        "machine).",
    ),
    click.option(
        "--mail-every",
        default=15,
        show_default=True,
        envvar="CAMPAIGN_MAIL_EVERY",
        type=click.IntRange(min=1),
        help="Minutes: a member is mailed at most once in this time, everything since the last.",
    ),
    click.option(
        "--notice-url",
        envvar="CAMPAIGN_NOTICE_URL",
        help="The address the links of notices open (default: the server's public address, "
        "else http://HOST:PORT).",
    ),
)


def notice_options(command: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(OPTIONS):
        command = option(command)
    return command


def notice_settings(host: str, port: int, **given: Any) -> Any:
    """The notices' settings (``web.notify.settings.NoticeSettings``) from the options."""
    from web import notice_settings as settings

    return settings(f"http://{host}:{port}", **given)
