"""Golden tests for Behind the Scenes (R-PDQ-15, DIGEST §3.7 and §5.1 item 4): a private message
is a private post (``post --to``), read by its author, its recipient and the GMs, and by nobody
else through any read: the log, the ruling headers, the thread, search, the recap as JSON and as
Markdown. In a Sims campaign it passes between the GM and one player, about a character
(``domain.rulesets.sims.behind_the_scenes``). Through the in-memory engine; refusals prove
nothing was appended.
"""

from __future__ import annotations

import json

import pytest

from domain.audience import GMS, Member, of_actor
from domain.commands import Command
from domain.errors import EmptyText, NotAllowed, UnknownMember
from domain.events import PostKind, PostWritten, Role, RulingMade, Visibility
from domain.posts import WritePost
from domain.rulesets.sims import errors
from engine import Engine
from projections.render_md import recap_md
from projections.render_thread import thread_md
from tests.golden.test_sims import NAME, one, run
from tests.golden.test_sims_rulings import GM, refused_as, run_as, table

BODY = "Bring me the ledger of the Keymaker and you will have your steak."
REPLY = "Deal. Make me somebody important."


def message(engine: Engine) -> int:
    """The GM writes to bob in the voice of Smith (an NPC); returns the ruling's number."""
    command = WritePost(text=BODY, to=("bob",), by=GM, character="Smith")
    return engine.execute(NAME, command).number


def reads(engine: Engine, reader: str | None) -> dict[str, str]:
    """Everything ``reader`` reads: the log, the headers, the thread, a search, the recap."""
    recap = engine.recap(NAME, audience=of_actor(reader))
    found = [
        engine.search(NAME, words, audience=of_actor(reader)).found
        for words in ("steak", "somebody")
    ]
    return {
        "log": repr(engine.log(NAME, audience=of_actor(reader))),
        "headers": repr(engine.headers(NAME, audience=of_actor(reader))),
        "thread": thread_md(engine.thread(NAME, audience=of_actor(reader))),
        "search": repr(found),
        "recap json": json.dumps(recap),
        "recap md": recap_md(recap),
    }


def test_r_pdq_15_a_private_message_is_a_private_ruling(engine: Engine) -> None:
    """R-PDQ-15: PrivateMessageSent{from, to, body, inCharacter} is a private post, Smith
    speaking to bob; its ruling is private to the author and the recipient (the GMs read every
    ruling), and so is its amendment."""
    table(engine)
    number = message(engine)
    (entry,) = engine.log(NAME, rulings=(number,), audience=GMS)
    (post,) = [r.event for r in entry.events if isinstance(r.event, PostWritten)]
    assert (GM, PostKind.CHARACTER, "Smith", ("bob",), BODY) == (
        post.by,
        post.kind,
        post.speaker,
        post.to,
        post.text,
    )
    made = entry.ruling
    assert (Visibility.PRIVATE, (GM, "bob")) == (made.visibility, made.audience)
    corrected = "Bring me the Keymaker himself."
    result = engine.amend(NAME, number, {"text": corrected}, reason="clearer offer")
    (entry,) = engine.log(NAME, rulings=(result.number,), audience=GMS)
    made = entry.ruling
    assert isinstance(made, RulingMade)
    assert (Visibility.PRIVATE, (GM, "bob")) == (made.visibility, made.audience)
    assert corrected in reads(engine, "bob")["thread"]
    for where, text in reads(engine, "alice").items():
        assert corrected not in text, where
        assert BODY not in text, where


@pytest.mark.parametrize(
    ("reader", "shown"),
    [(None, True), (GM, True), ("bob", True), ("alice", False), ("carol", False), ("olly", False)],
    ids=["gm-at-keyboard", "gm", "recipient", "third-player", "player-no-character", "observer"],
)
def test_r_pdq_15_only_sender_recipient_and_gm_read_it(
    engine: Engine, reader: str | None, shown: bool
) -> None:
    """R-PDQ-15: the GM's message and bob's reply reach the GM and bob through every read, and
    never alice, carol or the observer olly: not the log, the headers, the thread, a search or
    the recap (JSON or Markdown; the recap as `--as NAME` reads it is that member's)."""
    table(engine)
    message(engine)
    run_as(engine, WritePost(text=REPLY, to=(GM,), by="bob", ooc=True), "bob")
    for where, text in reads(engine, reader).items():
        for words in ("steak", "somebody important"):
            assert shown == (words in text), (reader, where, words)


def test_r_pdq_15_an_undone_message_stays_private(engine: Engine) -> None:
    """R-PDQ-15: the GM undoes the message: its words stay out of alice's reads (the
    corrections show her no private ruling) and stay in bob's thread, struck."""
    table(engine)
    message(engine)
    engine.undo(NAME, reason="wrong player")
    for where, text in reads(engine, "alice").items():
        assert BODY not in text, where
    assert f"~~{BODY}~~" in reads(engine, "bob")["thread"]


def test_r_pdq_15_a_player_writes_for_their_own_character(engine: Engine) -> None:
    """R-PDQ-15: bob writes as Cypher, or out of character; he may not write for Neo or in
    alice's name (NOT_ALLOWED), nor may the observer write at all (OBSERVER_CANNOT_MESSAGE)."""
    table(engine)
    for ok in (
        WritePost(text="Deal.", to=(GM,), by="bob", character="Cypher"),
        WritePost(text="Deal.", to=(GM,), by="bob"),  # bob plays Cypher alone: as Cypher
        WritePost(text="brb", to=(GM,), by="bob", ooc=True),
    ):
        assert [PostWritten] == [type(e) for e in run_as(engine, ok, "bob")]
    observer = errors.ObserverCannotMessage
    for command, actor, error in (
        (WritePost(text="x", to=(GM,), by="bob", character="Neo"), "bob", NotAllowed),
        (WritePost(text="x", to=(GM,), by="alice", character="Cypher"), "bob", NotAllowed),
        (WritePost(text="x", to=("bob",), by="olly", ooc=True), "olly", observer),
    ):
        refused_as(engine, command, actor, error)


def test_r_pdq_15_the_gm_writes_in_person(engine: Engine) -> None:
    """R-PDQ-15: the GM writes in person (narration) to alice: in her thread, not in bob's."""
    table(engine)
    command = WritePost(text="Follow the white rabbit.", to=("alice",), by=GM)
    post = one(run(engine, command), PostWritten)
    assert isinstance(post, PostWritten)
    assert (PostKind.NARRATION, ("alice",)) == (post.kind, post.to)
    assert "white rabbit" in thread_md(engine.thread(NAME, audience=Member("alice")))
    assert "white rabbit" not in thread_md(engine.thread(NAME, audience=Member("bob")))


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (WritePost(text="note to self", to=(GM,), by=GM), errors.MessageToSelf),
        (
            WritePost(text="psst", to=("olly",), by=GM, character="Smith"),
            errors.ObserverCannotMessage,
        ),
        (WritePost(text="psst", to=("mallory",), by=GM, character="Smith"), UnknownMember),
        (WritePost(text="  ", to=("bob",), by=GM, character="Smith"), EmptyText),
        (WritePost(text="psst", to=("carol",), by=GM), errors.MessageNeedsCharacter),
        (WritePost(text="psst", to=("carol",), by=GM, npc="Oracle"), errors.MessageNeedsCharacter),
        (
            WritePost(text="psst", to=("alice", "bob"), by=GM, character="Smith"),
            errors.MessageToOneMember,
        ),
    ],
    ids=[
        "to-self",
        "to-observer",
        "to-stranger",
        "empty",
        "no-character",
        "an-npc-is-no-character",
        "two-recipients",
    ],
)
def test_r_pdq_15_refusals(engine: Engine, command: Command, error: type[Exception]) -> None:
    """R-PDQ-15: a message passes between the GM and one player, says something and concerns
    a character (spoken as, or played by its author or recipient); otherwise it is refused and
    nothing is recorded."""
    table(engine)
    refused_as(engine, command, GM, error)


def test_r_pdq_15_a_character_named_is_enough(engine: Engine) -> None:
    """R-PDQ-15: the GM writes as Smith to carol, who plays no character yet: the message
    concerns Smith."""
    table(engine)
    command = WritePost(text="The Oracle will see you.", to=("carol",), by=GM, character="Smith")
    assert [PostWritten] == [type(e) for e in run(engine, command)]


def test_other_systems_keep_the_shared_private_post(engine: Engine) -> None:
    """Behind the Scenes is the Sims' rule: elsewhere a private post may go to several members,
    and an observer may be among them (``domain.posts``)."""
    seats = {"alice": Role.PLAYER, "bob": Role.PLAYER, "olly": Role.OBSERVER}
    engine.create_campaign("Night Shift", "code-green", gm=GM, members=seats)
    command = WritePost(text="Both of you.", to=("alice", "bob", "olly"), by=GM)
    (post,) = engine.execute("Night Shift", command).events
    assert isinstance(post, PostWritten)
    assert ("alice", "bob", "olly") == post.to
