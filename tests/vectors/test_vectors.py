"""docs/format.md, its vectors and the code say the same: every value of docs/vectors/vectors.json
is recomputed by a second implementation written from the page alone (``tests.vectors.second``,
which imports nothing of the engine), the engine's own functions and `campaign verify-dice` give
the same, and the engine, run again, writes the vectors byte for byte."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.vectors import second

FOLDER = Path(__file__).parents[2] / "docs"
VECTORS = FOLDER / "vectors"


@cache
def export_text() -> str:
    return (VECTORS / "campaign.jsonl").read_text(encoding="utf-8")


@cache
def vectors() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
    return loaded


@cache
def checked() -> second.Checked:
    return second.check(export_text())


def sessions() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = vectors()["dice"]
    return found


def rolls() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(s, roll) for s in sessions() for roll in s["rolls"]]


# --- the second implementation, from the page alone ----------------------------------------


def test_the_second_implementation_finds_the_export_intact() -> None:
    """Every link, the digest, both seals and every committed die hold by the page's rules."""
    assert [] == checked().problems
    assert len(vectors()["links"]) == len(checked().links) == vectors()["header"]["events"]


def test_every_link_and_its_input_bytes() -> None:
    """Each line's link input (previous link, stream, version, topic, canonical body) and link."""
    header, rows = second.read(export_text())
    assert vectors()["header"] == header
    expected = {s: g["link"] for s, g in vectors()["genesis"].items()}
    assert expected == checked().geneses
    for given, vector in zip(rows, vectors()["links"], strict=True):
        assert (given["line"], given["stream"], given["version"], given["topic"]) == (
            vector["line"],
            vector["stream"],
            vector["version"],
            vector["topic"],
        )
        body = second.canonical({k: v for k, v in given["event"].items() if k != "chain"})
        assert vector["body"].encode() == body
        computed = second.link_input(
            vector["previous"], given["stream"], given["version"], given["topic"], given["event"]
        )
        assert vector["input_hex"] == computed.hex()
        assert vector["body_digest"] == hashlib.sha256(body).hexdigest() == computed[-32:].hex()
        assert vector["link"] == hashlib.sha256(computed).hexdigest() == given["event"]["chain"]
        older = second.link_input_over_body(
            vector["previous"], given["stream"], given["version"], given["topic"], given["event"]
        )
        assert vector["link_over_body"] == hashlib.sha256(older).hexdigest()
    assert [(v["line"], v["input_hex"], v["link"]) for v in vectors()["links"]] == [
        (c["line"], c["input_hex"], c["link"]) for c in checked().links
    ]
    for stream, made in vectors()["genesis"].items():
        assert f"campaign-log:{stream}" == made["input"]
        assert made["link"] == second.genesis(stream)


def test_the_exports_digest() -> None:
    digest = vectors()["digest"]
    assert digest["input"].encode() == second.heads_input(list(checked().heads.values()))
    assert digest["digest"] == checked().digest == vectors()["header"]["digest"]
    assert sorted(digest["heads"]) == sorted(checked().heads.values())


def test_the_seals_and_their_chain() -> None:
    sealed = vectors()["seals"]
    assert [1, 2] == [s["session"] for s in sealed]
    assert "" == sealed[0]["previous"]
    assert sealed[0]["digest"] == sealed[1]["previous"]
    for vector, mine in zip(sealed, checked().seals, strict=True):
        heads = [[h["stream"], h["version"], h["chain"]] for h in vector["heads"]]
        assert vector["input"].encode() == second.heads_input(heads, vector["previous"])
        assert (vector["session"], vector["input"], vector["digest"]) == (
            mine["session"],
            mine["input"],
            mine["digest"],
        )
    assert sealed[1]["input"].startswith('{"heads":[[')
    assert sealed[0]["input"].startswith("[[")


@pytest.mark.parametrize("number", [1, 2])
def test_the_commitment_and_the_tree(number: int) -> None:
    """The commitment is over the roll seed and the raw root of the leaf keys' tree."""
    session = sessions()[number - 1]
    hidden = bytes.fromhex(session["hidden_seed"])
    root = second.tree_root(hidden)
    assert session["hidden_root"] == root.hex()
    for leaf in session["leaves"]:
        key = second.leaf_key(hidden, leaf["index"])
        assert (leaf["leaf_key"], leaf["leaf_hash"]) == (key.hex(), second.leaf_hash(key).hex())
    roll_seed = bytes.fromhex(session["roll_seed"])
    assert session["commitment_input_hex"] == (roll_seed + root).hex()
    assert session["commitment"] == second.commitment(roll_seed, root)
    assert session["reveal"]["seed"] == session["roll_seed"]
    assert session["commitment"] == checked().sessions[number - 1].committed["seed_hash"]


def test_the_merkle_paths_turn_as_the_page_says() -> None:
    """Each path's nodes from the leaf up, left or right by the index's bits, end at the root;
    a path read the other way round does not."""
    proofs = [(s, p) for s in sessions() for p in [*s["merkle_proofs"], s["example_proof"]]]
    assert {0, 1, 693} == {p["leaf"] for _, p in proofs}
    for session, proof in proofs:
        key = bytes.fromhex(proof["leaf_key"])
        assert (
            proof["leaf_key"]
            == second.leaf_key(bytes.fromhex(session["hidden_seed"]), proof["leaf"]).hex()
        )
        siblings = [step["sibling"] for step in proof["path"]]
        nodes = second.walk_up(key, proof["leaf"], siblings)
        assert [step["parent"] for step in proof["path"]] == [n.hex() for n in nodes]
        sides = ["right" if (proof["leaf"] >> d) & 1 else "left" for d in range(second.DEPTH)]
        assert sides == [step["node_is"] for step in proof["path"]]
        assert proof["root"] == session["hidden_root"] == nodes[-1].hex()
        flipped = second.walk_up(key, proof["leaf"] ^ (second.LEAVES - 1), siblings)
        assert session["hidden_root"] != flipped[-1].hex()
    revealed = {p["ruling"]: p for _, p in proofs if p["ruling"] is not None}
    rows = [r for r in second.read(export_text())[1] if r["topic"].endswith(":HiddenDiceRevealed")]
    assert {r["event"]["event"]["ruling"]: r["event"]["event"]["proof"] for r in rows} == {
        n: [step["sibling"] for step in p["path"]] for n, p in revealed.items()
    }


def test_the_signed_texts() -> None:
    """Four lines, no newline at the end, signed with the player's own key."""
    keys = vectors()["inputs"]["player_keys"]
    signed = [text for session in sessions() for text in session["signed"]]
    assert ["ana", "bo"] == [s["member"] for s in signed]
    for text in signed:
        message = second.signed_text(sessions()[0]["commitment"], text["member"], text["words"])
        assert text["message"].encode() == message
        assert text["message_hex"] == message.hex()
        assert message.count(b"\n") == 3
        assert not message.endswith(b"\n")
        private = Ed25519PrivateKey.from_private_bytes(
            bytes.fromhex(keys[text["member"]]["private_seed"])
        )
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        assert text["public_key"] == public == keys[text["member"]]["public_key"]
        assert text["signature"] == private.sign(message).hex()  # Ed25519 is deterministic
        assert second.signature_holds(public, message, text["signature"])
        assert not second.signature_holds(public, message + b" ", text["signature"])
    mine = checked().sessions[0].signed
    assert [(s["member"], s["signature"]) for s in signed] == [
        (s["by"], s["signature"]) for s in mine
    ]


@pytest.mark.parametrize("number", [1, 2])
def test_the_entropy_and_the_roll_key(number: int) -> None:
    session = sessions()[number - 1]
    counted = [[s["member"], s["words"], s["signature"]] for s in session["signed"]]
    if counted:
        assert session["mix_input"].encode() == second.mix_input(counted)
        assert "Möwe" in session["mix_input"]  # not escaped
    else:
        assert "" == session["mix_input"] == session["entropy"]
    assert session["entropy"] == second.entropy(counted)
    roll_seed = bytes.fromhex(session["roll_seed"])
    assert session["roll_key"] == second.roll_key(roll_seed, session["entropy"]).hex()


@pytest.mark.parametrize(
    ("session", "roll"), rolls(), ids=[f"ruling-{r['ruling']}" for _, r in rolls()]
)
def test_every_committed_die_block_by_block(session: dict[str, Any], roll: dict[str, Any]) -> None:
    """Each die's blocks (counter, message, bytes, limit, values rejected, value taken, face)."""
    if roll["leaf"] is None:
        key = second.roll_key(bytes.fromhex(session["roll_seed"]), session["entropy"])
        if "sealed" in roll:  # K_s, over the seal's 64 bytes
            key = second.mac(key, bytes.fromhex(roll["sealed"]["signature"]))
    else:
        leaf = second.leaf_key(bytes.fromhex(session["hidden_seed"]), roll["leaf"])
        key = second.roll_key(leaf, session["entropy"])
    assert roll["key"] == key.hex()
    counter = roll["counter"]
    for vector in roll["dice"]:
        drawn = second.die(key, counter, roll["lane"], vector["sides"])
        assert (vector["sides"], vector["face"], vector["blocks"]) == (
            drawn.sides,
            drawn.face,
            drawn.blocks,
        )
        counter = drawn.next
    assert roll["draws"] == counter - roll["counter"]
    (mine,) = [r for s in checked().sessions for r in s.rolls if r["number"] == roll["ruling"]]
    assert (roll["actor"], roll["key"]) == (mine["actor"], mine["key"])
    assert roll["dice"] == [
        {"sides": d.sides, "face": d.face, "blocks": d.blocks} for d in mine["drawn"]
    ]


def test_the_vectors_hold_the_cases_the_page_names() -> None:
    """A rejected byte, a two-byte die, a hidden roll from each of two leaves, an undone roll,
    a session with no entropy; and the reveal as the rolls left it."""
    dice = {(r["ruling"], i): d for _, r in rolls() for i, d in enumerate(r["dice"])}
    assert [252] == dice[(11, 5)]["blocks"][0]["rejected"]
    assert (469, 40468, 65000) == (
        dice[(12, 0)]["face"],
        dice[(12, 0)]["blocks"][0]["value"],
        dice[(12, 0)]["blocks"][0]["limit"],
    )
    assert [0, 1] == [r["leaf"] for _, r in rolls() if r["leaf"] is not None]
    first, later = sessions()
    assert {"lanes": [["Rosa", 7], ["ana", 6], ["bo", 1]], "hidden": 2} == {
        k: first["reveal"][k] for k in ("lanes", "hidden")
    }
    assert ([], 0, "") == (later["reveal"]["lanes"], later["reveal"]["hidden"], later["entropy"])
    undone = [r for r in second.read(export_text())[1] if r["topic"].endswith(":RulingRetracted")]
    assert [16] == [r["event"]["event"]["ruling"] for r in undone]


def sealed_through_discord() -> tuple[dict[str, Any], dict[str, Any]]:
    (found,) = [(s, r) for s, r in rolls() if "sealed" in r]
    return found


def test_the_roll_sealed_through_discord() -> None:
    """Ruling 22: ana's /dice, sealed by Discord's signature (by the application key recorded
    at the channel's link) over the timestamp and the raw body as sent; its dice from K_s."""
    session, roll = sealed_through_discord()
    sealed, given = roll["sealed"], vectors()["inputs"]["discord"]
    assert (22, "ana", "ana", 0, 0) == (
        roll["ruling"],
        roll["actor"],
        roll["lane"],
        roll["counter"],
        sealed["count"],
    )
    assert sealed["interaction"] == f"{given['timestamp']}{given['body']}"
    assert (sealed["timestamp"], sealed["body"]) == second.interaction_parts(sealed["interaction"])
    assert sealed["interaction_hex"] == sealed["interaction"].encode().hex()
    assert "Ána".encode() in bytes.fromhex(sealed["interaction_hex"])  # UTF-8 as sent
    assert sealed["body"] != second.canonical(json.loads(sealed["body"])).decode()  # not sorted
    private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(given["application_seed"]))
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    assert public == given["application_key"] == sealed["application_key"]
    assert sealed["signature"] == private.sign(sealed["interaction"].encode()).hex()
    assert second.signature_holds(public, sealed["interaction"].encode(), sealed["signature"])
    assert not second.signature_holds(public, sealed["body"].encode(), sealed["signature"])
    roll_key = second.roll_key(bytes.fromhex(session["roll_seed"]), session["entropy"])
    assert sealed["roll_key"] == session["roll_key"] == roll_key.hex()
    k_s = second.mac(roll_key, bytes.fromhex(sealed["signature"]))
    assert sealed["sealed_key"] == roll["key"] == k_s.hex()
    assert [["ana", 1]] == session["reveal"]["sealed"]
    assert ["ana", 6] in session["reveal"]["lanes"]  # a sealed roll moves no counter of a lane
    (mine,) = [r for s in checked().sessions for r in s.rolls if r["number"] == 22]
    read = mine["discord"]
    for name in ("timestamp", "body", "channel", "application_key", "id", "user", "words"):
        assert sealed[name] == read[name], name
    assert (sealed["linked_account"], sealed["options"], sealed["not_before"]) == (
        read["linked_account"],
        read["options"],
        read["not_before"],
    )
    assert sealed["user"] == sealed["linked_account"] == given["ana_account"]
    assert int(sealed["timestamp"]) >= sealed["not_before"]
    args = json.loads(sealed["args"])
    assert second.options_give(sealed["words"], sealed["options"], "dice", args)
    assert [d["face"] for d in roll["dice"]] == [d.face for d in mine["drawn"]]


def test_an_interaction_seals_one_roll() -> None:
    """Check 4: the same interaction id a second time in the commitment is named, even with
    every other check holding."""
    _, roll = sealed_through_discord()
    (row,) = [
        r
        for r in second.read(export_text())[1]
        if r["topic"].endswith(":RulingMade") and r["event"]["event"]["number"] == 22
    ]
    links = second.Links()
    links.read(
        "ChannelLinked",
        {"channel": roll["sealed"]["channel"], "key": roll["sealed"]["application_key"]},
    )
    links.read("MemberLinked", {"name": "ana", "user": roll["sealed"]["linked_account"]})
    at = roll["sealed"]["committed_at"]
    event = row["event"]["event"]
    assert (None, roll["sealed"]["id"]) == (
        second.discord_problem(event, links, set(), at)[0],
        second.discord_problem(event, links, set(), at)[1]["id"],
    )
    used = {roll["sealed"]["id"]}
    problem = f"interaction {roll['sealed']['id']} sealed another roll of the session"
    assert problem == second.discord_problem(event, links, used, at)[0]
    links.read("MemberLinked", {"name": "bo", "user": roll["sealed"]["linked_account"]})
    assert "not sent by ana's linked account" == second.discord_problem(event, links, set(), at)[0]
    links.read("ChannelUnlinked", {"channel": roll["sealed"]["channel"]})
    assert "not signed" in str(second.discord_problem(event, links, set(), at)[0])


def resigned(change: Any) -> str:
    """The export with ruling 22's interaction changed by ``change`` (its body's JSON) and
    signed again by the application's key: only what the checks read after the signature is
    wrong."""
    _, roll = sealed_through_discord()
    sealed, given = roll["sealed"], vectors()["inputs"]["discord"]
    body = json.loads(sealed["body"])
    timestamp = change(body) or sealed["timestamp"]
    text = f"{timestamp}{json.dumps(body, separators=(',', ':'), ensure_ascii=False)}"
    private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(given["application_seed"]))
    signature = private.sign(text.encode()).hex()
    lines = export_text().split("\n")
    at = next(i for i, line in enumerate(lines) if sealed["signature"] in line)
    row = json.loads(lines[at])
    row["event"]["event"]["interaction"] = text
    row["event"]["event"]["seal"] = signature
    lines[at] = json.dumps(row, ensure_ascii=False)
    return "\n".join(lines)


def _user(body: dict[str, Any]) -> None:
    body["member"]["user"]["id"] = "2200000000000000003"


def _option(body: dict[str, Any]) -> None:
    body["data"]["options"][0]["value"] = "3d10"


def _faces(body: dict[str, Any]) -> None:
    body["data"]["options"].append({"name": "faces", "type": 3, "value": "1,2"})


def _not_a_command(body: dict[str, Any]) -> None:
    body["type"] = 3


def _early(body: dict[str, Any]) -> str:
    return str(sealed_through_discord()[1]["sealed"]["not_before"] - 1)


@pytest.mark.parametrize(
    ("change", "problem", "engine_says"),
    [
        (_user, "not sent by ana's linked account", "sent by Discord account 22"),
        (_option, "not the command and arguments recorded", "with other arguments or dice"),
        (_faces, "not the command and arguments recorded", "with other arguments or dice"),
        (_not_a_command, "not a slash command with an id", "not a slash command with an id"),
        (_early, "sent before the session's commitment was recorded", "before session 1's"),
    ],
)
def test_a_discord_seal_that_is_not_the_roll_is_found_by_both(
    change: Any, problem: str, engine_says: str
) -> None:
    """Discord's signature holding is not enough: the second implementation and the engine both
    name an interaction sent by another account, asking for other dice, no slash command, or
    sent before the commitment. (The dice then follow from another K_s, named too.)"""
    from engine import verify_export

    tampered = resigned(change)
    assert f"ruling 22: {problem}" in second.check(tampered).problems
    lines = [line.encode() + b"\n" for line in tampered.split("\n") if line]
    _, report = verify_export(lines)
    found = [p for d in report.dice for p in d.problems if p.startswith("ruling 22: ")]
    assert any(engine_says in p for p in found), found


def test_a_discord_seal_changed_by_a_byte_holds_for_neither() -> None:
    """The signature is over the exact text: one byte of the body changed (a space Discord did
    not send) and the signature no longer holds, for the page's checker and the engine."""
    from engine import verify_export

    _, roll = sealed_through_discord()
    text = roll["sealed"]["interaction"]
    lines = export_text().split("\n")
    at = next(i for i, line in enumerate(lines) if roll["sealed"]["signature"] in line)
    row = json.loads(lines[at])
    row["event"]["event"]["interaction"] = text.replace('"type":2,', '"type": 2,')
    lines[at] = json.dumps(row, ensure_ascii=False)
    tampered = "\n".join(lines)
    problem = "ruling 22: not signed by the application linked with its channel"
    assert problem in second.check(tampered).problems
    _, report = verify_export(line.encode() + b"\n" for line in tampered.split("\n") if line)
    found = [p for d in report.dice for p in d.problems if p.startswith("ruling 22: ")]
    assert any("is not signed by the Discord application" in p for p in found), found


def test_the_values_the_page_quotes_are_the_vectors() -> None:
    """Every hash docs/format.md quotes (64 hex digits) is one of the vectors."""
    page = (FOLDER / "format.md").read_text(encoding="utf-8")
    quoted = set(re.findall(r"\b[0-9a-f]{64}\b", page))
    assert len(quoted) >= 6
    held = (VECTORS / "vectors.json").read_text(encoding="utf-8")
    assert [] == sorted(q for q in quoted if q not in held)


def test_a_changed_byte_is_found_by_both() -> None:
    """The second implementation is no rubber stamp: words changed in the file break the link
    of their line for it and for the engine alike."""
    from engine import verify_export

    lines = export_text().split("\n")
    at = next(i for i, line in enumerate(lines) if "a moth circles the lamp" in line)
    lines[at] = lines[at].replace("a moth circles the lamp", "a moth circles the lamb")
    tampered = "\n".join(lines)
    assert [f"line {at + 1}: the link does not hold"] == second.check(tampered).problems[:1]
    _, report = verify_export(line.encode() + b"\n" for line in tampered.split("\n") if line)
    broken = json.loads(lines[at])
    assert [(UUID(broken["stream"]), broken["version"])] == [
        (b.stream, b.version) for b in report.breaks
    ]


# --- the code agrees -----------------------------------------------------------------------------


def test_the_engine_verifies_the_vectors_export() -> None:
    """`campaign verify-dice` finds the export intact, with the seals and commitments of the
    vectors; the engine's check of a file gives the same digest."""
    from cli.main import campaign
    from engine import verify_export

    _, report = verify_export(line.encode() + b"\n" for line in export_text().splitlines())
    assert report.intact
    assert not report.findings
    assert vectors()["digest"]["digest"] == report.digest
    assert [(s["session"], s["digest"]) for s in vectors()["seals"]] == [
        (s.session, s.digest) for s in report.seals
    ]
    assert [s["commitment"] for s in sessions()] == [d.seed_hash for d in report.dice]
    result = CliRunner().invoke(
        campaign, ["--json", "verify-dice", str(VECTORS / "campaign.jsonl")]
    )
    assert 0 == result.exit_code, result.output
    said = json.loads(result.output)
    assert said["intact"]
    assert [] == said["breaks"]
    assert [s["digest"] for s in vectors()["seals"]] == [s["digest"] for s in said["seals"]]


def test_the_engines_functions_give_the_vectors() -> None:
    from domain.signatures import entropy_message
    from engine.dice.committed import (
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
    from engine.store.chain import genesis, link, link_of_digest, link_over_body, seal
    from engine.store.mapper import canonical_json

    for made in vectors()["links"]:
        body = made["body"].encode()
        place = (made["previous"], made["stream"], made["version"], made["topic"])
        assert made["link"] == link(*place, body)
        assert made["link"] == link_of_digest(*place, bytes.fromhex(made["body_digest"]))
        assert made["link_over_body"] == link_over_body(*place, body)
        assert body == canonical_json(json.loads(made["body"]))
    for stream, made in vectors()["genesis"].items():
        assert made["link"] == genesis(UUID(stream))
    heads = {UUID(s): (v, c) for s, v, c in vectors()["digest"]["heads"]}
    assert vectors()["digest"]["digest"] == seal(heads)
    for sealed in vectors()["seals"]:
        listed = {UUID(h["stream"]): (h["version"], h["chain"]) for h in sealed["heads"]}
        assert sealed["digest"] == seal(listed, sealed["previous"])
    for session in sessions():
        hidden, roll_seed = (
            bytes.fromhex(session["hidden_seed"]),
            bytes.fromhex(session["roll_seed"]),
        )
        assert session["hidden_root"] == hidden_root(hidden)
        assert session["commitment"] == commitment(roll_seed, session["hidden_root"])
        for proof in [*session["merkle_proofs"], session["example_proof"]]:
            assert [s["sibling"] for s in proof["path"]] == list(
                hidden_proof(hidden, proof["leaf"])
            )
            assert proof["leaf_key"] == leaf_key(hidden, proof["leaf"]).hex()
            assert session["hidden_root"] == root_from(
                bytes.fromhex(proof["leaf_key"]),
                proof["leaf"],
                [s["sibling"] for s in proof["path"]],
            )
        counted = [(s["member"], s["words"], s["signature"]) for s in session["signed"]]
        assert session["entropy"] == mixed_signed(counted)
        assert session["roll_key"] == key(roll_seed, session["entropy"]).hex()
        for text in session["signed"]:
            assert text["message"].encode() == entropy_message(
                session["commitment"], text["member"], text["words"]
            )
        for roll in session["rolls"]:
            secret = roll_seed if roll["leaf"] is None else leaf_key(hidden, roll["leaf"])
            rolled_with = key(secret, session["entropy"])
            if "sealed" in roll:
                rolled_with = sealed_key(rolled_with, roll["sealed"]["signature"])
                assert_the_engine_takes_the_interaction(roll)
            assert roll["key"] == rolled_with.hex()
            sides = tuple(d["sides"] for d in roll["dice"])
            lane_bytes = lane(roll["lane"]) if roll["lane"] is not None else b""
            faces, draws = replay(bytes.fromhex(roll["key"]), roll["counter"], sides, lane_bytes)
            assert (tuple(d["face"] for d in roll["dice"]), roll["draws"]) == (faces, draws)
            for d in roll["dice"]:
                for tried in d["blocks"]:
                    assert tried["face"] == face(bytes.fromhex(tried["block"]), d["sides"])


def assert_the_engine_takes_the_interaction(roll: dict[str, Any]) -> None:
    """The engine's check of a Discord seal, given what the vectors recorded, takes it (and
    gives its id); the same interaction a second time in the session it refuses."""
    from domain.errors import DomainError
    from engine.dice.interactions import check_interaction

    sealed = roll["sealed"]
    given = {
        "keys": {sealed["channel"]: sealed["application_key"]},
        "account": sealed["linked_account"],
        "system": "code-green",
        "member": roll["lane"],
        "command": "dice",
        "args": sealed["args"],
        "session": 1,
        "not_before": sealed["not_before"],
    }
    assert sealed["id"] == check_interaction(
        sealed["interaction"], sealed["signature"], used=(), **given
    )
    with pytest.raises(DomainError):
        check_interaction(sealed["interaction"], sealed["signature"], used={sealed["id"]}, **given)


def test_the_engine_writes_the_vectors_byte_for_byte() -> None:
    """Played again, the campaign exports the same file and the same values: regenerate with
    `python -m tests.vectors.build` after a deliberate change to the format."""
    from tests.vectors.build import written

    for name, text in written():
        assert (VECTORS / name).read_text(encoding="utf-8") == text, name
