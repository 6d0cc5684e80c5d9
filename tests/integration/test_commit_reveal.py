"""Dice the GM cannot choose: the GM commits to a seed first, the players add entropy after,
the first committed roll closes the window, and `verify` recomputes everything, counters too."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.audience import GMS
from domain.dice import Provenance
from domain.errors import CannotUndo, DomainError, EntropyWindowClosed, NoActiveSession
from domain.events import DiceCommitted, DiceRevealed, EntropyAdded, RulingMade
from domain.lifecycle import AddEntropy, EndScene, EndSession, StartScene, StartSession
from domain.rulesets.sprawl_goons.commands import CreateCharacter, MakeActionRoll
from engine import Engine
from engine.dice.committed import commitment, key, lane, mixed_signed, replay
from engine.dice.sources import DiceSpec
from engine.store.chain import genesis, link
from engine.store.mapper import canonical_json
from tests.conftest import event_count
from tests.integration.players import Player, close_entropy

BEA, CARL = Player("Bea"), Player("Carl")


def refused(engine: Engine, action: Callable[[], object], error: type[DomainError]) -> DomainError:
    """Run ``action``, expect ``error``, and prove that nothing was appended."""
    before = event_count(engine)
    with pytest.raises(error) as caught:
        action()
    assert before == event_count(engine)
    return caught.value


def entropy(engine: Engine, words: str, by: str) -> Callable[[], object]:
    return lambda: engine.execute("Lab", AddEntropy(words=words, by=by))


def started(engine: Engine) -> None:
    """A campaign with two players, Bea and Carl, their keys on their seats; a session begun."""
    engine.create_campaign("Lab", "sprawl-goons")
    BEA.seated(engine)
    CARL.seated(engine)
    engine.execute("Lab", StartSession())
    close_entropy(engine)  # whoever adds words adds them before the first roll


def tanner(engine: Engine) -> None:
    """Tanner on the table, in a scene, his creation dice typed in (physical)."""
    engine.execute("Lab", StartScene(stage="The container stacks"))
    items = ("melee:Katana", "armour:Kevlar jacket", "lazarus")
    create = CreateCharacter(
        character="Tanner",
        player="ana",
        morphology=2,
        reaction=1,
        cognition=1,
        equilibrium=0,
        items=items,
    )
    engine.execute("Lab", create, dice=DiceSpec(faces=(3, 4, 5, 2)))


def roll(engine: Engine) -> RulingMade:
    """One committed roll: Tanner's reaction roll, its dice drawn digitally."""
    if engine.campaign("Lab").scene is None:
        tanner(engine)
    result = engine.execute("Lab", MakeActionRoll(character="Tanner", stat="reaction", ds="10"))
    made = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    assert made.provenance is Provenance.COMMITTED
    return made


def test_the_commitment_is_recorded_before_any_entropy(engine: Engine) -> None:
    """`session start` records the seed's hash with no entropy at all: the players' words can
    only come after it is published, each as its own ruling."""
    started(engine)
    (committed,) = [
        r.event
        for e in engine.log("Lab", audience=GMS)
        for r in e.events
        if isinstance(r.event, DiceCommitted)
    ]
    assert "" == committed.entropy

    BEA.adds(engine, "pancakes at midnight")
    CARL.adds(engine, "4471")

    assert (("Bea", "pancakes at midnight"), ("Carl", "4471")) == engine.campaign("Lab").entropy
    added = [
        r.event
        for e in engine.log("Lab", audience=GMS)
        for r in e.events
        if isinstance(r.event, EntropyAdded)
    ]
    assert [("Bea", 1), ("Carl", 1)] == [(a.by, a.session) for a in added]


def test_every_roll_follows_from_the_seed_and_all_the_entropy(engine: Engine) -> None:
    """The rolls are HMAC over the seed mixed with every contribution, counter by counter; after
    the reveal anyone recomputes them, and verify does."""
    started(engine)
    BEA.adds(engine, "pancakes")
    CARL.adds(engine, "4471")
    counted = [BEA.counted(engine, "pancakes"), CARL.counted(engine, "4471")]
    root = engine.campaign("Lab").hidden_root
    first, second = roll(engine), roll(engine)
    engine.execute("Lab", EndScene())
    result = engine.execute("Lab", EndSession())
    seed = bytes.fromhex(next(e for e in result.events if isinstance(e, DiceRevealed)).seed)

    derived = key(seed, mixed_signed(counted))
    for made in (first, second):
        sides = tuple(d.sides for d in made.dice)
        faces, draws = replay(derived, made.counter or 0, sides, lane(made.lane or ""))
        assert (faces, draws) == (tuple(d.face for d in made.dice), made.draws)
    assert ("GM", "GM", 0, first.draws) == (first.lane, second.lane, first.counter, second.counter)
    report = engine.verify("Lab")
    assert report.intact
    created = (
        "ruling 11 (character create, by GM): its dice are physical, not drawn from the commitment"
    )
    assert [(1, 2, True, (), (created,))] == [
        (d.session, d.rulings, d.revealed, d.problems, d.warnings) for d in report.dice
    ]
    assert commitment(seed, root) == report.dice[0].seed_hash


def test_without_the_entropy_the_rolls_would_differ(engine: Engine) -> None:
    """The entropy matters: the same seed without the players' words gives other faces."""
    started(engine)
    BEA.adds(engine, "pancakes")
    counted = [BEA.counted(engine, "pancakes")]
    made = roll(engine)
    engine.execute("Lab", EndScene())
    result = engine.execute("Lab", EndSession())
    seed = bytes.fromhex(next(e for e in result.events if isinstance(e, DiceRevealed)).seed)
    sides = tuple(d.sides for d in made.dice)
    mixed_in = key(seed, mixed_signed(counted))
    assert replay(mixed_in, 0, sides, lane("GM"))[0] == tuple(d.face for d in made.dice)
    # Two dice agree by chance one time in 36: the next 32 draws of each key tell them apart.
    many = sides * 16
    assert replay(key(seed, ""), 0, many, lane("GM"))[0] != replay(mixed_in, 0, many, lane("GM"))[0]


def test_the_first_committed_roll_closes_the_window(engine: Engine) -> None:
    """Entropy after the first committed roll is refused (naming that roll); physical dice do
    not close it; outside a session there is nothing to add to."""
    engine.create_campaign("Lab", "sprawl-goons")
    BEA.seated(engine)
    refused(engine, entropy(engine, "early", "Bea"), NoActiveSession)
    engine.execute("Lab", StartSession())
    tanner(engine)
    BEA.adds(engine, "still open")
    first = roll(engine)

    error = refused(engine, entropy(engine, "too late", "Carl"), EntropyWindowClosed)

    assert first.number == error.data["ruling"]


def test_undoing_the_first_roll_does_not_reopen_the_window(engine: Engine) -> None:
    started(engine)
    first = roll(engine)
    engine.undo("Lab", first.number, reason="wrong player")
    refused(engine, entropy(engine, "now?", "Bea"), EntropyWindowClosed)


def test_session_end_and_entropy_cannot_be_undone_or_amended(engine: Engine) -> None:
    """The reveal and the seal are published; the entropy is part of the dice: both stay."""
    started(engine)
    entropy = BEA.adds(engine, "pancakes")
    ended = engine.execute("Lab", EndSession()).number
    for number in (entropy, ended):
        refused(engine, lambda n=number: engine.undo("Lab", n, reason="no"), CannotUndo)  # type: ignore[misc]
        refused(engine, lambda n=number: engine.amend("Lab", n, {}, reason="no"), DomainError)  # type: ignore[misc]
    assert engine.campaign("Lab").commitment is None  # the revealed seed is never used again


def test_a_correction_that_would_change_a_session_end_is_refused(engine: Engine) -> None:
    """Ending a session needs its scene ended: undoing the scene end would change what the
    session end decided, which sealed the session. Refused in every mode."""
    started(engine)
    engine.execute("Lab", StartScene(stage="The lab"))
    scene_end = engine.execute("Lab", EndScene()).number
    engine.execute("Lab", EndSession())
    for dependents, redecide in ((False, False), (True, False), (False, True)):

        def undo(dependents: bool = dependents, redecide: bool = redecide) -> object:
            return engine.undo(
                "Lab", scene_end, reason="no", with_dependents=dependents, redecide=redecide
            )

        assert "SEALED_SESSION_CHANGED" == refused(engine, undo, DomainError).code


def test_a_session_started_again_after_entropy_is_a_warning(engine: Engine) -> None:
    """Undoing a session start after players added entropy (their entropy goes with it) and
    starting again draws a new seed: verify names the session in a warning."""
    started(engine)
    BEA.adds(engine, "pancakes")
    start = engine.campaign("Lab").rulings - 2  # the session start, the window closed, Bea's
    engine.undo("Lab", start, reason="wrong night", with_dependents=True)
    engine.execute("Lab", StartSession())
    engine.execute("Lab", EndSession())

    report = engine.verify("Lab")

    assert report.intact
    warnings = [w for d in report.dice for w in d.warnings]
    assert [
        "session 1 was started again after players added entropy: its first seed was set aside"
    ] == warnings


def rewrite_campaign_stream(
    db: Path, campaign_id: UUID, edit: Callable[[str, dict[str, Any]], None]
) -> None:
    """Edit the campaign stream's bodies in place and recompute every chain link (a forger who
    knows the scheme)."""
    query = (
        "SELECT originator_version, topic, state FROM stored_events "
        "WHERE originator_id=? ORDER BY 1"
    )
    with sqlite3.connect(db) as connection:
        previous = genesis(campaign_id)
        for version, topic, state in list(connection.execute(query, (campaign_id.hex,))):
            body = json.loads(state)
            body.pop("chain")
            edit(topic, body)
            chain = link(previous, campaign_id, version, topic, canonical_json(body))
            body["chain"] = chain
            connection.execute(
                "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                (canonical_json(body), campaign_id.hex, version),
            )
            previous = chain


def test_a_hand_picked_counter_is_found(tmp_path: Path) -> None:
    """A header pointed at another counter (its faces rewritten to match, chains recomputed)
    breaks the run 0, 1, 2...: verify names the ruling."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        started(engine)
        roll(engine)
        second = roll(engine)
        campaign_id = engine.campaign("Lab").id

    def skip_ahead(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":RulingMade") and event["number"] == second.number:
            event["counter"] += 7

    rewrite_campaign_stream(db, campaign_id, skip_ahead)
    with Engine(str(db)) as engine:
        report = engine.verify("Lab")
    assert not report.intact
    assert any(
        f"ruling {second.number}: committed dice from counter" in p
        for d in report.dice
        for p in d.problems
    )


def test_past_the_limit_a_kind_of_warning_is_one_counted_line(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's warnings of one kind are listed one by one up to ``LISTED`` (50; 2 here):
    the rest are one line that counts them and names the first and last, so a log of a million
    typed rolls does not hold a million warnings. Each kind is counted apart, in log order."""
    import engine.audit.dice as audit_dice

    monkeypatch.setattr(audit_dice, "LISTED", 2)
    started(engine)
    tanner(engine)  # physical dice, the ruling before the typed ones
    typed = MakeActionRoll(character="Tanner", stat="reaction", ds="10")
    numbers = [engine.execute("Lab", typed, dice=DiceSpec(faces=(3, 3))).number for _ in range(3)]
    rolled = [roll(engine).number for _ in range(4)]
    for number in rolled[:3]:
        engine.undo("Lab", number, reason="wrong player")
    warnings = engine.verify("Lab").dice[0].warnings
    assert [
        "no signed entropy of a player was counted in session 1: the GM's machine alone chose "
        "its dice",
        f"ruling {numbers[0] - 1} (character create, by GM): its dice are physical, not drawn "
        "from the commitment",
        f"ruling {numbers[0]} (roll, by GM): its dice are physical, not drawn from the commitment",
        f"ruling {rolled[0]} (by GM): its committed dice were set aside, undone by GM in "
        f"ruling {rolled[-1] + 1}",
        f"ruling {rolled[1]} (by GM): its committed dice were set aside, undone by GM in "
        f"ruling {rolled[-1] + 2}",
        f"and 2 more rulings of session 1 whose dice are not drawn from the commitment "
        f"(rulings {numbers[1]} to {numbers[2]})",
        "and 1 more ruling of session 1 whose committed dice were set aside, undone "
        f"(ruling {rolled[2]})",
    ] == list(warnings)
