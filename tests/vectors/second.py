"""A second implementation of docs/format.md, written from the page alone: it imports nothing of
campaign-log, only the standard library and ``cryptography`` for Ed25519. It checks an export's
chains, digest, seals and committed dice (protocols 2 to 4, with the players' sealed rolls and
the rolls sealed through Discord) and gives every value it computed on the way, for
``tests/vectors/test_vectors.py`` to compare with the vectors and with the engine.

Each function names the section of docs/format.md it follows."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

LEAVES, DEPTH = 1024, 10

# --- Conventions ---------------------------------------------------------------------------


def canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no whitespace, UTF-8 as it is, the short escapes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def mac(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


def u64be(number: int) -> bytes:
    return number.to_bytes(8, "big")


# --- The export file --------------------------------------------------------------------------


def read(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the event lines (each with its line number), blank lines skipped."""
    header: dict[str, Any] | None = None
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        value = json.loads(line)
        assert isinstance(value, dict), number
        if header is None:
            assert value["format"] == "campaign-log/1"
            header = value
        else:
            rows.append({**value, "line": number})
    assert header is not None
    return header, rows


# --- Links ------------------------------------------------------------------------------------


def genesis(stream: str) -> str:
    return sha256(f"campaign-log:{stream}".encode()).hex()


def link_input(
    previous: str, stream: str, version: int, topic: str, event: dict[str, Any]
) -> bytes:
    """A link's input: the text "campaign-log link 2", then the place, then the body's digest."""
    body = canonical({key: value for key, value in event.items() if key != "chain"})
    place = f"campaign-log link 2\x00{previous}\x00{stream}\x00{version}\x00{topic}\x00"
    return place.encode() + sha256(body)


def link_input_over_body(
    previous: str, stream: str, version: int, topic: str, event: dict[str, Any]
) -> bytes:
    """A link of the first kind's input (rows written before 2026-12-06): the body itself."""
    body = canonical({key: value for key, value in event.items() if key != "chain"})
    return f"{previous}\x00{stream}\x00{version}\x00{topic}\x00".encode() + body


# --- Seals and the export's digest ------------------------------------------------------------


def heads_input(heads: list[list[Any]], previous: str = "") -> bytes:
    listed = sorted(heads)
    return canonical(listed if not previous else {"heads": listed, "previous": previous})


# --- Committed dice ---------------------------------------------------------------------------


def leaf_key(hidden_seed: bytes, index: int) -> bytes:
    return mac(hidden_seed, u64be(index))


def leaf_hash(key: bytes) -> bytes:
    return sha256(b"\x00" + key)


def node(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


def tree_root(hidden_seed: bytes) -> bytes:
    level = [leaf_hash(leaf_key(hidden_seed, i)) for i in range(LEAVES)]
    while len(level) > 1:
        level = [node(level[i], level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


def walk_up(key: bytes, index: int, proof: list[str]) -> list[bytes]:
    """The nodes from the leaf's parent to the root: at depth d the node is a right child when
    bit d of the index is 1."""
    here, nodes = leaf_hash(key), []
    for depth, sibling in enumerate(proof):
        other = bytes.fromhex(sibling)
        here = node(other, here) if (index >> depth) & 1 else node(here, other)
        nodes.append(here)
    return nodes


def commitment(roll_seed: bytes, root: bytes) -> str:
    return sha256(roll_seed + root).hex()


def signed_text(committed: str, member: str, words: str) -> bytes:
    return f"campaign-log entropy 2\n{committed}\n{member}\n{words}".encode()


def signature_holds(public_key: str, message: bytes, signature: str) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def sealed_text(committed: str, member: str, sealed: int, command: str, args: Any) -> bytes:
    """What a player signs to seal a roll (protocol 3), the arguments in canonical JSON."""
    text = f"campaign-log roll 3\n{committed}\n{member}\n{sealed}\n{command}\n"
    return text.encode() + canonical(args)


# --- Sealed through Discord -------------------------------------------------------------------


def interaction_parts(signed: str) -> tuple[str, str]:
    """The timestamp (the decimal digits before the first ``{``) and the raw body."""
    cut = signed.find("{")
    return (signed, "") if cut < 0 else (signed[:cut], signed[cut:])


@dataclass
class Links:
    """What the campaign stream linked so far: each Discord channel's application key (``""``:
    none) and each member's Discord account (an account belongs to one member)."""

    keys: dict[str, str] = field(default_factory=dict)
    accounts: dict[str, str] = field(default_factory=dict)

    def read(self, topic: str, event: dict[str, Any]) -> None:
        if event.get("platform", "discord") != "discord":
            return
        if topic == "ChannelLinked":
            self.keys[event["channel"]] = event.get("key", "")
        elif topic == "ChannelUnlinked":
            self.keys.pop(event["channel"], None)
        elif topic == "MemberLinked":
            self.accounts = {
                m: a for m, a in self.accounts.items() if m != event["name"] and a != event["user"]
            }
            if event["user"]:
                self.accounts[event["name"]] = event["user"]


def options_give(words: list[str], options: dict[str, Any], command: str, args: Any) -> bool:
    """Check 3 as far as it needs no rules: the words spell the header's command, no ``faces``
    nor a true ``hidden``, and each other option (the author's ``by`` aside) is the argument of
    its name, a list argument written comma-separated."""
    if " ".join(words) != command or "faces" in options or options.get("hidden") is True:
        return False
    for name, value in options.items():
        if name in ("hidden", "by"):
            continue
        if name not in args:
            return False
        given = args[name]
        if isinstance(given, list) and isinstance(value, str):
            if [str(item) for item in given] != [part.strip() for part in value.split(",")]:
                return False
        elif given != value:
            return False
    return True


def slash_command(data: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """The command's words (its name, then each lone subcommand's) and its innermost options."""
    words, options = [data.get("name")], data.get("options") or []
    while len(options) == 1 and options[0].get("type") in (1, 2):
        words.append(options[0].get("name"))
        options = options[0].get("options") or []
    return [str(w) for w in words], {o["name"]: o.get("value") for o in options}


def discord_problem(
    event: dict[str, Any], links: Links, used: set[str], committed_at: str
) -> tuple[str | None, dict[str, Any]]:
    """The first of the five checks a roll sealed through Discord fails (None: it holds), and
    what the checks read on the way."""
    signed, seal, member = event["interaction"], event["seal"], event["lane"]
    timestamp, raw = interaction_parts(signed)
    try:
        body = json.loads(raw)
    except ValueError:
        body = {}
    body = body if isinstance(body, dict) else {}
    channel = body.get("channel_id", "")
    key = links.keys.get(channel, "")
    member_of = body.get("member")  # in a server; outside one, the body's own `user`
    user = member_of.get("user") if isinstance(member_of, dict) else body.get("user")
    user = user if isinstance(user, dict) else {}
    data = body.get("data") if isinstance(body.get("data"), dict) else {}
    words, options = slash_command(data)
    not_before = math.floor(datetime.fromisoformat(committed_at).timestamp())
    read = {
        "timestamp": timestamp,
        "body": raw,
        "channel": channel,
        "application_key": key,
        "id": body.get("id"),
        "user": user.get("id"),
        "linked_account": links.accounts.get(member),
        "words": words,
        "options": options,
        "not_before": not_before,
    }
    args = json.loads(event["params"])["args"]
    if not (
        key
        and timestamp.isascii()
        and timestamp.isdigit()
        and signature_holds(key, signed.encode(), seal)
    ):
        return "not signed by the application linked with its channel", read
    if body.get("type") != 2 or not isinstance(body.get("id"), str) or not data:
        return "not a slash command with an id", read
    if user.get("id") is None or user.get("id") != links.accounts.get(member):
        return f"not sent by {member}'s linked account", read
    if not options_give(words, options, event["command"], args):
        return "not the command and arguments recorded", read
    if body["id"] in used:
        return f"interaction {body['id']} sealed another roll of the session", read
    if int(timestamp) < not_before:
        return "sent before the session's commitment was recorded", read
    return None, read


def mix_input(counted: list[list[str]]) -> bytes:
    return canonical(sorted(counted))


def entropy(counted: list[list[str]]) -> str:
    return sha256(mix_input(counted)).hex() if counted else ""


def roll_key(secret: bytes, mixed: str) -> bytes:
    """The roll key (``secret`` the roll seed) or a hidden roll's key (``secret`` its leaf key):
    HMAC over ``E``'s text."""
    return mac(secret, mixed.encode())


def block(key: bytes, counter: int, lane: str | None) -> bytes:
    return mac(key, u64be(counter) + (lane.encode() if lane is not None else b""))


def values_of(data: bytes, sides: int) -> list[int]:
    if sides <= 256:
        return list(data)
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, 32, 2)]


def limit_of(sides: int) -> int:
    span = 256 if sides <= 256 else 65536
    return span - span % sides


@dataclass
class Die:
    sides: int
    face: int
    blocks: list[dict[str, Any]]
    next: int


def die(key: bytes, counter: int, lane: str | None, sides: int) -> Die:
    """One die from ``counter`` on: every block read, the values rejected before the one taken."""
    tried = []
    while True:
        data = block(key, counter, lane)
        values, limit = values_of(data, sides), limit_of(sides)
        taken = next((v for v in values if v < limit), None)
        rejected = values if taken is None else values[: values.index(taken)]
        face = None if taken is None else taken % sides + 1
        message = u64be(counter) + (lane.encode() if lane is not None else b"")
        tried.append(
            {
                "counter": counter,
                "message_hex": message.hex(),
                "block": data.hex(),
                "limit": limit,
                "rejected": rejected,
                "value": taken,
                "face": face,
            }
        )
        counter += 1
        if face is not None:
            return Die(sides, face, tried, counter)


# --- The whole check ---------------------------------------------------------------------------


@dataclass
class Session:
    """One commitment of a session and what its rolls showed."""

    number: int
    committed: dict[str, Any]
    committed_at: str = ""  # the DiceCommitted row's `at`
    interactions: set[str] = field(default_factory=set)  # ids of the interactions that sealed
    signed: list[dict[str, Any]] = field(default_factory=list)
    unsigned: list[tuple[str, str]] = field(default_factory=list)
    lanes: dict[str, int] = field(default_factory=dict)
    seals: dict[str, int] = field(default_factory=dict)  # protocol 3: each member's next seal
    leaves: int = 0
    rolls: list[dict[str, Any]] = field(default_factory=list)
    reveal: dict[str, Any] | None = None
    ended: bool = False


@dataclass
class Checked:
    links: list[dict[str, Any]] = field(default_factory=list)
    geneses: dict[str, str] = field(default_factory=dict)
    heads: dict[str, list[Any]] = field(default_factory=dict)
    digest: str = ""
    seals: list[dict[str, Any]] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def check(text: str) -> Checked:
    """Every check of docs/format.md that needs no rules: links, digest, seals, dice."""
    header, rows = read(text)
    out = Checked()
    stored: dict[tuple[str, int], str] = {}
    for row in rows:  # Links
        stream, version, topic, event = row["stream"], row["version"], row["topic"], row["event"]
        previous = out.heads[stream][2] if stream in out.heads else genesis(stream)
        if stream not in out.heads:
            out.geneses[stream] = previous
        expected = out.heads[stream][1] + 1 if stream in out.heads else 1
        if version != expected:
            out.problems.append(f"line {row['line']}: version {expected} is missing")
        given = link_input(previous, stream, version, topic, event)
        link = sha256(given).hex()
        older = sha256(link_input_over_body(previous, stream, version, topic, event)).hex()
        if event.get("chain") not in (link, older):
            out.problems.append(f"line {row['line']}: the link does not hold")
        out.links.append({"line": row["line"], "input_hex": given.hex(), "link": link})
        out.heads[stream] = [stream, version, event.get("chain")]
        stored[(stream, version)] = event.get("chain", "")
    out.digest = sha256(heads_input(list(out.heads.values()))).hex()  # The export's digest
    if out.digest != header["digest"] or len(rows) != header["events"]:
        out.problems.append("the header's digest or count is not the file's")
    campaign = [r for r in rows if r["stream"] == header["campaign_id"]]
    previous_seal = ""
    for row in campaign:  # Seals
        if row["topic"] != "domain.events:SessionSealed":
            continue
        sealed = row["event"]["event"]
        heads = [[h["stream"], h["version"], h["chain"]] for h in sealed["heads"]]
        if any(stored.get((s, v)) != c for s, v, c in heads):
            out.problems.append(f"seal {sealed['number']}: a head is not the stored one")
        given = heads_input(heads, sealed["previous"])
        digest = sha256(given).hex()
        if digest != sealed["digest"] or sealed["previous"] != previous_seal:
            out.problems.append(f"seal {sealed['number']}: digest or chain of seals")
        previous_seal = sealed["digest"]
        out.seals.append({"session": sealed["number"], "input": given.decode(), "digest": digest})
    _dice(campaign, out)
    return out


def _dice(campaign: list[dict[str, Any]], out: Checked) -> None:
    """Committed dice, protocol 2: entropy, counters, faces, hidden keys, the reveal."""
    current: dict[int, Session] = {}
    links = Links()
    seats: dict[str, str] = {}
    own: dict[str, bool] = {}  # whether the key on the seat was put there from its own client
    shown = {
        r["event"]["event"]["ruling"]: r["event"]["event"]
        for r in campaign
        if r["topic"] == "domain.events:HiddenDiceRevealed"
    }
    for row in campaign:
        topic, body = row["topic"].split(":")[1], row["event"]
        event = body["event"]
        if topic == "DiceCommitted":
            assert event["protocol"] in (2, 3, 4), "this checker reads protocols 2 to 4 only"
            current[event["session"]] = Session(event["session"], event, body["at"])
            out.sessions.append(current[event["session"]])
        elif topic in ("ChannelLinked", "ChannelUnlinked", "MemberLinked"):
            links.read(topic, event)
        elif topic in ("MemberAdded", "MemberRemoved"):
            seats.pop(event["name"], None)
        elif topic == "MemberKeyRegistered":
            seats[event["name"]] = event["key"]
            own[event["name"]] = bool(event.get("signed_in"))
        elif topic == "EntropyAdded" and event["session"] in current:
            session = current[event["session"]]
            message = signed_text(session.committed["seed_hash"], event["by"], event["words"])
            keyboard = session.committed["protocol"] >= 4 and not own.get(event["by"], False)
            if not event["signature"] or keyboard:  # protocol 4: a keyboard key's words too
                session.unsigned.append((event["by"], event["words"]))
            elif signature_holds(seats.get(event["by"], ""), message, event["signature"]):
                session.signed.append({**event, "message": message, "key": seats[event["by"]]})
            else:
                out.problems.append(f"{event['by']}'s signature does not hold")
        elif topic == "DiceRevealed" and event["session"] in current:
            current[event["session"]].reveal = event
        elif topic == "SessionEnded" and event["number"] in current:
            current[event["number"]].ended = True
        elif topic == "RulingMade" and event["counter"] is not None:
            session = current[body["session"]]
            if session.ended:
                continue
            roll = {**event, "actor": body["actor"]}
            if event.get("sealed") is not None:  # protocol 3: the roller's own seal
                member, sealed = event["lane"], event["sealed"]
                if member != body["actor"] or sealed != session.seals.get(member, 0):
                    out.problems.append(f"ruling {event['number']}: seal out of sequence")
                session.seals[member] = sealed + 1
                args = json.loads(event["params"])["args"]
                text = sealed_text(
                    session.committed["seed_hash"], member, sealed, event["command"], args
                )
                if event.get("interaction"):  # sealed through Discord
                    problem, roll["discord"] = discord_problem(
                        event, links, session.interactions, session.committed_at
                    )
                    session.interactions.add(str(roll["discord"]["id"]))
                    if problem is not None:
                        out.problems.append(f"ruling {event['number']}: {problem}")
                elif not signature_holds(seats.get(member, ""), text, event["seal"]):
                    out.problems.append(f"ruling {event['number']}: the seal is not {member}'s")
            elif event["leaf"] is not None:
                if (event["leaf"], event["counter"]) != (session.leaves, 0):
                    out.problems.append(f"ruling {event['number']}: leaf out of sequence")
                session.leaves = event["leaf"] + 1
                roll["shown"] = shown.get(event["number"])
            else:
                if event["lane"] != body["actor"]:
                    out.problems.append(f"ruling {event['number']}: another member's lane")
                if event["counter"] != session.lanes.get(event["lane"], 0):
                    out.problems.append(f"ruling {event['number']}: counter out of sequence")
                session.lanes[event["lane"]] = event["counter"] + event["draws"]
            session.rolls.append(roll)
    for session in out.sessions:
        _rolls(session, out)


def _rolls(session: Session, out: Checked) -> None:
    """Each roll recomputed from the revealed seed (or its revealed hidden key)."""
    reveal = session.reveal
    if reveal is None:
        return
    committed = session.committed
    roll_seed, root = bytes.fromhex(reveal["seed"]), bytes.fromhex(committed["hidden_root"])
    if commitment(roll_seed, root) != committed["seed_hash"]:
        out.problems.append(f"session {session.number}: the seed is not the one committed")
        return
    mixed = entropy([[s["by"], s["words"], s["signature"]] for s in session.signed])
    for roll in session.rolls:
        if roll["leaf"] is not None:
            hidden = roll["shown"]
            if hidden is None:
                continue  # never revealed: a warning, nothing to check
            key_bytes = bytes.fromhex(hidden["leaf_key"])
            if walk_up(key_bytes, roll["leaf"], hidden["proof"])[-1] != root:
                out.problems.append(f"ruling {roll['number']}: its hidden key was not committed")
            key, lane = roll_key(key_bytes, mixed), None
        elif roll.get("sealed") is not None:
            key = mac(roll_key(roll_seed, mixed), bytes.fromhex(roll["seal"]))
            lane = roll["lane"]
        else:
            key, lane = roll_key(roll_seed, mixed), roll["lane"]
        counter, dice = roll["counter"], []
        for recorded in roll["dice"]:
            drawn = die(key, counter, lane, recorded["sides"])
            counter = drawn.next
            dice.append(drawn)
        faces = [d.face for d in dice]
        if faces != [d["face"] for d in roll["dice"]] or counter - roll["counter"] != roll["draws"]:
            out.problems.append(f"ruling {roll['number']}: the dice do not follow from the seed")
        roll["key"], roll["drawn"] = key.hex(), dice
    lanes = sorted([member, next_counter] for member, next_counter in session.lanes.items())
    if [list(pair) for pair in reveal["lanes"]] != lanes or reveal["hidden"] != session.leaves:
        out.problems.append(f"session {session.number}: the reveal's counters are not the rolls'")
    seals = sorted([member, count] for member, count in session.seals.items())
    if [list(pair) for pair in reveal.get("sealed", [])] != seals:
        out.problems.append(f"session {session.number}: the reveal's seals are not the rolls'")
