"""Signing members in to the table server: the GM invites a member (a one-time link) or mints a
bot's bearer token; opening the link gives a browser session. ``Access`` is a base of
``Engine`` (``engine.application.engine``); the secrets are kept hashed beside the store
(``engine.application.access_secrets``).

Every secret is ``secrets.token_urlsafe(32)`` (256 bits), shown once and kept only as its
SHA-256. A credential names one campaign and one member; it signs in only while that member has
a seat (removing the member revokes everything they hold). What a signed-in member may do and
read is the table's policy and visibility, as for ``--as`` on the command line.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from uuid import UUID

from attrs import frozen

from domain.errors import DomainError, ErrorKind
from domain.plain import Plain
from domain.policy import acting_member, check_gm
from engine.application.core import Store

if TYPE_CHECKING:  # the secrets table loads with its first use (a roll uses none)
    from engine.application.access_secrets import AccessSecrets, Grant

INVITE_LIFETIME = timedelta(days=7)
DISCORD = "discord"  # the kind of a one-time code a Discord account joins with
SESSION_LIFETIME = timedelta(days=30)
NOBODY = UUID(int=0)  # the campaign of the store's own keys (the server's CSRF key)
# Where the store's servers are reached, kept as settings: the address `campaign serve
# --public-url` gave, and the one a server of the store last listened on.
PUBLIC_ADDRESS, LISTENING_ADDRESS = "server-setting:public-url", "server-setting:listening-url"


class NotSignedIn(DomainError):
    kind = ErrorKind.NOT_SIGNED_IN
    template = "not signed in: {why} (the GM gives a link: `campaign member invite NAME`)"


class InvalidServerAddress(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{address!r} is not an address a browser opens the table server at: give "
        "http(s)://HOST[:PORT], as the players type it"
    )


def server_address_of(url: str) -> str:
    """``url`` as the base of the server's links (``https://HOST[:PORT]``, no trailing slash),
    or ``INVALID_SERVER_ADDRESS``: an http or https address of a host, with no path (the pages
    link from the server's root), query, fragment or password."""
    base = url.strip().rstrip("/")
    shown = re.sub(r"//[^/]*@", "//***@", url)  # a password typed in it is not repeated
    try:
        parts = urlsplit(base)
        port = parts.port
    except ValueError:  # a port out of range, a broken IPv6 address
        raise InvalidServerAddress(address=shown) from None
    usual = base.isprintable() and " " not in base and parts.scheme in ("http", "https")
    if not (usual and parts.hostname and port != 0) or parts.path or parts.query:
        raise InvalidServerAddress(address=shown)
    if parts.fragment or "@" in parts.netloc:
        raise InvalidServerAddress(address=shown)
    return base


@frozen(kw_only=True)
class ServerAddress(Plain):
    """Where the players' browsers reach the store's table server, the base of the links
    `member invite` prints: ``url``; ``public`` when `campaign serve --public-url` gave it,
    else it is the address a server of the store last listened on."""

    url: str
    public: bool


@frozen(kw_only=True)
class SignedIn(Plain):
    """Who a credential signs in: a member of a campaign (by its name), by what ``kind`` of
    credential (``session`` or ``token``); ``session`` is a new session's secret (sign-in
    only); ``credential`` names the credential (its SHA-256 as kept, not the secret: what
    ``still_signed_in`` asks about later)."""

    campaign: str
    member: str
    kind: str
    session: str = ""
    expires: datetime | None = None  # the new session's end
    credential: str = ""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def grant_of(**fields: Any) -> Grant:
    """A row of the secrets table (its module loads with the table's first use)."""
    from engine.application.access_secrets import Grant

    return Grant(**fields)


class Access(Store):
    """The sign-in uses of the application API (see the module docstring)."""

    _access: AccessSecrets | None = None

    @property
    def access(self) -> AccessSecrets:
        """The secrets table, made the first time a sign-in use needs it."""
        if self._access is None:
            from engine.application.access_secrets import access_for

            self._access = access_for(self.db, self.store)
        return self._access

    def _grant(self, campaign_name: str, member: str, actor: str | None, kind: str) -> str:
        campaign = self.campaign(campaign_name)
        check_gm(campaign, actor or campaign.gm, f"give {member} a sign-in {kind}")
        acting_member(campaign, member)  # a name with no seat is refused NOT_A_MEMBER
        secret = secrets.token_urlsafe(32)
        lifetime = INVITE_LIFETIME if kind in ("invite", DISCORD) else None
        expires = self.ledger.now() + lifetime if lifetime else None
        grant = grant_of(
            digest=digest(secret), kind=kind, campaign=campaign.id, member=member, expires=expires
        )
        self.access.put(grant)
        return secret

    def invite(self, campaign_name: str, member: str, *, actor: str | None = None) -> str:
        """A one-time sign-in secret for ``member`` (the GM's call), good for a week: the link
        a browser opens once to start a session."""
        return self._grant(campaign_name, member, actor, "invite")

    def discord_invite(self, campaign_name: str, member: str, *, actor: str | None = None) -> str:
        """A one-time code for ``member`` (the GM's call), good for a week: ``/join CODE`` in
        a channel that plays the campaign links the Discord account that types it to them."""
        return self._grant(campaign_name, member, actor, DISCORD)

    def joined(self, secret: str) -> tuple[str, str]:
        """Spend a Discord code: its campaign's name and its member (``NOT_SIGNED_IN`` when it
        is unknown, used, expired, or its member lost their seat)."""
        grant = self.access.take(digest(secret), DISCORD)
        found = None if grant is None else self._seated(grant)
        if grant is None or found is None:
            raise NotSignedIn(why="this code is unknown, used already, or expired")
        return found, grant.member

    def token(self, campaign_name: str, member: str, *, actor: str | None = None) -> str:
        """A bearer token for ``member`` (the GM's call; a bot's), good until the member is
        removed."""
        return self._grant(campaign_name, member, actor, "token")

    def sign_in(self, secret: str) -> SignedIn:
        """Spend a one-time invite: a new session's secret for its member."""
        grant = self.access.take(digest(secret), "invite")
        if grant is None:
            raise NotSignedIn(why="this sign-in link is unknown or was used already")
        found = self._seated(grant)
        if found is None:
            raise NotSignedIn(why="this sign-in link has expired or its member has no seat")
        session = secrets.token_urlsafe(32)
        expires = self.ledger.now() + SESSION_LIFETIME
        self.access.put(
            grant_of(
                digest=digest(session),
                kind="session",
                campaign=grant.campaign,
                member=grant.member,
                expires=expires,
            )
        )
        return SignedIn(
            campaign=found, member=grant.member, kind="session", session=session, expires=expires
        )

    def invited(self, secret: str) -> SignedIn | None:
        """Whom a one-time invite would sign in, its campaign and member, without spending it
        (None: unknown, used, expired, or its member has no seat)."""
        grant = self.access.get(digest(secret))
        if grant is None or grant.kind != "invite":
            return None
        found = self._seated(grant)
        if found is None:
            return None
        return SignedIn(campaign=found, member=grant.member, kind="invite", expires=grant.expires)

    def who(self, secret: str) -> SignedIn | None:
        """Whom a session's secret or a bearer token signs in (None: nobody)."""
        grant = self.access.get(digest(secret))
        if grant is None or grant.kind not in ("session", "token"):
            return None
        found = self._seated(grant)
        if found is None:
            return None
        return SignedIn(
            campaign=found, member=grant.member, kind=grant.kind, credential=grant.digest
        )

    def still_signed_in(self, credentials: Collection[str]) -> set[str]:
        """Those of ``credentials`` (``SignedIn.credential``s) that still sign in: kept (not
        revoked, signed out or gone with their member's seat) and not expired. One indexed
        query for them all, however many."""
        now = self.ledger.now()
        kept = self.access.kept(credentials)
        return {d for d, expires in kept.items() if expires is None or expires > now}

    def sign_out(self, secret: str) -> None:
        """End a browser session (its secret no longer signs anyone in)."""
        self.access.take(digest(secret), "session")

    def revoke(self, campaign_name: str, member: str, *, actor: str | None = None) -> int:
        """Revoke every invite, session and token of ``member`` (the GM's call); how many."""
        campaign = self.campaign(campaign_name)
        check_gm(campaign, actor or campaign.gm, f"revoke {member}'s sign-ins")
        return self.access.revoke(campaign.id, member)

    def server_key(self, name: str) -> str:
        """A random key the store's servers share (the CSRF tokens' HMAC key): made once, by
        whichever server asks first. A key, not a credential: it signs nobody in."""
        key = f"server-key:{name}"
        self.access.put(
            grant_of(digest=key, kind="key", campaign=NOBODY, member=secrets.token_hex(32))
        )
        kept = self.access.get(key)
        assert kept is not None
        return kept.member

    def keep_server_address(self, url: str, *, public: bool) -> ServerAddress:
        """Remember where the store's server is reached (``INVALID_SERVER_ADDRESS`` for what
        no browser opens): the public address (`campaign serve --public-url`), or the one a
        server listens on, used only while no public one is kept."""
        kept = ServerAddress(url=server_address_of(url), public=public)
        name = PUBLIC_ADDRESS if public else LISTENING_ADDRESS
        self.access.replace(grant_of(digest=name, kind="setting", campaign=NOBODY, member=kept.url))
        return kept

    def server_address(self) -> ServerAddress | None:
        """Where the store's server is reached: the public address kept, else the one a server
        of the store last listened on, else None."""
        for name, public in ((PUBLIC_ADDRESS, True), (LISTENING_ADDRESS, False)):
            kept = self.access.get(name)
            if kept is not None and kept.kind == "setting":
                return ServerAddress(url=kept.member, public=public)
        return None

    def _seated(self, grant: Grant) -> str | None:
        """The campaign's name when the grant still holds: not expired, its member seated. A
        member who lost their seat loses every grant they held."""
        if grant.expires is not None and grant.expires <= self.ledger.now():
            return None
        entry = next((e for e in self._found.values() if e.campaign_id == grant.campaign), None)
        if entry is None:  # an entry, once registered, never changes: looked up once
            campaigns = self.directory().campaigns
            entry = next((e for e in campaigns if e.campaign_id == grant.campaign), None)
            if entry is None:
                return None
            self._found[entry.name] = entry
        if self.campaign(entry.name).member(grant.member) is None:
            self.access.revoke(grant.campaign, grant.member)
            return None
        return entry.name
