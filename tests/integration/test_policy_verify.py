"""Verify checks who could act (issue 43 item 2): a log rewritten so that a player made a ruling
the program would have refused them (undid, amended, resolved, revealed, started a session, hid a
roll, spoke as an NPC...), its links and seals computed again and its snapshots deleted, holds
together link by link and seal by seal, yet `verify` names that ruling, its actor, its verb and the
rule (kind ``policy``), and `import` refuses the file at its line, appending nothing. An honest
log, the GM acting in a player's name with ``--as`` and players acting for themselves included,
stays intact.

The story (Sprawl Goons, GM Rosa; ana plays Tanner, bea plays Kit, olly observes): each ruling
is one verb, numbered below (``STORY``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.errors import DomainError
from domain.events import Outcome, Role
from domain.lifecycle import AddNote, EndScene, EndSession, StartScene, StartSession
from domain.posts import WritePost
from domain.rulesets.sprawl_goons.commands import CreateCharacter, MakeActionRoll
from domain.table import AddMember, DisputeRuling, RevealRuling
from engine import Engine
from engine.audit.verify import Finding, Report
from engine.dice.sources import DiceSpec
from engine.store.mapper import canonical_json
from engine.transfer.format import ImportActorNotAllowed
from tests.conftest import event_count
from tests.integration.forged import made_by, rewrite
from tests.stores import engine_on

NAME = "Lab"
GM = "Rosa"
STATS = {"morphology": 2, "reaction": 1, "cognition": 1, "equilibrium": 0}
ITEMS = ("melee:Katana", "armour:Kevlar jacket", "lazarus")

# The story's rulings by what they are (ruling 1 is the campaign's creation).
STORY = {
    "create Tanner": 2,
    "create Kit": 3,
    "session start": 4,
    "scene start": 5,
    "ana rolls": 6,
    "hidden roll": 7,
    "roll for Kit": 8,
    "ana posts": 9,
    "narration": 10,
    "npc": 11,
    "bea disputes": 12,
    "resolve": 13,
    "reveal": 14,
    "amend": 15,
    "ana edits her post": 16,
    "gm-only note": 17,
    "undo": 18,
    "member add": 19,
    "olly disputes": 20,
    "resolve by amending": 21,
    "ana, as the GM says": 22,
    "scene end": 23,
    "session end": 24,
}
CORRECTIVE = ("undo", "amend", "resolve", "reveal", "resolve by amending")
# Rulings only a GM may make, whatever seat the forger names instead of the GM's.
GM_ONLY = (
    *CORRECTIVE,
    "session start",
    "scene start",
    "hidden roll",
    "narration",
    "npc",
    "gm-only note",
    "member add",
    "scene end",
    "session end",
)
NOT_GMS = ("ana", "bea", "olly", "mallory")  # mallory has no seat


def play(engine: Engine) -> None:
    """The story, every ruling as the program records it (``STORY``)."""
    seats = {"ana": Role.PLAYER, "bea": Role.PLAYER, "olly": Role.OBSERVER}
    engine.create_campaign(NAME, "sprawl-goons", gm=GM, members=seats)
    for character, player in (("Tanner", "ana"), ("Kit", "bea")):
        create = CreateCharacter(character=character, player=player, items=ITEMS, **STATS)
        engine.execute(NAME, create, dice=DiceSpec(faces=(3, 4, 5, 2)))
    engine.execute(NAME, StartSession())
    engine.execute(NAME, StartScene(stage="The container stacks"))
    rolled = engine.execute(
        NAME, MakeActionRoll(character="Tanner", stat="reaction", ds="10"), actor="ana"
    )
    hidden = MakeActionRoll(character="Tanner", stat="cognition", ds="9")
    engine.execute(NAME, hidden, hidden=True)
    engine.execute(NAME, MakeActionRoll(character="Kit", stat="morphology", ds="8"))
    engine.execute(NAME, WritePost(text="brb", by="ana", ooc=True), actor="ana")
    engine.execute(NAME, WritePost(text="Rain on the stacks.", by=GM))
    engine.execute(NAME, WritePost(text="Pay up.", by=GM, npc="Dr Ng"))
    engine.execute(NAME, DisputeRuling(ruling=rolled.number, reason="DS 8", by="bea"), actor="bea")
    engine.resolve(NAME, 1, Outcome.UPHELD, reason="10 it was")
    engine.execute(NAME, RevealRuling(ruling=STORY["hidden roll"]))
    engine.amend(NAME, rolled.number, {"ds": "8"}, reason="the ledge was lower")
    engine.amend(NAME, STORY["ana posts"], {"text": "back in 5"}, reason="typo", actor="ana")
    engine.execute(NAME, AddNote(text="Dr Ng lies", gm_only=True))
    engine.undo(NAME, STORY["gm-only note"], reason="he does not")
    engine.execute(NAME, AddMember(member="cy", role=Role.PLAYER))
    engine.execute(NAME, DisputeRuling(ruling=8, reason="not Kit's stat", by="olly"), actor="olly")
    engine.resolve(NAME, 2, Outcome.AMENDED, reason="reflexes", changes={"stat": "reaction"})
    # The GM at the keyboard, in ana's name (--as ana): recorded as hers, and hers to make.
    engine.execute(NAME, WritePost(text="Tanner ducks.", by="ana", character="Tanner"), actor="ana")
    engine.execute(NAME, EndScene())
    engine.execute(NAME, EndSession())


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("policy") / "played.db"
    with Engine(str(db)) as engine:
        play(engine)
        assert len(STORY) + 1 == engine.campaign(NAME).rulings
        report = engine.verify(NAME)
        assert (report.intact, report.findings) == (True, ())
    return db


def copy_of(template: Path, folder: Path) -> Path:
    db = folder / "campaign.db"
    db.unlink(missing_ok=True)
    with sqlite3.connect(template) as source, sqlite3.connect(db) as target:
        source.backup(target)
    return db


def forged(db: Path, edit: Callable[[str, dict[str, Any]], None]) -> Report:
    with Engine(str(db)) as engine:
        rewrite(engine, NAME, edit)
    with Engine(str(db)) as engine:
        return engine.verify(NAME)


def policy(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.kind == "policy"]


def only_policy(report: Report) -> list[Finding]:
    """The policy findings, once nothing else is found: the rewrite holds together."""
    assert (report.breaks, all(s.intact for s in report.seals)) == ((), True)
    assert all(not d.problems for d in report.dice), report.dice
    assert [f for f in report.findings if f.kind != "policy"] == []
    return policy(report)


@pytest.mark.parametrize("verb", GM_ONLY)
def test_a_gm_ruling_rewritten_as_anas_is_named(template: Path, tmp_path: Path, verb: str) -> None:
    """Every GM-only ruling of the story, rewritten as ana's (links and seals computed again,
    snapshots deleted), verifies except for one finding: that ruling, ana, its verb and the rule
    that refuses it, at its header's place."""
    number = STORY[verb]
    report = forged(copy_of(template, tmp_path), made_by(number, "ana"))
    (finding,) = only_policy(report)
    assert (finding.ruling, report.intact) == (number, False)
    assert finding.problem.startswith(f"ruling {number} (")
    assert ", by ana)" in finding.problem
    assert "ana (player) may not" in finding.problem
    assert "(NOT_ALLOWED)" in finding.problem


@pytest.mark.parametrize(
    ("verb", "rule"),
    [
        ("undo", "ana (player) may not undo: only the GM does that"),
        ("amend", "ana (player) may not amend: only the GM does that"),
        ("resolve", "ana (player) may not resolve: only the GM does that"),
        ("reveal", "ana (player) may not reveal: only the GM does that"),
        ("resolve by amending", "ana (player) may not resolve: only the GM does that"),
        ("hidden roll", "ana (player) may not hide a ruling: only the GM does that"),
        ("npc", "ana (player) may not post: a player posts as themself"),
        ("gm-only note", "ana (player) may not note: --gm-only is the GM's call"),
    ],
)
def test_the_finding_names_the_rule(template: Path, tmp_path: Path, verb: str, rule: str) -> None:
    """The finding quotes the refusal the engine gives: who, their role, the verb, the rule."""
    (finding,) = only_policy(forged(copy_of(template, tmp_path), made_by(STORY[verb], "ana")))
    assert rule in finding.problem


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(verb=st.sampled_from(GM_ONLY), actor=st.sampled_from(NOT_GMS))
def test_any_gm_only_ruling_forged_as_any_other_seat_is_named(
    template: Path, tmp_path: Path, verb: str, actor: str
) -> None:
    """A GM-only ruling rewritten as made by a player, an observer or a name with no seat is
    named, alone, at its place: NOT_ALLOWED for a seat, NOT_A_MEMBER for no seat."""
    number = STORY[verb]
    (finding,) = only_policy(forged(copy_of(template, tmp_path), made_by(number, actor)))
    code = "NOT_A_MEMBER" if actor == "mallory" else "NOT_ALLOWED"
    assert (finding.ruling, f"by {actor})" in finding.problem) == (number, True)
    assert finding.problem.endswith(f"({code})")


@pytest.mark.parametrize(
    ("verb", "actor"),
    [
        ("create Tanner", "ana"),  # a player creates their own character
        ("create Kit", "bea"),
    ],
)
def test_a_ruling_the_new_actor_could_make_is_not_named(
    template: Path, tmp_path: Path, verb: str, actor: str
) -> None:
    """Rewriting who made a ruling into someone who could have made it is no policy finding:
    verify checks what the program would refuse, not who really typed it."""
    report = forged(copy_of(template, tmp_path), made_by(STORY[verb], actor))
    assert ([], True) == (only_policy(report), report.intact)


@pytest.mark.parametrize(
    ("actor", "rule"),
    [
        ("ana", "ana (player) may not roll: Kit is not one of ana's characters"),
        ("bea", None),  # the GM rolled for bea's Kit: bea could have too
    ],
)
def test_a_committed_roll_rewritten_as_anothers(
    template: Path, tmp_path: Path, actor: str, rule: str | None
) -> None:
    """The GM's committed roll for Kit rewritten as made by someone else: its dice were drawn
    from the GM's lane, which the dice check names; the policy check names it too when its new
    roller could not have rolled for Kit."""
    number = STORY["roll for Kit"]
    report = forged(copy_of(template, tmp_path), made_by(number, actor))
    (dice,) = report.dice
    assert (f"ruling {number}: made by {actor} but drew {GM}'s committed dice",) == dice.problems
    found = policy(report)
    assert ([number] if rule else []) == [f.ruling for f in found]
    assert all(rule in f.problem for f in found if rule)


def test_a_players_own_words_and_the_gm_in_her_name_stay_intact(template: Path) -> None:
    """The honest story: ana's own roll, post, edit of her post and a post made `--as ana`, bea's
    and olly's disputes, all checked against the table as it stood then, verify intact."""
    with Engine(str(template)) as engine:
        report = engine.verify(NAME)
        actors = {e.ruling.number: e.header.actor for e in engine.log(NAME, audience=GMS)}
    assert (report.intact, policy(report)) == (True, [])
    assert "ana" == actors[STORY["ana edits her post"]] == actors[STORY["ana, as the GM says"]]
    assert ("bea", "olly") == (actors[STORY["bea disputes"]], actors[STORY["olly disputes"]])


def test_a_seat_the_table_did_not_have_yet_is_named(template: Path, tmp_path: Path) -> None:
    """cy is seated by ruling 19: a post of hers rewritten into ruling 10 (the GM's narration,
    now by cy as herself) is named NOT_A_MEMBER, the table as it stood then having no cy."""

    def cy_narrates(topic: str, body: dict[str, Any]) -> None:
        if body["ruling"] != STORY["narration"]:
            return
        body["actor"] = "cy"
        event = body["event"]
        if topic.endswith(":RulingMade"):
            params = json.loads(event["params"])
            params["args"].update(by="cy", ooc=True)
            event["params"] = canonical_json(params).decode()
        else:
            event.update(by="cy", kind="ooc")

    (finding,) = only_policy(forged(copy_of(template, tmp_path), cy_narrates))
    assert finding.ruling == STORY["narration"]
    assert "'cy' is not a member of this campaign's table" in finding.problem


def test_a_reveal_recorded_under_a_players_note_is_named(template: Path, tmp_path: Path) -> None:
    """The reveal rewritten as ana's note (its header records `note`, its events still reveal a
    ruling): the note is hers to make, but only `reveal` records a RulingRevealed."""

    def note(topic: str, body: dict[str, Any]) -> None:
        if body["ruling"] == STORY["reveal"]:
            body["actor"] = "ana"
            if topic.endswith(":RulingMade"):
                params = {"topic": "domain.lifecycle:AddNote", "args": {"text": "nothing"}}
                body["event"].update(command="note", params=canonical_json(params).decode())

    found = only_policy(forged(copy_of(template, tmp_path), note))
    assert [STORY["reveal"]] * 2 == [f.ruling for f in found]
    said = " ".join(f.problem for f in found)
    assert "ruling 14 (note, by ana) is one the program never records" in said
    assert "it records a RulingRevealed, which only reveal record" in said
    assert "it records a HiddenDiceRevealed, which only reveal record" in said


# --- Import -------------------------------------------------------------------------------


def test_import_refuses_a_forged_actor_and_appends_nothing(template: Path, tmp_path: Path) -> None:
    """The export of a store where ana undid the note (its digest and seals computed again)
    passes every check of the rows, then is refused IMPORT_ACTOR_NOT_ALLOWED at the undo's
    header line, naming the ruling, ana and the rule; the target store holds what it held."""
    db = copy_of(template, tmp_path)
    forged(db, made_by(STORY["undo"], "ana"))
    with Engine(str(db)) as engine:
        lines = list(engine.export(NAME, audience=GMS))
    line = next(n for n, text in enumerate(lines, 1) if '"number":18' in text.replace(" ", ""))
    with Engine(str(tmp_path / "target.db")) as target:
        target.create_campaign("Other", "sprawl-goons", gm="Sam")
        before = event_count(target)
        with pytest.raises(ImportActorNotAllowed) as refused:
            target.import_campaign(lines)
        assert before == event_count(target)
        assert ["Other"] == [c.name for c in target.directory().campaigns]
    assert "IMPORT_ACTOR_NOT_ALLOWED" == refused.value.code
    assert isinstance(refused.value, DomainError)
    assert refused.value.message == (
        f"line {line}: ruling 18 (undo, by ana) is one the program never records: ana (player) "
        "may not undo: only the GM does that (Members and roles) (NOT_ALLOWED); nothing was "
        "imported"
    )


# --- On every store ----------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    with engine_on(request.param, tmp_path) as engine:
        play(engine)
        yield request.param, engine


def test_every_corrective_verb_forged_is_named_on_every_store(
    played: tuple[str, Engine], tmp_path: Path
) -> None:
    """On SQLite and PostgreSQL: ana made to have undone, amended, resolved (upheld and by
    amending) and revealed, in one rewrite: verify names each of the five, and an import of
    the store's export (into SQLite and into PostgreSQL) refuses the first."""
    kind, engine = played
    numbers = {STORY[verb] for verb in CORRECTIVE}

    def all_by_ana(topic: str, body: dict[str, Any]) -> None:
        if body["ruling"] in numbers:
            body["actor"] = "ana"

    rewrite(engine, NAME, all_by_ana)
    with engine_reopened(kind, engine) as again:
        report = again.verify(NAME)
        lines = list(again.export(NAME, audience=GMS))
    assert sorted(numbers) == [f.ruling for f in only_policy(report)]
    for target_kind in ("sqlite", "postgresql"):
        (tmp_path / target_kind).mkdir()
        with engine_on(target_kind, tmp_path / target_kind) as target:
            with pytest.raises(ImportActorNotAllowed) as refused:
                target.import_campaign(lines)
            assert (0, []) == (event_count(target), list(target.directory().campaigns))
        assert f"ruling {min(numbers)} (resolve, by ana)" in refused.value.message


def engine_reopened(kind: str, engine: Engine) -> Engine:
    """A new engine on the same store (the first keeps states it loaded before the rewrite)."""
    return Engine(engine.db)
