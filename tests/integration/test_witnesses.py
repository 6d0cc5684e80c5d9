"""Witnesses (issue 43, item 1): the head of the log a member is shown (the campaign stream's
version and link at the latest ruling they may read, the digest over every stream's head there,
the last seal before it) is the log's own at that point, as an export's digest is; and a log
rewritten and resealed, which verifies intact against itself, no longer holds any head witnessed
from the first ruling it changed on: the check names the first as its fork, with who saw it and
when. Each of the three rewrites `verify` cannot see, on SQLite and PostgreSQL, through the
engine and through an export."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from domain.audience import GMS, Member
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddNote, EndSession, StartSession
from domain.posts import WritePost
from domain.table import AddMember, RevealRuling
from engine import (
    FORGED,
    HOLDS,
    UNSIGNED,
    DiceSpec,
    Engine,
    Head,
    Statement,
    file_lines,
    verify_witnessed,
)
from tests.integration.test_tamper import NAME, Played, play
from tests.integration.witnesses import (
    REWRITES,
    Witness,
    copy_of,
    every_head,
    exported,
    imported,
    rewrite,
    store_of,
)
from tests.stores import engine_on

STORES = ["sqlite", "postgres"]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(tmp_path_factory.mktemp("witnessed") / "played.db")


@pytest.fixture(scope="module")
def heads(template: Played) -> list[Head]:
    return every_head(str(template.db))


def story(engine: Engine) -> Iterator[str]:
    """A table whose rulings some members may not read (a hidden roll, a GM-only note, a post
    private to bo, a hidden roll revealed later), each step named after it is recorded."""
    engine.create_campaign("Lab", "sprawl-goons", gm="Rosa")
    yield "init"
    for who in ("ana", "bo"):
        engine.execute("Lab", AddMember(member=who, role=Role.PLAYER))
        yield f"seat {who}"
    engine.execute("Lab", StartSession())
    yield "session start"
    roll = RollFreely(expression="1d6", why="the guards' count")
    hidden = engine.execute("Lab", roll, dice=DiceSpec(faces=(4,)), hidden=True).number
    yield "hidden roll"
    engine.execute("Lab", AddNote(text="the twin is in the vault", gm_only=True))
    yield "GM-only note"
    engine.execute("Lab", WritePost(text="meet me at the pier", by="Rosa", to=("bo",)))
    yield "post to bo"
    climb = RollFreely(expression="2d6", why="the climb")
    engine.execute("Lab", climb, dice=DiceSpec(faces=(3, 5)))
    yield "public roll"
    engine.execute("Lab", AddNote(text="the second hidden", gm_only=True))
    yield "GM-only note again"
    engine.execute("Lab", RevealRuling(ruling=hidden))
    yield "reveal"
    engine.execute("Lab", EndSession())
    yield "session end"


@pytest.mark.parametrize("kind", STORES)
def test_the_head_shown_is_the_logs_own_at_the_latest_ruling_its_reader_may_read(
    kind: str, tmp_path: Path
) -> None:
    """After each ruling, the head each member is shown is the log's head at the latest ruling
    they may read, as computed later from the log alone; the GM's last is the export's digest."""
    readers = {"the GMs": GMS, "ana": Member("ana"), "bo": Member("bo")}
    shown: list[tuple[str, str, Head]] = []
    with engine_on(kind, tmp_path) as engine:
        for step in story(engine):
            for label, audience in readers.items():
                if label == "the GMs" or label in {m.name for m in engine.campaign("Lab").seats}:
                    shown.append((step, label, engine.witness_head("Lab", audience=audience)))
        campaign = engine.campaign("Lab")
        for step, label, head in shown:
            logged = engine.heads_at("Lab", [head.version], audience=GMS)[head.version]
            assert head == logged, (step, label)
            audience = readers[label]
            assert engine.heads_at("Lab", [head.version], audience=audience)[head.version] == head
        last = shown[-1][2]
        assert last == engine.witness_head("Lab", audience=GMS)
        assert engine.verify("Lab").digest == last.digest
        assert (campaign.rulings, 1) == (last.ruling, last.session)
    by = {(step, label): head.ruling for step, label, head in shown}
    assert by[("hidden roll", "the GMs")] == by[("hidden roll", "ana")] + 1  # not shown to ana
    assert by[("post to bo", "bo")] == by[("post to bo", "the GMs")]
    assert by[("post to bo", "ana")] == by[("seat bo", "the GMs")] + 1  # the session's start
    assert by[("reveal", "ana")] == by[("reveal", "the GMs")]


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("name", sorted(REWRITES))
def test_each_rewrite_verify_cannot_see_is_caught_by_a_witness_of_any_head_after_it(
    template: Played, heads: list[Head], tmp_path: Path, name: str, kind: str
) -> None:
    """The store rewritten and resealed, exported and imported into a fresh store of ``kind``:
    the copy verifies intact, and holds every head witnessed before the first ruling the rewrite
    changed and none from it on; the fork named is that ruling's head, with who saw it."""
    ana = Witness("ana")
    statements = [ana.saw(h, at=f"2026-11-29T20:{h.ruling:02}:00Z") for h in heads]
    doctored = copy_of(template, tmp_path / "doctored")
    rewrite(doctored, name)
    export = exported(str(doctored.db), tmp_path / "doctored.jsonl")
    first = REWRITES[name]
    with store_of(kind, tmp_path / "copy") as db, Engine(imported(export, db)) as engine:
        assert engine.verify(NAME).intact, "a rewrite verify sees: not one of the three"
        check = engine.check_witnesses(NAME, reversed(statements))
    held = [w.statement.head.ruling for w in check.checked if not w.problem]
    forked = [w.statement.head.ruling for w in check.checked if w.problem]
    assert (list(range(1, first)), list(range(first, 22))) == (held, forked)
    assert check.fork is not None
    assert (first, "ana", f"2026-11-29T20:{first:02}:00Z", HOLDS) == (
        check.fork.statement.head.ruling,
        check.fork.statement.by,
        check.fork.statement.at,
        check.fork.signature,
    )
    assert all(w.signature == HOLDS for w in check.checked)


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_a_players_check_of_the_rewritten_export_names_the_same_fork(
    template: Played, heads: list[Head], tmp_path: Path, name: str
) -> None:
    """`verify-dice --witness` reads the export alone: the same heads held, the same fork."""
    ana = Witness("ana")
    statements = [ana.saw(h) for h in heads]
    doctored = copy_of(template, tmp_path / "doctored")
    rewrite(doctored, name)
    export = exported(str(doctored.db), tmp_path / "doctored.jsonl")
    with export.open("rb") as handle:
        checked = verify_witnessed(file_lines(handle), statements)
    assert not checked.report.breaks
    assert all(s.intact for s in checked.report.seals)
    assert checked.witnesses.fork is not None
    assert REWRITES[name] == checked.witnesses.fork.statement.head.ruling
    before = statements[: REWRITES[name] - 1]
    with export.open("rb") as handle:
        assert verify_witnessed(file_lines(handle), before).witnesses.holds


def test_the_untouched_log_and_its_export_hold_every_head(
    template: Played, heads: list[Head], tmp_path: Path
) -> None:
    ana = Witness("ana")
    statements = [ana.saw(h) for h in heads]
    with Engine(str(template.db)) as engine:
        assert engine.check_witnesses(NAME, statements).holds
    export = exported(str(template.db), tmp_path / "s.jsonl")
    with export.open("rb") as handle:
        checked = verify_witnessed(file_lines(handle), statements)
    assert checked.witnesses.holds
    assert checked.head == heads[-1]


def test_a_statement_whose_signature_does_not_hold_is_no_evidence(
    template: Played, heads: list[Head], tmp_path: Path
) -> None:
    """A statement altered after it was signed, or signed by no one (the app's post in Discord),
    is checked: the altered one is listed as not holding and never named as the fork; an
    unsigned one is evidence as good as where it was read. Other campaigns' are counted."""
    ana = Witness("ana")
    signed = ana.saw(heads[3])  # ruling 4: before the rewrite
    altered = attrs.evolve(signed, head=heads[6])  # ruling 7, under ruling 4's signature
    unsigned = Statement(head=heads[8], at=signed.at, by="campaign-log app", seen="Discord")
    other = ana.saw(attrs.evolve(heads[2], campaign="00000000-0000-4000-8000-000000000000"))
    doctored = copy_of(template, tmp_path / "doctored")
    rewrite(doctored, "rewrite the whole log consistently")
    with Engine(str(doctored.db)) as engine:
        check = engine.check_witnesses(NAME, [unsigned, altered, signed, other])
    assert [HOLDS, FORGED, UNSIGNED] == [w.signature for w in check.checked]
    assert [False, True, True] == [bool(w.problem) for w in check.checked]
    assert check.fork is not None
    assert check.fork.statement is unsigned
    assert 1 == check.others
