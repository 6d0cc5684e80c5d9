"""Amendments draw nothing new unseen (issue 42, item 4), written as the attacker would: the GM
reads his own store's secret, works out offline with the engine's own functions
(``engine.dice.committed``) which of the roller's next counters gives the die he wants, and
amends a roll again and again until its new die is that one. In a session of committed dice
every die an amendment draws comes from the lane of the amended ruling's roller, at its next
counter, as a new roll would: ``verify`` and the players' ``verify-dice`` recompute each one,
list every re-draw with its count, and find a tampered one. Nothing is drawn from the operating
system there (its dice source fails if asked). Outside a session, with ``--dice``/``--seed``,
and in a session of protocol 1, amendments draw as they did."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from domain.audience import GMS
from domain.dice import Provenance
from domain.errors import CommittedSecretMissing
from domain.events import DiceCommitted, DiceRevealed, Role, RulingMade
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.table import RevealRuling
from engine import DiceSpec, Engine
from engine.audit.report import DiceCheck
from engine.dice.committed import commitment, key, lane, mixed_signed, new_secret, replay
from engine.dice.sources import SystemDice
from engine.transfer.player_check import verify_export
from engine.write.assembly import RulingResult
from engine.write.ledger import Ledger
from tests.conftest import event_count
from tests.integration.players import Player
from tests.integration.test_commit_reveal import rewrite_campaign_stream
from tests.stores import engine_on

GM = "Rosa"


@pytest.fixture
def no_os_dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The operating system's dice replaced by a source that fails if asked; the sizes it was
    asked for are kept (a test that expects OS dice lets it answer with ``answering``)."""
    asked: list[int] = []

    def refuse(self: SystemDice, sides: int) -> int:
        asked.append(sides)
        raise AssertionError(f"a d{sides} was drawn from the operating system")

    monkeypatch.setattr(SystemDice, "roll", refuse)
    return asked


def answering(monkeypatch: pytest.MonkeyPatch, face: int) -> list[int]:
    """The operating system's dice, answering ``face`` and keeping the sizes asked for."""
    asked: list[int] = []

    def roll(self: SystemDice, sides: int) -> int:
        asked.append(sides)
        return face

    monkeypatch.setattr(SystemDice, "roll", roll)
    return asked


def table(engine: Engine) -> Player:
    """Rosa's Sprawl Goons table: ana seated with her key, session 1 started, ana's signed
    words counted."""
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana = Player("ana").seated(engine)
    engine.execute("Lab", StartSession())
    ana.adds(engine, "my own words")
    return ana


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path, no_os_dice: list[int]) -> Iterator[Any]:
    with engine_on(request.param, tmp_path) as engine:
        table(engine)
        yield engine


@pytest.fixture
def lab(tmp_path: Path, no_os_dice: list[int]) -> Iterator[tuple[Engine, Path]]:
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        table(engine)
        yield engine, db


def derived(engine: Engine, session: int = 1) -> bytes:
    """What the GM computes from his own store: the session's roll key."""
    kept = engine.dice_secrets.get(engine.campaign("Lab").id, session)
    assert kept is not None
    return key(kept[0][:32], mixed_signed(engine.campaign("Lab").signed))


def rolls(engine: Engine, expression: str = "1d6", **how: Any) -> RulingMade:
    return engine.execute("Lab", RollFreely(expression=expression, why="the fall"), **how).made


def amend(engine: Engine, ruling: int, expression: str, **how: Any) -> RulingResult:
    return engine.amend("Lab", ruling, {"expression": expression}, reason="a die more", **how)


def players_check(engine: Engine, session: int = 1) -> DiceCheck:
    """What a player's `verify-dice` says of the session, from the export alone."""
    _, report = verify_export(list(engine.export("Lab", audience=GMS)))
    return next(d for d in report.dice if d.session == session)


def verified(engine: Engine, session: int = 1) -> DiceCheck:
    return next(d for d in engine.verify("Lab").dice if d.session == session)


def params(made: RulingMade) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(made.params)
    return found


def redrawn(ruling: int, roller: str, amendments: list[int]) -> str:
    times = "once" if len(amendments) == 1 else f"{len(amendments)} times"
    noun = "amendment" if len(amendments) == 1 else "amendments"
    numbers = ", ".join(map(str, amendments))
    return (
        f"ruling {ruling} (by {roller}): its dice were re-drawn {times}, by {noun} {numbers} "
        f"(by {GM})"
    )


# --- The attack -----------------------------------------------------------------------------------


def test_the_gm_re_amends_a_roll_until_its_new_die_is_a_1_and_every_re_draw_is_listed(
    store: Engine,
) -> None:
    """ana rolls 1d6. The GM grinds her lane offline: the die at each of her next counters.
    He amends the roll to 2d6 again and again, each amendment drawing one die from her next
    counter, until the die is the 1 he foresaw. Every new die is the one her lane gives at
    its counter, drawn as committed dice (none from the OS); the campaign's counters follow;
    `verify` and the players' `verify-dice` recompute every one and list the re-draws with
    their count, in the session's order; the dice check out."""
    engine = store
    roll = rolls(engine, actor="ana")
    at = engine.campaign("Lab").lane("ana")
    assert (0, 1) == (roll.counter, at)
    k = derived(engine)
    foreseen = []
    while not foreseen or foreseen[-1][0] != 1:  # the GM's offline grind
        (face,), draws = replay(k, at, (6,), lane("ana"))
        foreseen.append((face, at))
        at += draws
        assert len(foreseen) < 200

    amendments = [amend(engine, roll.number, "2d6").made for _ in foreseen]

    for n, (made, (face, counter)) in enumerate(zip(amendments, foreseen, strict=True), start=1):
        assert (Provenance.COMMITTED, "ana", counter, None) == (
            made.provenance,
            made.lane,
            made.counter,
            made.leaf,
        )
        assert (roll.dice[0], face) == (made.dice[0], made.dice[1].face)
        assert (1, n, roll.number) == (
            params(made)["new_dice"],
            params(made)["redraws"],
            params(made)["ruling"],
        )
    assert 1 == amendments[-1].dice[1].face
    assert at == engine.campaign("Lab").lane("ana")
    numbers = [m.number for m in amendments]
    listed = redrawn(roll.number, "ana", numbers)
    check = verified(engine)
    assert ((), 1 + len(numbers)) == (check.problems, check.rulings)
    assert [listed] == [w for w in check.warnings if "re-drawn" in w]
    engine.execute("Lab", EndSession())
    assert engine.verify("Lab").intact
    players = players_check(engine)
    assert ((), True) == (players.problems, players.revealed)
    assert [listed] == [w for w in players.warnings if "re-drawn" in w]
    assert not any("not drawn from the commitment" in w for w in players.warnings)


def test_the_counters_stay_consistent_on_replay(lab: tuple[Engine, Path]) -> None:
    """After re-draws the lane moves on: a store opened again replays the same counters, ana's
    next roll draws from the counter after the last re-draw, the reveal names the counters
    every roll and re-draw used, and an undo of the amended ruling lists it as set aside
    without breaking the run of counters."""
    engine, db = lab
    roll = rolls(engine, actor="ana")
    drawn = [amend(engine, roll.number, f"{n}d6").made for n in (2, 3, 2)]
    lanes = engine.campaign("Lab").lanes
    with Engine(str(db)) as again:
        assert lanes == again.campaign("Lab").lanes
        after = rolls(again, actor="ana")
    assert drawn[-1].counter is not None
    assert drawn[-1].counter + drawn[-1].draws == after.counter
    engine.undo("Lab", roll.number, reason="no fall after all")
    ended = engine.execute("Lab", EndSession())
    revealed = next(e for e in ended.events if isinstance(e, DiceRevealed))
    assert (("ana", after.counter + after.draws),) == revealed.lanes
    check = players_check(engine)
    assert () == check.problems
    assert redrawn(roll.number, "ana", [m.number for m in drawn]) in check.warnings
    assert any(
        f"ruling {roll.number} (by ana): its committed dice were set aside" in w
        for w in check.warnings
    )
    assert engine.verify("Lab").intact


def test_a_tampered_re_draw_is_found(lab: tuple[Engine, Path]) -> None:
    """Rewritten in the store, chains recomputed: an amendment's new die (another face), one
    pointed at the GM's lane with faces his lane gives there (a forger who knows the scheme),
    and one relabelled as dice of the OS. verify and the players' check name the first two;
    the third is listed as not drawn from the commitment, and the reveal's counters no longer
    match what the rolls recorded."""
    engine, db = lab
    roll = rolls(engine, actor="ana")
    face, lane_gm, relabelled = (amend(engine, roll.number, "2d6").made for _ in range(3))
    ended = engine.execute("Lab", EndSession())
    seed = next(e for e in ended.events if isinstance(e, DiceRevealed)).seed
    k = key(bytes.fromhex(seed), mixed_signed(engine.campaign("Lab").signed))
    campaign_id = engine.campaign("Lab").id

    def forge(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if not topic.endswith(":RulingMade"):
            return
        if event["number"] == face.number:
            die = event["dice"][-1]
            die["face"] = die["face"] % 6 + 1
        elif event["number"] == lane_gm.number:
            (new,), draws = replay(k, 0, (6,), lane(GM))
            event.update(lane=GM, counter=0, draws=draws)
            event["dice"][-1]["face"] = new
        elif event["number"] == relabelled.number:
            event.update(provenance=Provenance.SYSTEM.value, counter=None, draws=0, lane=None)

    rewrite_campaign_stream(db, campaign_id, forge)
    with Engine(str(db)) as forged:
        for check in (players_check(forged), verified(forged)):
            problems = "\n".join(check.problems)
            assert f"ruling {face.number}: the dice do not follow from the seed" in problems
            assert (
                f"ruling {lane_gm.number}: amends ruling {roll.number}, made by ana, but drew "
                f"{GM}'s committed dice" in problems
            )
            assert "the reveal's counters per member" in problems
            assert any(
                f"ruling {relabelled.number} (amend, by {GM}): its dice are digital-os" in w
                for w in check.warnings
            )


def test_a_re_draw_that_names_no_counter_is_found(lab: tuple[Engine, Path]) -> None:
    """An amendment's header that says its new die is committed but names no counter (a
    counter cut out, chains recomputed): verify names it."""
    engine, db = lab
    roll = rolls(engine, actor="ana")
    made = amend(engine, roll.number, "2d6").made
    campaign_id = engine.campaign("Lab").id

    def cut(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":RulingMade") and event["number"] == made.number:
            event.update(counter=None, draws=0, lane=None)

    rewrite_campaign_stream(db, campaign_id, cut)
    with Engine(str(db)) as forged:
        problems = [f.problem for f in forged.verify("Lab").findings]
    assert f"ruling {made.number}'s dice are committed ones but it names no counter" in problems


def test_a_hidden_rolls_re_draw_takes_the_next_hidden_key(lab: tuple[Engine, Path]) -> None:
    """The GM's hidden roll amended while hidden: its new die comes from the session's next
    hidden key, as a new hidden roll's would (no lane moves, nothing computable from the seed
    the session end reveals); listed as never revealed until the GM reveals the amendment,
    then it verifies like the roll."""
    engine, _ = lab
    hidden = rolls(engine, hidden=True)
    made = amend(engine, hidden.number, "2d6").made
    assert (0, 1, None, 0) == (hidden.leaf, made.leaf, made.lane, made.counter)
    assert () == engine.campaign("Lab").lanes
    engine.execute("Lab", RevealRuling(ruling=hidden.number))
    engine.execute("Lab", EndSession())
    check = players_check(engine)
    assert f"ruling {made.number} (by {GM}): its hidden committed dice were never revealed" in (
        check.warnings
    )
    engine.execute("Lab", RevealRuling(ruling=made.number))
    check = players_check(engine)
    assert () == check.problems
    assert [redrawn(hidden.number, GM, [made.number])] == [
        w for w in check.warnings if "re-drawn" in w or "never revealed" in w
    ]


def test_a_re_draw_in_a_later_session_takes_that_sessions_lane(lab: tuple[Engine, Path]) -> None:
    """ana's roll of session 1, amended in session 2: the new die is ana's first counter of
    session 2's commitment, checked and listed there."""
    engine, _ = lab
    roll = rolls(engine, actor="ana")
    engine.execute("Lab", EndSession())
    engine.execute("Lab", StartSession())
    made = amend(engine, roll.number, "3d6").made
    assert (0, "ana", 2) == (made.counter, made.lane, params(made)["new_dice"])
    engine.execute("Lab", EndSession())
    first, second = players_check(engine, 1), players_check(engine, 2)
    assert ((), (), 1) == (first.problems, second.problems, second.rulings)
    assert not any("re-drawn" in w for w in first.warnings)
    assert redrawn(roll.number, "ana", [made.number]) in second.warnings


def test_a_missing_secret_refuses_the_re_draw(lab: tuple[Engine, Path]) -> None:
    """A committed session whose secret this store no longer holds as committed: an amendment
    that needs a new die is refused COMMITTED_SECRET_MISSING, nothing appended; no other dice
    stand in for it."""
    engine, _ = lab
    roll = rolls(engine, actor="ana")
    campaign_id = engine.campaign("Lab").id
    kept = engine.dice_secrets.get(campaign_id, 1)
    assert kept is not None
    engine.dice_secrets.renew(campaign_id, 1, kept[0], bytes(64))  # another secret than committed
    before = event_count(engine)
    with pytest.raises(CommittedSecretMissing):
        amend(engine, roll.number, "2d6")
    assert before == event_count(engine)
    amend(engine, roll.number, "1d6")  # a correction that needs no new die goes through


# --- Where dice are not committed, as before ------------------------------------------------------


def test_outside_a_session_an_amendment_draws_from_the_os(
    lab: tuple[Engine, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, _ = lab
    roll = rolls(engine, actor="ana")
    engine.execute("Lab", EndSession())
    asked = answering(monkeypatch, 4)
    made = amend(engine, roll.number, "2d6").made
    assert ([6], Provenance.SYSTEM, None, 4) == (
        asked,
        made.provenance,
        made.counter,
        made.dice[1].face,
    )
    assert engine.verify("Lab").intact


def test_typed_or_seeded_dice_of_a_re_draw_are_listed_as_before(lab: tuple[Engine, Path]) -> None:
    """The GM's --dice and --seed in a committed session: taken as given, listed as not drawn
    from the commitment, and counted among the re-draws; no lane moves."""
    engine, _ = lab
    roll = rolls(engine, actor="ana")
    typed = amend(engine, roll.number, "2d6", dice=DiceSpec(faces=(1,))).made
    seeded = amend(engine, roll.number, "2d6", dice=DiceSpec(seed=3)).made
    assert (Provenance.PHYSICAL, Provenance.SEEDED) == (typed.provenance, seeded.provenance)
    assert (None, None, 1) == (typed.counter, seeded.counter, engine.campaign("Lab").lane("ana"))
    engine.execute("Lab", EndSession())
    check = players_check(engine)
    assert () == check.problems
    assert redrawn(roll.number, "ana", [typed.number, seeded.number]) in check.warnings
    assert any(
        f"ruling {typed.number} (amend, by {GM}): its dice are physical" in w
        for w in check.warnings
    )


def protocol_one(self: Ledger, campaign: Any, number: int, entropy: str) -> DiceCommitted:
    """How older versions committed a session's dice: SHA-256 of the seed alone, one counter."""
    self.dice_secrets.put(campaign.id, number, new_secret(), entropy)
    kept = self.dice_secrets.get(campaign.id, number)
    assert kept is not None
    return DiceCommitted(session=number, seed_hash=commitment(kept[0]), entropy=entropy)


def test_a_protocol_1_session_amends_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session committed as older versions did (one counter): an amendment's new die comes
    from the OS, listed as not drawn from the commitment, and the session verifies."""
    asked = answering(monkeypatch, 2)
    with Engine(str(tmp_path / "campaign.db")) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM, members={"ana": Role.PLAYER})
        with mock.patch.object(Ledger, "_committed", protocol_one):
            engine.execute("Lab", StartSession())
        roll = rolls(engine, actor="ana")
        made = amend(engine, roll.number, "2d6").made
        engine.execute("Lab", EndSession())
        assert ([6], Provenance.SYSTEM, None) == (asked, made.provenance, made.counter)
        check = players_check(engine)
    assert (1, ()) == (check.protocol, check.problems)
    assert any(
        f"ruling {made.number} (amend, by {GM}): its dice are digital-os" in w
        for w in check.warnings
    )
    assert redrawn(roll.number, "ana", [made.number]) in check.warnings


def test_an_amendment_naming_no_ruling_is_named_not_raised(lab: tuple[Engine, Path]) -> None:
    """A re-draw's header rewritten to amend "9" (text, chains recomputed): verify names the
    row and reports the rest; it does not fail."""
    engine, db = lab
    roll = rolls(engine, actor="ana")
    made = amend(engine, roll.number, "2d6").made
    amend(engine, roll.number, "3d6")
    campaign_id = engine.campaign("Lab").id

    def as_text(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":RulingMade") and event["number"] == made.number:
            event["params"] = json.dumps({**json.loads(event["params"]), "ruling": "9"})

    rewrite_campaign_stream(db, campaign_id, as_text)
    with Engine(str(db)) as forged:
        report = forged.verify("Lab")
    assert any(
        "does not read" in f.problem and "not a ruling's number" in f.problem
        for f in report.findings
    )
