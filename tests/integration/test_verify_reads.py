"""`verify` sees what the reads see: every row of the store read as the read models read it (in
the order recorded, decoded, taken as whole rulings: ``engine.audit.log``), and every read model
the store keeps computed again from the log and compared (``engine.audit.models``). Each test
shows what a read does with the damage first, then that verify names it."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import TopicError

from cli.main import campaign as cli
from domain.audience import GMS
from domain.lifecycle import AddNote, EndScene, EndSession
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.audit.verify import Finding, Report, verify_rows
from engine.dice.sources import DiceSpec
from engine.reads.recaps import MODELS
from engine.store.campaign_store import StoredEventUnreadable, store_fault
from engine.store.chain import genesis, link
from engine.store.mapper import canonical_json, with_chain
from tests.conftest import place, scene_with_s1
from tests.examples import player as example_player
from tests.golden.test_recap_golden import SCRIPTS
from tests.postgres import fresh_schema

STRAY = UUID("5e1f5e1f-0000-4000-8000-000000000002")  # a stream no ruling wrote to
TEST, ADAPT = 6, 7  # alice's test (her versions 7 and 8) and adapt (her version 9)


def play(engine: Engine) -> str:
    """A sealed session of 'Lab' on ``engine``, every read model caught up; alice's name."""
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    roll = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    engine.execute("Lab", roll, dice=DiceSpec(faces=(2, 5)))
    engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
    engine.execute("Lab", EndScene())
    engine.execute("Lab", EndSession())
    for model in MODELS:
        engine.catch_up(model)
    report = engine.verify("Lab")
    assert (True, (), tuple(MODELS)) == (report.intact, report.findings, report.models)
    return who


@pytest.fixture
def played(tmp_path: Path, frozen: None) -> tuple[Path, UUID, UUID]:
    """The store file, the campaign and alice's stream."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        who = play(engine)
        campaign = engine.campaign("Lab")
        alice = campaign.find(who).character_id
    return db, campaign.id, alice


def add_row(db: Path, stream: UUID, topic: str, body: dict[str, Any]) -> None:
    """A row of its own at version 1 of ``stream``, chained from its genesis, at the log's end."""
    raw = canonical_json(body)
    state = with_chain(raw, link(genesis(stream), stream, 1, topic, raw))
    with sqlite3.connect(db) as c:
        c.execute("INSERT INTO stored_events VALUES (?, 1, ?, ?)", (stream.hex, topic, state))


def body_of(db: Path, stream: UUID, version: int) -> tuple[str, dict[str, Any]]:
    query = "SELECT topic, state FROM stored_events WHERE originator_id=? AND originator_version=?"
    with sqlite3.connect(db) as c:
        topic, state = c.execute(query, (stream.hex, version)).fetchone()
    body = json.loads(state)
    body.pop("chain")
    return str(topic), body


def verified(db: Path | str) -> Report:
    with Engine(str(db)) as engine:
        return engine.verify("Lab")


def where(report: Report) -> list[tuple[str, UUID | None, int | None, int | None]]:
    return [(f.kind, f.stream, f.version, f.ruling) for f in report.findings]


def test_a_row_no_read_can_decode_is_named_where_it_is(played: tuple[Path, UUID, UUID]) -> None:
    """A row of a topic no read resolves, on a stream no ruling wrote to: every recap (each read
    model's catch-up reads every row of the store) fails on it; verify names it, and the CLI
    prints it and exits 1 (not 2: verify does not fail on it)."""
    db, _, alice = played
    add_row(db, STRAY, "domain.events:NoSuchEvent", {**body_of(db, alice, 9)[1], "event": {}})
    with Engine(str(db)) as engine:
        with pytest.raises(TopicError) as raised:
            engine.rebuild("recaps")
        assert isinstance(store_fault(raised.value, str(db)), StoredEventUnreadable)
        report = engine.verify("Lab")
    assert not report.intact
    (found,) = report.findings
    assert ("unreadable", STRAY, 1) == (found.kind, found.stream, found.version)
    assert "NoSuchEvent" in found.problem
    result = CliRunner().invoke(cli, ["--db", str(db), "verify"])
    assert 1 == result.exit_code, result.output
    assert f"UNREADABLE: stream {STRAY} version 1" in result.output


def test_a_row_of_another_campaign_that_does_not_decode_is_named(tmp_path: Path) -> None:
    """Every campaign's read models read every row of the store: a damaged row of another
    campaign's stream is named by the verify of this one too (and by its own, as its replay's)."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        play(engine)
        engine.create_campaign("Other", "code-green", gm="Sam")
        other = engine.campaign("Other").id
    with sqlite3.connect(db) as c:
        c.execute(
            "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=1",
            (b"{not json", other.hex),
        )
    assert [("unreadable", other, 1, None)] == where(verified(db))
    with Engine(str(db)) as engine:
        own = engine.verify("Other")
    assert ("replay", other, 1, 1) in where(own)


def test_a_stray_row_the_read_models_stop_at_is_named(played: tuple[Path, UUID, UUID]) -> None:
    """A copy of an event on a stream of its own, then one more ruling: it decodes, but it is no
    ruling's, so the read models never take a whole ruling again (a recap stops before the new
    ruling, quietly). Verify names the stray row."""
    db, _, alice = played
    add_row(db, STRAY, *body_of(db, alice, 9))
    with Engine(str(db)) as engine:
        engine.execute("Lab", AddNote(text="after the stray row"))
        lines = json.dumps(engine.recap("Lab", 1, audience=GMS))
        report = engine.verify("Lab")
    assert "after the stray row" not in lines
    (found,) = [f for f in report.findings if f.kind == "orphan"]
    assert (STRAY, 1) == (found.stream, found.version)
    assert "every read model stops before them" in found.problem


def test_rows_moved_in_the_order_recorded_are_named(played: tuple[Path, UUID, UUID]) -> None:
    """Two rows of two rulings swapped in the order recorded (their rowids), every chain left
    as it was: the read models would take the adapt's row for the test's. Verify names it, with
    the read models deleted too (no read model to compare)."""
    db, _, alice = played
    query = "SELECT rowid FROM stored_events WHERE originator_id=? AND originator_version=?"
    update = "UPDATE stored_events SET rowid=? WHERE rowid=?"
    with sqlite3.connect(db) as c:
        (rolled,), (adapted,) = (c.execute(query, (alice.hex, v)).fetchone() for v in (8, 9))
        for old, new in ((rolled, -1), (adapted, rolled), (-1, adapted)):
            c.execute(update, (new, old))
        c.execute("DELETE FROM readmodel_tracking")
        c.execute("DELETE FROM readmodel_documents")
    report = verified(db)
    assert [("orphan", alice, 9, TEST)] == where(report)
    assert () == report.models


def forge(engine: Engine, model: str, writes: dict[str, Any], back: int = 0) -> None:
    """Documents of a stored read model written as a forger would (through the store's own
    tables: commit), its position moved ``back`` notifications."""
    views = engine.read_models.views
    tracked = views.tracking(model)
    assert tracked is not None
    assert views.commit(model, tracked[0], tracked[0] - back, writes)


def test_each_read_model_kept_is_computed_again_and_compared(any_engine: Engine) -> None:
    """A recap's session changed, a dice document added, the ruling index moved back (a read
    would count rulings again): each named with its model, key and place."""
    play(any_engine)
    cid = any_engine.campaign("Lab").id
    views = any_engine.read_models.views
    session = views.document("recaps", f"session/{cid}/1")
    forge(any_engine, "recaps", {f"session/{cid}/1": {**session, "gm": "Mallory"}})
    forge(any_engine, "dice", {f"dice/{cid}/9/all": {"counts": {}, "gm": {}}})
    forge(any_engine, "index", {}, back=3)
    report = any_engine.verify("Lab")
    found = {f.problem.split("'s document ")[0]: f for f in report.findings}
    recaps, dice = found["the recaps read model"], found["the dice read model"]
    assert recaps.problem.endswith("differs from what the log gives at gm")
    assert "Mallory" not in recaps.problem  # what a document holds is never shown
    assert (1, None) == (recaps.session, recaps.ruling)
    assert f"dice/{cid}/9/all is not one the log gives" in dice.problem
    assert 9 == dice.session
    assert any(f.problem.startswith("the index read model's document") for f in report.findings)
    assert {"readmodel"} == {f.kind for f in report.findings}


def test_a_read_model_kept_in_an_older_format_is_not_compared(
    played: tuple[Path, UUID, UUID],
) -> None:
    """The next read builds it again: there is nothing to compare."""
    db, _, _ = played
    with sqlite3.connect(db) as c:
        c.execute("UPDATE readmodel_tracking SET version=0 WHERE projection='recaps'")
        c.execute("UPDATE readmodel_documents SET body='{}' WHERE projection='recaps'")
    report = verified(db)
    assert (True, ("exposure", "index", "dice", "search")) == (report.intact, report.models)


def test_a_stored_document_that_is_not_json_is_named(played: tuple[Path, UUID, UUID]) -> None:
    db, cid, _ = played
    with sqlite3.connect(db) as c:
        c.execute(
            "UPDATE readmodel_documents SET body='{' WHERE projection='index' AND key=?",
            (f"session/{cid}/1",),
        )
    (found,) = verified(db).findings
    assert ("readmodel", 1) == (found.kind, found.session)
    assert found.problem.endswith(f"session/{cid}/1 is not JSON: no read can read it")


def test_read_models_on_postgresql_are_compared(frozen: None) -> None:
    with fresh_schema() as url, Engine(url) as engine:
        play(engine)
        cid = engine.campaign("Lab").id
        forge(engine, "recaps", {f"campaign/{cid}": {"names": {}, "pending": []}})
        report = engine.verify("Lab")
    (found,) = report.findings
    assert isinstance(found, Finding)
    assert found.problem.startswith(f"the recaps read model's document campaign/{cid} differs")


def test_rows_held_in_memory_decode_as_an_import_decodes_them(
    played: tuple[Path, UUID, UUID],
) -> None:
    """``verify_rows`` (a player's check of an export): a row of a topic that is not an event of
    the campaign's system is named, however well it is chained, and its topic is not resolved
    (it names a module of the standard library here, which an import never loads)."""
    db, cid, alice = played
    with Engine(str(db)) as engine:
        recorder = engine.store.recorder
        rows = {s: list(recorder.select_events(s)) for s in (cid, alice)}
    assert verify_rows(cid, rows).intact
    raw = canonical_json(body_of(db, alice, 9)[1])
    topic = "json:JSONDecoder"
    state = with_chain(raw, link(genesis(STRAY), STRAY, 1, topic, raw))
    rows[STRAY] = [StoredEvent(originator_id=STRAY, originator_version=1, topic=topic, state=state)]
    report = verify_rows(cid, rows)
    assert not report.intact
    (found,) = report.findings
    assert ("unreadable", STRAY, 1) == (found.kind, found.stream, found.version)
    assert "'json:JSONDecoder' is not an event of this program" in found.problem


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_each_example_verifies_with_every_read_model_compared(script: Path, tmp_path: Path) -> None:
    """The examples of every system (undos, amendments, disputes, Exposure timelines), read
    models caught up: the read models computed again are the stored ones, every row decodes and
    makes whole rulings, and every ruling is one its member could make on the table as it stood
    (players' rolls, posts and edits among them: no ``policy`` finding)."""
    db = tmp_path / "example.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert 0 == example_player()(script, db)
    with Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        for model in MODELS:
            engine.catch_up(model)
        report = engine.verify(entry.name)
    assert (True, (), tuple(MODELS)) == (report.intact, report.findings, report.models)
