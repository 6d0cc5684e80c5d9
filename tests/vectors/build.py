"""Builds the test vectors of docs/format.md: a small campaign played deterministically, its
export (``docs/vectors/campaign.jsonl``) and every value a checker computes on the way
(``docs/vectors/vectors.json``), each computed here with the engine's own functions.

The campaign: a GM (Rosa), two players with keys of their own (ana, bo) and an observer (cy);
session 1 with committed dice, both players' signed entropy, a character created from committed
dice, public free rolls by a player and the GM (six d6, one of them past a rejected byte; a
d1000, read two bytes at a time), two hidden rolls revealed with their Merkle paths, a hidden
note never revealed, a roll undone, then a Discord channel linked with the application's key,
ana's account linked and a roll of ana's sealed by Discord's signature of her slash command;
session 2 with a note, so that its seal names session 1's.

Nothing is random: the clock is frozen (a minute between rulings), the stream ids, the dice
secrets, the players' Ed25519 keys and the Discord application's are SHA-256 of fixed texts, and
the interaction Discord sends is a fixed text. Run it after a deliberate
change to the format, and review the diff (the test ``tests/vectors/test_vectors.py`` fails
until the files are what the code writes):

    .venv/bin/python -m tests.vectors.build
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from freezegun import freeze_time

from domain.audience import GMS
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.interactions import interaction_body, signed_parts
from domain.lifecycle import AddEntropy, AddNote, EndSession, StartSession
from domain.links import LinkChannel, LinkMember
from domain.rulesets.code_green.commands import CreateCharacter
from domain.signatures import entropy_message, signature_holds
from domain.table import AddMember, RegisterKey, RevealRuling
from engine import Engine
from engine.dice.committed import (
    HIDDEN_DEPTH,
    commitment,
    face,
    hidden_proof,
    hidden_root,
    key,
    lane,
    leaf_key,
    mixed_signed,
    replay,
    root_from,
    sealed_key,
)
from engine.store.chain import genesis, link, link_over_body, seal
from engine.store.mapper import canonical_json

FOLDER = Path(__file__).parents[2] / "docs" / "vectors"
EXPORT = "campaign.jsonl"
VALUES = "vectors.json"
NAME = "Vector Lab"
STARTED_AT = datetime(2026, 11, 29, 19, 30, tzinfo=UTC)
GM = "Rosa"
EXAMPLE_LEAF = 0b1010110101  # 693: its path turns both ways
WORDS = {"ana": "a moth circles the lamp", "bo": "tide at 4:12, Möwe"}
# Discord's side of the sealed roll: the channel, ana's account, and the slash command ana sends
# (its body as Discord writes it: compact, its keys in Discord's order, not sorted, UTF-8 as it
# is), sent two seconds before ruling 22 records it.
CHANNEL, ANA_ACCOUNT = "1100000000000000001", "2200000000000000002"
SENT = int((STARTED_AT + timedelta(minutes=21, seconds=-2)).timestamp())
INTERACTION = (
    '{"app_permissions":"2048","application_id":"4400000000000000001","type":2,'
    '"token":"interaction-token","member":{"user":{"id":"' + ANA_ACCOUNT + '","username":"ana",'
    '"global_name":"Ána"},"roles":[]},"id":"3300000000000000001","guild_id":'
    '"5500000000000000001","data":{"type":1,"options":[{"value":"2d10","type":3,"name":'
    '"expression"},{"value":"does the lamp hold","type":3,"name":"why"}],"name":"dice","id":'
    '"6600000000000000001"},"channel_id":"' + CHANNEL + '","version":1}'
)

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"
COMMITTED = "domain.events:DiceCommitted"
ENTROPY = "domain.events:EntropyAdded"
REVEALED = "domain.events:DiceRevealed"
HIDDEN_SHOWN = "domain.events:HiddenDiceRevealed"


def fixed(text: str) -> bytes:
    """32 bytes no one chose: SHA-256 of a fixed text."""
    return hashlib.sha256(text.encode()).digest()


def counted_ids() -> Callable[[], UUID]:
    """Stream ids 1, 2, 3...: version-4 UUIDs made of SHA-256 of ``campaign-log vectors id N``."""
    made = 0

    def new_id() -> UUID:
        nonlocal made
        made += 1
        return UUID(bytes=fixed(f"campaign-log vectors id {made}")[:16], version=4)

    return new_id


def counted_secrets() -> Callable[[], bytes]:
    """The dice secrets, in the order drawn: SHA-256 of ``campaign-log vectors secret N``."""
    drawn = 0

    def new_secret() -> bytes:
        nonlocal drawn
        drawn += 1
        return fixed(f"campaign-log vectors secret {drawn}")

    return new_secret


def private_key(member: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(fixed(f"campaign-log vectors key {member}"))


def application_key() -> Ed25519PrivateKey:
    """The Discord application's key pair (Discord holds the private half)."""
    return Ed25519PrivateKey.from_private_bytes(fixed("campaign-log vectors discord application"))


def interaction_signed() -> tuple[str, str]:
    """What Discord signs of ana's slash command (the timestamp header, then the raw body) and
    its signature (hex)."""
    signed = f"{SENT}{INTERACTION}"
    return signed, application_key().sign(signed.encode()).hex()


def public_hex(private: Ed25519PrivateKey) -> str:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def play(engine: Engine, tick: Callable[[], None]) -> None:
    """The campaign's rulings, a minute apart (their numbers in the comments)."""

    def run(
        command: Any, actor: str | None = None, *, hidden: bool = False, signed_in: bool = False
    ) -> int:
        number = engine.execute(
            NAME, command, actor=actor, hidden=hidden, signed_in=signed_in
        ).number
        tick()
        return number

    engine.create_campaign(NAME, "code-green", gm=GM)  # 1
    tick()
    keys = {member: private_key(member) for member in WORDS}
    for member, private in keys.items():  # 2..5
        run(AddMember(member=member, role=Role.PLAYER))
        # from the member's own signed-in client (the table page)
        run(RegisterKey(member=member, key=public_hex(private)), actor=member, signed_in=True)
    run(AddMember(member="cy", role=Role.OBSERVER))  # 6
    run(StartSession())  # 7
    committed = engine.campaign(NAME).commitment or ""
    for member, words in WORDS.items():  # 8, 9
        signature = keys[member].sign(entropy_message(committed, member, words)).hex()
        run(AddEntropy(words=words, by=member, signature=signature), actor=member)
    traits = {"form": ("Legs", "Tail", "Teeth"), "function": ("Cryptic", "Invulnerable", "Phasing")}
    run(CreateCharacter(player="ana", **traits))  # 10: its name, five d6 from Rosa's counters
    run(RollFreely(expression="6d6", why="how far the moth flies"), actor="ana")  # 11
    run(RollFreely(expression="1d1000+1d20"))  # 12
    mood = run(RollFreely(expression="1d20", why="the guard's mood"), hidden=True)  # 13: leaf 0
    door = run(RollFreely(expression="1d12", why="the door holds"), hidden=True)  # 14: leaf 1
    run(AddNote(text="the guard is a werewolf"), hidden=True)  # 15: never revealed
    undone = run(RollFreely(expression="1d6"), actor="bo")  # 16
    engine.undo(NAME, undone, reason="rolled out of turn", actor=None)  # 17
    tick()
    run(RevealRuling(ruling=mood))  # 18
    run(RevealRuling(ruling=door))  # 19
    run(LinkChannel(channel=CHANNEL, key=public_hex(application_key())))  # 20
    run(LinkMember(member="ana", discord=ANA_ACCOUNT))  # 21
    signed, seal = interaction_signed()  # 22: ana's /dice, sealed by Discord's signature
    number = engine.execute(
        NAME,
        RollFreely(expression="2d10", why="does the lamp hold"),
        actor="ana",
        seal=seal,
        interaction=signed,
    ).number
    tick()
    assert number == 22
    run(EndSession())  # 23
    run(StartSession())  # 24
    run(AddNote(text="a quiet night"))  # 25
    run(EndSession())  # 26


def played() -> tuple[list[str], dict[int, bytes], str]:
    """The export's lines, each session's kept secrets (roll seed followed by hidden seed) and
    the digest ``verify`` gave on the store."""
    with ExitStack() as stack:
        clock = stack.enter_context(freeze_time(STARTED_AT))
        stack.enter_context(mock.patch("engine.write.ledger.new_secret", counted_secrets()))
        engine = stack.enter_context(Engine(new_id=counted_ids()))
        play(engine, lambda: clock.tick(60))
        report = engine.verify(NAME)
        assert report.intact, report
        campaign_id = engine.find_campaign(NAME).campaign_id
        kept: dict[int, bytes] = {}
        for number in range(1, engine.campaign(NAME).sessions + 1):
            secrets = engine.dice_secrets.get(campaign_id, number)
            assert secrets is not None
            kept[number] = secrets[0]
        lines = list(engine.export(NAME, audience=GMS))
    return lines, kept, report.digest


# --- the values a checker computes ------------------------------------------------------------


def links(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each line's link, from its input bytes; and each stream's genesis."""
    previous: dict[str, str] = {}
    geneses: dict[str, Any] = {}
    out = []
    for number, row in enumerate(rows, start=2):
        stream, version, topic = row["stream"], row["version"], row["topic"]
        body = dict(row["event"])
        chain = body.pop("chain")
        if stream not in previous:
            text = f"campaign-log:{stream}"
            previous[stream] = genesis(UUID(stream))
            assert hashlib.sha256(text.encode()).hexdigest() == previous[stream]
            geneses[stream] = {"input": text, "link": previous[stream]}
        canonical = canonical_json(body)
        place = f"{previous[stream]}\x00{stream}\x00{version}\x00{topic}\x00".encode()
        head = b"campaign-log link 2\x00" + place
        digest = hashlib.sha256(canonical).digest()
        value = link(previous[stream], stream, version, topic, canonical)
        assert hashlib.sha256(head + digest).hexdigest() == value == chain
        older = link_over_body(previous[stream], stream, version, topic, canonical)
        assert hashlib.sha256(place + canonical).hexdigest() == older
        out.append(
            {
                "line": number,
                "stream": stream,
                "version": version,
                "topic": topic,
                "previous": previous[stream],
                "body": canonical.decode(),
                "body_digest": digest.hex(),
                "input_hex": (head + digest).hex(),
                "link": value,
                # what the link of the first kind (over the body's bytes) would be
                "link_over_body": older,
            }
        )
        previous[stream] = value
    return out, geneses


def heads_of(rows: list[dict[str, Any]]) -> dict[UUID, tuple[int, str]]:
    heads: dict[UUID, tuple[int, str]] = {}
    for row in rows:
        heads[UUID(row["stream"])] = (row["version"], row["event"]["chain"])
    return heads


def digest_input(heads: dict[UUID, tuple[int, str]], previous: str = "") -> bytes:
    listed = sorted([str(stream), version, chain] for stream, (version, chain) in heads.items())
    if not previous:
        return canonical_json(listed)
    return canonical_json({"heads": listed, "previous": previous})


def seals(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for number, row in enumerate(rows, start=2):
        if row["topic"] != SEALED:
            continue
        event = row["event"]["event"]
        heads = {UUID(h["stream"]): (h["version"], h["chain"]) for h in event["heads"]}
        given = digest_input(heads, event["previous"])
        assert hashlib.sha256(given).hexdigest() == seal(heads, event["previous"])
        assert seal(heads, event["previous"]) == event["digest"]
        out.append(
            {
                "line": number,
                "session": event["number"],
                "heads": event["heads"],
                "previous": event["previous"],
                "input": given.decode(),
                "digest": event["digest"],
            }
        )
    return out


def read_values(block: bytes, sides: int) -> list[int]:
    """The values a block is read as: its bytes, or (a die of over 256 sides) its 2-byte
    big-endian values."""
    if sides <= 256:
        return list(block)
    return [int.from_bytes(block[i : i + 2], "big") for i in range(0, len(block), 2)]


def die_trace(roll_key: bytes, counter: int, lane_bytes: bytes, sides: int) -> dict[str, Any]:
    """One die as drawn: every block tried (its counter, message and values, the values
    refused before the one taken), the face, and the next counter."""
    blocks = []
    while True:
        message = counter.to_bytes(8, "big") + lane_bytes
        block = hmac.new(roll_key, message, hashlib.sha256).digest()
        span = 256 if sides <= 256 else 65536
        limit = span - span % sides
        values = read_values(block, sides)
        taken = next((v for v in values if v < limit), None)
        refused = values[: values.index(taken)] if taken is not None else values
        drawn = face(block, sides)
        assert drawn == (None if taken is None else taken % sides + 1)
        blocks.append(
            {
                "counter": counter,
                "message_hex": message.hex(),
                "block": block.hex(),
                "limit": limit,
                "rejected": refused,
                "value": taken,
                "face": drawn,
            }
        )
        counter += 1
        if drawn is not None:
            return {"sides": sides, "face": drawn, "blocks": blocks, "next": counter}


def session_dice(rows: list[dict[str, Any]], number: int, kept: bytes) -> dict[str, Any]:
    """A session's committed dice: the commitment from the secrets, the signed entropy and its
    mix, every committed roll die by die, the hidden rolls' Merkle paths, the reveal."""
    roll_seed, hidden_seed = kept[:32], kept[32:]
    events = [(r["topic"], r["event"]) for r in rows if r["stream"] == rows[0]["stream"]]
    (committed,) = [
        e["event"] for t, e in events if t == COMMITTED and e["event"]["session"] == number
    ]
    root = hidden_root(hidden_seed)
    assert root == committed["hidden_root"]
    assert commitment(roll_seed, root) == committed["seed_hash"]
    keys = {e["event"]["name"]: e["event"]["key"] for t, e in events if t.endswith("KeyRegistered")}
    signed = []
    for topic, body in events:
        added = body["event"]
        if topic != ENTROPY or added["session"] != number:
            continue
        message = entropy_message(committed["seed_hash"], added["by"], added["words"])
        assert signature_holds(keys[added["by"]], message, added["signature"])
        signed.append(
            {
                "member": added["by"],
                "words": added["words"],
                "public_key": keys[added["by"]],
                "message": message.decode(),
                "message_hex": message.hex(),
                "signature": added["signature"],
            }
        )
    counted = [(s["member"], s["words"], s["signature"]) for s in signed]
    mix = json.dumps(sorted(list(c) for c in counted), ensure_ascii=False, separators=(",", ":"))
    entropy = mixed_signed(counted)
    assert entropy == (hashlib.sha256(mix.encode()).hexdigest() if counted else "")
    roll_key = key(roll_seed, entropy)
    shown = {
        body["event"]["ruling"]: body["event"]
        for topic, body in events
        if topic == HIDDEN_SHOWN and body["event"]["session"] == number
    }
    rolls, proofs = [], []
    for topic, body in events:
        made = body["event"]
        if topic != MADE or body["session"] != number or made["counter"] is None:
            continue
        sides = tuple(d["sides"] for d in made["dice"])
        if made["leaf"] is not None:
            event = shown[made["number"]]
            leaf = bytes.fromhex(event["leaf_key"])
            assert leaf == leaf_key(hidden_seed, made["leaf"])
            assert tuple(event["proof"]) == hidden_proof(hidden_seed, made["leaf"])
            assert root_from(leaf, made["leaf"], event["proof"]) == root
            proofs.append(merkle_path(made["number"], made["leaf"], leaf, event["proof"]))
            die_key, lane_bytes = key(leaf, entropy), b""
        elif made["sealed"] is not None:
            die_key, lane_bytes = sealed_key(roll_key, made["seal"]), lane(made["lane"])
        else:
            die_key, lane_bytes = roll_key, lane(made["lane"])
        counter, dice = made["counter"], []
        for d in made["dice"]:
            traced = die_trace(die_key, counter, lane_bytes, d["sides"])
            assert traced["face"] == d["face"]
            counter = traced.pop("next")
            dice.append(traced)
        faces, draws = replay(die_key, made["counter"], sides, lane_bytes)
        assert faces == tuple(d["face"] for d in made["dice"])
        assert draws == made["draws"]
        assert counter - made["counter"] == draws
        rolls.append(
            {
                "ruling": made["number"],
                "actor": body["actor"],
                "lane": made["lane"],
                "leaf": made["leaf"],
                "key": die_key.hex(),
                "counter": made["counter"],
                "draws": made["draws"],
                "dice": dice,
            }
        )
        if made["sealed"] is not None:
            rolls[-1]["sealed"] = through_discord(rows, body, committed, roll_key)
    (reveal,) = [e["event"] for t, e in events if t == REVEALED and e["event"]["session"] == number]
    assert reveal["seed"] == roll_seed.hex()
    return {
        "session": number,
        "protocol": committed["protocol"],
        "roll_seed": roll_seed.hex(),
        "hidden_seed": hidden_seed.hex(),
        "leaves": [
            {
                "index": i,
                "leaf_key": leaf_key(hidden_seed, i).hex(),
                "leaf_hash": hashlib.sha256(b"\x00" + leaf_key(hidden_seed, i)).hexdigest(),
            }
            for i in (0, 1)
        ],
        "hidden_root": root,
        "commitment_input_hex": (roll_seed + bytes.fromhex(root)).hex(),
        "commitment": committed["seed_hash"],
        "signed": signed,
        "mix_input": mix if counted else "",
        "entropy": entropy,
        "roll_key": roll_key.hex(),
        "rolls": rolls,
        "merkle_proofs": proofs,
        "example_proof": example_proof(hidden_seed, EXAMPLE_LEAF),
        "reveal": {
            "seed": reveal["seed"],
            "lanes": reveal["lanes"],
            "hidden": reveal["hidden"],
            "sealed": reveal["sealed"],
        },
    }


def through_discord(
    rows: list[dict[str, Any]], body: dict[str, Any], committed: dict[str, Any], roll_key: bytes
) -> dict[str, Any]:
    """A roll sealed through Discord, as a checker reads it: the text Discord signed, cut into
    its timestamp and body, the key recorded at the channel's link, the account linked to the
    roller, the slash command's words and options, the sealed key ``K_s`` and its input."""
    made = body["event"]
    assert made["interaction"], "the vectors' one sealed roll is sealed through Discord"
    signed, seal = made["interaction"], made["seal"]
    timestamp, text = signed_parts(signed)
    sent = interaction_body(signed)
    campaign = [r["event"] for r in rows if r["stream"] == rows[0]["stream"]]
    keys = {
        e["event"]["channel"]: e["event"]["key"]
        for e in campaign
        if "key" in e["event"] and "platform" in e["event"]
    }
    (account,) = {
        e["event"]["user"]
        for e in campaign
        if e["event"].get("name") == made["lane"] and "user" in e["event"]
    }
    (at,) = [e["at"] for e in campaign if e["event"].get("seed_hash") == committed["seed_hash"]]
    key = keys[sent["channel_id"]]
    assert signature_holds(key, signed.encode(), seal)
    assert not signature_holds(key, text.encode(), seal)  # the timestamp is signed too
    options = sent["data"]["options"]
    return {
        "count": made["sealed"],
        "interaction": signed,
        "interaction_hex": signed.encode().hex(),
        "timestamp": timestamp,
        "body": text,
        "channel": sent["channel_id"],
        "application_key": key,
        "signature": seal,
        "type": sent["type"],
        "id": sent["id"],
        "user": sent["member"]["user"]["id"],
        "linked_account": account,
        "words": [sent["data"]["name"]],
        "options": {o["name"]: o["value"] for o in options},
        "args": canonical_json(json.loads(made["params"])["args"]).decode(),
        "committed_at": at,
        "not_before": int(datetime.fromisoformat(at).timestamp()),
        "roll_key": roll_key.hex(),
        "sealed_key": sealed_key(roll_key, seal).hex(),
    }


def example_proof(hidden_seed: bytes, index: int) -> dict[str, Any]:
    """The path of a leaf no roll used (never in the log: the hidden seed is never revealed),
    whose index turns left and right on the way up."""
    leaf, proof = leaf_key(hidden_seed, index), hidden_proof(hidden_seed, index)
    assert root_from(leaf, index, proof) == hidden_root(hidden_seed)
    return merkle_path(None, index, leaf, list(proof))


def merkle_path(ruling: int | None, index: int, leaf: bytes, proof: list[str]) -> dict[str, Any]:
    """A revealed hidden key's path to the root, node by node, from the leaf up."""
    node = hashlib.sha256(b"\x00" + leaf).digest()
    steps = []
    for depth in range(HIDDEN_DEPTH):
        sibling = bytes.fromhex(proof[depth])
        right = (index >> depth) & 1  # this node is its parent's right child
        pair = sibling + node if right else node + sibling
        node = hashlib.sha256(b"\x01" + pair).digest()
        steps.append(
            {"depth": depth, "sibling": proof[depth], "node_is": "right" if right else "left"}
        )
        steps[-1]["parent"] = node.hex()
    return {
        "ruling": ruling,
        "leaf": index,
        "leaf_key": leaf.hex(),
        "leaf_hash": hashlib.sha256(b"\x00" + leaf).hexdigest(),
        "path": steps,
        "root": node.hex(),
    }


def values(lines: list[str], kept: dict[int, bytes], digest: str) -> dict[str, Any]:
    header = json.loads(lines[0])
    rows = [json.loads(line) for line in lines[1:]]
    chained, geneses = links(rows)
    heads = heads_of(rows)
    given = digest_input(heads)
    assert hashlib.sha256(given).hexdigest() == digest == header["digest"]
    return {
        "about": (
            "Every value a checker of docs/vectors/campaign.jsonl computes, as docs/format.md "
            "says to compute it; written by `python -m tests.vectors.build` with the engine's "
            "own functions, and recomputed from docs/format.md alone by "
            "tests/vectors/test_vectors.py."
        ),
        "inputs": {
            "clock": f"{STARTED_AT.isoformat()}, one minute more after each ruling",
            "stream_ids": "UUID version 4 made of SHA-256('campaign-log vectors id N')[:16]",
            "dice_secrets": "SHA-256('campaign-log vectors secret N'), N = 1, 2... as drawn",
            "discord": {
                "application_seed": fixed("campaign-log vectors discord application").hex(),
                "application_key": public_hex(application_key()),
                "channel": CHANNEL,
                "ana_account": ANA_ACCOUNT,
                "timestamp": SENT,
                "body": INTERACTION,
            },
            "player_keys": {
                member: {
                    "private_seed": fixed(f"campaign-log vectors key {member}").hex(),
                    "public_key": public_hex(private_key(member)),
                }
                for member in WORDS
            },
        },
        "header": header,
        "genesis": geneses,
        "links": chained,
        "digest": {
            "heads": [
                [str(s), v, c] for s, (v, c) in sorted(heads.items(), key=lambda h: str(h[0]))
            ],
            "input": given.decode(),
            "digest": digest,
        },
        "seals": seals(rows),
        "dice": [session_dice(rows, number, secret) for number, secret in sorted(kept.items())],
    }


def written() -> Iterator[tuple[str, str]]:
    """The files of docs/vectors, by name, as the code writes them now."""
    lines, kept, digest = played()
    yield EXPORT, "\n".join(lines) + "\n"
    yield VALUES, json.dumps(values(lines, kept, digest), ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, text in written():
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"wrote {FOLDER / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
