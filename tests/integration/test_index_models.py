"""The ruling index and dice read models: `log --session N`, `history NAME` and `dice-stats`
read through them give what the full scans of the campaign stream give, for every reader (the
GM, a player, another player, an observer), undos, amendments, hidden rulings and private
messages included; and they read the rows of the rulings shown, not the campaign's."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings

from domain.audience import GMS, Member, of_actor
from domain.errors import DomainError
from domain.events import Role
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.sprawl_goons.action_roll import MakeActionRoll
from domain.rulesets.sprawl_goons.creation import CreateCharacter
from domain.rulesets.the_code.commands import RollExposure
from domain.table import AddMember, RevealRuling
from engine import DiceSpec, Engine
from engine.application.reads import Reads
from engine.reads import indexed as index_reads
from engine.reads.indexed import DICE, INDEX
from engine.reads.models import MemoryViews
from tests.examples import player as example_player
from tests.golden.test_recap_golden import SCRIPTS
from tests.golden.test_sims import NAME as SIMS
from tests.golden.test_sims_private import message
from tests.golden.test_sims_rulings import table as sims_table
from tests.golden.test_the_code import HAWK
from tests.golden.test_the_code import table as code_table
from tests.integration.test_replay import moves, numbered_ids, play, play_until_rolled
from tests.postgres import fresh_schema


def read_all(engine: Engine, name: str, reader: str | None) -> dict[str, str]:
    """Every read the index serves, for ``reader``: the whole log (a page at a time), each
    session's log and dice, each character's history and dice, the whole campaign's dice (a
    session with no rulings too)."""
    campaign = engine.campaign(name)
    names = [e.name for e in campaign.roster]
    sessions = sorted({h.session for h in engine.headers(name, audience=GMS) if h.session} | {99})
    found = {"dice": repr(engine.dice_stats(name, audience=of_actor(reader)))}
    with mock.patch.object(index_reads, "PAGE", 2):  # the whole log, two rulings a page
        found["log"] = repr(list(engine.iter_log(name, audience=of_actor(reader))))
    some = {1, 2, 3, 5, 8, 13, 21, engine.campaign(name).rulings, 10_000}
    found["some"] = repr(engine.log(name, rulings=some, audience=of_actor(reader)))
    found["latest"] = answer(lambda: engine.ruling_at(name))
    found["replayed"] = answer(lambda: engine.session_rulings(name, audience=of_actor(reader)))
    for number in (0, 1, engine.campaign(name).rulings + 1):
        found[f"at {number}"] = answer(lambda n=number: engine.ruling_at(name, ruling=n))
    for session in sessions:
        found[f"end {session}"] = answer(lambda s=session: engine.ruling_at(name, session=s))
        found[f"replay {session}"] = answer(
            lambda s=session: engine.session_rulings(name, s, audience=of_actor(reader))
        )
        found[f"log {session}"] = repr(engine.log(name, session=session, audience=of_actor(reader)))
        found[f"dice {session}"] = repr(
            engine.dice_stats(name, session=session, audience=of_actor(reader))
        )
        for who in names:
            stats = engine.dice_stats(
                name, session=session, character=who, audience=of_actor(reader)
            )
            found[f"dice {session} {who}"] = repr(stats)
    for who in names:
        found[f"history {who}"] = repr(engine.history(name, who, audience=of_actor(reader)))
        found[f"dice {who}"] = repr(
            engine.dice_stats(name, character=who, audience=of_actor(reader))
        )
    return found


def answer(read: Callable[[], object]) -> str:
    """What a read gives, or the refusal it raises (its code and message)."""
    try:
        return repr(read())
    except DomainError as refused:
        return f"{refused.code}: {refused}"


def scanned(engine: Engine, name: str, reader: str | None) -> dict[str, str]:
    """The same reads by the full scans (the read models left alone)."""
    with mock.patch.object(Reads, "_indexed", return_value=None):
        return read_all(engine, name, reader)


def assert_same_reads(engine: Engine, name: str, readers: list[str | None]) -> None:
    for reader in readers:
        expected = scanned(engine, name, reader)
        assert expected == read_all(engine, name, reader), reader


# --- The same as the full scans -------------------------------------------------------------


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_the_examples_read_the_same_through_the_index(script: Path, tmp_path: Path) -> None:
    """Every example campaign, for the GM at the keyboard, each seat and an observer."""
    db = tmp_path / f"{script.stem}.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert 0 == example_player()(script, db)
    with Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        engine.execute(entry.name, AddMember(member="olly", role=Role.OBSERVER))
        seats = [m.name for m in engine.campaign(entry.name).seats]
        assert_same_reads(engine, entry.name, [None, *seats])


def test_hidden_rolls_and_gm_notes_read_the_same(engine: Engine) -> None:
    """The Code: a hidden roll and a GM-only note in session 2, before and after the reveal."""
    code_table(engine, exposure=1)
    engine.execute("Lab", AddMember(member="dana", role=Role.PLAYER))
    engine.execute("Lab", AddMember(member="olly", role=Role.OBSERVER))
    engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(2,)))
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    secret = engine.execute(
        "Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(4, 6)), hidden=True
    )
    engine.execute("Lab", AddNote(text="the mayor is the Owl", gm_only=True))
    readers: list[str | None] = [None, "GM", "dana", "olly"]
    assert_same_reads(engine, "Lab", readers)
    assert "Die(sides=6, face=6)" not in read_all(engine, "Lab", "dana")["dice 2"]
    engine.execute("Lab", RevealRuling(ruling=secret.number))
    assert_same_reads(engine, "Lab", readers)


def test_private_messages_read_the_same(engine: Engine) -> None:
    """The Sims: a private message read by its sender, its recipient and the GMs only."""
    sims_table(engine)
    message(engine)
    seats = [m.name for m in engine.campaign(SIMS).seats]
    assert {"bob", "alice", "carol", "olly"} <= set(seats)
    assert_same_reads(engine, SIMS, [None, *seats])


@settings(max_examples=15, deadline=None)
@given(history=moves)
def test_undone_and_amended_rulings_read_the_same(history: list[tuple[Any, ...]]) -> None:
    """Any history of tests, undos (with dependents) and amendments: the same reads; and the
    documents kept a few rulings at a time equal those built from scratch."""
    ids = numbered_ids()
    with Engine(new_id=ids.__next__) as engine:
        play_until_rolled(engine)
        for number, move in enumerate(history):
            play(engine, move)
            if number % 3 == 0:
                engine.read_models.catch_up(INDEX)
                engine.read_models.catch_up(DICE)
        assert_same_reads(engine, "Lab", [None, "alice", "bob"])
        scratch = MemoryViews()
        kept = engine.read_models.views
        assert isinstance(kept, MemoryViews)
        for model in (INDEX, DICE):
            engine.read_models.catch_up(model, views=scratch)
            assert scratch.documents(model.name) == kept.documents(model.name)


# --- Rows read: the rulings shown, not the campaign ---------------------------------------------

TANNER = CreateCharacter(
    character="Tanner",
    player="ana",
    morphology=2,
    reaction=1,
    cognition=1,
    equilibrium=0,
    items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
)
MARA = CreateCharacter(
    character="Mara",
    player="ben",
    morphology=1,
    reaction=2,
    cognition=1,
    equilibrium=0,
    items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
)
ROLLS = 5  # Mara's rolls, in session 2
SEATS = {"ana": Role.PLAYER, "ben": Role.PLAYER}


def roll(who: str) -> MakeActionRoll:
    return MakeActionRoll(character=who, stat="reaction", ds="10")


def campaign_of(engine: Engine, name: str, others: int) -> None:
    """Sprawl Goons: Tanner rolls ``others`` times in session 1; in session 2 Mara joins and
    rolls ``ROLLS`` times among as many rolls of Tanner's, then the GM rolls for Tanner in
    hiding."""
    engine.create_campaign(name, "sprawl-goons", gm="Rosa", members=SEATS)
    engine.execute(name, StartSession())
    engine.execute(name, TANNER, dice=DiceSpec(faces=(3, 4, 5, 2)))
    engine.execute(name, StartScene(stage="The container stacks"))
    for _ in range(others):
        engine.execute(name, roll("Tanner"), dice=DiceSpec(faces=(3, 3)))
    engine.execute(name, EndScene())
    engine.execute(name, EndSession())
    engine.execute(name, StartSession())
    engine.execute(name, MARA, dice=DiceSpec(faces=(1, 2, 3, 4)))
    engine.execute(name, StartScene(stage="The docks"))
    for _ in range(ROLLS):
        engine.execute(name, roll("Mara"), dice=DiceSpec(faces=(5, 6)))
        engine.execute(name, roll("Tanner"), dice=DiceSpec(faces=(2, 2)))
    engine.execute(name, roll("Tanner"), dice=DiceSpec(faces=(1, 1)), hidden=True)


@contextlib.contextmanager
def counted(engine: Engine) -> Iterator[list[int]]:
    """How many rows the store's recorder returns (events and notifications) meanwhile."""
    recorder = engine.store.recorder
    rows = [0]

    def counting(method: Any) -> Any:
        def select(*args: Any, **kwargs: Any) -> Any:
            found = method(*args, **kwargs)
            rows[0] += len(found)
            return found

        return select

    with (
        mock.patch.object(recorder, "select_events", counting(recorder.select_events)),
        mock.patch.object(
            recorder, "select_notifications", counting(recorder.select_notifications)
        ),
    ):
        yield rows


READS = {
    "history Mara": lambda e, name: e.history(name, "Mara", audience=Member("ben")),
    "log --session 2": lambda e, name: e.log(name, session=2, audience=Member("ben")),
    "dice-stats --session 2": lambda e, name: e.dice_stats(name, session=2, audience=Member("ben")),
    "dice-stats --character Mara": lambda e, name: e.dice_stats(
        name, character="Mara", audience=GMS
    ),
}


def rows_read(engine: Engine, name: str, read: Any) -> int:
    """The rows one read takes besides loading the campaign's state (a snapshot and the events
    after it, fewer than ``engine.store.streams.STALE``: bounded on its own), the read models warmed
    by the same read first."""
    read(engine, name)
    state = engine.campaign(name)
    with mock.patch.object(engine, "campaign", return_value=state), counted(engine) as rows:
        read(engine, name)
    return rows[0]


def assert_rows_bounded(engine: Engine) -> None:
    """The same rows in a short campaign and in one 20 times longer, and fewer than the long
    campaign's session 1 holds; the full scan reads them all."""
    campaign_of(engine, "Short", 10)
    campaign_of(engine, "Long", 200)
    for what, read in READS.items():
        short, long = rows_read(engine, "Short", read), rows_read(engine, "Long", read)
        assert (what, short) == (what, long)
        assert long < 60, what
    with mock.patch.object(Reads, "_indexed", return_value=None):
        assert rows_read(engine, "Long", READS["history Mara"]) > 200


def test_reads_take_the_rows_of_their_rulings_only(any_engine: Engine) -> None:
    """Memory and SQLite: history, a session's log and dice counts cost what they show."""
    assert_rows_bounded(any_engine)


def test_reads_take_the_rows_of_their_rulings_only_on_postgresql() -> None:
    with fresh_schema() as url, Engine(url) as engine:
        assert_rows_bounded(engine)
        assert_same_reads(engine, "Long", [None, "ana", "ben"])


def test_rebuild_and_catch_up_cover_the_index_models(engine: Engine) -> None:
    """`campaign rebuild` / `projections` names: the index and dice models rebuild the same."""
    campaign_of(engine, "Short", 3)
    before = read_all(engine, "Short", None)
    assert engine.rebuild("index") > 0
    assert engine.rebuild("dice") > 0
    assert 0 == engine.catch_up("index") == engine.catch_up("dice")
    assert before == read_all(engine, "Short", None)


def test_the_whole_log_is_read_a_page_of_rulings_at_a_time(engine: Engine) -> None:
    """`log` without a session goes through the index a page at a time: the campaign stream is
    never read whole, and each page's rulings alone are taken from the store."""
    campaign_of(engine, "Long", 200)
    campaign_id = engine.find_campaign("Long").campaign_id
    whole: list[Any] = []
    original = engine.streams.records

    def records(stream: Any, **kwargs: Any) -> Any:
        if stream == campaign_id and not kwargs.get("gt") and kwargs.get("lte") is None:
            whole.append(stream)
        return original(stream, **kwargs)

    expected = engine.log("Long", audience=GMS)
    engine.log(
        "Long", session=1, audience=GMS
    )  # the index caught up (a catch-up reads every new ruling)
    with mock.patch.object(index_reads, "PAGE", 50), counted(engine) as rows:
        pages = engine.iter_log("Long", audience=GMS)
        first = [next(pages) for _ in range(50)]
        after_one_page = rows[0]
        with mock.patch.object(engine.streams, "records", records):
            rest = list(pages)
    assert expected == first + rest
    assert [] == whole
    assert after_one_page < rows[0] / 3  # the first page took a part of the rows, not all
