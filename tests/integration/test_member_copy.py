"""A member's own copy of the log (`campaign export --for`): what they may read whole, every
other row as its body's digest and its link; it verifies link by link and seal by seal, its
digest is the whole export's, it holds no word or die withheld from its member, a changed row
of it is named by the check, and an import refuses it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS, TABLE, Member
from domain.errors import ImportOfMemberCopy, NotAllowed
from domain.events import Role
from domain.lifecycle import AddNote, EndSession, StartSession
from domain.posts import WritePost
from domain.rulesets.the_code.commands import RollExposure
from domain.table import AddMember, RevealRuling
from engine import DiceSpec, Engine, Head
from engine.store.chain import genesis, link_over_body
from engine.store.mapper import canonical_json
from engine.transfer.format import ImportRefused
from engine.transfer.player_check import verify_export
from engine.transfer.witnessed_export import verify_witnessed
from tests.conftest import FROZEN_AT
from tests.golden.test_the_code import HAWK, table
from tests.integration.players import Player, close_entropy
from tests.integration.witnesses import Witness

SECRET = "the mayor is the Owl"
WHISPER = "kim, the Owl pays you"
HIDDEN_POST = "the Owl watches from the roof"
OPEN_POST = "rain on the docks"


@pytest.fixture
def lab(engine: Engine) -> Engine:
    return _lab(engine)


def _lab(engine: Engine) -> Engine:
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
        assert SECRET not in text
        assert HIDDEN_POST not in text
        assert (WHISPER in text) == (member == "kim")
        assert OPEN_POST in text
        checked = verify_witnessed(copy)
        assert checked.copy_for == member
        assert checked.withheld > 0
        assert checked.given == 0


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


def test_a_copy_on_each_store(stored_engine: Engine) -> None:
    """On SQLite and PostgreSQL alike: the copy verifies with the whole export's digest."""
    lab = _lab(stored_engine)
    _, report = verify_export(list(lab.export("Lab", audience=GMS)))
    _, mine = verify_export(list(lab.member_copy("Lab", "kim", audience=Member("kim"))))
    assert mine.intact
    assert mine.digest == report.digest


def _edited(
    lines: list[str], pick: Callable[[dict[str, Any]], bool], edit: Callable[[dict[str, Any]], None]
) -> tuple[list[str], tuple[str, int]]:
    """``lines`` with the first line ``pick`` takes edited; that line's stream and version."""
    out = list(lines)
    for n, line in enumerate(out[1:], start=1):
        data = json.loads(line)
        if pick(data):
            edit(data)
            out[n] = json.dumps(data, sort_keys=True)
            return out, (data["stream"], data["version"])
    raise AssertionError("no such line")


def test_a_changed_withheld_digest_is_named(lab: Engine) -> None:
    copy = list(lab.member_copy("Lab", "dana", audience=GMS))

    def flip(data: dict[str, Any]) -> None:
        digest = data["withheld"]["digest"]
        data["withheld"]["digest"] = ("0" if digest[0] != "0" else "1") + digest[1:]

    tampered, (stream, version) = _edited(copy, lambda d: "withheld" in d, flip)
    _, report = verify_export(tampered)
    assert not report.intact
    assert [(str(b.stream), b.version) for b in report.breaks] == [(stream, version)]
    assert "withheld" in report.breaks[0].problem


def test_a_changed_readable_row_is_named(lab: Engine) -> None:
    copy = list(lab.member_copy("Lab", "dana", audience=GMS))

    def rain(data: dict[str, Any]) -> None:
        data["event"]["event"]["text"] = "sun on the docks"

    def post(data: dict[str, Any]) -> bool:
        return OPEN_POST in json.dumps(data) and data["topic"] != "domain.events:RulingMade"

    tampered, (stream, version) = _edited(copy, post, rain)
    _, report = verify_export(tampered)
    assert (str(report.breaks[0].stream), report.breaks[0].version) == (stream, version)
    assert "changed" in report.breaks[0].problem


def test_a_withheld_line_of_a_whole_export_is_refused(lab: Engine) -> None:
    """Only a member's copy (its header says whose) holds withheld lines."""
    copy = list(lab.member_copy("Lab", "dana", audience=GMS))
    header = json.loads(copy[0])
    del header["copy_for"]
    with pytest.raises(ImportRefused):
        verify_export([json.dumps(header), *copy[1:]])


def test_rows_linked_over_their_bodies_are_taken_as_given(engine: Engine) -> None:
    """A log written before 2026-12-06 (every link over its body's bytes): its withheld rows
    say so, and the check takes their links as given, the next link pinning each."""
    engine.create_campaign("Old", "the-code", gm="GM")
    engine.execute("Old", AddMember(member="dana", role=Role.PLAYER))
    engine.execute("Old", AddNote(text=SECRET, gm_only=True))
    engine.execute("Old", AddNote(text=OPEN_POST))
    whole = _linked_over_bodies(list(engine.export("Old", audience=GMS)))
    with Engine() as old:
        old.import_campaign(whole)
        copy = list(old.member_copy("Old", "dana", audience=GMS))
        gm = verify_export(old.export("Old", audience=GMS))[1]
    assert SECRET not in "\n".join(copy)
    withheld = [json.loads(line)["withheld"] for line in copy[1:] if "withheld" in line]
    assert withheld
    assert all(w["linked_over"] == "body" for w in withheld)
    checked = verify_witnessed(copy)
    assert checked.report.intact
    assert checked.report.digest == gm.digest
    assert checked.given == checked.withheld == len(withheld)


def _linked_over_bodies(lines: list[str]) -> list[str]:
    """An export written again with every link over its body's bytes (the first kind)."""
    last: dict[str, str] = {}
    out = [lines[0]]
    for line in lines[1:]:
        data = json.loads(line)
        body = dict(data["event"])
        body.pop("chain")
        stream = data["stream"]
        previous = last.get(stream) or genesis(UUID(stream))
        raw = canonical_json(body)
        chain = link_over_body(previous, stream, data["version"], data["topic"], raw)
        data["event"]["chain"] = last[stream] = chain
        out.append(json.dumps(data, sort_keys=True))
    digest = verify_export(out)[1].digest
    return [json.dumps({**json.loads(out[0]), "digest": digest}), *out[1:]]


# --- Any mix of rulings -------------------------------------------------------------------------

PUBLIC, TO_OTHER, TO_MEMBER, BY_MEMBER, HIDDEN, SHOWN, NOTE, UNDONE, AMENDED = range(9)
GM = "Rosa"


def _mixed(engine: Engine, kinds: list[int], member: str) -> dict[str, bool]:
    """A Sprawl Goons table with committed dice (ana and bea keyed), one ruling of each kind in
    ``kinds``, the session ended (its seed revealed); each ruling's marker word (in its text
    and its dice expression) with whether ``member`` may read it."""
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana, bea = Player("ana").seated(engine), Player("bea").seated(engine)
    other = bea if member == "ana" else ana
    engine.execute("Lab", StartSession())
    close_entropy(engine)
    readable: dict[str, bool] = {}
    for n, kind in enumerate(kinds):
        word = f"zq{n}marker"
        text = f"{word} [{n + 3}d{n + 11}]"  # an expression no other ruling rolls
        if kind == PUBLIC:
            engine.execute("Lab", WritePost(text=text, by=other.name, ooc=True), actor=other.name)
        elif kind == TO_OTHER:
            post = WritePost(text=text, by=GM, to=(other.name,))
            engine.execute("Lab", post)
        elif kind == TO_MEMBER:
            engine.execute(
                "Lab", WritePost(text=text, by=other.name, ooc=True, to=(member,)), actor=other.name
            )
        elif kind == BY_MEMBER:
            engine.execute(
                "Lab", WritePost(text=text, by=member, ooc=True, to=(other.name,)), actor=member
            )
        elif kind in (HIDDEN, SHOWN):
            made = engine.execute("Lab", WritePost(text=text, by=GM), hidden=True)
            if kind == SHOWN:
                engine.execute("Lab", RevealRuling(ruling=made.number))
        elif kind == NOTE:
            engine.execute("Lab", AddNote(text=word, gm_only=True))
        elif kind == UNDONE:  # a public roll, then undone: still readable
            made = engine.execute("Lab", WritePost(text=text, by=GM))
            engine.undo("Lab", made.number, reason="not yet")
        else:  # a private post to another, amended: its amendment as private as it
            made = engine.execute("Lab", WritePost(text=word, by=GM, to=(other.name,)))
            amended = f"{word}amended"
            engine.amend("Lab", made.number, {"text": amended}, reason="reworded")
            readable[amended] = False
        readable[word] = kind in (PUBLIC, TO_MEMBER, BY_MEMBER, SHOWN, UNDONE)
    engine.execute("Lab", EndSession())
    return readable


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kinds=st.lists(st.integers(PUBLIC, AMENDED), min_size=1, max_size=6),
    member=st.sampled_from(["ana", "bea"]),
)
def test_any_copy_verifies_and_holds_nothing_withheld(kinds: list[int], member: str) -> None:
    """Whatever mix of public, private (to the member, by them, to another; amended), hidden
    (revealed or not), GM-only and undone rulings: the copy verifies, with the whole export's
    digest, seals and head, names the session's withheld rulings, and holds a ruling's words and
    dice exactly when its member may read it."""
    with freeze_time(FROZEN_AT), Engine() as engine:
        readable = _mixed(engine, kinds, member)
        whole = list(engine.export("Lab", audience=GMS))
        copy = list(engine.member_copy("Lab", member, audience=Member(member)))
        versions = [h.originator_version for h in engine.headers("Lab", audience=GMS)]
        heads = engine.heads_at("Lab", versions, audience=GMS).values()
        seen = [Witness("bea").saw(h) for h in heads if isinstance(h, Head)]
        gm, mine = verify_witnessed(whole), verify_witnessed(copy, seen)
    assert len(seen) == len(versions)  # the head at every ruling, withheld ones too
    assert mine.witnesses.holds
    assert len(mine.witnesses.checked) == len(seen)
    assert mine.report.intact, mine.report
    assert not any(d.problems for d in mine.report.dice)
    assert mine.report.digest == gm.report.digest
    assert mine.report.seals == gm.report.seals
    assert mine.head == gm.head
    withheld = [  # the withheld rulings of session 1, by their headers in the whole export
        body["ruling"]
        for line, kept in zip(whole[1:], copy[1:], strict=True)
        if '"withheld"' in kept
        and (body := json.loads(line)["event"])["session"] == 1
        and json.loads(line)["topic"] == "domain.events:RulingMade"
    ]
    warned = [w for d in mine.report.dice for w in d.warnings if "withheld" in w]
    named = f"ruling(s) {', '.join(map(str, withheld))} of session 1 are withheld"
    assert len(warned) == bool(withheld)
    assert all(w.startswith(named) for w in warned)
    text = "\n".join(copy)
    for word, read in readable.items():
        assert (word in text) == read, (word, read)
    for line in whole[1:]:  # no withheld ruling's dice, as the whole export writes them
        event = json.loads(line)["event"].get("event", {})
        words = json.dumps(event, sort_keys=True)
        dice = event.get("dice")
        mine = any(w in words for w, read in readable.items() if read)
        if dice and not mine and any(w in words for w in readable):
            assert json.dumps(dice, sort_keys=True) not in text
