"""Entropy once recorded stands (docs/dice-and-trust.md, step 7): words cannot be undone by their
number, nor taken back by correcting an earlier ruling they stood on while their session's
commitment stands (ENTROPY_STANDS); undoing the session's start takes them with the commitment."""

from __future__ import annotations

import pytest

from domain.errors import EntropyStands
from domain.events import RulingRetracted
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from engine import Engine
from tests.conftest import event_count
from tests.integration.players import Player

BEA, CARL = Player("Bea"), Player("Carl")


def seated_and_mixed(engine: Engine) -> tuple[int, list[int]]:
    """Bea and Carl seated with keys, a session started, both adding signed words: Carl's
    `member add` ruling, and the two entropy rulings."""
    engine.create_campaign("Lab", "sprawl-goons")
    BEA.seated(engine)
    carl = engine.campaign("Lab").rulings + 1
    CARL.seated(engine)
    engine.execute("Lab", StartSession())
    return carl, [BEA.adds(engine, "pancakes"), CARL.adds(engine, "4471")]


def retracted(engine: Engine, number: int) -> list[int]:
    result = engine.undo("Lab", number, reason="not so", with_dependents=True)
    return sorted(r.event.ruling for r in result.records if isinstance(r.event, RulingRetracted))


def test_undoing_a_seat_in_the_session_is_refused_and_appends_nothing(engine: Engine) -> None:
    """The GM, who knows the seed, could otherwise choose whether a player's words count."""
    carl, (_, carls) = seated_and_mixed(engine)
    before = event_count(engine)
    with pytest.raises(EntropyStands) as refused:
        retracted(engine, carl)
    assert "ENTROPY_STANDS" == refused.value.code
    assert str(carls) in str(refused.value)
    assert before == event_count(engine)
    with pytest.raises(EntropyStands):
        engine.undo("Lab", carl, reason="not so", redecide=True)
    assert before == event_count(engine)


def test_a_roll_after_the_refused_undo_checks_out(engine: Engine) -> None:
    carl, _ = seated_and_mixed(engine)
    with pytest.raises(EntropyStands):
        retracted(engine, carl)
    engine.execute("Lab", RollFreely(expression="2d6"))
    engine.execute("Lab", EndSession())
    assert [()] == [d.problems for d in engine.verify("Lab").dice]


def test_after_the_session_ends_the_seat_may_be_undone(engine: Engine) -> None:
    carl, _ = seated_and_mixed(engine)
    engine.execute("Lab", RollFreely(expression="2d6"))
    engine.execute("Lab", EndSession())
    assert carl in retracted(engine, carl)
    assert [()] == [d.problems for d in engine.verify("Lab").dice]


def test_undoing_the_session_start_takes_its_words_with_it(engine: Engine) -> None:
    """The commitment goes too, so no roll mixes the words: the session starts again."""
    carl, (beas, carls) = seated_and_mixed(engine)
    start = carl + 2  # Carl's seat, his key, then the session's start
    assert {beas, carls} <= set(retracted(engine, start))
