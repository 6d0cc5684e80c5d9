"""The tamper matrix: a played, sealed store, tampered with directly in its SQLite file in every way
listed below. `verify` finds each kind and names its place (stream, version, ruling or session),
or the kind is one docs/dice-and-trust.md's "What verify cannot see" names, with the reason.

The story (Sprawl Goons, snapshots every 3 versions): session 1 creates Tanner with typed dice,
rolls twice from the committed seed (rulings 5 and 7), spends cash (6), records a note (8) and
undoes it (9), ends (11, sealed); session 2 rolls (14, 16, 18), spends cash (15), amends 16 (17)
and ends (20, sealed); then a note (21) after the last seal. Every read model is caught up.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch
from uuid import UUID

import pytest
from attrs import define, field, frozen

from domain.audience import GMS
from domain.errors import DomainError
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.sprawl_goons.commands import ChangeCash, CreateCharacter, MakeActionRoll
from engine import Engine
from engine.audit.verify import Report
from engine.dice.committed import key, mixed, replay
from engine.dice.sources import DiceSpec
from engine.reads.recaps import MODELS
from engine.store.chain import genesis, link, seal, stored_link
from engine.store.mapper import canonical_json, split_chain, with_chain
from engine.store.records import DIRECTORY_ID

NAME = "Docklands"
TRUST = Path(__file__).parents[2] / "docs" / "dice-and-trust.md"
SEALED = "domain.events:SessionSealed"
MADE = "domain.events:RulingMade"
REVEALED = "domain.events:DiceRevealed"
COMMITTED = "domain.events:DiceCommitted"
STRAY = UUID("5e1f5e1f-0000-4000-8000-000000000001")  # a stream no ruling wrote to
NO_SUCH_TOPIC = "domain.events:NoSuchEvent"

# What verify cannot see, each with its reason in docs/dice-and-trust.md ("What verify cannot
# see"): the test fails if one of these is found after all (then it leaves this list) or is not
# in that page.
UNDETECTABLE = {
    "delete a snapshot": "a snapshot is a cache",
    "rewrite the whole log consistently": "the whole log rewritten consistently",
    "edit the latest ruling after the last seal, chain recomputed": (
        "rulings after the last posted seal"
    ),
    "delete the latest ruling whole after the last seal": "rulings after the last posted seal",
    "delete the read models": "a deleted read model",
}


@frozen
class Played:
    db: Path
    campaign: UUID
    tanner: UUID


def play(db: Path) -> Played:
    with patch("engine.write.ledger.SNAPSHOT_INTERVAL", 3), Engine(str(db)) as e:
        e.create_campaign(NAME, "sprawl-goons", gm="Rosa")
        e.execute(NAME, StartSession())  # 2
        items = ("melee:Katana", "armour:Kevlar jacket", "lazarus")
        create = CreateCharacter(
            character="Tanner",
            player="ana",
            morphology=2,
            reaction=1,
            cognition=1,
            equilibrium=0,
            items=items,
        )
        e.execute(NAME, create, dice=DiceSpec(faces=(3, 4, 5, 2)))  # 3: cash 120
        e.execute(NAME, StartScene(stage="The container stacks"))  # 4
        e.execute(
            NAME, MakeActionRoll(character="Tanner", stat="reaction", ds="10")
        )  # 5: committed
        e.execute(NAME, ChangeCash(character="Tanner", delta=-20, reason="a bribe"))  # 6
        e.execute(
            NAME, MakeActionRoll(character="Tanner", stat="morphology", ds="12")
        )  # 7: committed
        e.execute(NAME, AddNote(text="the wrong note"))  # 8
        e.undo(NAME, reason="wrong note")  # 9
        e.execute(NAME, EndScene())  # 10
        e.execute(NAME, EndSession())  # 11: sealed
        e.execute(NAME, StartSession())  # 12
        e.execute(NAME, StartScene(stage="The clinic"))  # 13
        e.execute(NAME, MakeActionRoll(character="Tanner", stat="cognition", ds="9"))  # 14
        e.execute(NAME, ChangeCash(character="Tanner", delta=-30, reason="Dr Ng's fee"))  # 15
        e.execute(NAME, MakeActionRoll(character="Tanner", stat="reaction", ds="10"))  # 16
        e.amend(NAME, 16, {"ds": "8"}, reason="the ledge was lower")  # 17
        e.execute(NAME, MakeActionRoll(character="Tanner", stat="equilibrium", ds="7"))  # 18
        e.execute(NAME, EndScene())  # 19
        e.execute(NAME, EndSession())  # 20: sealed
        e.execute(NAME, AddNote(text="after the last seal"))  # 21
        for model in MODELS:  # as the reads keep them (a recap, a session's log, dice-stats)
            e.catch_up(model)
        campaign = e.campaign(NAME)
        report = e.verify(NAME)
        assert (report.intact, report.findings, report.breaks) == (True, (), ())
        assert tuple(MODELS) == report.models
        assert 21 == campaign.rulings
        return Played(db, campaign.id, campaign.find("Tanner").character_id)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("tamper") / "played.db")


@pytest.fixture
def played(template: Played, tmp_path: Path) -> Played:
    """A fresh copy of the played store."""
    db = tmp_path / "campaign.db"
    with sqlite3.connect(template.db) as source, sqlite3.connect(db) as target:
        source.backup(target)
    return Played(db, template.campaign, template.tanner)


# --- Tampering with the file ------------------------------------------------------------------


@define
class Row:
    old: int | None  # its version before the tampering (None: a row added by the forger)
    topic: str
    body: dict[str, Any]  # without its link


@define
class Forger:
    """Edits a store's rows directly; ``write`` stores a whole stream again, chained anew."""

    c: sqlite3.Connection
    p: Played
    rewritten: set[UUID] = field(factory=set)

    def rows(self, stream: UUID) -> list[Row]:
        query = (
            "SELECT originator_version, topic, state FROM stored_events WHERE originator_id=? "
            "ORDER BY originator_version"
        )
        found = []
        for version, topic, state in self.c.execute(query, (stream.hex,)):
            body = json.loads(state)
            body.pop("chain", None)
            found.append(Row(version, topic, body))
        return found

    def state(self, stream: UUID, version: int) -> bytes:
        query = "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=?"
        (state,) = self.c.execute(query, (stream.hex, version)).fetchone()
        return bytes(state)

    def edit(self, stream: UUID, version: int, change: Callable[[dict[str, Any]], None]) -> None:
        """Change one stored body, its link left as it was."""
        body = json.loads(self.state(stream, version))
        change(body)
        update = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?"
        self.c.execute(update, (canonical_json(body), stream.hex, version))

    def header(self, rows: list[Row], number: int) -> Row:
        return next(r for r in rows if r.topic == MADE and r.body["event"]["number"] == number)

    def write(self, stream: UUID, rows: list[Row], *, reseal: bool = False) -> None:
        """Store ``rows`` as the whole stream, numbered 1.. and chained again. On the campaign
        stream the headers' ranges there follow the new numbers; ``reseal``: every seal is
        computed again over the links stored now (and chained), and the snapshots of the
        streams rewritten and the read models are deleted, as a careful forger would. Each row
        kept stays where it was in the order recorded (its rowid, the order the read models
        read rows in); a row added goes at the end."""
        campaign = self.p.campaign
        moved = {r.old: v for v, r in enumerate(rows, start=1) if r.old is not None}
        if stream == campaign:
            for row in rows:
                if row.topic == MADE:
                    _renumber(row.body["event"], campaign, moved)
        query = "SELECT originator_version, rowid FROM stored_events WHERE originator_id=?"
        places = dict(self.c.execute(query, (stream.hex,)).fetchall())
        self.c.execute("DELETE FROM stored_events WHERE originator_id=?", (stream.hex,))
        previous, links, last_seal = genesis(stream), {}, ""
        for version, row in enumerate(rows, start=1):
            if reseal and row.topic == SEALED:
                last_seal = self._reseal(row.body["event"], stream, moved, links, last_seal)
            body = canonical_json(row.body)
            chain = link(previous, stream, version, row.topic, body)
            insert = (
                "INSERT INTO stored_events (rowid, originator_id, originator_version, topic, "
                "state) VALUES (?, ?, ?, ?, ?)"
            )
            place = places.get(row.old) if row.old is not None else None
            state = with_chain(body, chain)
            self.c.execute(insert, (place, stream.hex, version, row.topic, state))
            links[version], previous = chain, chain
        self.rewritten.add(stream)
        if reseal and stream != campaign:
            self.write(campaign, self.rows(campaign), reseal=True)
        elif reseal:
            for rewritten in self.rewritten:
                self.c.execute(
                    "DELETE FROM stored_snapshots WHERE originator_id=?", (rewritten.hex,)
                )
            self.drop_read_models()

    def drop_read_models(self) -> None:
        """Delete every read model (the next read builds them again from the log)."""
        tables = {name for (name,) in self.c.execute("SELECT name FROM sqlite_master")}
        for table in ("readmodel_documents", "readmodel_tracking"):
            if table in tables:
                self.c.execute(f"DELETE FROM {table}")

    def _reseal(
        self,
        event: dict[str, Any],
        stream: UUID,
        moved: dict[int, int],
        links: dict[int, str],
        previous: str,
    ) -> str:
        heads = {}
        for head in event["heads"]:
            at = UUID(head["stream"])
            if at == stream:
                head["version"] = max(v for old, v in moved.items() if old <= head["version"])
                head["chain"] = links[head["version"]]
            else:
                head["chain"] = stored_link(self.state(at, head["version"]))
            heads[at] = (head["version"], head["chain"])
        event["previous"] = previous
        event["digest"] = seal(heads, previous)
        return str(event["digest"])

    # snapshots

    def snapshot(self, stream: UUID, version: int | None = None) -> tuple[int, str, bytes]:
        query = (
            "SELECT originator_version, topic, state FROM stored_snapshots WHERE originator_id=?"
            " ORDER BY originator_version DESC"
        )
        for found, topic, state in self.c.execute(query, (stream.hex,)):
            if version is None or found == version:
                return found, topic, bytes(state)
        raise LookupError(version)

    def put_snapshot(
        self, stream: UUID, version: int, topic: str, body: dict[str, Any], own: str | None
    ) -> None:
        """Store a snapshot body; ``own``: the snapshot's own link as it was, or None to compute
        it again (over its head and bytes, as the engine does)."""
        raw = canonical_json(body)
        chain = own if own is not None else link(body["head"], stream, version, topic, raw)
        self.c.execute(
            "INSERT OR REPLACE INTO stored_snapshots VALUES (?, ?, ?, ?)",
            (stream.hex, version, topic, with_chain(raw, chain)),
        )


def _renumber(event: dict[str, Any], stream: UUID, moved: dict[int, int]) -> None:
    spans = []
    for span in event["touched"]:
        if UUID(span["stream"]) == stream:
            kept = [moved[v] for v in range(span["first"], span["last"] + 1) if v in moved]
            if not kept:
                continue
            span = {**span, "first": min(kept), "last": max(kept)}
        spans.append(span)
    event["touched"] = spans


def _split(state: bytes) -> tuple[str, dict[str, Any]]:
    parts = split_chain(state)
    assert parts is not None
    return parts[0], json.loads(parts[1])


# --- The kinds of tampering -------------------------------------------------------------------


@frozen
class Kind:
    name: str
    tamper: Callable[[Forger], object]
    place: dict[str, Any] | None  # what a finding names (None: the docs say why it cannot)
    campaign: str = NAME  # the name verify is asked for


def kinds(p: Played) -> Iterator[Kind]:
    c, t = p.campaign, p.tanner

    def bribe(body: dict[str, Any]) -> None:
        body["event"]["reason"] = "a gift"

    yield Kind(
        "edit a body", lambda f: f.edit(t, 7, bribe), {"stream": t, "version": 7, "ruling": 6}
    )

    def edit_and_rechain(f: Forger) -> None:
        rows = f.rows(t)
        rows[6].body["event"].update(delta=-2, after=118)  # and every later amount follows
        rows[9].body["event"].update(before=118, after=88)
        f.write(t, rows)

    yield Kind(
        "edit and rechain",
        edit_and_rechain,
        {"kind": "rewritten", "stream": t, "version": 7, "ruling": 6},
    )

    def delete(version: int) -> Callable[[Forger], object]:
        return lambda f: f.c.execute(
            "DELETE FROM stored_events WHERE originator_id=? AND originator_version=?",
            (t.hex, version),
        )

    yield Kind("delete a row", delete(13), {"stream": t, "version": 13, "ruling": 18})
    yield Kind("delete a middle row", delete(8), {"stream": t, "version": 8, "ruling": 7})

    def swap(f: Forger) -> None:
        seven, eight = f.state(t, 7), f.state(t, 8)
        update = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?"
        f.c.execute(update, (eight, t.hex, 7))
        f.c.execute(update, (seven, t.hex, 8))

    yield Kind("swap two rows", swap, {"stream": t, "version": 7})

    def reorder(f: Forger) -> None:
        update = (
            "UPDATE stored_events SET originator_version=? "
            "WHERE originator_id=? AND originator_version=?"
        )
        for old, new in ((7, 100), (8, 7), (100, 8)):
            f.c.execute(update, (new, t.hex, old))

    yield Kind("reorder versions", reorder, {"stream": t, "version": 7})

    def truncate(f: Forger) -> None:
        f.c.execute(
            "DELETE FROM stored_events WHERE originator_id=? AND originator_version>10", (t.hex,)
        )

    yield Kind("truncate a stream", truncate, {"stream": t, "version": 11, "ruling": 16})

    def forge_snapshot(f: Forger) -> None:
        version, topic, state = f.snapshot(t)
        own, body = _split(state)
        body["state"]["cash"] = 999999
        f.put_snapshot(t, version, topic, body, own)

    yield Kind("forge a snapshot", forge_snapshot, {"kind": "snapshot", "stream": t, "version": 12})

    def forge_snapshot_link(f: Forger) -> None:
        version, topic, state = f.snapshot(t)
        _, body = _split(state)
        body["head"] = stored_link(f.state(t, version - 1))
        f.put_snapshot(t, version, topic, body, None)

    yield Kind(
        "forge a snapshot's link",
        forge_snapshot_link,
        {"kind": "snapshot", "stream": t, "version": 12, "ruling": 17},
    )

    def forge_snapshot_relinked(f: Forger) -> None:
        version, topic, state = f.snapshot(t)
        _, body = _split(state)
        body["state"]["cash"] = 999999
        f.put_snapshot(t, version, topic, body, None)

    yield Kind(
        "forge a snapshot and its own link",
        forge_snapshot_relinked,
        {"kind": "snapshot", "stream": t, "version": 12, "ruling": 17},
    )

    def unlinked_snapshot(f: Forger) -> None:
        version, _, state = f.snapshot(t)
        _, body = _split(state)
        del body["head"]
        body["state"]["cash"] = 999999
        f.c.execute(  # as snapshots were written before they were linked
            "UPDATE stored_snapshots SET state=? WHERE originator_id=? AND originator_version=?",
            (canonical_json(body), t.hex, version),
        )

    yield Kind(
        "forge a snapshot in the unlinked format of older stores",
        unlinked_snapshot,
        {"kind": "snapshot", "stream": t, "version": 12, "ruling": 17},
    )

    def move_snapshot(f: Forger) -> None:
        version, _, _ = f.snapshot(t)
        f.c.execute(
            "UPDATE stored_snapshots SET originator_version=11 "
            "WHERE originator_id=? AND originator_version=?",
            (t.hex, version),
        )

    yield Kind("move a snapshot", move_snapshot, {"kind": "snapshot", "stream": t, "version": 11})

    def snapshot_past_the_end(f: Forger) -> None:
        _, topic, state = f.snapshot(t)
        _, body = _split(state)
        body["head"] = stored_link(f.state(t, 13))
        f.put_snapshot(t, 99, topic, body, None)

    yield Kind(
        "forge a snapshot past the end",
        snapshot_past_the_end,
        {"kind": "snapshot", "stream": t, "version": 99},
    )

    def hand_picked_counter(f: Forger) -> None:
        rows = f.rows(c)
        committed = next(
            r for r in rows if r.topic == COMMITTED and r.body["event"]["session"] == 2
        )
        seed = next(r for r in rows if r.topic == REVEALED and r.body["event"]["session"] == 2)
        derived = key(
            bytes.fromhex(seed.body["event"]["seed"]), mixed(committed.body["event"]["entropy"], ())
        )
        made = f.header(rows, 18).body["event"]
        faces, draws = replay(derived, 6, tuple(d["sides"] for d in made["dice"]))
        made.update(counter=6, draws=draws)
        for die, face in zip(made["dice"], faces, strict=True):
            die["face"] = face
        f.write(c, rows, reseal=True)

    yield Kind("forge a counter", hand_picked_counter, {"kind": "dice", "session": 2})

    def relabel(number: int) -> Callable[[Forger], object]:
        def change(f: Forger) -> None:
            rows = f.rows(c)
            f.header(rows, number).body["event"].update(
                provenance="physical", counter=None, draws=0
            )
            f.write(c, rows, reseal=True)

        return change

    yield Kind("relabel a committed roll as physical", relabel(14), {"kind": "dice", "session": 2})
    yield Kind(
        "relabel a session's last committed roll, everything recomputed",
        relabel(7),
        {"kind": "dice", "session": 1},  # the reveal says how many counters the rolls used
    )

    def forge_seal_chain(f: Forger) -> None:
        rows = f.rows(c)
        event = [r for r in rows if r.topic == SEALED][1].body["event"]
        event["previous"] = "ab" * 32
        heads = {UUID(h["stream"]): (h["version"], h["chain"]) for h in event["heads"]}
        event["digest"] = seal(heads, event["previous"])
        f.write(c, rows)

    yield Kind("forge the seal chain", forge_seal_chain, {"kind": "seal", "session": 2})

    def stray(stream: UUID, topic: str | None) -> Callable[[Forger], object]:
        """A row added at the end of ``stream``, chained onto it: a copy of Tanner's last
        event, or (``topic``) one of a topic no read resolves."""

        def add(f: Forger) -> None:
            copy = f.rows(t)[-1]
            body = json.loads(json.dumps(copy.body))
            if topic is not None:
                body["event"] = {"nothing": "here"}
            f.write(stream, [*f.rows(stream), Row(None, topic or copy.topic, body)])

        return add

    yield Kind(
        "add a row no read can decode, on a stream of its own",
        stray(STRAY, NO_SUCH_TOPIC),
        {"kind": "unreadable", "stream": STRAY, "version": 1},
    )
    yield Kind(
        "add a row no read can decode, at the end of the store's directory",
        stray(DIRECTORY_ID, NO_SUCH_TOPIC),
        {"kind": "replay", "stream": DIRECTORY_ID, "version": 2},
    )
    yield Kind(
        "add a copy of an event, on a stream of its own",
        stray(STRAY, None),
        {"kind": "orphan", "stream": STRAY, "version": 1},
    )

    def forge_recap(f: Forger) -> None:
        """Session 1's recap says ruling 6 spent 500 on a yacht (its read model's page edited)."""
        key = f"session/{c}/1/0"
        query = "SELECT body FROM readmodel_documents WHERE projection='recaps' AND key=?"
        (body,) = f.c.execute(query, (key,)).fetchone()
        page = json.loads(body)
        entry = next(e for e in page["rulings"] if e["ruling"] == 6)
        (spent,) = (x["event"]["event"] for x in entry["events"] if "reason" in x["event"]["event"])
        spent.update(delta=-500, after=spent["before"] - 500, reason="a yacht")  # facts, not text
        update = "UPDATE readmodel_documents SET body=? WHERE projection='recaps' AND key=?"
        f.c.execute(update, (json.dumps(page, sort_keys=True), key))

    yield Kind(
        "edit a recap in its read model",
        forge_recap,
        {"kind": "readmodel", "stream": None, "ruling": 6, "session": 1},
    )
    yield Kind("delete the read models", lambda f: f.drop_read_models(), None)

    def blank_previous(f: Forger) -> None:
        """The last seal made to look like the first of a chain: its ``previous`` blanked and
        its digest computed again over its heads alone (it holds); the campaign's chain
        computed again, its snapshots since the seal and the read models deleted, as a
        careful forger would."""
        rows = f.rows(c)
        at, row = [(v, r) for v, r in enumerate(rows, start=1) if r.topic == SEALED][-1]
        event = row.body["event"]
        event["previous"] = ""
        event["digest"] = seal(
            {UUID(h["stream"]): (h["version"], h["chain"]) for h in event["heads"]}
        )
        f.write(c, rows)
        f.c.execute(
            "DELETE FROM stored_snapshots WHERE originator_id=? AND originator_version>=?",
            (c.hex, at),
        )
        f.drop_read_models()

    yield Kind(
        "blank the last seal's previous, its digest recomputed",
        blank_previous,
        {"kind": "seal", "session": 2, "version": 38, "ruling": 20},
    )

    def edit_seal(f: Forger) -> None:
        rows = f.rows(c)
        next(r for r in rows if r.topic == SEALED).body["event"]["digest"] = "0" * 64
        f.write(c, rows)

    yield Kind("edit a seal's digest", edit_seal, {"session": 1})

    def delete_session_end(f: Forger) -> None:
        f.write(c, [r for r in f.rows(c) if r.body["ruling"] != 11], reseal=True)

    yield Kind(
        "delete a session end with its seal", delete_session_end, {"kind": "seal", "session": 1}
    )

    def orphan_header(f: Forger) -> None:
        rows = f.rows(c)
        made = f.header(rows, 7).body["event"]
        made["touched"] = [s for s in made["touched"] if UUID(s["stream"]) != t]
        f.write(c, rows, reseal=True)

    yield Kind(
        "orphan a header",
        orphan_header,
        {"kind": "orphan", "stream": t, "version": 8, "ruling": 7},
    )

    def delete_header(f: Forger) -> None:
        rows = f.rows(c)
        f.write(c, [r for r in rows if r is not f.header(rows, 7)], reseal=True)

    yield Kind("delete a header", delete_header, {"kind": "ruling", "ruling": 7})

    def rename(f: Forger) -> None:
        rows = f.rows(DIRECTORY_ID)
        for row in rows:
            if row.body["event"]["campaign_id"] == str(c):
                row.body["event"]["name"] = "Harbour"
        f.write(DIRECTORY_ID, rows)

    yield Kind(
        "rename the campaign in the directory",
        rename,
        {"kind": "directory", "stream": DIRECTORY_ID},
        campaign="Harbour",
    )

    def retopic(f: Forger) -> None:
        rows = f.rows(t)
        rows[6].topic = "domain.rulesets.sprawl_goons.events:StartingCashRolled"
        f.write(t, rows, reseal=True)

    yield Kind(
        "change a topic to another event class",
        retopic,
        {"kind": "replay", "stream": t, "version": 7, "ruling": 6},
    )

    def future_version(f: Forger) -> None:
        rows = f.rows(t)
        rows[7].body["class_version"] = 99
        f.write(t, rows, reseal=True)

    yield Kind(
        "set a future class_version",
        future_version,
        {"kind": "replay", "stream": t, "version": 8, "ruling": 7},
    )

    def duplicate(f: Forger) -> None:
        rows = f.rows(t)
        f.write(t, [*rows, Row(None, rows[9].topic, json.loads(json.dumps(rows[9].body)))])
        campaign_rows = f.rows(c)
        copy = json.loads(json.dumps(f.header(campaign_rows, 15).body))
        copy["event"]["touched"] = [{"stream": str(t), "first": 14, "last": 14}]
        f.write(c, [*campaign_rows, Row(None, MADE, copy)], reseal=True)

    yield Kind("duplicate a ruling", duplicate, {"kind": "ruling", "ruling": 15})

    def drop_reveal(f: Forger) -> None:
        rows = f.rows(c)
        kept = [r for r in rows if not (r.topic == REVEALED and r.body["event"]["session"] == 2)]
        f.write(c, kept, reseal=True)

    yield Kind("drop the dice reveal", drop_reveal, {"kind": "dice", "session": 2})

    def change_seed(f: Forger) -> None:
        rows = f.rows(c)
        revealed = next(r for r in rows if r.topic == REVEALED)
        revealed.body["event"]["seed"] = "00" * 32
        f.write(c, rows, reseal=True)

    yield Kind("change a revealed seed", change_seed, {"kind": "dice", "session": 1})

    def envelope(f: Forger) -> None:
        rows = f.rows(t)
        rows[7].body["ruling"] = 6
        f.write(t, rows, reseal=True)

    yield Kind(
        "move a row to another ruling",
        envelope,
        {"kind": "orphan", "stream": t, "version": 8, "ruling": 7},
    )

    def delete_snapshot(f: Forger) -> None:
        version, _, _ = f.snapshot(t)
        f.c.execute(
            "DELETE FROM stored_snapshots WHERE originator_id=? AND originator_version=?",
            (t.hex, version),
        )

    yield Kind("delete a snapshot", delete_snapshot, None)

    def rewrite_all(f: Forger) -> None:
        rows = f.rows(t)
        rows[6].body["event"]["reason"] = "a gift"
        f.write(t, rows, reseal=True)

    yield Kind("rewrite the whole log consistently", rewrite_all, None)

    def edit_after_seal(f: Forger) -> None:
        rows = f.rows(c)
        note = next(r for r in reversed(rows) if r.body["ruling"] == 21 and r.topic != MADE)
        note.body["event"]["text"] = "something else"
        f.write(c, rows, reseal=True)

    yield Kind(
        "edit the latest ruling after the last seal, chain recomputed", edit_after_seal, None
    )

    def delete_after_seal(f: Forger) -> None:
        f.write(c, [r for r in f.rows(c) if r.body["ruling"] != 21], reseal=True)

    yield Kind("delete the latest ruling whole after the last seal", delete_after_seal, None)


def places(report: Report) -> list[dict[str, Any]]:
    """Every place the report names, as (kind, stream, version, ruling, session)."""
    found: list[dict[str, Any]] = []
    for b in report.breaks:
        found.append(
            {"kind": "chain", "stream": b.stream, "version": b.version, "ruling": b.ruling}
        )
    found += [{"kind": "seal", "session": s.session} for s in report.seals if not s.intact]
    found += [{"kind": "dice", "session": d.session} for d in report.dice if d.problems]
    for f in report.findings:
        found.append(
            {
                "kind": f.kind,
                "stream": f.stream,
                "version": f.version,
                "ruling": f.ruling,
                "session": f.session,
            }
        )
    return found


def tampered(p: Played, kind: Kind) -> Report:
    with sqlite3.connect(p.db) as connection:
        kind.tamper(Forger(connection, p))
    with Engine(str(p.db)) as engine:
        return engine.verify(kind.campaign)


NAMES = [k.name for k in kinds(Played(Path(), UUID(int=1), UUID(int=2)))]


@pytest.mark.parametrize("name", NAMES)
def test_each_kind_of_tampering_is_found_or_listed(played: Played, name: str) -> None:
    """Found, with a finding naming its place; or one of the kinds docs/dice-and-trust.md lists
    as unseen."""
    kind = next(k for k in kinds(played) if k.name == name)
    report = tampered(played, kind)
    if kind.place is None:
        assert name in UNDETECTABLE, "neither found nor listed as undetectable"
        assert report.intact, f"found after all: take it off the list ({places(report)})"
        return
    assert not report.intact
    named = places(report)
    assert any(all(p.get(k) == v for k, v in kind.place.items()) for p in named), named


def test_the_matrix_is_at_least_twenty_kinds_found() -> None:
    found = [n for n in NAMES if n not in UNDETECTABLE]
    assert len(found) >= 20
    assert set(UNDETECTABLE) <= set(NAMES)


def test_the_docs_name_each_kind_verify_cannot_see() -> None:
    """docs/dice-and-trust.md's list says why for each kind the matrix leaves undetected."""
    text = TRUST.read_text(encoding="utf-8")
    section = text.partition("### What verify cannot see")[2].partition("\n#")[0]
    flat = re.sub(r"\s+", " ", section.replace("*", "")).lower()
    for name, reason in UNDETECTABLE.items():
        assert reason.lower() in flat, (
            f"docs/dice-and-trust.md does not say why {name!r} goes unseen"
        )


def test_a_forged_snapshot_is_not_loaded(played: Played) -> None:
    """The hostile edit: Tanner's cash in his latest snapshot raised to 999999. `show` gives
    the replayed 70, spending 500000 is refused, and verify names the snapshot."""
    with sqlite3.connect(played.db) as connection:
        next(k for k in kinds(played) if k.name == "forge a snapshot").tamper(
            Forger(connection, played)
        )
    with Engine(str(played.db)) as engine:
        assert 70 == engine.character(NAME, "Tanner", audience=GMS).cash
        with pytest.raises(DomainError) as refused:
            engine.execute(NAME, ChangeCash(character="Tanner", delta=-500000, reason="a yacht"))
        report = engine.verify(NAME)
    assert "INSUFFICIENT_CASH" == refused.value.code
    (finding,) = [f for f in report.findings if f.kind == "snapshot"]
    assert (played.tanner, 12, 17) == (finding.stream, finding.version, finding.ruling)
    assert "was edited" in finding.problem


@pytest.mark.parametrize(
    "name", ["forge a snapshot in the unlinked format of older stores", "forge a snapshot"]
)
def test_a_snapshot_without_a_link_that_holds_is_never_loaded(played: Played, name: str) -> None:
    with sqlite3.connect(played.db) as connection:
        next(k for k in kinds(played) if k.name == name).tamper(Forger(connection, played))
    with Engine(str(played.db)) as engine:
        assert engine.store.snapshots is not None
        (stored,) = engine.store.snapshots.get(played.tanner, desc=True, limit=1)
        assert ("", 12) == (stored.chain, stored.originator_version)  # type: ignore[attr-defined]
        assert 70 == engine.character(NAME, "Tanner", audience=GMS).cash


def test_a_snapshot_of_another_history_is_not_loaded(played: Played) -> None:
    """A snapshot whose link names another event than the one stored at its version (a forged
    link, or a stream rewritten under it) is not used: the load replays."""
    with sqlite3.connect(played.db) as connection:
        forger = Forger(connection, played)
        version, topic, state = forger.snapshot(played.tanner)
        _, body = _split(state)
        body["state"]["cash"] = 999999
        body["head"] = stored_link(forger.state(played.tanner, version - 1))
        forger.put_snapshot(played.tanner, version, topic, body, None)
    with Engine(str(played.db)) as engine:
        assert 70 == engine.character(NAME, "Tanner", audience=GMS).cash
