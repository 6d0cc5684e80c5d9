"""Each member's read position, per session, kept beside the store (SQLite and PostgreSQL), and
what is new to them since (``Engine.unread``): the thread's entries others wrote after it, as
the member may read them (a hidden post is new to a player once revealed, a private post only
to its readers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.audience import GMS, TABLE, Member
from domain.errors import DomainError
from domain.events import Role
from domain.lifecycle import StartSession
from domain.posts import WritePost
from domain.table import RevealRuling
from engine import Engine
from tests.stores import engine_on

GAME = "Rooftops"
GM = "Rosa"


def _post(engine: Engine, who: str, text: str, *, to: tuple[str, ...] = (), hidden=False) -> int:
    ooc = who != GM
    made = WritePost(text=text, by=who, ooc=ooc, to=to)
    return engine.execute(GAME, made, actor=who, hidden=hidden).number


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with engine_on(request.param, tmp_path) as opened:
        members = {"ana": Role.PLAYER, "ben": Role.PLAYER, "olly": Role.OBSERVER}
        opened.create_campaign(GAME, "sprawl-goons", gm=GM, members=members)  # 1
        yield opened


def test_a_position_is_kept_per_member_and_session_and_never_moves_back(engine: Engine) -> None:
    """ana's position in session 1 moves forward only, stands apart from session 2's and
    ben's, is held to the campaign's last ruling, and another engine of the store reads it."""
    engine.execute(GAME, StartSession())  # 2
    for text in ("one", "two", "three"):  # 3, 4, 5
        _post(engine, GM, text)
    assert 4 == engine.mark_read(GAME, 1, 4, member="ana")
    assert 4 == engine.mark_read(GAME, 1, 3, member="ana")
    assert 5 == engine.mark_read(GAME, 1, 99, member="ana")
    assert 0 == engine.read_position(GAME, 2, member="ana")
    assert 0 == engine.read_position(GAME, 1, member="ben")
    with Engine(engine.db) as other:
        assert 5 == other.read_position(GAME, 1, member="ana")


def test_what_is_new_is_what_others_wrote_after_the_position(engine: Engine) -> None:
    """The unread entries of the latest session are those after ana's position that others
    wrote: her own post is never new to her, and ben's is new to the GM."""
    engine.execute(GAME, StartSession())  # 2
    _post(engine, GM, "The rain starts.")  # 3
    _post(engine, "ana", "brb")  # 4
    engine.mark_read(GAME, 1, 4, member="ana")
    _post(engine, "ana", "back")  # 5
    _post(engine, GM, "Lightning.")  # 6
    _post(engine, "ben", "nice")  # 7
    unread = engine.unread(GAME, audience=Member("ana"))
    assert (1, 4, [6, 7], 2, 6) == (
        unread.session,
        unread.read,
        unread.rulings,
        unread.count,
        unread.first,
    )
    assert [4, 5, 7] == engine.unread(GAME, audience=Member(GM)).rulings
    engine.mark_read(GAME, 1, 7, member="ana")
    assert 0 == engine.unread(GAME, audience=Member("ana")).count


def test_a_hidden_post_is_new_to_a_player_once_revealed_and_a_private_one_to_its_readers(
    engine: Engine,
) -> None:
    """The GM's hidden post is not counted for ana until it is revealed; the GM's private post
    to ben is new to ben alone (and never to olly, the observer)."""
    engine.execute(GAME, StartSession())  # 2
    for member in ("ana", "ben", "olly"):
        engine.mark_read(GAME, 1, 2, member=member)
    hidden = _post(engine, GM, "The sniper waits.", hidden=True)  # 3
    private = _post(engine, GM, "You hear a click.", to=("ben",))  # 4
    assert [] == engine.unread(GAME, audience=Member("ana")).rulings
    assert [private] == engine.unread(GAME, audience=Member("ben")).rulings
    assert [] == engine.unread(GAME, audience=Member("olly")).rulings
    revealed = engine.execute(GAME, RevealRuling(ruling=hidden)).number  # 5
    assert [hidden, revealed] == engine.unread(GAME, audience=Member("ana")).rulings


def test_before_the_first_session_the_rulings_so_far_are_the_thread(engine: Engine) -> None:
    """With no session yet, what is new is counted over the rulings so far (session None)."""
    _post(engine, GM, "Welcome to the table.")  # 2
    unread = engine.unread(GAME, audience=Member("ana"))
    assert (None, [1, 2]) == (unread.session, unread.rulings)  # the campaign made, the post
    engine.mark_read(GAME, None, 2, member="ana")
    assert [] == engine.unread(GAME, audience=Member("ana")).rulings


@pytest.mark.parametrize("audience", [GMS, TABLE], ids=str)
def test_the_gms_and_the_table_keep_no_read_position(engine: Engine, audience: object) -> None:
    """What is new is asked for one member: the GMs and the table are refused."""
    with pytest.raises(DomainError) as raised:
        engine.unread(GAME, audience=audience)  # type: ignore[arg-type]
    assert "NO_READ_POSITION" == raised.value.code


def test_a_name_with_no_seat_has_no_position(engine: Engine) -> None:
    """Marking or reading a position of someone with no seat is refused NOT_A_MEMBER."""
    for use in (
        lambda: engine.mark_read(GAME, None, 1, member="zed"),
        lambda: engine.read_position(GAME, None, member="zed"),
        lambda: engine.unread(GAME, audience=Member("zed")),
    ):
        with pytest.raises(DomainError) as raised:
            use()
        assert "NOT_A_MEMBER" == raised.value.code
