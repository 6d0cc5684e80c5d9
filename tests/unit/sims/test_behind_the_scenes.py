"""Private messages (behind_the_scenes.py, R-PDQ-15): between the GM and the players, kept with a
character's stream."""

from __future__ import annotations

from domain.errors import EmptyText, NotAMember, UnknownMember
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import CreateCharacter, SendPrivateMessage
from domain.rulesets.sims.tables import SheetKind
from engine import Engine
from tests.golden.test_sims import NAME, run
from tests.golden.test_sims_rulings import refused_as, run_as
from tests.golden.test_sims_rulings import table as catalogue_table


def test_a_message_to_a_player_without_a_character_is_kept_with_the_senders(
    engine: Engine,
) -> None:
    """The GM, who plays the Oracle, writes in person to carol, who has no character yet: the
    message is kept with the Oracle, the sender's (R-PDQ-15)."""
    catalogue_table(engine)
    oracle = CreateCharacter(
        character="Oracle", player="", qualities=("Foresight:Mental:Master",), kind=SheetKind.NPC
    )
    run(engine, oracle)
    command = SendPrivateMessage(to="carol", body=" Meet me at the docks. ", by="Morpheus")
    events = run_as(engine, command, "Morpheus")
    sent = ev.PrivateMessageSent(
        sender="Morpheus",
        to="carol",
        character=None,
        body="Meet me at the docks.",
        in_character=False,
    )
    assert [sent] == list(events)
    assert "Meet me" in repr(engine.history(NAME, "Oracle", reader="carol")[-1])


def test_a_stranger_is_refused_with_the_seats_of_the_table(engine: Engine) -> None:
    """UnknownMember lists who may be written to: the GM, then the members."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="mallory", body="psst", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", UnknownMember)
    assert {"name": "mallory", "known": "Morpheus, alice, bob, carol, olly"} == error.data


def test_a_sender_who_is_not_at_the_table_is_no_member(engine: Engine) -> None:
    """NotAMember names a sender with no seat at the table (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="Morpheus", body="x", by="mallory", character="Smith")
    assert {"who": "mallory"} == refused_as(engine, command, "Morpheus", NotAMember).data


def test_the_gm_and_a_player_cannot_write_to_themselves(engine: Engine) -> None:
    """MessageToSelf names the writer (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="Morpheus", body="x", by="Morpheus", character="Smith")
    assert {"name": "Morpheus"} == refused_as(
        engine, command, "Morpheus", errors.MessageToSelf
    ).data


def test_an_observer_cannot_be_written_to(engine: Engine) -> None:
    """ObserverCannotMessage names the observer (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="olly", body="x", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", errors.ObserverCannotMessage)
    assert {"name": "olly"} == error.data


def test_a_message_must_say_something(engine: Engine) -> None:
    """EmptyText names the message (Behind the Scenes)."""
    catalogue_table(engine)
    command = SendPrivateMessage(to="bob", body="  ", by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", EmptyText)
    assert "the message must not be empty" == str(error)
