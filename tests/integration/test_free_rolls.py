"""Free rolls on a store: recorded with their dice and provenance like any roll, replayed without
rolling, undone and amended, drawn from a session's committed dice that `verify` recomputes, and
carried through an export."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.audience import GMS, Member
from domain.dice import Die, Provenance
from domain.errors import DomainError, NotAllowed
from domain.events import DiceRevealed, FreeRollMade, Role, RulingMade
from domain.free_rolls import KeepOrDropOutOfRange, RollFreely, TooManyDraws
from domain.lifecycle import EndSession, StartSession
from domain.rulesets import SYSTEMS
from engine import DiceSpec, Engine
from engine.dice.committed import key, lane, mixed_signed, replay
from projections.describe import describe
from tests.conftest import event_count
from tests.integration.players import Player

RAIN = RollFreely(expression="2d6+1", why="to see if it rains")


def lines(engine: Engine) -> list[str]:
    """The log's lines of the rulings in force (an amended one's latest lines)."""
    return [
        text
        for entry in engine.log("Lab", audience=GMS)
        if entry.retraction is None
        for r in entry.standing
        if (text := describe(r.event)) is not None
    ]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_free_roll_is_one_ruling_with_its_dice(engine: Engine, system: str) -> None:
    """Every system takes it: the header records the faces and where they came from."""
    engine.create_campaign("Lab", system)

    result = engine.execute("Lab", RAIN, dice=DiceSpec(faces=(3, 5)))

    assert (Die(6, 3), Die(6, 5)) == result.dice
    assert Provenance.PHYSICAL == result.provenance
    (made,) = result.events
    assert isinstance(made, FreeRollMade)
    assert (9, "to see if it rains") == (made.total, made.why)
    assert "free roll 2d6+1 [3,5] + 1 = 9: to see if it rains" in lines(engine)


def test_a_reopened_store_replays_the_roll_without_rolling(frozen: None, tmp_path: Path) -> None:
    """The event carries the faces: a fresh process reads the same line from seeded dice."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as engine:
        engine.create_campaign("Lab", "sims")
        engine.execute("Lab", RAIN, dice=DiceSpec(seed=11))
        before = lines(engine)
    with Engine(db) as reopened:
        assert before == lines(reopened)
        assert 2 == reopened.campaign("Lab").rulings


def test_a_free_roll_is_undone_and_amended_like_any_ruling(engine: Engine) -> None:
    """Undo strikes it (a later free roll does not depend on it); amend keeps its dice."""
    engine.create_campaign("Lab", "code-green")
    first = engine.execute("Lab", RAIN, dice=DiceSpec(faces=(3, 5))).number
    second = engine.execute(
        "Lab", RollFreely(expression="1d20", why="the bus"), dice=DiceSpec(faces=(12,))
    ).number

    engine.amend("Lab", second, {"why": "the tram"}, reason="it was a tram")
    engine.undo("Lab", first, reason="it never rains here")

    assert ["free roll 1d20 [12] = 12: the tram"] == [
        line for line in lines(engine) if line.startswith("free roll")
    ]
    statuses = {e.ruling.number: e.status for e in engine.log("Lab", audience=GMS)}
    assert ("undone", "amended") == (statuses[first], statuses[second])


def test_an_amended_expression_rolls_only_the_dice_it_lacks(engine: Engine) -> None:
    """The dice the ruling rolled stay; a die it never rolled comes from the amend's dice."""
    engine.create_campaign("Lab", "code-green")
    number = engine.execute("Lab", RAIN, dice=DiceSpec(faces=(3, 5))).number

    engine.amend(
        "Lab", number, {"expression": "3d6+1"}, reason="three dice", dice=DiceSpec(faces=(6,))
    )

    assert "free roll 3d6+1 [3,5,6] + 1 = 15: to see if it rains" in lines(engine)


def test_committed_free_rolls_verify(engine: Engine) -> None:
    """Without --dice or --seed, in a session, the dice are the committed ones: after the
    reveal they are recomputed from the seed and the players' entropy, and verify agrees."""
    engine.create_campaign("Lab", "sprawl-goons")
    bea = Player("Bea").seated(engine)
    engine.execute("Lab", StartSession())
    bea.adds(engine, "pancakes")
    counted = [bea.counted(engine, "pancakes")]
    result = engine.execute("Lab", RollFreely(expression="4d6kh3", why="stats"))
    made = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    assert Provenance.COMMITTED == made.provenance
    assert (0, 4) == (made.counter, len(made.dice))
    ended = engine.execute("Lab", EndSession())

    seed = bytes.fromhex(next(e for e in ended.events if isinstance(e, DiceRevealed)).seed)
    derived = key(seed, mixed_signed(counted))
    faces, draws = replay(derived, 0, (6, 6, 6, 6), lane("GM"))
    assert (faces, draws) == (tuple(d.face for d in made.dice), made.draws)
    (free,) = result.events
    assert isinstance(free, FreeRollMade)
    assert faces == free.faces
    report = engine.verify("Lab")
    assert report.intact
    assert [(1, 1, True, ())] == [
        (d.session, d.rulings, d.revealed, d.problems) for d in report.dice
    ]


def test_committed_rerolls_and_explosions_are_draws_verify_recomputes(engine: Engine) -> None:
    """Each reroll and each die an explosion adds is one more committed draw, in the order
    drawn: the ruling's header holds them all, the event's faces are those dice, and verify
    recomputes every one from the seed."""
    engine.create_campaign("Lab", "sprawl-goons")
    bea = Player("Bea").seated(engine)
    engine.execute("Lab", StartSession())
    bea.adds(engine, "waffles")
    counted = [bea.counted(engine, "waffles")]
    result = engine.execute("Lab", RollFreely(expression="2d6ro<7 + 1d4ra>0", why="sparks"))
    made = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    (free,) = result.events
    assert isinstance(free, FreeRollMade)
    assert (6, 6, 6, 6, 4, 4) == tuple(d.sides for d in made.dice)  # 2 + 2 rerolls + 1 + 1 added
    assert free.faces == tuple(d.face for d in made.dice)
    ended = engine.execute("Lab", EndSession())

    seed = bytes.fromhex(next(e for e in ended.events if isinstance(e, DiceRevealed)).seed)
    faces, draws = replay(key(seed, mixed_signed(counted)), 0, (6, 6, 6, 6, 4, 4), lane("GM"))
    assert (faces, draws) == (free.faces, made.draws)
    report = engine.verify("Lab")
    assert report.intact
    assert [(1, 1, True, ())] == [
        (d.session, d.rulings, d.revealed, d.problems) for d in report.dice
    ]


def test_a_refused_expression_appends_nothing(engine: Engine) -> None:
    engine.create_campaign("Lab", "sims")
    before = event_count(engine)
    with pytest.raises(KeepOrDropOutOfRange):
        engine.execute("Lab", RollFreely(expression="4d6kh5", why="x"), dice=DiceSpec(seed=1))
    with pytest.raises(TooManyDraws):  # refused after its thousand draws: none is recorded
        engine.execute("Lab", RollFreely(expression="1d6rr<7", why="x"), dice=DiceSpec(seed=1))
    with pytest.raises(DomainError, match="used only"):
        engine.execute("Lab", RAIN, dice=DiceSpec(faces=(1, 2, 3)))
    assert before == event_count(engine)


def test_players_roll_freely_observers_do_not_and_a_hidden_roll_is_the_gms(
    engine: Engine,
) -> None:
    engine.create_campaign(
        "Lab", "sims", gm="Rosa", members={"ana": Role.PLAYER, "olly": Role.OBSERVER}
    )
    engine.execute("Lab", RAIN, actor="ana", dice=DiceSpec(faces=(1, 1)))
    with pytest.raises(NotAllowed):
        engine.execute("Lab", RAIN, actor="olly", dice=DiceSpec(faces=(1, 1)))
    with pytest.raises(NotAllowed):
        engine.execute("Lab", RAIN, actor="ana", dice=DiceSpec(faces=(1, 1)), hidden=True)
    hidden = engine.execute("Lab", RAIN, dice=DiceSpec(faces=(6, 6)), hidden=True).number
    assert hidden not in {e.ruling.number for e in engine.log("Lab", audience=Member("ana"))}
    assert hidden in {e.ruling.number for e in engine.log("Lab", audience=Member("Rosa"))}


def test_an_export_with_free_rolls_imports(engine: Engine) -> None:
    """The import's allow-lists take the event and the command (undo and amend decide again)."""
    engine.create_campaign("Lab", "the-code")
    engine.execute("Lab", RAIN, dice=DiceSpec(faces=(2, 4)))
    exported = list(engine.export("Lab", audience=GMS))
    with Engine() as other:
        other.import_campaign(exported)
        assert lines(engine) == lines(other)
        other.undo("Lab", reason="imported, then undone")
        assert not [line for line in lines(other) if line.startswith("free roll")]
