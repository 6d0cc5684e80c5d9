"""What the table waits on, each thing naming its member (``Engine.notices``), and what the
store remembers of telling it (``engine.application.notices``): each trigger tells its member
and nobody else, a private post only its addressee, the claims of two engines on one store
(SQLite and PostgreSQL) give each ruling's notices to one of them, the mail's digest waits its
minutes, and an unsubscribe token stops the mail it names and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from freezegun import freeze_time

from domain.audience import GMS, TABLE, Member
from domain.errors import DomainError
from domain.events import Outcome, Role
from domain.lifecycle import StartScene, StartSession
from domain.posts import WritePost
from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from domain.table import DisputeRuling, RemoveMember
from engine import DiceSpec, Engine, Notice
from tests.conftest import FROZEN_AT
from tests.postgres import fresh_schema

CAMPAIGN, GM = "Zion", "Morpheus"
STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def seat(engine: Engine) -> int:
    """A Sims table: the GM, alice (Neo), bob (Cypher), olly observing, in a scene; the number
    of its last ruling."""
    members = {"alice": Role.PLAYER, "bob": Role.PLAYER, "olly": Role.OBSERVER}
    engine.create_campaign(CAMPAIGN, "sims", gm=GM, members=members)
    for command in (
        StartSession(),
        StartScene(stage="The rooftop"),
        sims.CreateCharacter(
            character="Neo", player="alice", qualities=("Kung Fu:Combat:Good",), custom=True
        ),
        sims.CreateCharacter(
            character="Cypher", player="bob", qualities=("Knives:Combat:Good",), custom=True
        ),
    ):
        engine.execute(CAMPAIGN, command)
    return engine.campaign(CAMPAIGN).rulings


def told(engine: Engine, after: int, member: str) -> list[Notice]:
    """What the rulings after ``after`` tell ``member`` (as they read it)."""
    read = engine.notices(CAMPAIGN, after=after, audience=Member(member))
    return [n for n in read if n.member == member]


def everyone(engine: Engine, after: int) -> dict[str, list[str]]:
    """Each member's notices of the rulings after ``after`` (those with none left out)."""
    found = {m: told(engine, after, m) for m in (GM, "alice", "bob", "olly")}
    return {m: [n.kind for n in notices] for m, notices in found.items() if notices}


@pytest.fixture
def engine() -> Iterator[Engine]:
    with Engine() as opened:
        yield opened


def test_a_turn_tells_the_player_whose_character_acts_and_nobody_else(engine: Engine) -> None:
    after = seat(engine)
    order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"))
    engine.execute(CAMPAIGN, order, dice=DiceSpec(faces=(5, 2)))  # Neo wins the roll-off
    assert {"alice": ["turn"]} == everyone(engine, after)
    (notice,) = told(engine, after, "alice")
    assert notice.line.startswith("Neo's turn: Kung Fu (Good)")
    after = engine.campaign(CAMPAIGN).rulings
    engine.execute(CAMPAIGN, sims.EndTurn())
    assert {"bob": ["turn"]} == everyone(engine, after)
    assert "Cypher's turn" in told(engine, after, "bob")[0].line


def test_a_ruling_that_changes_no_turn_tells_nobody(engine: Engine) -> None:
    order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"))
    seat(engine)
    engine.execute(CAMPAIGN, order, dice=DiceSpec(faces=(5, 2)))
    after = engine.campaign(CAMPAIGN).rulings
    engine.execute(CAMPAIGN, WritePost(text="Neo looks at the door.", by="alice", character="Neo"))
    assert {} == everyone(engine, after)


def test_an_open_test_and_the_adaptation_after_it_tell_the_tester() -> None:
    """Code Green: a declared test waits on its tester's roll (an assist adding a die to it
    tells nothing new), the rolled one on their adaptation."""
    with Engine() as engine:
        players = {"ana": Role.PLAYER, "bo": Role.PLAYER}
        engine.create_campaign("Night", "code-green", gm="Rosa", members=players)
        for number, player in enumerate(players):
            made = cg.CreateCharacter(
                player=player,
                form=("Legs", "Tail", "Teeth"),
                function=("Cryptic", "Invulnerable", "Phasing"),
            )
            engine.execute("Night", made, dice=DiceSpec(seed=3 + number))
        tester, helper = (e.name for e in engine.campaign("Night").roster)
        engine.execute("Night", StartSession())
        engine.execute("Night", StartScene(stage="The cold room"))
        for name in (tester, helper):
            place = cg.PlaceTokens(character=name, squares=("R1C1", "R2C2", "R3C3"))
            engine.execute("Night", place)
        after = engine.campaign("Night").rulings
        engine.execute("Night", cg.DeclareTest(character=tester, form="Legs", function="Cryptic"))
        (notice,) = engine.notices("Night", after=after, audience=Member("ana"))
        assert ("ana", "turn") == (notice.member, notice.kind)
        assert "test 1 open (1 die)" in notice.line
        after = engine.campaign("Night").rulings
        assist = cg.AssistTest(helper=helper, square="R1C1", justification="holds the door")
        engine.execute("Night", assist)
        assert [] == engine.notices("Night", after=after, audience=GMS)
        after = engine.campaign("Night").rulings
        engine.execute("Night", cg.RollTest(character=tester), dice=DiceSpec(faces=(4, 2)))
        (notice,) = engine.notices("Night", after=after, audience=Member("ana"))
        assert "must adapt after test 1" in notice.line


def test_a_private_post_tells_its_addressee_alone(engine: Engine) -> None:
    after = seat(engine)
    engine.execute(CAMPAIGN, WritePost(text="The ledger for a steak.", to=("bob",), by=GM))
    assert {"bob": ["private"]} == everyone(engine, after)
    assert "The ledger for a steak." in told(engine, after, "bob")[0].line
    assert [] == engine.notices(CAMPAIGN, after=after, audience=TABLE)  # never in the channel
    assert [] == engine.notices(CAMPAIGN, after=after, audience=Member("alice"))
    assert ["bob"] == [n.member for n in engine.notices(CAMPAIGN, after=after, audience=GMS)]


def test_a_post_to_the_gm_tells_the_gm_and_never_its_author(engine: Engine) -> None:
    after = seat(engine)
    reply = WritePost(text="Deal, Agent.", to=(GM,), by="bob", character="Cypher")
    engine.execute(CAMPAIGN, reply, actor="bob")
    assert {GM: ["private"]} == everyone(engine, after)


def test_an_undone_private_post_tells_nobody(engine: Engine) -> None:
    after = seat(engine)
    engine.execute(CAMPAIGN, WritePost(text="Wrong table.", to=("bob",), by=GM))
    engine.undo(CAMPAIGN, reason="sent to the wrong player")
    assert {} == everyone(engine, after)


def test_a_dispute_tells_the_gm_and_its_resolution_tells_who_disputed(engine: Engine) -> None:
    after = seat(engine)
    engine.execute(CAMPAIGN, DisputeRuling(ruling=3, reason="Neo came first", by="olly"))
    assert {GM: ["dispute"]} == everyone(engine, after)
    after = engine.campaign(CAMPAIGN).rulings
    engine.resolve(CAMPAIGN, 1, Outcome.UPHELD, reason="the order stands")
    assert {"olly": ["dispute"]} == everyone(engine, after)
    (notice,) = told(engine, after, "olly")
    assert "your dispute of ruling 3 was resolved: upheld (the order stands)" in notice.line
    assert [notice.about] == [
        n.about for n in engine.notices(CAMPAIGN, after=after, audience=TABLE)
    ]


def test_a_member_who_lost_their_seat_is_told_nothing(engine: Engine) -> None:
    seat(engine)
    engine.execute(CAMPAIGN, DisputeRuling(ruling=3, reason="Neo came first", by="olly"))
    after = engine.campaign(CAMPAIGN).rulings
    engine.resolve(CAMPAIGN, 1, Outcome.UPHELD, reason="the order stands")
    engine.execute(CAMPAIGN, RemoveMember(member="olly"))
    assert [] == engine.notices(CAMPAIGN, after=after, audience=GMS)
    with pytest.raises(DomainError) as refused:
        engine.notices(CAMPAIGN, after=after, audience=Member("olly"))
    assert "NOT_A_MEMBER" == refused.value.code


# --- Choices -------------------------------------------------------------------------------------


def test_a_member_who_never_chose_is_told_everything_in_discord_and_not_mailed(
    engine: Engine,
) -> None:
    seat(engine)
    choices = engine.notice_choices(CAMPAIGN, "alice")
    assert (("turn", "private", "dispute"), True, "") == (
        choices.kinds,
        choices.discord,
        choices.email,
    )


def test_choices_are_kept_and_bad_ones_refused(engine: Engine) -> None:
    seat(engine)
    engine.choose_notices(CAMPAIGN, "alice", kinds=["private"], discord=False, email=" a@b.org ")
    kept = engine.notice_choices(CAMPAIGN, "alice")
    assert (("private",), False, "a@b.org") == (kept.kinds, kept.discord, kept.email)
    for bad in ("not an address", "a@b", "a@b.org\nBcc: c@d.org", "<a@b.org>"):
        with pytest.raises(DomainError) as refused:
            engine.choose_notices(CAMPAIGN, "alice", kinds=[], discord=True, email=bad)
        assert "INVALID_EMAIL" == refused.value.code
    with pytest.raises(DomainError) as refused:
        engine.choose_notices(CAMPAIGN, "alice", kinds=["gossip"], discord=True, email="")
    assert "UNKNOWN_NOTICE_KIND" == refused.value.code
    with pytest.raises(DomainError) as refused:
        engine.notice_choices(CAMPAIGN, "mallory")
    assert "NOT_A_MEMBER" == refused.value.code
    assert "a@b.org" == engine.notice_choices(CAMPAIGN, "alice").email  # nothing changed


def test_an_unsubscribe_token_stops_the_mail_it_names_and_only_that(engine: Engine) -> None:
    seat(engine)
    engine.choose_notices(CAMPAIGN, "alice", kinds=["turn"], discord=False, email="a@b.org")
    token = engine.unsubscribe_token(CAMPAIGN, "alice", "a@b.org")
    assert (CAMPAIGN, "alice", "a@b.org") == engine.mail_stopped_by(token)
    assert "a@b.org" == engine.notice_choices(CAMPAIGN, "alice").email  # looking stops nothing
    for forged in (token[:-2] + "AA", "x" + token, token.replace(".", ""), "", "a.b"):
        with pytest.raises(DomainError) as refused:
            engine.unsubscribe(forged)
        assert "UNSUBSCRIBE_LINK_INVALID" == refused.value.code
    assert (CAMPAIGN, "alice", "a@b.org") == engine.unsubscribe(token)
    kept = engine.notice_choices(CAMPAIGN, "alice")
    assert (("turn",), False, "") == (kept.kinds, kept.discord, kept.email)  # the rest stays
    engine.choose_notices(CAMPAIGN, "alice", kinds=["turn"], discord=False, email="new@b.org")
    engine.unsubscribe(token)  # an old link does not stop a new address
    assert "new@b.org" == engine.notice_choices(CAMPAIGN, "alice").email


# --- One store, several processes -----------------------------------------------------------------


@pytest.fixture(params=STORES)
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh store two engines (two server processes) open."""
    if request.param == "sqlite":
        yield str(tmp_path / "campaign.db")
    else:
        with fresh_schema() as url:
            yield url


def test_each_rulings_notices_are_claimed_by_one_engine_of_the_store(shared: str) -> None:
    with Engine(shared) as one, Engine(shared) as two:
        seat(one)
        assert None is one.claim_notices(CAMPAIGN)  # first seen: its past is not told
        assert None is two.claim_notices(CAMPAIGN)
        start = one.campaign(CAMPAIGN).rulings
        one.execute(CAMPAIGN, WritePost(text="psst", to=("bob",), by=GM))
        claims = [one.claim_notices(CAMPAIGN), two.claim_notices(CAMPAIGN)]
        assert [start, None] == claims
        two.execute(CAMPAIGN, WritePost(text="again", to=("bob",), by=GM))
        two.execute(CAMPAIGN, WritePost(text="and again", to=("bob",), by=GM))
        assert [start + 1, None] == [two.claim_notices(CAMPAIGN), one.claim_notices(CAMPAIGN)]
        assert 2 == len(told(one, start + 1, "bob"))
        assert one.told_once(CAMPAIGN, 7, "bob", "discord-dm")
        assert not two.told_once(CAMPAIGN, 7, "bob", "discord-dm")


def test_the_digest_waits_its_minutes_and_is_taken_by_one_engine(shared: str) -> None:
    every = timedelta(minutes=10)
    with Engine(shared) as one, Engine(shared) as two, freeze_time(FROZEN_AT) as clock:
        seat(one)
        one.choose_notices(CAMPAIGN, "bob", kinds=["private"], discord=False, email="b@o.org")
        first = Notice(member="bob", kind="private", ruling=6, line="#6 one", about="private 6")
        one.queue_mail(CAMPAIGN, "bob", [first])
        assert [] == one.due_mail(every)  # the first notice waits a minute for others
        clock.tick(timedelta(seconds=61))
        taken = [*one.due_mail(every), *two.due_mail(every)]
        assert [("bob", "b@o.org", ("#6 one",))] == [
            (d.member, d.address, tuple(n.line for n in d.notices)) for d in taken
        ]
        for number in (7, 8):
            clock.tick(timedelta(minutes=1))
            line, about = f"#{number} more", f"private {number}"
            more = Notice(member="bob", kind="private", ruling=number, line=line, about=about)
            two.queue_mail(CAMPAIGN, "bob", [more])
        clock.tick(timedelta(minutes=5))
        assert [] == [*one.due_mail(every), *two.due_mail(every)]  # 7 minutes since the last
        clock.tick(timedelta(minutes=3))
        taken = [*two.due_mail(every), *one.due_mail(every)]
        assert [("#7 more", "#8 more")] == [tuple(n.line for n in d.notices) for d in taken]
        clock.tick(timedelta(hours=1))
        assert [] == one.due_mail(every)  # nothing waits


def test_a_digest_not_sent_goes_in_the_next_and_an_address_removed_drops_it() -> None:
    every = timedelta(minutes=10)
    with Engine() as engine, freeze_time(FROZEN_AT) as clock:
        seat(engine)
        engine.choose_notices(CAMPAIGN, "bob", kinds=["private"], discord=False, email="b@o.org")
        notice = Notice(member="bob", kind="private", ruling=6, line="#6 one", about="private 6")
        engine.queue_mail(CAMPAIGN, "bob", [notice])
        clock.tick(timedelta(minutes=2))
        (digest,) = engine.due_mail(every)
        engine.mail_failed(digest)
        clock.tick(timedelta(minutes=10))
        (again,) = engine.due_mail(every)
        assert digest.notices == again.notices
        engine.queue_mail(CAMPAIGN, "bob", [notice])
        engine.choose_notices(CAMPAIGN, "bob", kinds=["private"], discord=False, email="")
        clock.tick(timedelta(minutes=10))
        assert [] == engine.due_mail(every)
        engine.choose_notices(CAMPAIGN, "bob", kinds=["private"], discord=False, email="b@o.org")
        clock.tick(timedelta(minutes=10))
        assert [] == engine.due_mail(every)  # dropped, not kept for a later address
