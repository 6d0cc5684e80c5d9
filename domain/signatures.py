"""What a player signs to add entropy to a session's committed dice, and the check of it.

A player's key pair is made where the player is (their browser, or ``campaign key new`` on their
own machine); only its public half is registered on their seat. The message binds the words to
the member and to the session's commitment, so a contribution cannot be replayed into another
session or under another name. Ed25519 through the ``cryptography`` package, imported where a
key or a signature is checked: a command that checks none (a roll) does not load it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

KEY_HEX = 64  # an Ed25519 public key: 32 bytes, as hex
SIGNATURE_HEX = 128  # an Ed25519 signature: 64 bytes, as hex
_HEX_DIGITS = frozenset("0123456789abcdef")


def signature_text_problem(text: str) -> str | None:
    """What keeps ``text`` from being a signature's one canonical text (its 64 bytes as 128
    lowercase hex digits, nothing else), or None when it is that text. ``bytes.fromhex`` reads
    upper case, mixed case and spaces as the same bytes, so one signature has many texts; a
    command takes only the canonical one, since the text is what the committed dice mix
    (``engine.dice.committed.mixed_signed``)."""
    if len(text) != SIGNATURE_HEX:
        return f"{len(text)} characters, not {SIGNATURE_HEX}"
    odd = sorted({c for c in text if c not in _HEX_DIGITS})
    if not odd:
        return None
    if all(c.lower() in _HEX_DIGITS for c in odd):
        return "upper case hex"
    return "holds " + ", ".join(repr(c) for c in odd[:5])


def entropy_message(commitment: str, member: str, words: str) -> bytes:
    """The bytes signed: ``campaign-log entropy 2``, the commitment, the member and the words,
    one per line, UTF-8."""
    return f"campaign-log entropy 2\n{commitment}\n{member}\n{words}".encode()


def seal_message(commitment: str, member: str, sealed: int, command: str, args: str) -> bytes:
    """The bytes a player signs to seal a roll (protocol 3): ``campaign-log roll 3``, the
    session's commitment, the member, which of their sealed rolls of the session it is (0, 1,
    2...), the command's name and its arguments as recorded (canonical JSON: sorted keys, no
    spaces), one per line, UTF-8. Ed25519 signatures are deterministic: one text has one
    signature, so neither the player nor anyone else can try several for one roll."""
    return f"campaign-log roll 3\n{commitment}\n{member}\n{sealed}\n{command}\n{args}".encode()


def is_public_key(text: str) -> bool:
    """64 lowercase hex digits that Ed25519 takes as a public key."""
    if len(text) != KEY_HEX or text != text.lower():
        return False
    try:
        _public_key(text)
    except ValueError:
        return False
    return True


def _public_key(text: str) -> Ed25519PublicKey:
    """The Ed25519 public key of 64 hex digits (``ValueError`` when it is none)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))


def signature_holds(public_key: str, message: bytes, signature: str) -> bool:
    """Whether ``signature`` (hex) is ``public_key``'s (hex) over ``message``."""
    from cryptography.exceptions import InvalidSignature

    if not is_public_key(public_key) or len(signature) != SIGNATURE_HEX:
        return False
    try:
        _public_key(public_key).verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True
