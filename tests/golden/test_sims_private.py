"""Golden tests for Behind the Scenes (R-PDQ-15, DIGEST §3.7 and §5.1 item 4): a private message
is read by its sender, its recipient and the GMs, and by nobody else through any read: the log,
the ruling headers, a character's history, the recap as JSON and as Markdown. Through the
in-memory engine; refusals prove nothing was appended.
"""

from __future__ import annotations

import json

import pytest

from domain.commands import Command
from domain.errors import EmptyText, NotAllowed, UnknownMember
from domain.events import RulingMade, Visibility
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import SendPrivateMessage
from engine import Engine
from projections.render_md import recap_md
from tests.golden.test_sims import NAME, one, run
from tests.golden.test_sims_rulings import GM, refused_as, run_as, table

BODY = "Bring me the ledger of the Keymaker and you will have your steak."
REPLY = "Deal. Make me somebody important."


def message(engine: Engine) -> int:
    """The GM writes to bob in the voice of Smith (an NPC); returns the ruling's number."""
    command = SendPrivateMessage(to="bob", body=BODY, by=GM, character="Smith", in_character=True)
    return engine.execute(NAME, command).number


def reads(engine: Engine, reader: str | None) -> dict[str, str]:
    """Everything ``reader`` reads: the log, the headers, two histories, the recap (JSON, MD)."""
    recap = engine.recap(NAME, reader=reader)
    return {
        "log": repr(engine.log(NAME, reader=reader)),
        "headers": repr(engine.headers(NAME, reader=reader)),
        "history Smith": repr(engine.history(NAME, "Smith", reader=reader)),
        "history Cypher": repr(engine.history(NAME, "Cypher", reader=reader)),
        "recap json": json.dumps(recap),
        "recap md": recap_md(recap),
    }


def test_r_pdq_15_a_private_message_is_a_private_ruling(engine: Engine) -> None:
    """R-PDQ-15: PrivateMessageSent{from, to, body, inCharacter}, kept with Smith's sheet; its
    ruling is private to the sender and the recipient (the GMs read every ruling)."""
    table(engine)
    number = message(engine)
    (entry,) = engine.log(NAME, rulings=(number,))
    sent = [r.event for r in entry.events if isinstance(r.event, ev.PrivateMessageSent)]
    expected = ev.PrivateMessageSent(
        sender=GM, to="bob", character="Smith", body=BODY, in_character=True
    )
    assert [expected] == sent
    made = entry.ruling
    assert isinstance(made, RulingMade)
    assert (Visibility.PRIVATE, (GM, "bob")) == (made.visibility, made.audience)


@pytest.mark.parametrize(
    ("reader", "shown"),
    [(None, True), (GM, True), ("bob", True), ("alice", False), ("carol", False), ("olly", False)],
    ids=["gm-at-keyboard", "gm", "recipient", "third-player", "player-no-character", "observer"],
)
def test_r_pdq_15_only_sender_recipient_and_gm_read_it(
    engine: Engine, reader: str | None, shown: bool
) -> None:
    """R-PDQ-15: the GM's message and bob's reply reach the GM and bob through every read, and
    never alice, carol or the observer olly: not the log, the headers, a history or the recap
    (JSON or Markdown; the recap as `--as NAME` reads it is that member's private recap)."""
    table(engine)
    message(engine)
    reply = SendPrivateMessage(to=GM, body=REPLY, by="bob", character="Cypher")
    run_as(engine, reply, "bob")
    for where, text in reads(engine, reader).items():
        kept = {"history Smith": (BODY,), "history Cypher": (REPLY,)}.get(where, (BODY, REPLY))
        for words in kept:  # each message is kept with its character: the history shows it
            assert shown == (words in text), (reader, where, words)


def test_r_pdq_15_an_undone_message_stays_private(engine: Engine) -> None:
    """R-PDQ-15: the GM undoes the message: its words stay out of alice's log and recap (the
    corrections show her no private ruling) and stay in bob's."""
    table(engine)
    message(engine)
    engine.undo(NAME, reason="wrong player")
    for where, text in reads(engine, "alice").items():
        assert BODY not in text, where
    assert BODY in reads(engine, "bob")["recap md"]


def test_r_pdq_15_an_amended_message_stays_with_its_readers(engine: Engine) -> None:
    """R-PDQ-15: the GM amends the message's body: the amendment is private to the same sender
    and recipient, so bob reads the corrected words in his recap and alice reads neither."""
    table(engine)
    number = message(engine)
    corrected = "Bring me the Keymaker himself."
    result = engine.amend(NAME, number, {"body": corrected}, reason="clearer offer")
    (entry,) = engine.log(NAME, rulings=(result.number,))
    made = entry.ruling
    assert isinstance(made, RulingMade)
    assert (Visibility.PRIVATE, (GM, "bob")) == (made.visibility, made.audience)
    assert corrected in reads(engine, "bob")["recap md"]
    for where, text in reads(engine, "alice").items():
        assert corrected not in text, where
        assert BODY not in text, where


def test_r_pdq_15_a_player_writes_for_their_own_character(engine: Engine) -> None:
    """R-PDQ-15: bob writes as himself for Cypher; he may not write for Neo, in alice's name or
    without naming his character, and the observer may not write at all (NOT_ALLOWED)."""
    table(engine)
    ok = SendPrivateMessage(to=GM, body="Deal.", by="bob", character="Cypher")
    assert [ev.PrivateMessageSent] == [type(e) for e in run_as(engine, ok, "bob")]
    for command, actor in (
        (SendPrivateMessage(to=GM, body="x", by="bob", character="Neo"), "bob"),
        (SendPrivateMessage(to=GM, body="x", by="alice", character="Cypher"), "bob"),
        (SendPrivateMessage(to=GM, body="x", by="bob"), "bob"),
        (SendPrivateMessage(to="bob", body="x", by="olly"), "olly"),
    ):
        refused_as(engine, command, actor, NotAllowed)


def test_r_pdq_15_the_gm_writes_in_person(engine: Engine) -> None:
    """R-PDQ-15: the GM writes in person, out of character, to alice: kept with Neo, her
    character, and in her history, not in bob's."""
    table(engine)
    command = SendPrivateMessage(to="alice", body="Follow the white rabbit.", by=GM)
    sent = one(run(engine, command), ev.PrivateMessageSent)
    assert isinstance(sent, ev.PrivateMessageSent)
    assert (None, False) == (sent.character, sent.in_character)
    assert "white rabbit" in repr(engine.history(NAME, "Neo", reader="alice")[-1])
    assert "white rabbit" not in repr(engine.history(NAME, "Neo", reader="bob"))


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (SendPrivateMessage(to=GM, body="note to self", by=GM), errors.MessageToSelf),
        (
            SendPrivateMessage(to="olly", body="psst", by=GM, character="Smith"),
            errors.ObserverCannotMessage,
        ),
        (SendPrivateMessage(to="mallory", body="psst", by=GM, character="Smith"), UnknownMember),
        (SendPrivateMessage(to="bob", body="  ", by=GM, character="Smith"), EmptyText),
        (SendPrivateMessage(to="carol", body="psst", by=GM), errors.MessageNeedsCharacter),
    ],
    ids=["to-self", "to-observer", "to-stranger", "empty", "no-character-to-keep-it"],
)
def test_r_pdq_15_refusals(engine: Engine, command: Command, error: type[Exception]) -> None:
    """R-PDQ-15: a message passes between two seats of the GM and the players, says something
    and is kept with a character's sheet; otherwise it is refused and nothing is recorded."""
    table(engine)
    refused_as(engine, command, GM, error)
