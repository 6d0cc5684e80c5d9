"""Disputes in every system: a player disputes three of their own rulings, the GM resolves one
each way (upheld, undone, amended), and the campaign, the log, the recap's JSON and its Markdown
say exactly that. Every refusal around disputes appends nothing (Members and roles, Disputes)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import pytest
from attrs import frozen

from domain.audience import GMS
from domain.campaign import Dispute
from domain.commands import Command
from domain.errors import (
    AlreadyDisputed,
    CannotUndo,
    DisputeOfAnotherRuling,
    DomainError,
    NotAllowed,
    NotAMember,
    UnknownDispute,
    UnknownRuling,
)
from domain.events import (
    DisputeResolved,
    Event,
    Outcome,
    Role,
    RulingAmended,
    RulingDisputed,
    RulingMade,
    RulingRetracted,
)
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.code_green.commands import CreateCharacter as CgCharacter
from domain.rulesets.code_green.commands import DeclareTest, PlaceTokens
from domain.rulesets.sims.creation import CreateCharacter as SimsCharacter
from domain.rulesets.sims.situations import RollComplicated
from domain.rulesets.sprawl_goons.commands import CreateCharacter as GoonCharacter
from domain.rulesets.sprawl_goons.commands import MakeActionRoll
from domain.rulesets.the_code.commands import CreateHero, RuleChallenge, UseMotivation
from domain.rulesets.the_code.tables import NeedReason
from domain.table import DisputeRuling
from engine import DiceSpec, Engine, LoggedRuling, Recorded
from projections.describe import describe
from projections.recap import dispute_text
from projections.render_html import recap_html
from projections.render_md import recap_md
from tests.conftest import S1_FORM, S1_FUNCTION, event_count
from tests.golden.test_the_code import HAWK, MITCH
from tests.integration.test_amend_systems import NEO_QUALITIES

E = TypeVar("E", bound=DomainError)

GM, PLAYER, OBSERVER = "Rosa", "ana", "Vic"
MEMBERS = {PLAYER: Role.PLAYER, OBSERVER: Role.OBSERVER}
OUTCOMES = (Outcome.UPHELD, Outcome.UNDONE, Outcome.AMENDED)  # disputes 1, 2, 3
DISPUTED = {
    Outcome.UPHELD: "the GM rushed the call",
    Outcome.UNDONE: "I rolled before the GM called for it",
    Outcome.AMENDED: "the GM set it too hard",
}
RESOLVED = {
    Outcome.UPHELD: "the ruling stands as made",
    Outcome.UNDONE: "nothing happened: the scene had moved on",
    Outcome.AMENDED: "the GM misjudged the call",
}

Play = tuple[Command, str, tuple[int, ...]]  # a command, who makes the call, its entered faces


def gm(command: Command, *faces: int) -> Play:
    return (command, GM, faces)


def player(command: Command, *faces: int) -> Play:
    return (command, PLAYER, faces)


@frozen
class Story:
    """A system's story: the GM's setup (after the campaign and its first session), then three
    parts, each ending with the player's ruling that is disputed; ``changes`` is the GM's
    correction (``--set``) of the third. The lines are what the log and the recap show of the
    undone ruling and of the amended one before and after (``who: text``)."""

    system: str
    setup: tuple[Play, ...]
    parts: tuple[tuple[Play, ...], tuple[Play, ...], tuple[Play, ...]]
    changes: Mapping[str, str]
    undone_was: tuple[str, ...]
    amended_was: tuple[str, ...]
    amended_now: tuple[str, ...]


def _test(*faces: int) -> Play:
    """Ana's character tests Legs x Invulnerable and rolls at once (Code Green)."""
    declared = DeclareTest(character="31415", form="Legs", function="Invulnerable", roll=True)
    return player(declared, *faces)


def _goon_roll(*faces: int) -> Play:
    return player(MakeActionRoll(character="Tanner", stat="reaction", ds="14"), *faces)


def _sims_roll(*faces: int) -> Play:
    return player(
        RollComplicated(character="Neo", qualities=("Hacker",), difficulty="Good"), *faces
    )


SLIPPERY = gm(
    RuleChallenge(hero=HAWK, task="a slippery roof", needs_motivation=NeedReason.BAD_CONDITIONS)
)


def _motivation(*faces: int) -> Play:
    return player(UseMotivation(hero=HAWK, dice=2), *faces)


CG_TESTED = (
    "31415: test 1: Invulnerable Legs, 2 own tokens among the squares R1C1, R1C2, R1C3, R2C2, R3C2"
)
STORIES = (
    # Ana places her tokens (upheld); tests and rolls 2,5 (undone); tests again and rolls 6,3,
    # and the GM rules the pair is Legs x Cryptic: one own token, a pool of one die (the 6).
    Story(
        "code-green",
        setup=(
            gm(StartScene(stage="The cold room")),
            gm(CgCharacter(player=PLAYER, form=S1_FORM, function=S1_FUNCTION), 3, 1, 4, 1, 5),
        ),
        parts=(
            (player(PlaceTokens(character="31415", squares=("R1C1", "R2C2", "R3C3"))),),
            (_test(2, 5),),
            (_test(6, 3),),
        ),
        changes={"function": "Cryptic"},
        undone_was=(CG_TESTED, "31415: test 1: pool 2 [2,5] -> 5: mostly human"),
        amended_was=(CG_TESTED, "31415: test 1: pool 2 [6,3] -> 6: more than human"),
        amended_now=(
            "31415: test 1: Cryptic Legs, 1 own token among the squares "
            "R1C1, R1C2, R1C3, R2C1, R3C1",
            "31415: test 1: pool 1 [6] -> 6: more than human",
        ),
    ),
    # The GM rules each roof needs Motivation; the Hawk rolls two dice each time. The second
    # roll is undone (the task waits again), the third rolled for it, and amended to one die.
    Story(
        "the-code",
        setup=(gm(CreateHero(**{**MITCH, "player": PLAYER})),),
        parts=(
            (SLIPPERY, _motivation(6, 2)),
            (SLIPPERY, _motivation(3, 4)),
            (_motivation(4, 6),),
        ),
        changes={"dice": "1"},
        undone_was=("The Hawk: a slippery roof: Motivation [3,4] fails; 0 die(s) above 5",),
        amended_was=(
            "The Hawk: a slippery roof: Motivation [4,6] succeeds; 1 die(s) above 5",
            "The Hawk: Motivation 2 -> 1 (dice above 5)",
        ),
        amended_now=("The Hawk: a slippery roof: Motivation [4] fails; 0 die(s) above 5",),
    ),
    # Neo climbs the club wall three times at Good; the last one was only Average.
    Story(
        "sims",
        setup=(
            gm(StartScene(stage="The club wall")),
            gm(SimsCharacter(character="Neo", player=PLAYER, qualities=NEO_QUALITIES)),
        ),
        parts=((_sims_roll(3, 3),), (_sims_roll(1, 2),), (_sims_roll(4, 3),)),
        changes={"difficulty": "Average"},
        undone_was=(
            "Neo: complicated: Neo's Hacker Poor [-2]: 2d6-2 [1,2] = 1 vs Good TN 9 -> failure",
        ),
        amended_was=(
            "Neo: complicated: Neo's Hacker Poor [-2]: 2d6-2 [4,3] = 5 vs Good TN 9 -> failure",
        ),
        amended_now=(
            "Neo: complicated: Neo's Hacker Poor [-2]: 2d6-2 [4,3] = 5 vs Average TN 7 -> failure",
        ),
    ),
    # Tanner's Reaction rolls against DS 14; the referee meant DS 10 for the last one.
    Story(
        "sprawl-goons",
        setup=(
            gm(StartScene(stage="An ambush")),
            gm(
                GoonCharacter(
                    character="Tanner",
                    player=PLAYER,
                    morphology=2,
                    reaction=1,
                    cognition=1,
                    equilibrium=0,
                    items=("melee:Katana", "armour:Kevlar jacket", "lazarus"),
                ),
                3,
                4,
                5,
                2,
            ),
        ),
        parts=((_goon_roll(4, 5),), (_goon_roll(6, 6),), (_goon_roll(5, 5),)),
        changes={"ds": "10"},
        undone_was=("Tanner: Reaction roll [6,6] + Reaction 1 = 13 vs DS 14: failure by 1",),
        amended_was=("Tanner: Reaction roll [5,5] + Reaction 1 = 11 vs DS 14: failure by 3",),
        amended_now=("Tanner: Reaction roll [5,5] + Reaction 1 = 11 vs DS 10: success by 1",),
    ),
)


@frozen
class Told:
    """The rulings of a story told: the player's rulings disputed, the rulings raising the
    disputes and those resolving them (in the order upheld, undone, amended)."""

    disputed: tuple[int, ...]
    raised: tuple[int, ...]
    resolved: tuple[int, ...]


def play(engine: Engine, plays: tuple[Play, ...]) -> int:
    """Play each command as its caller; the number of the last ruling."""
    number = 0
    for command, actor, faces in plays:
        number = engine.execute("Lab", command, actor=actor, dice=DiceSpec(faces=faces)).number
    return number


def begin(engine: Engine, story: Story) -> None:
    engine.create_campaign("Lab", story.system, gm=GM, members=MEMBERS)
    engine.execute("Lab", StartSession(physical_dice=True))  # the player types her faces
    play(engine, story.setup)


def dispute(engine: Engine, ruling: int, reason: str, by: str = PLAYER) -> int:
    command = DisputeRuling(ruling=ruling, reason=reason, by=by)
    return engine.execute("Lab", command, actor=by).number


def tell(engine: Engine, story: Story) -> Told:
    begin(engine, story)
    disputed, raised, resolved = [], [], []
    for number, (part, outcome) in enumerate(zip(story.parts, OUTCOMES, strict=True), 1):
        disputed.append(play(engine, part))
        raised.append(dispute(engine, disputed[-1], DISPUTED[outcome]))
        changes = story.changes if outcome is Outcome.AMENDED else None
        result = engine.resolve(
            "Lab", number, outcome, reason=RESOLVED[outcome], changes=changes, actor=GM
        )
        resolved.append(result.number)
    return Told(tuple(disputed), tuple(raised), tuple(resolved))


@pytest.fixture(params=STORIES, ids=[s.system for s in STORIES])
def story(request: pytest.FixtureRequest) -> Story:
    told: Story = request.param
    return told


@pytest.fixture
def told(engine: Engine, story: Story) -> Told:
    return tell(engine, story)


def events_of(logged: LoggedRuling) -> list[Event]:
    """A ruling's events in the order it wrote them, without its header."""
    return [r.event for r in logged.events if not isinstance(r.event, RulingMade)]


def said(engine: Engine, records: Iterable[Recorded]) -> list[str]:
    """What the log says of some events: ``who: text`` for a character's, ``text`` otherwise."""
    names = {e.character_id: e.name for e in engine.campaign("Lab").roster}
    lines = []
    for record in records:
        text = describe(record.event)
        if text is None or isinstance(record.event, RulingDisputed | DisputeResolved):
            continue
        who = names.get(record.originator_id)
        lines.append(f"{who}: {text}" if who else text)
    return lines


def params_of(logged: LoggedRuling) -> dict[str, Any]:
    params: dict[str, Any] = json.loads(logged.ruling.params)
    return params


# --- The story in each system ------------------------------------------------------------------


def test_the_campaign_holds_each_dispute_and_how_it_was_resolved(
    engine: Engine, told: Told
) -> None:
    """Three disputes by the player, none open: upheld, undone, amended, each with the GM's
    reason; only the undone ruling is retracted."""
    campaign = engine.campaign("Lab")
    expected = tuple(
        Dispute(
            number=number,
            ruling=ruling,
            by=PLAYER,
            reason=DISPUTED[outcome],
            outcome=outcome,
            resolution=RESOLVED[outcome],
        )
        for number, (ruling, outcome) in enumerate(zip(told.disputed, OUTCOMES, strict=True), 1)
    )
    assert expected == campaign.disputes
    assert () == campaign.open_disputes()
    assert frozenset({told.disputed[1]}) == campaign.retracted


def test_each_dispute_is_raised_by_the_player_in_a_ruling_of_its_own(
    engine: Engine, told: Told
) -> None:
    """The log: each dispute is the player's ruling, recording only that the ruling was disputed
    and why."""
    log = {logged.ruling.number: logged for logged in engine.log("Lab", audience=GMS)}
    for number, (ruling, raised, outcome) in enumerate(
        zip(told.disputed, told.raised, OUTCOMES, strict=True), 1
    ):
        logged = log[raised]
        assert ("dispute", PLAYER) == (logged.ruling.command, logged.header.actor)
        expected = RulingDisputed(
            dispute=number, ruling=ruling, by=PLAYER, reason=DISPUTED[outcome]
        )
        assert [expected] == events_of(logged)
        assert (None, ()) == (logged.retraction, logged.amendments)


def test_the_log_records_each_resolution_in_the_ruling_that_resolves_it(
    engine: Engine, story: Story, told: Told
) -> None:
    """Upheld: a `resolve` ruling recording only the resolution, the ruling untouched. Undone:
    the undo retracts the ruling on every stream it wrote to and resolves the dispute in the same
    ruling. Amended: the amendment re-resolves it with the GM's correction and the dice it
    rolled, and resolves the dispute in the same ruling."""
    log = {logged.ruling.number: logged for logged in engine.log("Lab", audience=GMS)}
    upheld, undone, amended = told.disputed
    by_upheld, by_undo, by_amend = (log[n] for n in told.resolved)

    def resolution(number: int, ruling: int, outcome: Outcome) -> DisputeResolved:
        return DisputeResolved(
            dispute=number, ruling=ruling, outcome=outcome, reason=RESOLVED[outcome]
        )

    # Upheld: the GM's ruling says so, and nothing else changes.
    assert ("resolve", GM) == (by_upheld.ruling.command, by_upheld.header.actor)
    assert [resolution(1, upheld, Outcome.UPHELD)] == events_of(by_upheld)
    assert ("", None, ()) == (log[upheld].status, log[upheld].retraction, log[upheld].amendments)

    # Undone: retractions of that ruling only, and the resolution.
    assert ("undo", GM) == (by_undo.ruling.command, by_undo.header.actor)
    assert {"ruling": undone, "with": [], "reason": RESOLVED[Outcome.UNDONE], "dispute": 2} == (
        params_of(by_undo)
    )
    events = events_of(by_undo)
    assert [resolution(2, undone, Outcome.UNDONE)] == [
        e for e in events if isinstance(e, DisputeResolved)
    ]
    retracted = [e for e in events if isinstance(e, RulingRetracted)]
    assert len(events) == len(retracted) + 1
    assert {undone} == {e.ruling for e in retracted}
    assert "undone" == log[undone].status
    retraction = log[undone].retraction
    assert retraction is not None
    assert (by_undo.ruling.number, GM, RESOLVED[Outcome.UNDONE]) == (
        retraction.by,
        retraction.actor,
        retraction.reason,
    )
    assert list(story.undone_was) == said(engine, log[undone].events)

    # Amended: the amendment of that ruling only, and the resolution.
    assert ("amend", GM) == (by_amend.ruling.command, by_amend.header.actor)
    header = params_of(by_amend)
    assert (amended, dict(story.changes), 3, RESOLVED[Outcome.AMENDED], [], 0) == (
        header["ruling"],
        header["changed"],
        header["dispute"],
        header["reason"],
        header["with"],
        header["new_dice"],
    )
    assert log[amended].ruling.dice[: len(by_amend.ruling.dice)] == by_amend.ruling.dice
    events = events_of(by_amend)
    assert [resolution(3, amended, Outcome.AMENDED)] == [
        e for e in events if isinstance(e, DisputeResolved)
    ]
    corrections = [e for e in events if isinstance(e, RulingAmended)]
    assert len(events) == len(corrections) + 1
    assert {amended} == {e.ruling for e in corrections}
    assert "amended" == log[amended].status
    assert [(by_amend.ruling.number, GM, RESOLVED[Outcome.AMENDED], "amended")] == [
        (a.by, a.actor, a.reason, a.kind) for a in log[amended].amendments
    ]
    assert list(story.amended_was) == said(engine, log[amended].events)
    (amendment,) = log[amended].amendments
    assert list(story.amended_now) == said(engine, amendment.events)


def test_the_recap_json_lists_each_dispute_and_the_corrections(
    engine: Engine, story: Story, told: Told
) -> None:
    """The session's recap: the three disputes with who resolved them, how, why and in which
    ruling; the undone ruling and the amended one under corrections with what they were and
    what stands; the undone ruling gone from the scenes, the amended one showing what stands."""
    recap = engine.recap("Lab", audience=GMS)
    assert [
        {
            "dispute": number,
            "ruling": ruling,
            "by": PLAYER,
            "reason": DISPUTED[outcome],
            "outcome": outcome.value,
            "resolution": RESOLVED[outcome],
            "resolved_by": resolving,
            "actor": GM,
        }
        for number, (ruling, resolving, outcome) in enumerate(
            zip(told.disputed, told.resolved, OUTCOMES, strict=True), 1
        )
    ] == recap["disputes"]

    def lines(texts: tuple[str, ...]) -> list[dict[str, str]]:
        return [dict(zip(("who", "text"), t.split(": ", 1), strict=True)) for t in texts]

    _, undone, amended = told.disputed
    assert [
        {
            "ruling": undone,
            "session": 1,
            "kind": "undone",
            "by": told.resolved[1],
            "actor": GM,
            "reason": RESOLVED[Outcome.UNDONE],
            "was": lines(story.undone_was),
            "now": [],
        },
        {
            "ruling": amended,
            "session": 1,
            "kind": "amended",
            "by": told.resolved[2],
            "actor": GM,
            "reason": RESOLVED[Outcome.AMENDED],
            "was": lines(story.amended_was),
            "now": lines(story.amended_now),
        },
    ] == recap["corrections"]
    beats = {b["ruling"]: b for scene in recap["scenes"] for b in scene["beats"]}
    assert undone not in beats
    assert (None, told.resolved[2]) == (
        beats[told.disputed[0]]["amended_by"],
        beats[amended]["amended_by"],
    )
    assert lines(story.amended_now) == beats[amended]["lines"]


def test_the_markdown_and_html_recaps_say_how_each_dispute_ended(
    engine: Engine, told: Told
) -> None:
    """The recap's last section, Disputes: one line per dispute, who raised it against which
    ruling and why, and how, by which ruling, by whom and why the GM resolved it."""
    recap = engine.recap("Lab", audience=GMS)
    upheld, undone, amended = told.disputed
    by_upheld, by_undo, by_amend = told.resolved
    expected = [
        f"- Dispute 1: ana disputes ruling #{upheld}: the GM rushed the call. "
        f"Upheld by #{by_upheld} (Rosa): the ruling stands as made.",
        f"- Dispute 2: ana disputes ruling #{undone}: I rolled before the GM called for it. "
        f"Undone by #{by_undo} (Rosa): nothing happened: the scene had moved on.",
        f"- Dispute 3: ana disputes ruling #{amended}: the GM set it too hard. "
        f"Amended by #{by_amend} (Rosa): the GM misjudged the call.",
    ]
    _, section = recap_md(recap).split("\n## Disputes\n\n")
    assert expected == section.splitlines()
    texts = [line.removeprefix("- ") for line in expected]
    assert texts == [dispute_text(d) for d in recap["disputes"]]
    html = recap_html(recap)
    assert '<h2>Disputes</h2><ul class="disputes">' in html
    assert [t for t in texts if f"<li>{t}</li>" not in html] == []


# --- Refusals: nothing appended ----------------------------------------------------------------

SPRAWL = next(s for s in STORIES if s.system == "sprawl-goons")


def refused(engine: Engine, error: type[E], call: Callable[[], object]) -> E:
    """Make ``call``, expect ``error``, and prove that nothing was appended."""
    before = event_count(engine)
    with pytest.raises(error) as raised:
        call()
    assert before == event_count(engine)
    return raised.value


@pytest.fixture
def contested(engine: Engine) -> tuple[int, int]:
    """Tanner rolls twice (ana's calls); ana disputes the first roll (dispute 1, open)."""
    begin(engine, SPRAWL)
    first = play(engine, (_goon_roll(4, 5),))
    second = play(engine, (_goon_roll(6, 6),))
    dispute(engine, first, "the GM rushed the call")
    return first, second


def changes_for(outcome: Outcome) -> dict[str, str] | None:
    return {"ds": "10"} if outcome is Outcome.AMENDED else None


@pytest.mark.parametrize("outcome", OUTCOMES, ids=[o.value for o in OUTCOMES])
@pytest.mark.parametrize(
    ("who", "error"),
    [
        pytest.param(PLAYER, NotAllowed, id="player"),
        pytest.param(OBSERVER, NotAllowed, id="observer"),
        pytest.param("Mallory", NotAMember, id="not-a-member"),
    ],
)
def test_only_the_gm_resolves_a_dispute(
    engine: Engine,
    contested: tuple[int, int],
    who: str,
    error: type[DomainError],
    outcome: Outcome,
) -> None:
    """A player or an observer resolving is refused NOT_ALLOWED (a non-member NOT_A_MEMBER),
    whichever the outcome; the dispute stays open."""
    raised = refused(
        engine,
        error,
        lambda: engine.resolve(
            "Lab", 1, outcome, reason="mine", changes=changes_for(outcome), actor=who
        ),
    )
    assert error.code == raised.code
    assert [1] == [d.number for d in engine.campaign("Lab").open_disputes()]


def test_a_player_does_not_resolve_a_dispute_by_amending_her_own_words(
    engine: Engine, contested: tuple[int, int]
) -> None:
    """ana may amend the narration of her own roll, but not resolve the dispute of it so
    (`resolve 1 amended --set say=...` as ana): resolving is the GM's, NOT_ALLOWED naming
    `resolve`; the dispute stays open, and the same amendment without it is hers."""
    first, _ = contested
    say = {"say": "Tanner leaps the gap"}
    raised = refused(
        engine,
        NotAllowed,
        lambda: engine.resolve("Lab", 1, Outcome.AMENDED, reason="mine", changes=say, actor=PLAYER),
    )
    assert (PLAYER, "resolve") == (raised.data["who"], raised.data["what"])
    assert [1] == [d.number for d in engine.campaign("Lab").open_disputes()]
    engine.amend("Lab", first, say, reason="my words", actor=PLAYER)
    assert [1] == [d.number for d in engine.campaign("Lab").open_disputes()]


@pytest.mark.parametrize("outcome", OUTCOMES, ids=[o.value for o in OUTCOMES])
def test_resolving_an_unknown_dispute_is_refused(
    engine: Engine, contested: tuple[int, int], outcome: Outcome
) -> None:
    """Dispute 2 was never raised: UNKNOWN_DISPUTE, naming the open ones."""
    first, _ = contested
    raised = refused(
        engine,
        UnknownDispute,
        lambda: engine.resolve("Lab", 2, outcome, reason="no", changes=changes_for(outcome)),
    )
    assert ("UNKNOWN_DISPUTE", f"1 (ruling {first})") == (raised.code, raised.data["open"])


@pytest.mark.parametrize("outcome", OUTCOMES, ids=[o.value for o in OUTCOMES])
def test_resolving_a_resolved_dispute_is_refused(
    engine: Engine, contested: tuple[int, int], outcome: Outcome
) -> None:
    """Once upheld, dispute 1 is no longer open: resolving it again, any way, is UNKNOWN_DISPUTE
    and the ruling stands untouched."""
    engine.resolve("Lab", 1, Outcome.UPHELD, reason="it stands")
    raised = refused(
        engine,
        UnknownDispute,
        lambda: engine.resolve("Lab", 1, outcome, reason="again", changes=changes_for(outcome)),
    )
    assert ("UNKNOWN_DISPUTE", "none") == (raised.code, raised.data["open"])
    assert (frozenset(), Outcome.UPHELD) == (
        engine.campaign("Lab").retracted,
        engine.campaign("Lab").disputes[0].outcome,
    )


@pytest.mark.parametrize("ruling", [0, 8, 99])
def test_disputing_a_ruling_not_in_the_log_is_refused(
    engine: Engine, contested: tuple[int, int], ruling: int
) -> None:
    """Rulings 1..7 are in the log: 0, 8 and 99 are UNKNOWN_RULING."""
    assert 7 == engine.campaign("Lab").rulings
    raised = refused(engine, UnknownRuling, lambda: dispute(engine, ruling, "what ruling?"))
    assert "UNKNOWN_RULING" == raised.code


def test_the_same_member_disputes_a_ruling_once_while_it_is_open(
    engine: Engine, contested: tuple[int, int]
) -> None:
    """Ana disputing her first roll again while dispute 1 is open: ALREADY_DISPUTED. The
    observer may dispute it too, and ana again once dispute 1 is resolved."""
    first, _ = contested
    raised = refused(engine, AlreadyDisputed, lambda: dispute(engine, first, "and again"))
    assert ("ALREADY_DISPUTED", 1) == (raised.code, raised.data["dispute"])

    dispute(engine, first, "it looked wrong from here", by=OBSERVER)
    engine.resolve("Lab", 1, Outcome.UPHELD, reason="it stands")
    dispute(engine, first, "I have a new argument")
    assert [(2, OBSERVER), (3, PLAYER)] == [
        (d.number, d.by) for d in engine.campaign("Lab").open_disputes()
    ]


def test_a_correction_resolves_only_a_dispute_of_the_ruling_it_corrects(
    engine: Engine, contested: tuple[int, int]
) -> None:
    """Dispute 1 is about the first roll: undoing or amending the second one with it is
    DISPUTE_OF_ANOTHER_RULING, and so is nothing recorded."""
    first, second = contested
    undo = refused(
        engine,
        DisputeOfAnotherRuling,
        lambda: engine.undo("Lab", second, reason="wrong roll", dispute=1),
    )
    amend = refused(
        engine,
        DisputeOfAnotherRuling,
        lambda: engine.amend("Lab", second, {"ds": "10"}, reason="wrong DS", dispute=1),
    )
    expected = {"dispute": 1, "ruling": first, "corrected": second}
    assert [("DISPUTE_OF_ANOTHER_RULING", expected)] * 2 == [
        (undo.code, undo.data),
        (amend.code, amend.data),
    ]
    assert [1] == [d.number for d in engine.campaign("Lab").open_disputes()]


@pytest.mark.parametrize(
    ("actor", "by", "error"),
    [
        pytest.param(PLAYER, OBSERVER, NotAllowed, id="player-in-the-observers-name"),
        pytest.param(OBSERVER, PLAYER, NotAllowed, id="observer-in-the-players-name"),
        pytest.param("Mallory", "Mallory", NotAMember, id="not-a-member"),
    ],
)
def test_a_member_disputes_in_their_own_name_only(
    engine: Engine, contested: tuple[int, int], actor: str, by: str, error: type[DomainError]
) -> None:
    """A dispute names who raises it: the member making the call (a non-member: NOT_A_MEMBER)."""
    first, _ = contested
    command = DisputeRuling(ruling=first, reason="unfair", by=by)
    refused(engine, error, lambda: engine.execute("Lab", command, actor=actor))


@pytest.mark.parametrize("correction", ["undo", "amend"])
def test_a_player_may_not_correct_a_ruling_themself(
    engine: Engine, contested: tuple[int, int], correction: str
) -> None:
    """Undo and amend are the GM's: the player asks by disputing."""
    first, _ = contested
    calls: dict[str, Callable[[], object]] = {
        "undo": lambda: engine.undo("Lab", first, reason="mine", actor=PLAYER),
        "amend": lambda: engine.amend("Lab", first, {"ds": "10"}, reason="mine", actor=PLAYER),
    }
    raised = refused(engine, NotAllowed, calls[correction])
    assert (PLAYER, correction) == (raised.data["who"], raised.data["what"])


# --- A resolution undone, a dispute withdrawn -------------------------------------------------


def open_in_recap(engine: Engine) -> list[int]:
    return [
        d["dispute"] for d in engine.recap("Lab", audience=GMS)["disputes"] if d["outcome"] is None
    ]


def test_a_resolution_stays_on_the_record(engine: Engine, contested: tuple[int, int]) -> None:
    """An upheld resolution cannot be undone (CANNOT_UNDO, nothing appended): the player
    disputes the ruling again instead."""
    resolved = engine.resolve("Lab", 1, Outcome.UPHELD, reason="it stands").number
    before = event_count(engine)
    with pytest.raises(CannotUndo):
        engine.undo("Lab", resolved, reason="I was hasty")
    assert before == event_count(engine)
    assert [] == open_in_recap(engine)


def test_a_dispute_stays_on_the_record(engine: Engine, contested: tuple[int, int]) -> None:
    """A dispute cannot be undone (CANNOT_UNDO, nothing appended): the GM resolves it, and
    dispute numbers are never reused."""
    first, _ = contested
    raised = dispute(engine, first, "wrong ruling, sorry", by=OBSERVER)
    before = event_count(engine)
    with pytest.raises(CannotUndo):
        engine.undo("Lab", raised, reason="raised by mistake")
    assert before == event_count(engine)
    assert [1, 2] == open_in_recap(engine)


def test_an_amended_resolution_says_what_changed(
    engine: Engine, contested: tuple[int, int]
) -> None:
    """`resolve N amended` without a corrected parameter is refused: NO_CORRECTION_GIVEN."""
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.resolve("Lab", 1, Outcome.AMENDED, reason="hmm")
    assert "NO_CORRECTION_GIVEN" == refused.value.code
    assert before == event_count(engine)
