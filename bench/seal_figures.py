"""What sealing costs a roll (protocol 3, issue 42): a player's free roll recorded in-process
with their seal (the seal's checks: its text, Ed25519 over it with the key on the seat, the
sealed key's HMAC) against the same roll unsealed, in turns on one store; and the CPU time of
each, since the target is about CPU (under 2 ms more than an unsealed roll). Then the same
through the API of `campaign serve` (its own process, on loopback): the sealed roll's request
against the unsealed one's, p50 and p99 in turns, and the server's CPU per request of each
(from /proc), with the ``seal-text`` request a client makes first.
And a player's roll sealed through Discord, in-process (``discord_figures``): the roll recorded
with the interaction Discord signed as its seal (the checks: the signature by the application
key recorded at the channel's link, the linked account, the slash command read back into the
command, the id once, the time), against the same roll unsealed, in turns on one store.

The player's key is made here; the text each seal signs is the engine's (``seal_text``), signed
before the timed call, as the player's client signs it before asking for the roll. So is the key
that plays Discord's application: each interaction is signed before the timed call, as Discord
signs it before sending it."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bench.common import Row, median_of, tail_row
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, StartSession
from domain.links import LinkChannel, LinkMember
from domain.signatures import entropy_message
from domain.table import AddMember, RegisterKey
from engine import Engine

NAME = "Sealed"
ROLL = RollFreely(expression="1d20+2", why="to hit")
CHANNEL, ACCOUNT = "1100000000000000001", "2200000000000000002"


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
        ),
        *discord_figures(work, repeat),
    ]


def _interactions(application: Ed25519PrivateKey) -> Iterator[tuple[str, str]]:
    """ana's /dice slash commands as Discord sends them, each its own id, stamped now: what
    Discord signs (the timestamp, then the raw body) and its signature."""
    for interaction in itertools.count(3300000000000000001):
        options = [
            {"name": "expression", "type": 3, "value": ROLL.expression},
            {"name": "why", "type": 3, "value": ROLL.why},
        ]
        body = {
            "id": str(interaction),
            "application_id": "4400000000000000001",
            "type": 2,
            "token": "interaction-token",
            "version": 1,
            "channel_id": CHANNEL,
            "member": {"user": {"id": ACCOUNT, "username": "ana"}, "roles": []},
            "data": {"id": "6600000000000000001", "name": "dice", "type": 1, "options": options},
        }
        signed = f"{int(time.time())}{json.dumps(body, separators=(',', ':'))}"
        yield signed, application.sign(signed.encode()).hex()


def discord_figures(work: Path, repeat: int) -> list[Row]:
    """ana's roll sealed through Discord against the same roll unsealed, in turns on one store,
    in-process: the channel linked with the application's key, her account linked."""
    db = work / "sealed-discord.db"
    walls: dict[str, list[float]] = {"sealed": [], "unsealed": []}
    cpus: dict[str, list[float]] = {"sealed": [], "unsealed": []}
    application = Ed25519PrivateKey.generate()
    public = application.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    with Engine(str(db)) as engine:
        _table(engine)
        engine.execute(NAME, LinkChannel(channel=CHANNEL, key=public))
        engine.execute(NAME, LinkMember(member="ana", discord=ACCOUNT))
        sent = _interactions(application)
        for _ in range(repeat):
            signed, seal = next(sent)
            for kind, given, what in (("sealed", seal, signed), ("unsealed", "", "")):
                wall, cpu = time.perf_counter(), time.process_time()
                engine.execute(NAME, ROLL, actor="ana", seal=given, interaction=what)
                cpus[kind].append(time.process_time() - cpu)
                walls[kind].append(time.perf_counter() - wall)
        sealed = len(engine.campaign(NAME).interactions)
    extra = median_of(cpus["sealed"]) - median_of(cpus["unsealed"])
    note = f"CPU: {median_of(cpus['sealed']) * 1e3:.2f} ms sealed, {extra * 1e3:+.2f} ms the seal"
    if sealed != repeat:
        note += f"; {sealed} of {repeat} rolls sealed (**not as it should be**)"
    return [
        Row(
            "a player's roll sealed through Discord in-process (protocol 3) against the same roll"
            " unsealed",
            "s",
            median_of(walls["sealed"]),
            median_of(walls["unsealed"]),
            "the same free roll, unsealed, in turns on one store",
            note=note + " (the interaction's checks; target: under 2 ms of CPU)",
        )
    ]


def api_figures(work: Path, turns: int) -> list[Row]:
    """ana's roll through the API with her seal against the same roll without, in turns; then
    ``turns`` of each alone, to read the server's CPU per request of each."""
    import httpx

    from bench.server_figures import cpu_seconds, serve_process

    db = work / "sealed-api.db"
    with Engine(str(db)) as engine:
        private = _table(engine)
        token = engine.token(NAME, "ana")
    body = {"params": {"expression": ROLL.expression, "why": ROLL.why}}
    with serve_process(str(db), work / "serve-sealed.log") as (base, server):
        api = f"{base}/api/campaigns/{NAME}"
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:

            def seal() -> str:
                asked = client.post(f"{api}/seal-text", json={"command": "dice", **body})
                return private.sign(asked.raise_for_status().json()["text"].encode()).hex()

            def roll(given: str) -> float:
                began = time.perf_counter()
                client.post(f"{api}/commands/dice", json={**body, "seal": given}).raise_for_status()
                return time.perf_counter() - began

            sealed: list[float] = []
            plain: list[float] = []
            for turn in range(turns + 10):  # the first ten warm the connection and caches
                took = roll(seal()), roll("")
                if turn >= 10:
                    sealed.append(took[0])
                    plain.append(took[1])
            per: dict[str, float] = {}  # the server's CPU per request, ms
            for kind in ("sealed", "unsealed", "seal-text"):
                before = cpu_seconds(server.pid)
                for _ in range(turns):
                    if kind == "seal-text":
                        seal()
                    else:
                        roll(seal() if kind == "sealed" else "")
                per[kind] = (cpu_seconds(server.pid) - before) / turns * 1e3
    extra = per["sealed"] - per["seal-text"] - per["unsealed"]
    note = (
        f"{turns} in turns; server CPU per request: {per['unsealed']:.2f} ms unsealed, "
        f"{per['sealed'] - per['seal-text']:.2f} ms sealed ({extra:+.2f} ms the seal; "
        f"the seal-text request {per['seal-text']:.2f} ms)"
    )
    return [
        tail_row(
            "a player's roll sealed through the API (protocol 3) against the same roll unsealed",
            sealed,
            plain,
            "the same free roll through the API, unsealed, in turns",
            note=note + " (target: the seal under 2 ms of CPU)",
        )
    ]
