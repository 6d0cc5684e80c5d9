"""Telling members what the table waits on them for (``engine.application.waits`` finds it):
what each member chose to be told and where, how far each campaign's notices were claimed, the
notices waiting for a member's next mail, and the links that stop the mail without signing in.
``Notices`` is a base of ``Engine`` (``engine.application.engine``); what it remembers is kept
beside the store (``engine.application.notice_marks``), so the server processes of one store
share it and each notice is claimed by one of them only.

- **Claims.** ``claim_notices`` moves a campaign's mark from the last ruling told to the latest
  in one compare-and-swap: the process that moved it tells what those rulings leave waiting,
  every other process finds nothing to tell. A campaign first seen is marked at its latest
  ruling (its past is not told).
- **Mail.** The notices for a member who gave an address wait in their outbox
  (``notice_outbox``); ``due_mail`` takes those of each member last mailed ``every`` or longer
  ago (claimed, again, by swapping the time of their last mail) once the oldest has waited a
  minute: a digest, never a mail per notice.
- **Unsubscribing.** A mail's link carries the campaign, the member and the address, signed
  with HMAC-SHA256 under a key kept in the store (``server_key``); it clears that address."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from collections.abc import Collection
from datetime import timedelta
from typing import TYPE_CHECKING
from uuid import UUID

import attrs
from attrs import frozen

from domain.audience import Audience
from domain.campaign import CampaignState
from domain.errors import DomainError, ErrorKind
from domain.plain import Plain
from domain.policy import acting_member, check_gm
from engine.application.access import Access
from engine.application.once import Once
from engine.application.waits import NOTICE_KINDS, Notice, notices_after

if TYPE_CHECKING:  # the marks table and the outbox load with their first use (a roll uses none)
    from engine.application.notice_marks import Marks

THEN_KEPT = 8  # campaigns as they were after a ruling, kept for the next reads
TOLD_KEPT = timedelta(days=1)  # how long a "told once" claim is remembered
MAX_ADDRESS = 254  # characters of an email address (RFC 5321's path, less its brackets)
# compiled when first used (re caches it): a roll never reads an address
ADDRESS = r"^[^@\s<>,;:\"]+@[^@\s<>,;:\"]+\.[^@\s<>,;:\"]+$"


class InvalidEmail(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "not an email address: {address!r} (one looks like name@example.org)"


class UnknownNoticeKind(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "no notices of kind {kind!r}: choose among {kinds}"


class UnsubscribeLinkInvalid(DomainError):
    kind = ErrorKind.NOT_FOUND
    template = (
        "this link to stop the mail is not one this table's server made, or it was cut short:"
        " open it from the mail again, or sign in and choose on the table's Notices page"
    )


@frozen(kw_only=True)
class NoticeChoices(Plain):
    """What a member is told about (``kinds``, of ``waits.NOTICE_KINDS``), whether by a mention or a
    direct message in Discord (their linked account), and the address mailed a digest ("": no
    mail)."""

    kinds: tuple[str, ...] = NOTICE_KINDS
    discord: bool = True
    email: str = ""


@frozen(kw_only=True)
class Digest(Plain):
    """One mail: the notices waiting for a member of a campaign, to the address they gave,
    with the token of its link that stops the mail."""

    campaign: str
    member: str
    address: str
    notices: tuple[Notice, ...]
    token: str


def _key(what: str, campaign: UUID, member: str) -> str:
    return f"{what} {campaign.hex} {member}"


def _choices(text: str | None) -> NoticeChoices:
    if text is None:
        return NoticeChoices()
    kept = json.loads(text)
    return NoticeChoices(
        kinds=tuple(kept["kinds"]), discord=bool(kept["discord"]), email=str(kept["email"])
    )


def _text(choices: NoticeChoices) -> str:
    kept = {"kinds": list(choices.kinds), "discord": choices.discord, "email": choices.email}
    return json.dumps(kept, sort_keys=True)


def email_address(text: str) -> str:
    """``text`` as an address to mail ("" for none), or a refusal ``INVALID_EMAIL``."""
    address = text.strip()
    if address and (len(address) > MAX_ADDRESS or re.match(ADDRESS, address) is None):
        raise InvalidEmail(address=address[:80])
    return address


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Notices(Access, Once):
    """The notices' uses of the application API (see the module docstring)."""

    _marks: Marks | None = None
    _then: tuple[tuple[tuple[UUID, int], CampaignState | None], ...] = ()  # (key, campaign)

    @property
    def marks(self) -> Marks:
        """The notices' table, made the first time it is needed."""
        if self._marks is None:
            from engine.application.notice_marks import marks_for

            self._marks = marks_for(self.db, self.store)
        return self._marks

    def _change(self, key: str, change: str) -> None:
        """Keep ``change`` under ``key`` whatever it held (a swap, tried until it holds)."""
        while not self.marks.swap(key, self.marks.get(key), change):
            pass

    # --- What the table waits on ---------------------------------------------------------------

    def campaign_then(self, campaign_name: str, ruling: int) -> CampaignState | None:
        """The campaign as recorded after ruling ``ruling`` (None before its first): what a
        store recorded never changes, so the last few asked are kept (a server reads each once
        for the table and once for every member it tells)."""
        key = (self.find_campaign(campaign_name).campaign_id, ruling)
        kept = dict(self._then)
        if key not in kept:
            kept[key] = self.campaign_at(campaign_name, ruling=ruling)
            self._then = tuple(kept.items())[-THEN_KEPT:]
        return kept[key]

    def store_position(self) -> int:
        """The store's position: the notification id of its last event (0: none), whichever
        process wrote it; a server reads it to learn that rulings were recorded."""
        from engine.application.store_changes import position

        return position(self)  # type: ignore[arg-type]

    def notices(self, campaign_name: str, *, after: int, audience: Audience) -> list[Notice]:
        """What the rulings after ruling ``after`` leave the table waiting on, each naming the
        member it waits on, as ``audience`` may read it (``engine.application.waits``)."""
        return notices_after(self, campaign_name, after, audience)  # type: ignore[arg-type]

    def claim_notices(self, campaign_name: str) -> int | None:
        """The ruling after which this process tells what the campaign's rulings leave waiting
        (up to its latest, claimed now), or None: nothing new, another process claimed it, or
        the campaign is seen for the first time."""
        campaign = self.campaign(campaign_name)
        key = f"told-up-to {campaign.id.hex}"
        kept = self.marks.get(key)
        if kept is None:
            self.marks.swap(key, None, str(campaign.rulings))
            return None
        if int(kept) >= campaign.rulings:
            return None
        return int(kept) if self.marks.swap(key, kept, str(campaign.rulings)) else None

    def told_once(self, campaign_name: str, ruling: int, member: str, where: str) -> bool:
        """Whether ``member`` is to be told of ruling ``ruling`` at ``where`` (a place such as
        a direct message) now: True the first time any process of the store asks."""
        campaign_id = self.find_campaign(campaign_name).campaign_id
        now = self.ledger.now()
        key = f"told {campaign_id.hex} {ruling} {where} {member}"
        return self.replies.claim(key, now, now - TOLD_KEPT)

    # --- A member's choices ----------------------------------------------------------------

    def notice_choices(self, campaign_name: str, member: str) -> NoticeChoices:
        """What ``member`` chose to be told, and where (every kind, in Discord, no mail: what a
        member who never chose is told)."""
        campaign = self.campaign(campaign_name)
        acting_member(campaign, member)  # refuses a member with no seat
        return _choices(self.marks.get(_key("choices", campaign.id, member)))

    def choose_notices(
        self,
        campaign_name: str,
        member: str,
        *,
        kinds: Collection[str],
        discord: bool,
        email: str,
        actor: str | None = None,
    ) -> NoticeChoices:
        """Keep what ``member`` is told about (``kinds``), whether in Discord, and the address
        mailed their digest (""; none); refused for an unknown kind or a malformed address, and
        to an ``actor`` other than the member who is not a GM (None: the GM at the keyboard)."""
        campaign = self.campaign(campaign_name)
        acting_member(campaign, member)
        if actor is not None and actor != member:
            check_gm(campaign, actor, "choose another member's notices")
        for kind in kinds:
            if kind not in NOTICE_KINDS:
                raise UnknownNoticeKind(kind=kind[:40], kinds=", ".join(NOTICE_KINDS))
        chosen = NoticeChoices(
            kinds=tuple(k for k in NOTICE_KINDS if k in kinds),
            discord=discord,
            email=email_address(email),
        )
        self._change(_key("choices", campaign.id, member), _text(chosen))
        return chosen

    def unsubscribe_token(self, campaign_name: str, member: str, address: str) -> str:
        """The token of the link that stops the mail to ``address`` for ``member``."""
        campaign_id = self.find_campaign(campaign_name).campaign_id
        payload = "\n".join((campaign_id.hex, member, address)).encode()
        return f"{_b64(payload)}.{_b64(self._signature(payload))}"

    def _signature(self, payload: bytes) -> bytes:
        key = self.server_key("notices").encode()
        return hmac.new(key, payload, hashlib.sha256).digest()[:16]

    def mail_stopped_by(self, token: str) -> tuple[str, str, str]:
        """The campaign, the member and the address whose mail an unsubscribe link's token
        stops (nothing changed), or ``UNSUBSCRIBE_LINK_INVALID`` for a token not signed here."""
        payload_text, _, signature = token.partition(".")
        try:
            payload, given = _unb64(payload_text), _unb64(signature)
            campaign_hex, member, address = payload.decode().split("\n")
            campaign_id = UUID(hex=campaign_hex)
        except (ValueError, binascii.Error):
            raise UnsubscribeLinkInvalid() from None
        if not hmac.compare_digest(self._signature(payload), given):
            raise UnsubscribeLinkInvalid()
        entry = next((e for e in self.directory().campaigns if e.campaign_id == campaign_id), None)
        if entry is None:
            raise UnsubscribeLinkInvalid()
        return entry.name, member, address

    def unsubscribe(self, token: str) -> tuple[str, str, str]:
        """Stop the mail an unsubscribe link's token names: its address is no longer mailed (an
        address given since is kept); the campaign, the member and the address. Refused
        ``UNSUBSCRIBE_LINK_INVALID`` for a token not signed here."""
        name, member, address = self.mail_stopped_by(token)
        key = _key("choices", self.find_campaign(name).campaign_id, member)
        while True:
            kept = self.marks.get(key)
            choices = _choices(kept)
            if choices.email != address:
                break
            if self.marks.swap(key, kept, _text(attrs.evolve(choices, email=""))):
                break
        return name, member, address

    # --- Mail ----------------------------------------------------------------------------------

    def queue_mail(self, campaign_name: str, member: str, notices: Collection[Notice]) -> None:
        """Keep ``notices`` for ``member``'s next mail (the latest of them, while no server of
        the store mails: one without a mail server keeps them for one with)."""
        campaign_id = self.find_campaign(campaign_name).campaign_id
        from engine.application import notice_outbox as outbox

        outbox.queue(self.marks, campaign_id, member, notices, self.ledger.now())

    def due_mail(self, every: timedelta) -> list[Digest]:
        """The mails to send now, each taken (claimed) by this process: for every member whose
        outbox holds notices, the oldest waited ``outbox.GATHER`` and the last mail went
        ``every`` or longer ago. A member with no address now (or no seat, or no campaign) has
        their outbox emptied unsent."""
        from engine.application import notice_outbox as outbox

        names = {e.campaign_id.hex: e.name for e in self.directory().campaigns}
        found = []
        for campaign_hex, member, taken in outbox.take_due(self.marks, self.ledger.now(), every):
            digest = self._digest(names.get(campaign_hex), member, taken)
            if digest is not None:
                found.append(digest)
        return found

    def _digest(self, campaign_name: str | None, member: str, taken: list[Notice]) -> Digest | None:
        if campaign_name is None or not taken:
            return None
        campaign = self.campaign(campaign_name)
        if campaign.member(member) is None:
            return None
        address = _choices(self.marks.get(_key("choices", campaign.id, member))).email
        if not address:
            return None
        token = self.unsubscribe_token(campaign_name, member, address)
        return Digest(
            campaign=campaign_name,
            member=member,
            address=address,
            notices=tuple(taken),
            token=token,
        )

    def mail_failed(self, digest: Digest) -> None:
        """Put a digest that could not be sent back in its member's outbox (for their next)."""
        self.queue_mail(digest.campaign, digest.member, digest.notices)
