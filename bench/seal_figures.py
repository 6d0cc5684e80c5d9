"""What sealing costs a roll (protocol 3, issue 42): a player's free roll recorded in-process
with their seal (the seal's checks: its text, Ed25519 over it with the key on the seat, the
sealed key's HMAC) against the same roll unsealed, in turns on one store; and the CPU time of
each, since the target is about CPU (under 2 ms more than an unsealed roll).

The player's key is made here; the text each seal signs is the engine's (``seal_text``), signed
before the timed call, as the player's client signs it before asking for the roll."""

from __future__ import annotations

import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bench.common import Row, median_of
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, StartSession
from domain.signatures import entropy_message
from domain.table import AddMember, RegisterKey
from engine import Engine

NAME = "Sealed"
ROLL = RollFreely(expression="1d20+2", why="to hit")


def _table(engine: Engine) -> Ed25519PrivateKey:
    """A campaign with one player, ana, her key on her seat and her words in the session."""
    engine.create_campaign(NAME, "sprawl-goons", gm="Rosa")
    private = Ed25519PrivateKey.generate()
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    engine.execute(NAME, AddMember(member="ana", role=Role.PLAYER))
    engine.execute(NAME, RegisterKey(member="ana", key=public), actor="ana")
    engine.execute(NAME, StartSession())
    commitment = engine.campaign(NAME).commitment or ""
    words = "pancakes at midnight"
    signature = private.sign(entropy_message(commitment, "ana", words)).hex()
    engine.execute(NAME, AddEntropy(words=words, by="ana", signature=signature), actor="ana")
    return private


def figures(work: Path, repeat: int) -> list[Row]:
    db = work / "sealed.db"
    walls: dict[str, list[float]] = {"sealed": [], "unsealed": []}
    cpus: dict[str, list[float]] = {"sealed": [], "unsealed": []}
    with Engine(str(db)) as engine:
        private = _table(engine)
        for _ in range(repeat):
            seal = private.sign(engine.seal_text(NAME, ROLL, actor="ana").encode()).hex()
            for kind, given in (("sealed", seal), ("unsealed", "")):
                wall, cpu = time.perf_counter(), time.process_time()
                engine.execute(NAME, ROLL, actor="ana", seal=given)
                cpus[kind].append(time.process_time() - cpu)
                walls[kind].append(time.perf_counter() - wall)
    extra = median_of(cpus["sealed"]) - median_of(cpus["unsealed"])
    note = f"CPU: {median_of(cpus['sealed']) * 1e3:.2f} ms sealed, {extra * 1e3:+.2f} ms the seal"
    return [
        Row(
            "a player's roll sealed in-process (protocol 3) against the same roll unsealed",
            "s",
            median_of(walls["sealed"]),
            median_of(walls["unsealed"]),
            "the same free roll, unsealed, in turns on one store",
            note=note + " (target: the seal under 2 ms of CPU)",
        )
    ]
