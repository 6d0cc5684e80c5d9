"""Commit–reveal dice: every digital roll of a session is derived from a secret seed whose
SHA-256 is recorded when the session starts and which is revealed when it ends.

The effective key is HMAC-SHA256(secret, entropy), where entropy is what the players added after
the commitment (``mixed``); die *i* reads the 32-byte block HMAC-SHA256(key, counter) and takes
its first byte below the largest multiple of the die size (so no face is favoured), moving to
the next counter if a whole block is rejected.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence

from attrs import define


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def key(secret: bytes, entropy: str) -> bytes:
    return hmac.new(secret, entropy.encode(), hashlib.sha256).digest()


def mixed(given: str, added: Sequence[tuple[str, str]]) -> str:
    """The entropy the key mixes in: with no player's contribution, what was given with the
    commitment (older logs; empty now); else the hex SHA-256 of the UTF-8 JSON array
    ``[given, [[who, words], ...]]`` (contributions in order, no spaces after separators)."""
    if not added:
        return given
    listed = [given, [[who, words] for who, words in added]]
    text = json.dumps(listed, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def face(block: bytes, sides: int) -> int | None:
    """The first unbiased face in a block, or None when every byte falls in the biased tail."""
    if not 1 <= sides <= 256:
        raise ValueError(f"committed dice handle up to 256 sides, not {sides}")
    limit = 256 - 256 % sides
    return next((byte % sides + 1 for byte in block if byte < limit), None)


@define
class CommittedDice:
    """Dice drawn from a session's committed key, from counter ``start`` on."""

    key: bytes
    start: int
    draws: int = 0

    def roll(self, sides: int) -> int:
        while True:
            counter = self.start + self.draws
            self.draws += 1
            block = hmac.new(self.key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
            result = face(block, sides)
            if result is not None:
                return result


def replay(key: bytes, start: int, sides: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The faces and the number of counters a ruling's dice of these sizes give."""
    dice = CommittedDice(key=key, start=start)
    faces = tuple(dice.roll(n) for n in sides)
    return faces, dice.draws
