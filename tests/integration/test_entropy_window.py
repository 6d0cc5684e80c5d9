"""The entropy window waits for every player with a key (protocol 3, issue 42 item 3): the
first committed roll is refused while one of them has added no signed words, unless the GM
closed the window saying why; the ruling that closes it names who was left out."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.events import EntropyClosed
from domain.free_rolls import RollFreely
from domain.lifecycle import AddEntropy, CloseEntropy, StartSession
from engine import Engine
from tests.conftest import event_count
from tests.integration.players import Player

ROLL = RollFreely(expression="1d20", why="the guard")


def started(engine: Engine) -> tuple[Player, Player]:
    engine.create_campaign("Lab", "sprawl-goons", gm="Rosa")
    ana, bo = Player("ana").seated(engine), Player("bo").seated(engine)
    engine.execute("Lab", StartSession())
    return ana, bo


def refused(engine: Engine, code: str, command: object, **how: object) -> DomainError:
    before = event_count(engine)
    with pytest.raises(DomainError) as error:
        engine.execute("Lab", command, **how)  # type: ignore[arg-type]
    assert code == error.value.code
    assert before == event_count(engine)
    return error.value


def test_the_first_roll_waits_for_every_player_with_a_key(engine: Engine) -> None:
    ana, bo = started(engine)
    error = refused(engine, "ENTROPY_STILL_OPEN", ROLL)
    assert "ana, bo" == error.data["waiting"]
    ana.adds(engine, "pancakes")
    assert "bo" == refused(engine, "ENTROPY_STILL_OPEN", ROLL, hidden=True).data["waiting"]
    bo.adds(engine, "tide")
    engine.execute("Lab", ROLL)
    late = AddEntropy(words="late", by="bo", signature="")
    refused(engine, "ENTROPY_WINDOW_CLOSED", late, actor="bo")


def test_the_gm_closes_the_window_naming_who_was_left_out(engine: Engine) -> None:
    ana, _ = started(engine)
    ana.adds(engine, "pancakes")
    result = engine.execute("Lab", CloseEntropy(reason="bo is away tonight"))
    (closed,) = [e for e in result.events if isinstance(e, EntropyClosed)]
    assert (("bo",), "bo is away tonight") == (closed.left_out, closed.reason)
    refused(engine, "ENTROPY_NOT_OPEN", CloseEntropy(reason="again"))
    engine.execute("Lab", ROLL)
    refused(engine, "ENTROPY_WINDOW_CLOSED", CloseEntropy(reason="after the roll"))


def test_closing_needs_a_reason_and_is_the_gms(engine: Engine) -> None:
    started(engine)
    refused(engine, "EMPTY_TEXT", CloseEntropy(reason=" "))
    refused(engine, "NOT_ALLOWED", CloseEntropy(reason="mine"), actor="ana")


def test_a_table_without_keys_rolls_at_once(engine: Engine) -> None:
    engine.create_campaign("Lab", "sprawl-goons", gm="Rosa", members={})
    engine.execute("Lab", StartSession())
    assert engine.execute("Lab", ROLL).dice
