"""The Code: undo and amend decide the later rulings again, and the oracle agrees.

Each story is a list of steps (a command and the faces it rolled) whose later ruling *decided*
on what an earlier ruling left: an Exposure gain on the peak an earlier gain reached (DIGEST
§5.2, "Meta-level undo"), a Reward Point spend on the points an earlier ruling left, an Exposure
roll on the MO call that gave it one more die, a Motivation roll on the Motivation an earlier
ruling spent or gave back. For each: a plain undo of the earlier ruling is refused naming exactly
the later rulings that do not stand without it (nothing appended); ``with_dependents`` retracts
exactly those; ``redecide`` ends where the oracle (``tests/integration/oracle.py``: the story
played again without the ruling, each command with the dice it rolled) ends, or is refused
(``CannotRedecide``, nothing appended) where the oracle's table is refused.

Story indexes are not ruling numbers: ``play`` returns the ruling number of each step (ruling 1
is the campaign's creation).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.commands import Command
from domain.errors import (
    AmendmentConflicts,
    CannotRedecide,
    CannotUndo,
    DomainError,
    LaterRulingsDepend,
    SealedSessionChanged,
)
from domain.lifecycle import EndSession, StartSession
from domain.rulesets.the_code.commands import (
    AccomplishObjective,
    Blab,
    BuyMotivation,
    CreateHero,
    FollowMo,
    LowerExposure,
    RollExposure,
    RollReaction,
    RuleChallenge,
    SolveProblem,
    TakeDaysOff,
    UseMotivation,
)
from domain.rulesets.the_code.events import DetailRevealed
from domain.rulesets.the_code.tables import Detail, NeedReason, RevealCause, Scale
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import event_count
from tests.golden.test_the_code import HAWK, MITCH, sheet
from tests.integration.dependants import undo_redecided
from tests.integration.oracle import CAMPAIGN, Refused, Step, again, play, whole_state

SYSTEM = "the-code"
VOLT = "Lady Volt"
VERA: dict[str, Any] = {**MITCH, "player": "lee", "code_name": VOLT, "secret_identity": "Vera"}
REDERIVED = RevealCause.REDERIVED.value


def hawk(**fields: Any) -> Step:
    """Mitch, the Hawk, joins (fields overridden)."""
    return Step(CreateHero(**{**MITCH, **fields}))


def volt(**fields: Any) -> Step:
    return Step(CreateHero(**{**VERA, **fields}))


def solve(scale: Scale = Scale.MINOR, reveal: tuple[str, ...] = ()) -> SolveProblem:
    return SolveProblem(hero=HAWK, description="a cat up a tree", scale=scale, reveal=reveal)


def reaction(extra_dice: int) -> RollReaction:
    return RollReaction(
        hero=HAWK, audience="the press", extra_dice=extra_dice, justification="an old contact"
    )


SLIPPERY = RuleChallenge(
    hero=HAWK, task="a slippery roof", needs_motivation=NeedReason.BAD_CONDITIONS
)


@frozen
class Story:
    """Steps played in order; undoing step ``target`` leaves the steps ``dependents`` standing
    on nothing (story indexes, not ruling numbers)."""

    name: str
    steps: tuple[Step, ...]
    target: int
    dependents: tuple[int, ...]


# DIGEST §5.2: a minor problem takes the Hawk from Exposure 1 to 2 (his description public, level
# 2), his end-of-session roll from 2 to 3 (his code name, level 3). Without the problem the roll
# is one die (the 2, even): 1 -> 2, and the level-2 rung is revealed again, re-derived.
REDERIVING = Story(
    "a later gain re-derives the reveal of the undone one",
    (
        Step(StartSession()),
        hawk(exposure=1, reward_points=25),
        Step(solve(), (1, 1, 1, 1)),
        Step(RollExposure(hero=HAWK), (2, 1)),
    ),
    target=2,
    dependents=(3,),
)
# The purchase spent 25 of the 25 points the problem left; without the problem it spends 25 of
# 50 (another RewardPointsSpent).
PURCHASE = Story(
    "a purchase read the points a solved problem left",
    (
        Step(StartSession()),
        hawk(reward_points=50),
        Step(solve(), (1, 1, 1, 1)),
        Step(BuyMotivation(hero=HAWK), (2,)),
    ),
    target=2,
    dependents=(3,),
)
# The day off gave back the point the reaction spent (2 -> 3), and the roll used all three;
# without the day off three dice are more than the Motivation held: refused.
DAY_OFF = Story(
    "a Motivation roll used the point a day off gave back",
    (
        Step(StartSession()),
        hawk(),
        Step(reaction(1), (4, 7)),
        Step(TakeDaysOff(hero=HAWK)),
        Step(SLIPPERY),
        Step(UseMotivation(hero=HAWK, dice=3), (1, 2, 5)),
    ),
    target=3,
    dependents=(5,),
)
STORIES = [
    REDERIVING,
    PURCHASE,
    # The Objective (score 10: five dice, all 10s) earned the 50 points the problem spent;
    # without it the problem cannot be paid for: re-deciding is refused.
    Story(
        "a solved problem spent the points an Objective earned",
        (
            Step(StartSession()),
            hawk(objective="clean up the docks", objective_score=10),
            Step(AccomplishObjective(hero=HAWK), (10, 10, 10, 10, 10, 1, 1, 1)),
            Step(solve(), (1, 1, 1, 1)),
        ),
        target=2,
        dependents=(3,),
    ),
    # The MO die made the roll three dice (1, 1, 2: an even, 2 -> 3); without the MO call it is
    # two (1, 1: no gain all session, 2 -> 1).
    Story(
        "the Exposure roll counted the MO die of an MO call",
        (
            Step(StartSession()),
            hawk(exposure=2),
            Step(FollowMo(hero=HAWK)),
            Step(RollExposure(hero=HAWK), (1, 1, 2)),
        ),
        target=2,
        dependents=(3,),
    ),
    # Lowering Exposure from 3 to 2 made the roll two dice; without it the roll needs a third
    # die it never rolled: re-deciding is refused.
    Story(
        "the Exposure roll counted its dice on a lowered Exposure",
        (
            Step(StartSession()),
            hawk(exposure=3),
            Step(LowerExposure(hero=HAWK)),
            Step(RollExposure(hero=HAWK), (1, 3)),
        ),
        target=2,
        dependents=(3,),
    ),
    # The reaction's extra die cost a point of Motivation (3 -> 2); the Motivation roll's two 6s
    # cost the last two. Without the reaction they cost 3 -> 1 (another MotivationSpent); the
    # challenge stands.
    Story(
        "a Motivation roll spent what a reaction's extra die left",
        (
            Step(StartSession()),
            hawk(),
            Step(reaction(1), (4, 7)),
            Step(SLIPPERY),
            Step(UseMotivation(hero=HAWK, dice=2), (6, 6)),
        ),
        target=2,
        dependents=(4,),
    ),
    DAY_OFF,
    # The second blab revealed only the code name (the description was public already); without
    # the first blab it reveals both (+2). Lady Volt's roll in between stands.
    Story(
        "a later blab re-derives what an undone blab revealed",
        (
            Step(StartSession()),
            hawk(),
            volt(exposure=1),
            Step(Blab(hero=HAWK, details=("physical-description",), confidant="a neighbour")),
            Step(RollExposure(hero=VOLT), (3,)),
            Step(
                Blab(
                    hero=HAWK,
                    details=("physical-description", "code-name"),
                    confidant="the neighbour's son",
                )
            ),
        ),
        target=3,
        dependents=(5,),
    ),
]


def normalised(product: dict[str, Any], oracle: dict[str, Any]) -> dict[str, Any]:
    """The oracle's whole state with the causes of re-derived reveals normalised: where the
    product marks a hero's reveal of a detail ``rederived`` (a re-decided ruling revealed it,
    DIGEST §5.2), the oracle (a fresh play) records the cause of the ruling that revealed it;
    that reveal of the same hero and detail is given the cause ``rederived`` here. Everything
    else (detail, level, value, session, order) is compared as it is."""
    oracle = copy.deepcopy(oracle)
    for name, hero in product["characters"].items():
        rederived = {r["detail"] for r in hero["revealed"] if r["cause"] == REDERIVED}
        for reveal in oracle["characters"].get(name, {}).get("revealed", []):
            if reveal["detail"] in rederived:
                reveal["cause"] = REDERIVED
    return oracle


def assert_same_state(product: Engine, oracle: Engine | Refused) -> None:
    assert not isinstance(oracle, Refused), oracle
    state = whole_state(product)
    assert normalised(state, whole_state(oracle)) == state


def _oracle(steps: Sequence[Step], **how: Any) -> dict[str, Any]:
    """The whole state of the story played again (``again``'s ``without``/``replaced``)."""
    oracle = again(SYSTEM, steps, **how)
    assert not isinstance(oracle, Refused), oracle
    return whole_state(oracle)


def numbers(rulings: Sequence[int], indexes: Sequence[int]) -> str:
    """Ruling numbers as ``LaterRulingsDepend`` lists them."""
    return ", ".join(str(rulings[i]) for i in indexes)


def played(engine: Engine, story: Story) -> list[int]:
    return play(engine, SYSTEM, story.steps)


# --- Undo: refused alone, with its dependents, re-decided ---------------------------------------


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s.name)
def test_a_plain_undo_is_refused_naming_exactly_the_dependents(
    engine: Engine, story: Story
) -> None:
    rulings = played(engine, story)
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo(CAMPAIGN, rulings[story.target], reason="it never happened")
    assert numbers(rulings, story.dependents) == refused.value.data["dependents"]
    assert before == event_count(engine)


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s.name)
def test_with_dependents_retracts_exactly_them(engine: Engine, story: Story) -> None:
    rulings = played(engine, story)
    engine.undo(CAMPAIGN, rulings[story.target], reason="it never happened", with_dependents=True)
    gone = {story.target, *story.dependents}
    assert {rulings[i] for i in gone} == engine.campaign(CAMPAIGN).retracted
    undone = {
        log.ruling.number
        for log in engine.log(CAMPAIGN, audience=GMS)
        if log.retraction is not None
    }
    assert {rulings[i] for i in gone} == undone
    assert _oracle(story.steps, without=gone) == whole_state(engine)  # nothing re-derived


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s.name)
def test_redecide_ends_where_the_story_played_again_ends(engine: Engine, story: Story) -> None:
    rulings = played(engine, story)
    oracle = again(SYSTEM, story.steps, without={story.target})
    before = event_count(engine)
    if isinstance(oracle, Refused):
        with pytest.raises(CannotRedecide) as refused:
            engine.undo(CAMPAIGN, rulings[story.target], reason="it never happened", redecide=True)
        assert rulings[oracle.index] == refused.value.data["dependent"]
        assert before == event_count(engine)
        return
    engine.undo(CAMPAIGN, rulings[story.target], reason="it never happened", redecide=True)
    assert {rulings[story.target]} == engine.campaign(CAMPAIGN).retracted
    redecided = {
        log.ruling.number
        for log in engine.log(CAMPAIGN, audience=GMS)
        if [a.kind for a in log.amendments] == ["re-decided"]
    }
    assert {rulings[i] for i in story.dependents} == redecided
    assert_same_state(engine, oracle)


def test_undoing_the_first_gain_re_derives_the_level_2_rung(engine: Engine) -> None:
    """DIGEST §5.2: Exposure 1 -> 2 (a minor problem: the description, level 2), then 2 -> 3
    (the roll: the code name, level 3). Undoing the problem and re-deciding, the roll is 1 -> 2
    and reveals the level-2 rung again, cause ``rederived``; the log shows the roll re-decided,
    and the timeline keeps both the voided rows and the re-derived reveal."""
    rulings = played(engine, REDERIVING)
    solved, rolled = rulings[2], rulings[3]
    assert [Detail.PHYSICAL_DESCRIPTION, Detail.CODE_NAME] == [
        r.detail for r in sheet(engine).revealed
    ]

    undo = engine.undo(CAMPAIGN, solved, reason="there was no cat", redecide=True).number

    hero = sheet(engine)
    assert (2, 2, 25) == (hero.exposure, hero.peak, hero.reward_points)
    revealed = [(r.detail, r.level, r.cause) for r in hero.revealed]
    assert [(Detail.PHYSICAL_DESCRIPTION, 2, RevealCause.REDERIVED)] == revealed
    log = {entry.ruling.number: entry for entry in engine.log(CAMPAIGN, audience=GMS)}
    retraction = log[solved].retraction
    assert retraction is not None
    assert undo == retraction.by
    assert log[rolled].retraction is None
    assert [("re-decided", undo)] == [(a.kind, a.by) for a in log[rolled].amendments]
    now = [r.event for r in log[rolled].amendments[0].events]
    assert [(Detail.PHYSICAL_DESCRIPTION, RevealCause.REDERIVED)] == [
        (e.detail, e.cause) for e in now if isinstance(e, DetailRevealed)
    ]

    line = engine.hero_timeline(CAMPAIGN, HAWK, audience=GMS)
    rows = [
        (
            r["ruling"],
            r["voided"] and r["voided"]["kind"],
            [(c["before"], c["after"]) for c in r["changes"]],
            [(x["detail"], x["level"], x["cause"]) for x in r["reveals"]],
        )
        for r in line["rows"]
    ]
    assert [
        (solved, "undone", [(1, 2)], [("physical-description", 2, "problem-solved")]),
        (rolled, "re-decided", [(2, 3)], [("code-name", 3, "session-roll")]),
        (rolled, None, [(1, 2)], [("physical-description", 2, REDERIVED)]),
    ] == rows
    assert (2, 2, ["physical-description"]) == (
        line["now"]["exposure"],
        line["now"]["peak"],
        [p["detail"] for p in line["now"]["public"]],
    )


def test_a_re_decided_ruling_revealing_the_same_detail_keeps_its_cause(engine: Engine) -> None:
    """The blab revealed the Hawk's profession; decided again without the lowered Exposure it
    still reveals his profession (only the Exposure at the reveal is 3, not 2). It is not a
    detail the ruling had not revealed, so it keeps its cause ``blab``, as the oracle has it."""
    story = (
        Step(StartSession()),
        hawk(exposure=2),
        Step(LowerExposure(hero=HAWK)),
        Step(Blab(hero=HAWK, details=("profession",), confidant="his old partner")),
    )
    rulings = play(engine, SYSTEM, story)
    engine.undo(CAMPAIGN, rulings[2], reason="he kept his Popularity", redecide=True)
    causes = [(r.detail, r.cause) for r in sheet(engine).revealed]
    assert [
        (Detail.PHYSICAL_DESCRIPTION, RevealCause.CREATION),
        (Detail.PROFESSION, RevealCause.BLAB),
    ] == causes
    assert whole_state(engine) == _oracle(story, without={2})


# --- Amend ------------------------------------------------------------------------------------


def test_amending_the_first_gain_re_derives_the_later_reveal(engine: Engine) -> None:
    """The GM's choice for the problem's reveal was the code name, not the description. The
    roll's level-3 rung (the code name, public now) then reveals the next secret detail, the MO,
    re-derived; a plain amendment is refused naming the roll, ``with_dependents`` undoes it."""
    steps = REDERIVING.steps
    amended = {2: solve(reveal=("code-name",))}
    rulings = play(engine, SYSTEM, steps)
    before = event_count(engine)
    with pytest.raises(AmendmentConflicts) as refused:
        engine.amend(CAMPAIGN, rulings[2], {"reveal": "code-name"}, reason="the GM's choice")
    assert str(rulings[3]) == refused.value.data["dependents"]
    assert before == event_count(engine)

    engine.amend(
        CAMPAIGN,
        rulings[2],
        {"reveal": "code-name"},
        reason="the GM's choice",
        redecide=True,
        dice=DiceSpec(faces=()),
    )

    revealed = [(r.detail, r.level, r.cause) for r in sheet(engine).revealed]
    assert [
        (Detail.CODE_NAME, 2, RevealCause.PROBLEM_SOLVED),
        (Detail.MODUS_OPERANDI, 3, RevealCause.REDERIVED),
    ] == revealed
    (rolled,) = [e for e in engine.log(CAMPAIGN, audience=GMS) if e.ruling.number == rulings[3]]
    assert ["re-decided"] == [a.kind for a in rolled.amendments]
    assert_same_state(engine, again(SYSTEM, steps, replaced=amended))

    with Engine() as other:
        rulings = play(other, SYSTEM, steps)
        other.amend(
            CAMPAIGN,
            rulings[2],
            {"reveal": "code-name"},
            reason="the GM's choice",
            with_dependents=True,
        )
        assert {rulings[3]} == other.campaign(CAMPAIGN).retracted
        assert whole_state(other) == _oracle(steps, without={3}, replaced=amended)


def test_amending_a_reaction_so_that_a_later_roll_cannot_be_made_refuses(engine: Engine) -> None:
    """Two extra dice on the reaction (a third die, 9, entered) cost two points of Motivation:
    after the day off the Hawk holds 2, too few for the three-dice roll. Re-deciding is refused
    naming the roll (the oracle's table refuses it too), nothing appended; a plain amendment is
    refused naming the day off (it regains 1 of 2, not 2 of 3) and the roll."""
    steps = DAY_OFF.steps
    rulings = play(engine, SYSTEM, steps)
    more = [*steps[:2], Step(reaction(2), (4, 7, 9)), *steps[3:]]
    oracle = again(SYSTEM, more)
    assert isinstance(oracle, Refused)
    assert 5 == oracle.index
    before = event_count(engine)
    with pytest.raises(AmendmentConflicts) as conflicts:
        engine.amend(CAMPAIGN, rulings[2], {"extra_dice": "2"}, reason="two contacts")
    assert numbers(rulings, (3, 5)) == conflicts.value.data["dependents"]
    with pytest.raises(CannotRedecide) as refused:
        engine.amend(
            CAMPAIGN,
            rulings[2],
            {"extra_dice": "2"},
            reason="two contacts",
            redecide=True,
            dice=DiceSpec(faces=(9,)),
        )
    assert (rulings[5], "motivation") == (
        refused.value.data["dependent"],
        refused.value.data["command"],
    )
    assert before == event_count(engine)


def test_amending_a_problem_to_a_bigger_scale_refuses_the_purchase_after_it(
    engine: Engine,
) -> None:
    """A general problem costs all 50 points: the purchase after it cannot be paid for, so the
    amendment that re-decides it is refused (as the oracle's table is), nothing appended."""
    steps = PURCHASE.steps
    rulings = play(engine, SYSTEM, steps)
    general = [*steps[:2], Step(solve(Scale.GENERAL), (1, 1, 1, 1, 1)), *steps[3:]]
    oracle = again(SYSTEM, general)
    assert isinstance(oracle, Refused)
    assert 3 == oracle.index
    before = event_count(engine)
    with pytest.raises(CannotRedecide) as refused:
        engine.amend(
            CAMPAIGN,
            rulings[2],
            {"scale": "general"},
            reason="the whole block was on fire",
            redecide=True,
            dice=DiceSpec(faces=(1,)),  # Popularity 5 after the problem: a fifth die
        )
    assert (rulings[3], "buy-motivation") == (
        refused.value.data["dependent"],
        refused.value.data["command"],
    )
    assert before == event_count(engine)


# --- The oracle, on any history ---------------------------------------------------------------


def moves(hero: str) -> st.SearchStrategy[Command]:
    """One hero's commands (many refused on the state they meet: skipped)."""
    details = st.lists(
        st.sampled_from([d.value for d in Detail][:4]), min_size=1, max_size=2, unique=True
    )
    return st.one_of(
        st.builds(RollExposure, hero=st.just(hero), mo_followed=st.booleans()),
        st.builds(RollExposure, hero=st.just(hero), off=st.just(True), reduce=st.booleans()),
        st.builds(
            SolveProblem,
            hero=st.just(hero),
            description=st.just("a cat up a tree"),
            scale=st.sampled_from([Scale.MINOR, Scale.GENERAL]),
        ),
        st.builds(
            Blab, hero=st.just(hero), details=details.map(tuple), confidant=st.just("a neighbour")
        ),
        st.builds(
            RollReaction,
            hero=st.just(hero),
            audience=st.just("the press"),
            extra_dice=st.integers(0, 2),
            justification=st.just("an old contact"),
        ),
        st.builds(TakeDaysOff, hero=st.just(hero), days=st.integers(1, 2)),
        st.builds(UseMotivation, hero=st.just(hero), dice=st.integers(0, 3)),
        st.sampled_from(
            [
                BuyMotivation(hero=hero),
                LowerExposure(hero=hero),
                FollowMo(hero=hero),
                AccomplishObjective(hero=hero),
                RuleChallenge(
                    hero=hero, task="a slippery roof", needs_motivation=NeedReason.BAD_CONDITIONS
                ),
            ]
        ),
    )


heroes: st.SearchStrategy[dict[str, Any]] = st.builds(
    dict,
    exposure=st.integers(0, 4),
    reward_points=st.sampled_from([0, 25, 50, 100]),
    popularity=st.integers(0, 4),
)
# Each command with the seed of its dice; the Hawk's twice as often as Lady Volt's (who may not
# have joined: hers are refused then).
histories = st.lists(
    st.tuples(
        st.one_of(
            moves(HAWK),
            moves(HAWK),
            moves(VOLT),
            st.sampled_from([EndSession(), StartSession()]),
        ),
        st.integers(0, 2**16),
    ),
    min_size=3,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(
    hawk_fields=heroes,
    volt_fields=st.none() | heroes,
    history=histories,
    pick=st.integers(0, 10**6),
    anywhere=st.booleans(),
)
def test_any_undo_re_decided_ends_where_playing_it_again_ends(
    hawk_fields: dict[str, Any],
    volt_fields: dict[str, Any] | None,
    history: list[tuple[Command, int]],
    pick: int,
    anywhere: bool,
) -> None:
    """Any history of one or two heroes (each command on seeded dice, the refused ones left
    out), then the undo of any of its rulings, re-deciding the later ones: refused
    (``CannotRedecide``, naming the step the oracle refuses) exactly when the story played again
    without it is refused; otherwise the same whole state (the causes of re-derived reveals
    normalised, see ``normalised``). A session end seals its session: it cannot be undone, and
    an undo that would change a later one is refused (``SealedSessionChanged``); nothing is
    appended by any refusal. The same undo made plain first names as dependants exactly the
    rulings re-deciding changes or refuses (``tests/integration/dependants.py``)."""
    with Engine() as engine:
        setup = [Step(StartSession()), hawk(**hawk_fields)]
        if volt_fields is not None:
            setup.append(volt(**volt_fields))
        story = list(zip(play(engine, SYSTEM, setup), setup, strict=True))
        for command, seed in history:
            try:
                result = engine.execute(CAMPAIGN, command, dice=DiceSpec(seed=seed))
            except DomainError:
                continue
            story.append((result.number, Step(command, tuple(d.face for d in result.dice))))
        # A ruling of the history when it has any (the setup's otherwise), half the time in its
        # first half: more later rulings decided on what it left.
        first = len(setup) if len(story) > len(setup) else 0
        span = len(story) - first
        index = first + pick % (span if anywhere else (span + 1) // 2)
        ruling = story[index][0]
        ends = {n for n, step in story if isinstance(step.command, EndSession)}
        before = event_count(engine)
        if ruling in ends:  # it sealed its session and revealed its dice: it stays
            with pytest.raises(CannotUndo):
                undo_redecided(engine, CAMPAIGN, ruling, reason="property")
            assert before == event_count(engine)
            return
        oracle = again(SYSTEM, [step for _, step in story], without={index})
        refusal: DomainError | None = None
        try:
            undo_redecided(engine, CAMPAIGN, ruling, reason="property")
        except (SealedSessionChanged, CannotRedecide) as refused:
            refusal = refused
        if refusal is None:
            assert_same_state(engine, oracle)
            return
        assert before == event_count(engine)
        dependent = refusal.data["dependent"]
        if isinstance(refusal, CannotRedecide):
            assert isinstance(oracle, Refused)
            assert story[oracle.index][0] == dependent
            return
        # A later session end would be decided otherwise (or refused): it stays as sealed.
        # Deciding in order, it comes no later than the first step the oracle refuses.
        assert dependent in ends
        assert dependent > ruling
        if isinstance(oracle, Refused):
            assert dependent <= story[oracle.index][0]
