"""Discord's request signatures: Ed25519 over the ``X-Signature-Timestamp`` header followed by
the raw body, checked with the application's public key (64 hex digits, from the developer
portal) through PyCA ``cryptography``. A request whose signature fails, or is missing, is
answered 401 (Discord removes an endpoint that accepts a bad one); one whose timestamp is more
than five minutes from now is refused too (a request recorded and sent again)."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.errors import DomainError, ErrorKind

MAX_AGE = 300  # seconds between the request's timestamp and now, either way


class InvalidDiscordKey(DomainError):
    template = (
        "the Discord public key must be the application's, as the developer portal shows it"
        " (64 hex digits): {problem}"
    )


class BadDiscordSignature(DomainError):
    kind = ErrorKind.NOT_SIGNED_IN
    template = "the request is not signed by this Discord application: {problem}"


class Verifier:
    """Checks requests against one application's public key."""

    def __init__(self, public_key: str) -> None:
        try:
            raw = bytes.fromhex(public_key.strip())
            self._key = Ed25519PublicKey.from_public_bytes(raw)
        except ValueError as error:
            raise InvalidDiscordKey(problem=str(error)) from None

    def check(self, signature: str | None, timestamp: str | None, body: bytes, now: float) -> None:
        """Return when the request is the application's and fresh (``BAD_DISCORD_SIGNATURE``
        otherwise)."""
        if not signature or not timestamp:
            raise BadDiscordSignature(
                problem="X-Signature-Ed25519 or X-Signature-Timestamp missing"
            )
        try:
            self._key.verify(bytes.fromhex(signature), timestamp.encode() + body)
        except (ValueError, InvalidSignature):
            raise BadDiscordSignature(problem="the signature does not hold") from None
        try:
            sent = int(timestamp)
        except ValueError:
            raise BadDiscordSignature(problem="the timestamp is not a whole number") from None
        if abs(now - sent) > MAX_AGE:
            raise BadDiscordSignature(
                problem=f"the timestamp is {abs(now - sent):.0f} s from now (at most {MAX_AGE})"
            )
