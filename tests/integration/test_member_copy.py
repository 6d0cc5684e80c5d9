"""A member's own copy of the log (`campaign export --for`): what they may read whole, every
other row as its body's digest and its link; it verifies link by link and seal by seal, its
digest is the whole export's, it holds no word or die withheld from its member, a changed row
of it is named by the check, and an import refuses it."""

from __future__ import annotations

import json

import pytest

from domain.audience import GMS, Member, TABLE
from domain.errors import ImportOfMemberCopy, NotAllowed
from domain.events import Role
from domain.lifecycle import AddNote, EndSession, StartSession
from domain.posts import WritePost
from domain.rulesets.the_code.commands import RollExposure
from domain.table import AddMember
from engine import DiceSpec, Engine
from engine.transfer.player_check import verify_export
from engine.transfer.witnessed_export import verify_witnessed
from tests.golden.test_the_code import HAWK, table

SECRET = "the mayor is the Owl"
WHISPER = "kim, the Owl pays you"
HIDDEN_POST = "the Owl watches from the roof"
OPEN_POST = "rain on the docks"


@pytest.fixture
def lab(engine: Engine) -> Engine:
    """The Code's 'Lab': a public roll; a hidden roll, a GM-only note, a private post to kim and
    a hidden post with a roll; session ended."""
    table(engine, exposure=1)
    engine.execute("Lab", AddMember(member="dana", role=Role.PLAYER))
    engine.execute("Lab", AddMember(member="kim", role=Role.PLAYER))
    engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(2,)))
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    engine.execute("Lab", RollExposure(hero=HAWK), dice=DiceSpec(faces=(4, 6)), hidden=True)
    engine.execute("Lab", AddNote(text=SECRET, gm_only=True))
    engine.execute("Lab", WritePost(text=WHISPER, by="GM", to=("kim",)))
    hidden_post = WritePost(text=f"{HIDDEN_POST} [1d6]", by="GM")
    engine.execute("Lab", hidden_post, dice=DiceSpec(faces=(5,)), hidden=True)
    engine.execute("Lab", WritePost(text=OPEN_POST, by="GM"))
    engine.execute("Lab", EndSession())
    return engine


def test_a_copy_verifies_with_the_whole_exports_digest(lab: Engine) -> None:
    whole = list(lab.export("Lab", audience=GMS))
    _, report = verify_export(whole)
    for member in ("dana", "kim"):
        copy = list(lab.member_copy("Lab", member, audience=GMS))
        assert json.loads(copy[0])["copy_for"] == member
        assert len(copy) == len(whole)
        _, mine = verify_export(copy)
        assert mine.intact, mine
        assert mine.digest == report.digest == json.loads(whole[0])["digest"]
        assert [s.digest for s in mine.seals] == [s.digest for s in report.seals]
        text = "\n".join(copy)
        assert SECRET not in text and HIDDEN_POST not in text
        assert (WHISPER in text) == (member == "kim")
        assert OPEN_POST in text
        checked = verify_witnessed(copy)
        assert checked.copy_for == member and checked.withheld > 0 and checked.given == 0


def test_who_may_take_a_copy(lab: Engine) -> None:
    assert list(lab.member_copy("Lab", "dana", audience=Member("dana")))
    assert list(lab.member_copy("Lab", "dana", audience=Member("GM")))
    with pytest.raises(NotAllowed):
        list(lab.member_copy("Lab", "dana", audience=Member("kim")))
    with pytest.raises(NotAllowed):
        list(lab.member_copy("Lab", "dana", audience=TABLE))


def test_import_refuses_a_copy(lab: Engine) -> None:
    copy = list(lab.member_copy("Lab", "dana", audience=GMS))
    with pytest.raises(ImportOfMemberCopy):
        lab.import_campaign(copy)
