"""Undo and amend in the Sims RPG (PDQ): the later rulings decided again on the corrected history.

A later ruling *depends* on the corrected one when its decision read what the correction changes:
a quality's rank (its modifier, its target number), a strategy's shift, a turn order, an
upgrade spent. Each story checks the three ways a correction goes, against the oracle
(``tests.integration.oracle``: the story played again without the ruling, with the same dice):

(a) a plain undo is refused, naming exactly the dependents, and appends nothing;
(b) ``with_dependents`` retracts exactly the ruling and its dependents;
(c) ``redecide`` gives the state of the story played again without the ruling (or, where the
    story played again is refused, is refused itself with ``CannotRedecide``).

Hypothesis differential tests then undo (re-deciding, or with the dependents) or amend a random
ruling of random legal histories played with seeded dice, and compare with the oracle; each
correction is made plain first, and its dependants are the rulings re-deciding changes or
refuses (``tests/integration/dependants.py``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.commands import Command
from domain.errors import (
    AmendmentConflicts,
    CannotRedecide,
    DomainError,
    LaterRulingsDepend,
    TooManyDice,
)
from domain.events import RulingMade
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import (
    AllocateRanks,
    Attack,
    CreateCharacter,
    DeclareDanger,
    DeclareStrategy,
    EndTurn,
    JudgeSimple,
    Kill,
    PlaceRecovery,
    ReplaceQuality,
    Reroll,
    RollComplicated,
    RollRecovery,
    SetTurnOrder,
    SucceedCampaign,
    UpgradeQuality,
)
from domain.rulesets.sims.tables import Danger, RankKind, SheetKind, Strategy, TieBreak
from engine import Engine
from engine.corrections.redecide import BOOKKEEPING
from engine.dice.sources import DiceSpec
from engine.store.records import Recorded
from engine.write.assembly import RulingResult
from tests.conftest import event_count
from tests.integration.dependants import amend_redecided, undo_redecided, undo_with_dependents
from tests.integration.oracle import CAMPAIGN, Refused, Step, again, play, whole_state

SYSTEM = "sims"
REASON = "the GM misread the sheet"

# Custom player characters (the GM's sheets): few qualities, so that a rank lost shows at once.
SHEETS: dict[str, tuple[str, ...]] = {
    "Alice": ("Brawling:Combat:Good", "Pistols:Combat:Average", "Athletics:Physical:Average"),
    "Bob": ("Brawling:Combat:Average", "Pistols:Combat:Average", "Athletics:Physical:Good"),
    "Carl": ("Knives:Combat:Good", "Pistols:Combat:Poor", "Hiding:Physical:Average"),
}


def sheet(name: str) -> Step:
    return Step(
        CreateCharacter(
            character=name, player="GM", qualities=SHEETS[name], kind=SheetKind.PC, custom=True
        )
    )


def scene(*names: str) -> list[Step]:
    """A session, a running scene and the characters named (no dice)."""
    return [
        Step(StartSession()),
        Step(StartScene(stage="the warehouse")),
        *(sheet(n) for n in names),
    ]


def current(engine: Engine, name: str, quality: str) -> int:
    c: SimsCharacter = engine.character(CAMPAIGN, name, audience=GMS)
    found = c.quality(quality)
    assert found is not None
    return found.current


def listed(numbers: Sequence[int], indexes: Sequence[int]) -> str:
    """The dependents as ``LaterRulingsDepend`` names them: ruling numbers, ascending."""
    return ", ".join(str(n) for n in sorted(numbers[i] for i in indexes))


def oracle(story: Sequence[Step], **changes: Any) -> Engine:
    played = again(SYSTEM, story, **changes)
    assert isinstance(played, Engine), played
    return played


def redecided(result: RulingResult) -> list[int]:
    """The rulings a correction amended with their new decision (its header says)."""
    header = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    return [entry["ruling"] for entry in json.loads(header.params).get("redecided", ())]


@attrs.frozen
class Redecided:
    """A story played on a fresh store and a ruling of it undone with ``redecide``."""

    numbers: list[int]
    engine: Engine
    undo: RulingResult


def check_undo(
    engine: Engine, story: Sequence[Step], target: int, dependents: Sequence[int]
) -> Redecided:
    """(a), (b) and (c) for undoing step ``target`` of ``story``, whose dependents are the steps
    ``dependents``; (c) expects the story played again without it to stand."""
    numbers = play(engine, SYSTEM, story)
    # (a) a plain undo is refused, naming exactly the dependents; nothing is appended
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo(CAMPAIGN, numbers[target], reason=REASON)
    assert listed(numbers, dependents) == refused.value.data["dependents"]
    assert numbers[target] == refused.value.data["ruling"]
    assert before == event_count(engine)
    # (b) with its dependents: exactly those are retracted, and the rest stands as played
    engine.undo(CAMPAIGN, numbers[target], reason=REASON, with_dependents=True)
    gone = {target, *dependents}
    assert {numbers[i] for i in gone} == engine.campaign(CAMPAIGN).retracted
    assert whole_state(oracle(story, without=gone)) == whole_state(engine)
    # (c) re-deciding, on a fresh store: the story played again without the ruling
    fresh = Engine()
    assert numbers == play(fresh, SYSTEM, story)
    undone = fresh.undo(CAMPAIGN, numbers[target], reason=REASON, redecide=True)
    assert whole_state(oracle(story, without={target})) == whole_state(fresh)
    return Redecided(numbers, fresh, undone)


# --- Stories ------------------------------------------------------------------------------------

# The story: Alice's hit drops Bob's Pistols to Poor; Bob then shoots with Poor Pistols.
HIT, ALLOCATION, SHOT, RENAME = 4, 5, 6, 7
PISTOLS_STORY = [
    *scene("Alice", "Bob"),
    # Brawling Good: 3+3+2 = 8 against Bob's Average Pistols (TN 7): one Damage Rank
    Step(Attack(attacker="Alice", qualities=("Brawling",), targets=("Bob:Pistols",)), faces=(3, 3)),
    Step(AllocateRanks(character="Bob", steps=("Pistols",))),  # Average -> Poor
    # Poor Pistols: 4+4-2 = 6 misses Alice's Average Athletics; at Average, 8 hits it
    Step(
        Attack(attacker="Bob", qualities=("Pistols",), targets=("Alice:Athletics",)), faces=(4, 4)
    ),
    Step(
        ReplaceQuality(character="Bob", quality="Athletics", new_name="Parkour", gm_approved=True)
    ),  # stands either way
]


def test_undoing_the_hit_that_dropped_pistols_to_poor(engine: Engine) -> None:
    """The shot was decided at Poor (-2); without the hit Bob shoots at Average and hits. The
    allocation (a resolution of the hit) goes with it; the rename stands."""
    assert 0 == current(oracle(PISTOLS_STORY), "Bob", "Pistols")  # Poor, as played
    done = check_undo(engine, PISTOLS_STORY, HIT, [ALLOCATION, SHOT])
    numbers, fresh = done.numbers, done.engine
    assert {numbers[HIT], numbers[ALLOCATION]} == fresh.campaign(CAMPAIGN).retracted
    assert [numbers[SHOT]] == redecided(done.undo)
    assert 1 == current(fresh, "Bob", "Pistols")  # Average again
    assert 2 == current(fresh, "Bob", "Parkour")  # the rename stood
    alice: SimsCharacter = fresh.character(CAMPAIGN, "Alice", audience=GMS)
    assert alice.pending is not None  # the shot hits now
    assert 1 == alice.pending.ranks


# A turn order read from the ranks: Bob's Athletics, lowered by a hit, puts Alice first.
TURN_HIT, TURN_ALLOCATION, TURNS, DEFENSE, NEXT = 4, 5, 6, 7, 8
TURN_STORY = [
    *scene("Alice", "Bob"),
    # Brawling Good: 4+4+2 = 10 against Bob's Good Athletics (TN 9): one Damage Rank
    Step(
        Attack(attacker="Alice", qualities=("Brawling",), targets=("Bob:Athletics",)), faces=(4, 4)
    ),
    Step(AllocateRanks(character="Bob", steps=("Athletics",))),  # Good -> Average
    # Bob's Average Athletics is below Alice's Good Brawling: Alice goes first; at Good they tie,
    # and the GM breaks the tie in the order listed (PDQ-A11, as-listed): Bob goes first
    Step(SetTurnOrder(entries=("Bob:Athletics", "Alice:Brawling"), ties=TieBreak.AS_LISTED)),
    Step(
        DeclareStrategy(character="Alice", strategy="full-defense")
    ),  # a reaction: on anyone's turn
    # turn 2 is Bob's; without the hit it is Alice's, and her Full Defense expires
    Step(EndTurn()),
]


def test_undoing_the_hit_that_decided_the_turn_order(engine: Engine) -> None:
    """The order, and so whose turn the next one is, changes; Alice's strategy stands."""
    done = check_undo(engine, TURN_STORY, TURN_HIT, [TURN_ALLOCATION, TURNS, NEXT])
    assert [done.numbers[TURNS], done.numbers[NEXT]] == redecided(done.undo)
    alice: SimsCharacter = done.engine.character(CAMPAIGN, "Alice", audience=GMS)
    bob: SimsCharacter = done.engine.character(CAMPAIGN, "Bob", audience=GMS)
    assert ["Bob", "Alice"] == [slot.name for slot in bob.order]
    assert (True, 2, None) == (alice.turn, alice.last_turn, alice.strategy)
    assert (False, 1) == (bob.turn, bob.last_turn)


# A strategy's shifts: Bob's Full Defense raises his target number and downshifts his next
# action.
FULL_DEFENSE, PARRIED, RIPOSTE = 4, 5, 6
DEFENSE_STORY = [
    *scene("Alice", "Bob"),
    Step(DeclareStrategy(character="Bob", strategy="full-defense")),
    # Brawling Good: 2+2+2 = 6 misses Bob's Pistols, Good under Full Defense (TN 9) or not (TN 7)
    Step(Attack(attacker="Alice", qualities=("Brawling",), targets=("Bob:Pistols",)), faces=(2, 2)),
    # Bob's Average Pistols, downshifted by his Full Defense to Poor: 4+4-2 = 6 misses Alice's
    # Average Athletics; without the strategy 4+4 = 8 hits it
    Step(
        Attack(attacker="Bob", qualities=("Pistols",), targets=("Alice:Athletics",)), faces=(4, 4)
    ),
]


def test_undoing_a_full_defense_that_shifted_two_attacks(engine: Engine) -> None:
    """The parry was rolled against TN 9 (a miss against TN 7 too: other events all the same);
    the riposte was downshifted (and misses, where without the strategy it hits)."""
    done = check_undo(engine, DEFENSE_STORY, FULL_DEFENSE, [PARRIED, RIPOSTE])
    assert [done.numbers[PARRIED], done.numbers[RIPOSTE]] == redecided(done.undo)
    bob: SimsCharacter = done.engine.character(CAMPAIGN, "Bob", audience=GMS)
    alice: SimsCharacter = done.engine.character(CAMPAIGN, "Alice", audience=GMS)
    assert (None, False) == (bob.strategy, bob.defense_penalty)
    assert alice.pending is not None
    assert 1 == alice.pending.ranks


# An upgrade spent: Bob's Pistols go from Average to Good, and his shot hits because of it.
SUCCESS, UPGRADE, UPGRADED_SHOT, WOUND = 2, 3, 6, 7
UPGRADE_STORY = [
    sheet("Alice"),
    sheet("Bob"),
    Step(SucceedCampaign()),  # an upgrade for every player character
    Step(UpgradeQuality(character="Bob", quality="Pistols")),  # Average -> Good
    Step(StartSession()),
    Step(StartScene(stage="the docks")),
    # Good Pistols: 3+3+2 = 8 hits Alice's Average Athletics (TN 7); at Average 6 misses
    Step(
        Attack(attacker="Bob", qualities=("Pistols",), targets=("Alice:Athletics",)), faces=(3, 3)
    ),
    Step(AllocateRanks(character="Alice", steps=("Athletics",))),
]


def test_undoing_the_upgrade_a_shot_was_rolled_with(engine: Engine) -> None:
    """Without the upgrade the shot misses, and Alice's allocation goes with the hit it
    resolved."""
    done = check_undo(engine, UPGRADE_STORY, UPGRADE, [UPGRADED_SHOT, WOUND])
    numbers, fresh = done.numbers, done.engine
    assert {numbers[UPGRADE], numbers[WOUND]} == fresh.campaign(CAMPAIGN).retracted
    assert [numbers[UPGRADED_SHOT]] == redecided(done.undo)
    assert 1 == current(fresh, "Alice", "Athletics")
    bob: SimsCharacter = fresh.character(CAMPAIGN, "Bob", audience=GMS)
    assert (1, 1) == (bob.upgrades, current(fresh, "Bob", "Pistols"))


def test_undoing_the_upgrade_granted_refuses_to_redecide_the_upgrade_spent(engine: Engine) -> None:
    """Without the campaign's success Bob has no upgrade to spend: the upgrade is refused, and
    it is no resolution, so re-deciding refuses the whole undo (as the oracle is refused)."""
    numbers = play(engine, SYSTEM, UPGRADE_STORY)
    dependents = [UPGRADE, UPGRADED_SHOT, WOUND]
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo(CAMPAIGN, numbers[SUCCESS], reason=REASON)
    assert listed(numbers, dependents) == refused.value.data["dependents"]
    with pytest.raises(CannotRedecide) as cannot:
        engine.undo(CAMPAIGN, numbers[SUCCESS], reason=REASON, redecide=True)
    assert (numbers[SUCCESS], numbers[UPGRADE]) == (
        cannot.value.data["ruling"],
        cannot.value.data["dependent"],
    )
    assert before == event_count(engine)
    played_again = again(SYSTEM, UPGRADE_STORY, without={SUCCESS})
    assert isinstance(played_again, Refused)
    assert UPGRADE == played_again.index
    engine.undo(CAMPAIGN, numbers[SUCCESS], reason=REASON, with_dependents=True)
    gone = {SUCCESS, *dependents}
    assert {numbers[i] for i in gone} == engine.campaign(CAMPAIGN).retracted
    assert whole_state(oracle(UPGRADE_STORY, without=gone)) == whole_state(engine)


# A downshift to below Poor: Carl's attack under his Full Defense penalty auto-fails, no dice.
CARL_DEFENDS, CARL_SHOOTS = 4, 5
AUTO_FAIL_STORY = [
    *scene("Alice", "Carl"),
    Step(DeclareStrategy(character="Carl", strategy="full-defense")),
    # Poor Pistols downshifted once: below Poor, an automatic failure without a roll
    Step(Attack(attacker="Carl", qualities=("Pistols",), targets=("Alice:Athletics",))),
]


def test_undoing_the_strategy_that_spared_a_roll_refuses_to_redecide(engine: Engine) -> None:
    """Without the Full Defense Carl's Poor Pistols roll 2d6, dice the attack never rolled: it
    cannot be decided again honestly, so re-deciding is refused (as the oracle is)."""
    numbers = play(engine, SYSTEM, AUTO_FAIL_STORY)
    before = event_count(engine)
    with pytest.raises(LaterRulingsDepend) as refused:
        engine.undo(CAMPAIGN, numbers[CARL_DEFENDS], reason=REASON)
    assert listed(numbers, [CARL_SHOOTS]) == refused.value.data["dependents"]
    with pytest.raises(CannotRedecide) as cannot:
        engine.undo(CAMPAIGN, numbers[CARL_DEFENDS], reason=REASON, redecide=True)
    assert numbers[CARL_SHOOTS] == cannot.value.data["dependent"]
    assert before == event_count(engine)
    played_again = again(SYSTEM, AUTO_FAIL_STORY, without={CARL_DEFENDS})
    assert isinstance(played_again, Refused)
    assert CARL_SHOOTS == played_again.index
    engine.undo(CAMPAIGN, numbers[CARL_DEFENDS], reason=REASON, with_dependents=True)
    gone = {CARL_DEFENDS, CARL_SHOOTS}
    assert {numbers[i] for i in gone} == engine.campaign(CAMPAIGN).retracted
    assert whole_state(oracle(AUTO_FAIL_STORY, without=gone)) == whole_state(engine)


# --- Amending -----------------------------------------------------------------------------------


def test_amending_the_allocation_redecides_the_shot(engine: Engine) -> None:
    """Bob put the rank on Athletics, not Pistols: the shot is decided again at Average (and
    hits), as if the allocation had been written right."""
    numbers = play(engine, SYSTEM, PISTOLS_STORY)
    corrected = AllocateRanks(character="Bob", steps=("Athletics",))
    before = event_count(engine)
    with pytest.raises(AmendmentConflicts) as refused:
        engine.amend(CAMPAIGN, numbers[ALLOCATION], {"steps": "Athletics"}, reason=REASON)
    assert listed(numbers, [SHOT]) == refused.value.data["dependents"]
    assert before == event_count(engine)
    engine.amend(
        CAMPAIGN,
        numbers[ALLOCATION],
        {"steps": "Athletics"},
        reason=REASON,
        redecide=True,
        dice=DiceSpec(faces=()),
    )
    assert frozenset() == engine.campaign(CAMPAIGN).retracted
    expected = oracle(PISTOLS_STORY, replaced={ALLOCATION: corrected})
    assert whole_state(expected) == whole_state(engine)
    assert 1 == current(engine, "Bob", "Pistols")
    with Engine() as fresh:
        play(fresh, SYSTEM, PISTOLS_STORY)
        fresh.amend(
            CAMPAIGN,
            numbers[ALLOCATION],
            {"steps": "Athletics"},
            reason=REASON,
            with_dependents=True,
            dice=DiceSpec(faces=()),
        )
        assert {numbers[SHOT]} == fresh.campaign(CAMPAIGN).retracted
        expected = oracle(PISTOLS_STORY, replaced={ALLOCATION: corrected}, without={SHOT})
        assert whole_state(expected) == whole_state(fresh)


def test_amending_the_hit_onto_another_quality_redecides_both(engine: Engine) -> None:
    """Alice attacked Bob's Good Athletics (TN 9), not his Pistols: 8 misses, the allocation has
    nothing to resolve (undone with it), and the shot is decided at Average."""
    numbers = play(engine, SYSTEM, PISTOLS_STORY)
    corrected = Attack(attacker="Alice", qualities=("Brawling",), targets=("Bob:Athletics",))
    engine.amend(
        CAMPAIGN,
        numbers[HIT],
        {"targets": "Bob:Athletics"},
        reason=REASON,
        redecide=True,
        dice=DiceSpec(faces=()),
    )
    assert {numbers[ALLOCATION]} == engine.campaign(CAMPAIGN).retracted
    expected = oracle(PISTOLS_STORY, replaced={HIT: corrected})
    assert whole_state(expected) == whole_state(engine)


# Carl's reaction: Full Defense declared when Alice attacks him downshifts his own next attack.
ALICE_SWINGS, CARL_FIRES, ALICE_WOUNDED = 4, 5, 6
REACTION_STORY = [
    *scene("Alice", "Carl"),
    # Brawling Good: 1+2+2 = 5 misses Carl's Good Knives (TN 9), and under Full Defense (TN 11)
    Step(Attack(attacker="Alice", qualities=("Brawling",), targets=("Carl:Knives",)), faces=(1, 2)),
    # Poor Pistols: 6+5-2 = 9 beats Alice's Average Athletics (TN 7) by two
    Step(
        Attack(attacker="Carl", qualities=("Pistols",), targets=("Alice:Athletics",)), faces=(6, 5)
    ),
    Step(AllocateRanks(character="Alice", steps=("Athletics", "Pistols"))),
]


def test_amending_in_a_full_defense_makes_a_later_roll_an_automatic_failure(
    engine: Engine,
) -> None:
    """Carl did react with Full Defense: his shot, downshifted below Poor, fails without the
    dice it rolled (it is decided with none of them), and the allocation of its hit goes."""
    numbers = play(engine, SYSTEM, REACTION_STORY)
    before = event_count(engine)
    with pytest.raises(AmendmentConflicts) as refused:
        engine.amend(CAMPAIGN, numbers[ALICE_SWINGS], {"full_defense": "Carl"}, reason=REASON)
    assert listed(numbers, [CARL_FIRES, ALICE_WOUNDED]) == refused.value.data["dependents"]
    assert before == event_count(engine)
    result = engine.amend(
        CAMPAIGN,
        numbers[ALICE_SWINGS],
        {"full_defense": "Carl"},
        reason=REASON,
        redecide=True,
        dice=DiceSpec(faces=()),
    )
    assert [numbers[CARL_FIRES]] == redecided(result)
    assert {numbers[ALICE_WOUNDED]} == engine.campaign(CAMPAIGN).retracted
    corrected = Attack(
        attacker="Alice", qualities=("Brawling",), targets=("Carl:Knives",), full_defense=("Carl",)
    )
    expected = oracle(REACTION_STORY, replaced={ALICE_SWINGS: corrected})
    assert whole_state(expected) == whole_state(engine)
    carl: SimsCharacter = engine.character(CAMPAIGN, "Carl", audience=GMS)
    assert (Strategy.FULL_DEFENSE, False) == (carl.strategy, carl.defense_penalty)


# --- Random histories ---------------------------------------------------------------------------

NAMES = ("Alice", "Bob", "Carl")
SETUP = scene(*NAMES)
RANKS = ("Poor", "Average", "Good", "Expert")


def own(name: str) -> list[str]:
    return [text.split(":")[0] for text in SHEETS[name]]


@st.composite
def attacks(draw: st.DrawFn) -> Command:
    attacker = draw(st.sampled_from(NAMES))
    others = [n for n in NAMES if n != attacker]
    defenders = draw(st.lists(st.sampled_from(others), min_size=1, max_size=2, unique=True))
    targets = tuple(
        f"{d}:{q}" if (q := draw(st.sampled_from([*own(d), None]))) else d for d in defenders
    )
    qualities = draw(st.lists(st.sampled_from(own(attacker)), min_size=1, max_size=2, unique=True))
    return Attack(
        attacker=attacker,
        qualities=tuple(qualities),
        targets=targets,
        kind=draw(st.sampled_from(RankKind)),
        full_attack=draw(st.booleans()),
    )


@st.composite
def turn_orders(draw: st.DrawFn) -> Command:
    who = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=3, unique=True))
    return SetTurnOrder(entries=tuple(f"{n}:{draw(st.sampled_from(own(n)))}" for n in who))


@st.composite
def situations(draw: st.DrawFn) -> Command:
    name = draw(st.sampled_from(NAMES))
    quality = draw(st.sampled_from(own(name)))
    difficulty = draw(st.sampled_from(RANKS))
    if draw(st.booleans()):
        return JudgeSimple(character=name, quality=quality, difficulty=difficulty, task="the fence")
    return RollComplicated(
        character=name,
        qualities=(quality,),
        difficulty=difficulty,
        task="the roof",
        hazardous=draw(st.booleans()),
    )


@st.composite
def strategies(draw: st.DrawFn) -> Command:
    return DeclareStrategy(
        character=draw(st.sampled_from(NAMES)),
        strategy=draw(st.sampled_from(("full-attack", "full-defense"))),
    )


@st.composite
def upgrades(draw: st.DrawFn) -> Command:
    if draw(st.booleans()):
        return SucceedCampaign()
    name = draw(st.sampled_from(NAMES))
    return UpgradeQuality(character=name, quality=draw(st.sampled_from(own(name))))


@st.composite
def recoveries(draw: st.DrawFn) -> Command:
    """Continuing danger (a recovery roll at the scene's end), or the roll itself."""
    name = draw(st.sampled_from(NAMES))
    if draw(st.booleans()):
        return RollRecovery(character=name)
    return DeclareDanger(danger=draw(st.sampled_from(Danger)), characters=(name,))


@st.composite
def kills(draw: st.DrawFn) -> Command:
    attacker = draw(st.sampled_from(NAMES))
    return Kill(
        attacker=attacker, victim=draw(st.sampled_from([n for n in NAMES if n != attacker]))
    )


IN_SCENE = st.one_of(
    attacks(),
    attacks(),
    attacks(),
    turn_orders(),
    st.just(EndTurn()),
    situations(),
    strategies(),
    upgrades(),
    recoveries(),
    kills(),
    st.just(EndScene()),
)
BETWEEN_SCENES = st.one_of(st.just(StartScene(stage="the next room")), recoveries(), upgrades())


def allocation(data: st.DataObject, c: SimsCharacter) -> AllocateRanks:
    """A legal distribution of the ranks ``c`` owes: one quality per rank, ending where a quality
    bottoms out (the ranks left are discarded)."""
    assert c.pending is not None
    current = {q.name: q.current for q in c.qualities}
    steps: list[str] = []
    for _ in range(c.pending.ranks):
        step = data.draw(st.sampled_from(sorted(current)))
        steps.append(step)
        current[step] -= 1
        if current[step] < 0:
            break
    return AllocateRanks(character=c.name, steps=tuple(steps))


def placement(data: st.DataObject, c: SimsCharacter) -> PlaceRecovery:
    """A legal placement of the ranks ``c`` recovered: one lost rank per step."""
    lost = {q.name: q.lost for q in c.qualities}
    steps: list[str] = []
    for _ in range(c.recovery_pending):
        step = data.draw(st.sampled_from(sorted(n for n, v in lost.items() if v > 0)))
        steps.append(step)
        lost[step] -= 1
    return PlaceRecovery(character=c.name, steps=tuple(steps))


def next_command(data: st.DataObject, engine: Engine) -> Command:
    """What the table does next: ranks owed are distributed, ties rolled again and recovered
    ranks placed first."""
    everyone: list[SimsCharacter] = engine.characters(CAMPAIGN, audience=GMS)
    owing = [c for c in everyone if c.pending is not None]
    if owing:
        return allocation(data, owing[0])
    recovering = [c for c in everyone if c.recovery_pending]
    if recovering:
        return placement(data, recovering[0])
    if any(c.ties for c in everyone):
        return Reroll()
    scene = engine.campaign(CAMPAIGN).scene is not None
    command: Command = data.draw(IN_SCENE if scene else BETWEEN_SCENES)
    return command


@attrs.frozen
class History:
    """A random legal history played on ``engine`` with seeded dice: its steps (as the oracle
    plays them), their ruling numbers and the records each wrote."""

    engine: Engine
    story: tuple[Step, ...]
    numbers: tuple[int, ...]
    records: tuple[tuple[Recorded, ...], ...]


def history(data: st.DataObject) -> History:
    engine = Engine()
    story: list[Step] = []
    numbers = play(engine, SYSTEM, SETUP)
    records: list[tuple[Recorded, ...]] = [() for _ in SETUP]
    story += SETUP
    for _ in range(data.draw(st.integers(3, 15), label="attempts")):
        command = next_command(data, engine)
        seed = data.draw(st.integers(0, 2**16), label="seed")
        try:
            result = engine.execute(CAMPAIGN, command, dice=DiceSpec(seed=seed))
        except DomainError:
            continue  # the rules refuse it: not part of the history
        story.append(Step(command, faces=tuple(d.face for d in result.dice)))
        numbers.append(result.number)
        records.append(result.records)
    return History(engine, tuple(story), tuple(numbers), tuple(records))


def target(data: st.DataObject, h: History) -> int:
    """The step to undo: mostly one after the set-up, sometimes the set-up itself."""
    last = len(h.story) - 1
    after = st.integers(min(len(SETUP), last), last)
    return data.draw(st.one_of(after, after, after, st.integers(0, last)), label="undo step")


def undo_again(
    data: st.DataObject,
    h: History,
    product: Engine,
    replaced: Mapping[int, Command] | None = None,
) -> None:
    """Sometimes a second correction after the first: undo another step still in force with
    ``redecide``, against the story played again without every step undone so far."""
    gone = {h.numbers.index(n) for n in product.campaign(CAMPAIGN).retracted}
    left = [k for k in range(len(SETUP), len(h.story)) if k not in gone]
    if not left or not data.draw(st.booleans(), label="undo again"):
        return
    k = data.draw(st.sampled_from(left), label="second undo step")
    expected = again(SYSTEM, h.story, without=gone | {k}, replaced=replaced)
    before = event_count(product)
    if isinstance(expected, Refused):
        event("undone again: refused")
        with pytest.raises(CannotRedecide):
            undo_redecided(product, CAMPAIGN, h.numbers[k], reason=REASON)
        assert before == event_count(product)
        return
    undo_redecided(product, CAMPAIGN, h.numbers[k], reason=REASON)
    event("undone again")
    assert whole_state(expected) == whole_state(product)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_redeciding_an_undo_is_playing_the_story_again_without_it(
    frozen: None, data: st.DataObject
) -> None:
    """Undo a random ruling with ``redecide``: refused (``CannotRedecide``, nothing appended)
    exactly when the story played again without it is refused; otherwise the same state, and
    only allocations (the system's resolutions) are undone with it. Then, sometimes, another."""
    h = history(data)
    i = target(data, h)
    expected = again(SYSTEM, h.story, without={i})
    with h.engine as product:
        before = event_count(product)
        if isinstance(expected, Refused):
            event("the story played again is refused")
            with pytest.raises(CannotRedecide):
                undo_redecided(product, CAMPAIGN, h.numbers[i], reason=REASON)
            assert before == event_count(product)
            return
        undone = undo_redecided(product, CAMPAIGN, h.numbers[i], reason=REASON)
        event(f"re-decided {min(len(redecided(undone)), 3)}+ later rulings")
        assert whole_state(expected) == whole_state(product)
        retracted = product.campaign(CAMPAIGN).retracted
        assert h.numbers[i] in retracted
        also = [h.story[h.numbers.index(n)].command for n in retracted - {h.numbers[i]}]
        assert all(isinstance(c, AllocateRanks) for c in also), also
        undo_again(data, h, product)


def named(value: Any, names: Mapping[UUID, str]) -> Any:
    """``value`` as plain data with the ids of characters replaced by their names."""
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        return (
            type(value).__name__,
            {f.name: named(getattr(value, f.name), names) for f in fields},
        )
    if isinstance(value, UUID):
        return names.get(value, "an unknown id")
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [named(v, names) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((named(v, names) for v in value), key=repr)
    if isinstance(value, dict):
        return {repr(named(k, names)): named(v, names) for k, v in value.items()}
    return value


def decision(engine: Engine, records: Sequence[Recorded]) -> dict[str, list[Any]]:
    """A ruling's decision per stream (bookkeeping left out) as plain data, ids named."""
    campaign = engine.campaign(CAMPAIGN)
    names = {e.character_id: e.name for e in campaign.roster}
    names[campaign.id] = "the campaign"
    found: dict[str, list[Any]] = {}
    for r in records:
        if not isinstance(r.event, BOOKKEEPING):
            stream = names.get(r.originator_id, "an unknown stream")
            found.setdefault(stream, []).append(named(r.event, names))
    return found


def stands(h: History, j: int, without: set[int]) -> bool:
    """Step ``j`` decided again, with its own dice, on the story played without the steps
    ``without`` (all before it): the same decision as recorded?"""
    played = again(SYSTEM, h.story[:j], without=without)
    assert isinstance(played, Engine), played
    step = h.story[j]
    try:
        result = played.execute(CAMPAIGN, step.command, dice=DiceSpec(faces=step.faces))
    except TooManyDice:
        return False  # it rolls fewer dice now: another roll
    except DomainError:
        return False  # refused, or it needs dice it never rolled
    return decision(played, result.records) == decision(h.engine, h.records[j])


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_undoing_with_dependents_is_playing_the_story_again_without_them(
    frozen: None, data: st.DataObject
) -> None:
    """Undo a random ruling: a plain undo is refused naming its dependents (nothing appended)
    or stands alone; with its dependents, the state is that of the story played again without
    all of them, and each later one retracted beside them did not stand on the history before
    it."""
    h = history(data)
    i = target(data, h)
    with h.engine as product:
        _, named_ = undo_with_dependents(product, CAMPAIGN, h.numbers[i], reason=REASON)
        dependents = {h.numbers.index(n) for n in named_}
        retracted = {h.numbers.index(n) for n in product.campaign(CAMPAIGN).retracted}
        event(f"{min(len(dependents), 3)}+ dependents")
        event(f"{min(len(retracted - dependents - {i}), 2)}+ more undone with them")
        assert {i, *dependents} <= retracted
        assert all(j > i for j in retracted - {i})
        expected = again(SYSTEM, h.story, without=retracted)
        assert isinstance(expected, Engine), expected
        assert whole_state(expected) == whole_state(product)
        for j in sorted(retracted - dependents - {i}):
            earlier = {k for k in retracted if k < j}
            assert not stands(h, j, earlier), f"step {j} stands without steps {sorted(earlier)}"


AMENDABLE = (AllocateRanks, Attack, RollComplicated, JudgeSimple)


def amendment(data: st.DataObject, h: History) -> tuple[int, dict[str, str], Command]:
    """A step to amend, its corrected parameters (as the GM types them) and corrected command:
    another distribution of the same ranks, other qualities, another difficulty."""
    steps = [j for j, s in enumerate(h.story) if isinstance(s.command, AMENDABLE)]
    j = data.draw(st.sampled_from(steps), label="amend step")
    command = h.story[j].command
    if isinstance(command, AllocateRanks):
        before: SimsCharacter = h.engine.character_at(
            CAMPAIGN, command.character, ruling=h.numbers[j - 1], audience=GMS
        )
        corrected = allocation(data, before)
        return j, {"steps": ",".join(corrected.steps)}, corrected
    if isinstance(command, Attack):
        pool = own(command.attacker)
        chosen = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2, unique=True))
        return j, {"qualities": ",".join(chosen)}, attrs.evolve(command, qualities=tuple(chosen))
    assert isinstance(command, RollComplicated | JudgeSimple)
    difficulty = data.draw(st.sampled_from(RANKS))
    return j, {"difficulty": difficulty}, attrs.evolve(command, difficulty=difficulty)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_amending_with_redecide_is_playing_the_story_again_corrected(
    frozen: None, data: st.DataObject
) -> None:
    """Amend a random attack, allocation or situation with ``redecide``: the state of the story
    played again with the corrected command; refused (nothing appended) where that story is,
    with ``CannotRedecide`` when a later step is refused. Then, sometimes, an undo."""
    h = history(data)
    if not any(isinstance(s.command, AMENDABLE) for s in h.story):
        return
    j, changes, corrected = amendment(data, h)
    expected = again(SYSTEM, h.story, replaced={j: corrected})
    with h.engine as product:
        before = event_count(product)

        def amend() -> RulingResult:
            return amend_redecided(
                product, CAMPAIGN, h.numbers[j], changes, reason=REASON, dice=DiceSpec(faces=())
            )

        if isinstance(expected, Refused):
            event("the story played again is refused")
            refusal = DomainError if expected.index == j else CannotRedecide
            with pytest.raises(refusal):
                amend()
            assert before == event_count(product)
            return
        event(f"re-decided {min(len(redecided(amend())), 3)}+ later rulings")
        assert whole_state(expected) == whole_state(product)
        undo_again(data, h, product, replaced={j: corrected})


def test_amending_the_hit_into_failure_ranks(engine: Engine) -> None:
    """Alice's hit was a social one: Failure Ranks, not Damage. The allocation is decided again
    with Failure Ranks; the shot stands (Poor Pistols either way)."""
    numbers = play(engine, SYSTEM, PISTOLS_STORY)
    result = engine.amend(
        CAMPAIGN,
        numbers[HIT],
        {"kind": "Failure"},
        reason=REASON,
        redecide=True,
        dice=DiceSpec(faces=()),
    )
    assert [numbers[ALLOCATION]] == redecided(result)
    corrected = Attack(
        attacker="Alice", qualities=("Brawling",), targets=("Bob:Pistols",), kind=RankKind.FAILURE
    )
    expected = oracle(PISTOLS_STORY, replaced={HIT: corrected})
    assert whole_state(expected) == whole_state(engine)
