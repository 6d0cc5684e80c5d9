"""Private messages (behind_the_scenes.py, R-PDQ-15): a private post in a Sims campaign passes
between the GM and one player and concerns a character; the ``message`` command it was still
decides the rulings that recorded it."""

from __future__ import annotations

from domain.audience import Member
from domain.errors import EmptyText, NotAMember, UnknownMember
from domain.events import PostWritten
from domain.posts import WritePost
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.behind_the_scenes import SendPrivateMessage
from domain.rulesets.sims.commands import CreateCharacter
from domain.rulesets.sims.tables import SheetKind
from engine import Engine
from tests.golden.test_sims import NAME, run
from tests.golden.test_sims_rulings import refused_as, run_as
from tests.golden.test_sims_rulings import table as catalogue_table


def oracle(engine: Engine) -> None:
    """The GM's own NPC, the Oracle."""
    command = CreateCharacter(
        character="Oracle", player="", qualities=("Foresight:Mental:Master",), kind=SheetKind.NPC
    )
    run(engine, command)


def test_the_gm_who_plays_a_character_writes_to_a_player_without_one(engine: Engine) -> None:
    """The GM, who plays the Oracle, writes in person to carol, who has no character yet: the
    message concerns a character of its author's (R-PDQ-15)."""
    catalogue_table(engine)
    oracle(engine)
    command = WritePost(text="Meet me at the docks.", to=("carol",), by="Morpheus")
    assert [PostWritten] == [type(e) for e in run_as(engine, command, "Morpheus")]


def test_a_stranger_is_refused_with_the_seats_of_the_table(engine: Engine) -> None:
    """UnknownMember lists who may be written to: the GM, then the members."""
    catalogue_table(engine)
    command = WritePost(text="psst", to=("mallory",), by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", UnknownMember)
    assert {"name": "mallory", "known": "Morpheus, alice, bob, carol, olly"} == error.data


def test_an_author_who_is_not_at_the_table_is_no_member(engine: Engine) -> None:
    """NotAMember names an author with no seat at the table."""
    catalogue_table(engine)
    command = WritePost(text="x", to=("Morpheus",), by="mallory", character="Smith")
    assert {"who": "mallory"} == refused_as(engine, command, "Morpheus", NotAMember).data


def test_the_gm_and_a_player_cannot_write_to_themselves(engine: Engine) -> None:
    """MessageToSelf names the writer (Behind the Scenes), among other recipients too."""
    catalogue_table(engine)
    for to in (("Morpheus",), ("bob", "Morpheus")):
        command = WritePost(text="x", to=to, by="Morpheus", character="Smith")
        error = refused_as(engine, command, "Morpheus", errors.MessageToSelf)
        assert {"name": "Morpheus"} == error.data


def test_an_observer_cannot_be_written_to(engine: Engine) -> None:
    """ObserverCannotMessage names the observer (Behind the Scenes)."""
    catalogue_table(engine)
    command = WritePost(text="x", to=("olly",), by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", errors.ObserverCannotMessage)
    assert {"name": "olly"} == error.data


def test_a_message_goes_to_one_member(engine: Engine) -> None:
    """MessageToOneMember names those written to (Behind the Scenes: "the recipient")."""
    catalogue_table(engine)
    command = WritePost(text="x", to=("alice", " bob", "alice"), by="Morpheus", character="Smith")
    error = refused_as(engine, command, "Morpheus", errors.MessageToOneMember)
    assert {"names": "alice, bob"} == error.data


def test_a_public_post_is_no_message(engine: Engine) -> None:
    """Only a private post is held to Behind the Scenes: the GM narrates to the table."""
    catalogue_table(engine)
    command = WritePost(text="The rain stops.", by="Morpheus")
    assert [PostWritten] == [type(e) for e in run_as(engine, command, "Morpheus")]


def test_the_message_command_still_decides_its_rulings(engine: Engine) -> None:
    """``SendPrivateMessage`` (the ``message`` verb that was) decides as it did, so undo and
    amend can decide its rulings again: a message naming no character is kept with the
    recipient's, else the sender's."""
    catalogue_table(engine)
    oracle(engine)
    command = SendPrivateMessage(to="carol", body=" Meet me at the docks. ", by="Morpheus")
    sent = ev.PrivateMessageSent(
        sender="Morpheus",
        to="carol",
        character=None,
        body="Meet me at the docks.",
        in_character=False,
    )
    assert [sent] == list(run_as(engine, command, "Morpheus"))
    assert "Meet me" in repr(engine.history(NAME, "Oracle", audience=Member("carol"))[-1])
    empty = SendPrivateMessage(to="bob", body="  ", by="Morpheus", character="Smith")
    assert "the message must not be empty" == str(refused_as(engine, empty, "Morpheus", EmptyText))
