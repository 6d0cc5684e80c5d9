"""Commit–reveal dice: every digital roll of a session is derived from secrets whose hash is
recorded when the session starts; the roll seed is revealed when it ends, a hidden roll's own
key when that roll is revealed.

Protocol 2 (``DiceCommitted.protocol == 2``, every session started since):

- the GM's machine draws a roll seed ``S`` and a hidden seed ``T``; the commitment is
  SHA-256(S ‖ R), where R is the root of a Merkle tree over ``HIDDEN_LEAVES`` leaf keys
  HMAC-SHA256(T, i as 8 bytes big-endian);
- only the players' *signed* contributions count: the entropy is the hex SHA-256 of their
  ``[[member, words, signature], ...]`` (sorted; JSON as ``mixed`` writes it), or "" when none
  counted (``mixed_signed``);
- a public roll by member M reads blocks HMAC-SHA256(K, counter ‖ UTF-8(M)) with K =
  HMAC-SHA256(S, entropy) and M's own counter (0, 1, 2... over M's rulings): other members'
  rolls cannot move it;
- hidden roll number i of the session (0, 1, 2...) reads blocks HMAC-SHA256(K_i, counter) with
  K_i = HMAC-SHA256(leaf key i, entropy), counters from 0; revealing it publishes leaf key i
  and its Merkle path, which prove it belongs to the commitment and say nothing of the others.

Protocol 3 (sessions started since players seal their own rolls) is protocol 2 plus the
sealed roll: a roll a player asks for from their own client carries their Ed25519 signature of
it (``domain.signatures.seal_message``: the commitment, the member, which of their sealed rolls
it is, the command and its arguments); its blocks are HMAC-SHA256(K_s, counter ‖ UTF-8(M)) with
K_s = HMAC-SHA256(K, the signature's 64 bytes), counters from 0. The GM's machine knows S but
not the signature until the player asks, so it cannot foresee the roll, nor move it: the
player's sealed rolls draw on no counter anyone else's rolls use. A roll asked for in Discord is
sealed the same way by Discord's own signature of the interaction (``engine.dice.interactions``).

Protocol 4 (every session started since keys record where they were put on a seat) draws as
protocol 3; what changes is whose entropy counts: only words signed by a key the member put on
their seat from their own signed-in client (``domain.campaign.KEYS_SIGNED_IN``).

Protocol 1 (older logs): one counter over every ruling, blocks HMAC-SHA256(K, counter).

A die of ``sides`` <= 256 takes the first byte of a block below the largest multiple of
``sides`` (``byte % sides + 1``); a larger die the first 2-byte big-endian value below the
largest multiple of ``sides`` under 65,536; a block with none moves to the next counter.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from functools import lru_cache

from attrs import define

PROTOCOL = 4
SEALED = 3  # the first protocol whose sessions take players' sealed rolls
HIDDEN_DEPTH = 10
HIDDEN_LEAVES = 2**HIDDEN_DEPTH  # hidden committed rolls a session can make
MAX_SIDES = 1000  # the largest die free rolls allow (domain.free_rolls)


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes, hidden_root: str = "") -> str:
    """What ``session start`` publishes: SHA-256 of the roll seed (protocol 1) or of the roll
    seed followed by the hidden tree's root (protocol 2)."""
    return hashlib.sha256(secret + bytes.fromhex(hidden_root)).hexdigest()


def key(secret: bytes, entropy: str) -> bytes:
    return hmac.new(secret, entropy.encode(), hashlib.sha256).digest()


def sealed_key(roll_key: bytes, seal: str) -> bytes:
    """A sealed roll's key: HMAC-SHA256 of the session's roll key K over the seal's bytes."""
    return hmac.new(roll_key, bytes.fromhex(seal), hashlib.sha256).digest()


def mixed(given: str, added: Sequence[tuple[str, str]]) -> str:
    """Protocol 1's entropy: with no player's contribution, what was given with the commitment;
    else the hex SHA-256 of the UTF-8 JSON array ``[given, [[who, words], ...]]``."""
    if not added:
        return given
    return _digest([given, [[who, words] for who, words in added]])


def mixed_signed(counted: Sequence[tuple[str, str, str]]) -> str:
    """Protocol 2's entropy: the hex SHA-256 of the UTF-8 JSON array of the counted (signed)
    contributions ``[[member, words, signature], ...]`` sorted, or "" when none counted. Sorted,
    so the order they were recorded in is nobody's choice."""
    if not counted:
        return ""
    return _digest(sorted([who, words, signature] for who, words, signature in counted))


def _digest(listed: object) -> str:
    text = json.dumps(listed, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def lane(member: str) -> bytes:
    """What follows the counter in a protocol-2 public roll's blocks: the roller's name."""
    return member.encode()


# --- the hidden rolls' tree ------------------------------------------------------------------


def leaf_key(hidden: bytes, index: int) -> bytes:
    return hmac.new(hidden, index.to_bytes(8, "big"), hashlib.sha256).digest()


def _leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


@lru_cache(maxsize=8)  # the running sessions' trees, not every secret ever seen
def _levels(hidden: bytes) -> tuple[tuple[bytes, ...], ...]:
    level = tuple(_leaf_hash(leaf_key(hidden, i)) for i in range(HIDDEN_LEAVES))
    levels = [level]
    while len(level) > 1:
        level = tuple(_node(level[i], level[i + 1]) for i in range(0, len(level), 2))
        levels.append(level)
    return tuple(levels)


def hidden_root(hidden: bytes) -> str:
    return _levels(hidden)[-1][0].hex()


def hidden_proof(hidden: bytes, index: int) -> tuple[str, ...]:
    """The Merkle path of leaf ``index``: its sibling at each level, from the leaves up."""
    levels = _levels(hidden)
    return tuple(levels[depth][(index >> depth) ^ 1].hex() for depth in range(HIDDEN_DEPTH))


def root_from(leaf: bytes, index: int, proof: Sequence[str]) -> str:
    """The root a leaf key and its path lead to (compare with the committed one)."""
    node = _leaf_hash(leaf)
    for depth, sibling in enumerate(proof):
        other = bytes.fromhex(sibling)
        node = _node(other, node) if (index >> depth) & 1 else _node(node, other)
    return node.hex()


# --- dice from a key ---------------------------------------------------------------------------


def face(block: bytes, sides: int) -> int | None:
    """The first unbiased face in a block, or None when every value falls in the biased tail."""
    if not 1 <= sides <= MAX_SIDES:
        raise ValueError(f"committed dice have 1 to {MAX_SIDES} sides, not {sides}")
    if sides <= 256:
        values: Sequence[int] = block
        span = 256
    else:
        values = [int.from_bytes(block[i : i + 2], "big") for i in range(0, len(block), 2)]
        span = 65536
    limit = span - span % sides
    return next((value % sides + 1 for value in values if value < limit), None)


@define(eq=False)  # a draw in progress: compared by identity
class CommittedDice:
    """Dice drawn from a session's committed key, from counter ``start`` on, in one lane."""

    key: bytes
    start: int
    lane: bytes = b""
    draws: int = 0
    leaf: int | None = None  # the hidden roll's leaf, for a hidden roll

    def roll(self, sides: int) -> int:
        while True:
            counter = self.start + self.draws
            self.draws += 1
            message = counter.to_bytes(8, "big") + self.lane
            block = hmac.new(self.key, message, hashlib.sha256).digest()
            result = face(block, sides)
            if result is not None:
                return result


def replay(
    key: bytes, start: int, sides: tuple[int, ...], lane: bytes = b""
) -> tuple[tuple[int, ...], int]:
    """The faces and the number of counters a ruling's dice of these sizes give."""
    dice = CommittedDice(key=key, start=start, lane=lane)
    faces = tuple(dice.roll(n) for n in sides)
    return faces, dice.draws
