"""One request, one read of each head: inside ``Engine.checked_once`` (the server's sign-in and
the command it signs in for) a stream's head is read from the store at its first load and not
again, while nothing moved it; a save in the block, or a write by another engine on the store,
is read again, and a ruling is never decided on a state another writer moved on from."""

from __future__ import annotations

from typing import Any

from domain.audience import GMS
from domain.lifecycle import AddNote
from engine import Engine
from tests.integration.scenes import play_until_rolled
from tests.stores import head_reads


def campaign_id(engine: Engine) -> Any:
    return engine.find_campaign("Lab").campaign_id


def test_a_campaign_loaded_twice_in_a_block_has_its_head_read_once(tmp_path: Any) -> None:
    """Outside a block each load reads the head; inside, the second is given the first's."""
    with Engine(str(tmp_path / "lab.db")) as engine:
        play_until_rolled(engine)
        engine.campaign("Lab")  # the head kept
        with head_reads(engine) as read:
            first, second = engine.campaign("Lab"), engine.campaign("Lab")
        assert [campaign_id(engine)] * 2 == read
        assert first is second
        with head_reads(engine) as read, engine.checked_once():
            first, second = engine.campaign("Lab"), engine.campaign("Lab")
        assert [campaign_id(engine)] == read
        assert first is second


def test_a_ruling_in_the_block_is_decided_on_the_head_read_once_and_read_again_after(
    tmp_path: Any,
) -> None:
    """A seat check's load, then a command: one head read between them; the command's save
    moves the head, so a load after it in the same block reads the store again and gives the
    ruling's state."""
    with Engine(str(tmp_path / "lab.db")) as engine:
        play_until_rolled(engine)
        engine.campaign("Lab")
        with head_reads(engine) as read, engine.checked_once():
            before = engine.campaign("Lab")
            engine.execute("Lab", AddNote(text="The lab hums"))
            after = engine.campaign("Lab")
        assert [campaign_id(engine)] * 2 == read
        assert after.rulings == before.rulings + 1
        assert after == Engine(engine.db).campaign("Lab")


def test_a_ruling_another_writer_made_within_the_block_is_not_lost(tmp_path: Any) -> None:
    """Another engine on the store records a ruling between this block's first load and its
    command: the command's save finds its version taken, reads the head again and is decided
    on the other's ruling: both recorded, in order, the log intact."""
    db = str(tmp_path / "lab.db")
    with Engine(db, backoff=lambda _: None) as engine, Engine(db) as other:
        play_until_rolled(engine)
        with engine.checked_once():
            seen = engine.campaign("Lab")
            other.execute("Lab", AddNote(text="Elsewhere first"))
            result = engine.execute("Lab", AddNote(text="Then here"))
        assert result.campaign.rulings == seen.rulings + 2
        assert result.campaign == engine.campaign("Lab") == other.campaign("Lab")
        assert engine.verify("Lab").intact
        last_two = engine.log("Lab", audience=GMS)[-2:]
        assert ["Elsewhere first", "Then here"] == [r.events[0].event.text for r in last_two]


def test_an_undo_in_the_block_is_read_after_it_as_recorded(tmp_path: Any) -> None:
    """An undo's save leaves the kept head where it was (a correction is loaded afresh): the
    block reads every head again after its own save, so a load after the undo is the state
    without the undone ruling, as another engine loads it."""
    with Engine(str(tmp_path / "lab.db")) as engine:
        play_until_rolled(engine)
        engine.execute("Lab", AddNote(text="Struck soon"))
        with engine.checked_once():
            before = engine.campaign("Lab")
            engine.undo("Lab", None, reason="a slip")
            after = engine.campaign("Lab")
        assert after != before
        assert after == Engine(engine.db).campaign("Lab")
