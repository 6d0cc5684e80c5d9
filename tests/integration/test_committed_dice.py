"""Commit–reveal dice: digital rolls of a session can be recomputed once its seed is revealed."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.dice import Provenance
from domain.events import DiceCommitted, DiceRevealed
from domain.free_rolls import RollFreely
from domain.lifecycle import EndScene, EndSession, StartScene, StartSession
from domain.rulesets.code_green.commands import (
    Adapt,
    CreateCharacter,
    DeclareTest,
    PlaceTokens,
)
from engine import Engine
from engine.dice.committed import (
    HIDDEN_LEAVES,
    CommittedDice,
    commitment,
    face,
    hidden_proof,
    hidden_root,
    key,
    leaf_key,
    replay,
    root_from,
)
from engine.dice.sources import DiceSpec
from tests.conftest import S1_FORM, S1_FUNCTION
from tests.integration.test_commit_reveal import rewrite_campaign_stream


@pytest.mark.parametrize("sides", [2, 6, 10, 20, 100])
def test_every_face_takes_the_same_number_of_byte_values(sides: int) -> None:
    """No modulo bias: the accepted byte values split evenly over the faces."""
    counts = Counter(face(bytes([b]), sides) for b in range(256))
    rejected = counts.pop(None, 0)
    assert {256 // sides} == set(counts.values())
    assert 256 % sides == rejected


@given(
    secret=st.binary(min_size=32, max_size=32),
    entropy=st.text(max_size=8),
    start=st.integers(0, 99),
)
def test_committed_rolls_replay_from_the_seed(secret: bytes, entropy: str, start: int) -> None:
    """The faces and the counters used follow from the seed, entropy and first counter alone."""
    dice = CommittedDice(key=key(secret, entropy), start=start)
    faces = tuple(dice.roll(s) for s in (6, 6, 10))
    assert (faces, dice.draws) == replay(key(secret, entropy), start, (6, 6, 10))


def play(engine: Engine) -> None:
    engine.create_campaign("Lab", "code-green")
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage="The lab"))
    engine.execute("Lab", CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION))
    engine.execute("Lab", PlaceTokens(character="alice", squares=("roll", "R2C2", "R3C3")))
    engine.execute(
        "Lab", DeclareTest(character="alice", form="Legs", function="Invulnerable", roll=True)
    )
    free = engine.character("Lab", "alice", audience=GMS).free_squares()[0]
    engine.execute("Lab", Adapt(character="alice", source="R2C2", destination=free))
    engine.execute("Lab", EndScene())


def test_a_session_commits_then_reveals_and_every_roll_verifies(any_engine: Engine) -> None:
    """Start: the seed's hash and the players' entropy; end: the seed; verify recomputes all."""
    play(any_engine)
    made = [entry.ruling for entry in any_engine.log("Lab", audience=GMS)]
    committed = [m for m in made if m.provenance is Provenance.COMMITTED]
    assert 3 == len(committed)
    counters = [(m.counter, m.draws) for m in committed]
    assert 0 == counters[0][0]
    assert all(a[0] + a[1] == b[0] for a, b in itertools.pairwise(counters))
    assert (1, False) == _dice_state(any_engine)
    result = any_engine.execute("Lab", EndSession())
    revealed = next(e for e in result.events if isinstance(e, DiceRevealed))
    started = next(
        r.event
        for entry in any_engine.log("Lab", audience=GMS)
        for r in entry.events
        if isinstance(r.event, DiceCommitted)
    )
    assert commitment(bytes.fromhex(revealed.seed), started.hidden_root) == started.seed_hash
    report = any_engine.verify("Lab")
    assert report.intact
    assert [(1, 3, True, ())] == [
        (d.session, d.rulings, d.revealed, d.problems) for d in report.dice
    ]


def _dice_state(engine: Engine) -> tuple[int, bool]:
    (check,) = engine.verify("Lab").dice
    return check.session, check.revealed


def test_explicit_dice_are_not_claimed_verifiable(engine: Engine) -> None:
    """Faces typed in stay physical, --seed stays seeded: neither counts as committed."""
    play(engine)
    engine.execute("Lab", StartScene(stage="Again"))
    engine.execute("Lab", PlaceTokens(character="alice", squares=("R1C1", "R2C2", "R3C3")))
    physical = engine.execute(
        "Lab",
        DeclareTest(character="alice", form="Legs", function="Invulnerable", roll=True),
        dice=DiceSpec(faces=(1, 2)),
    )
    assert (Provenance.PHYSICAL, None) == (
        physical.provenance,
        engine.log("Lab", audience=GMS)[-1].ruling.counter,
    )


def test_a_forged_committed_roll_is_found(tmp_path: Path, frozen: None) -> None:
    """Rewriting a committed roll (chains recomputed) no longer follows from the revealed seed."""
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        play(engine)
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id

    def flip_a_committed_face(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":RulingMade") and event.get("counter") is not None and event["dice"]:
            event["dice"][0]["face"] = 7 - event["dice"][0]["face"]

    rewrite_campaign_stream(db, campaign_id, flip_a_committed_face)
    with Engine(str(db)) as engine:
        report = engine.verify("Lab")
    assert not report.intact
    assert report.dice[0].problems
    assert "the dice do not follow from the seed" in report.dice[0].problems[0]


def test_a_raced_session_start_keeps_the_secret_it_committed_to(
    tmp_path: Path, frozen: None
) -> None:
    """Another process putting a secret for the same session while this one commits does not
    replace it: the seed kept is the one committed to, and the session's dice verify."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first, Engine(db) as second:
        first.create_campaign("Lab", "code-green")
        campaign_id = first.campaign("Lab").id
        original_get = first.dice_secrets.get

        def get_then_race(campaign: Any, session: int) -> Any:
            kept = original_get(campaign, session)
            second.dice_secrets.put(campaign, session, b"\x01" * 32, "another table")
            return kept

        first.dice_secrets.get = get_then_race  # type: ignore[method-assign]
        first.execute("Lab", StartSession())
        first.dice_secrets.get = original_get  # type: ignore[method-assign]
        started = first.campaign("Lab")
        kept = first.dice_secrets.get(campaign_id, 1)
        assert kept is not None
        assert commitment(kept[0][:32], started.hidden_root) == started.commitment
        first.execute("Lab", StartScene(stage="The lab"))
        first.execute("Lab", CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION))
        first.execute("Lab", EndScene())
        first.execute("Lab", EndSession())
        report = first.verify("Lab")
    assert (True, ()) == (report.intact, report.dice[0].problems)


@pytest.mark.parametrize("sides", [257, 300, 999, 1000])
def test_dice_over_256_sides_read_two_bytes_without_bias(sides: int) -> None:
    """A die of 257 to 1,000 sides reads 2-byte values: each face takes as many of them."""
    counts = Counter(face(value.to_bytes(2, "big"), sides) for value in range(65536))
    rejected = counts.pop(None, 0)
    assert {65536 // sides} == set(counts.values())
    assert 65536 % sides == rejected


@settings(deadline=None)  # a tree of 1,024 keys per example: its time is the machine's
@given(hidden=st.binary(min_size=32, max_size=32), index=st.integers(0, HIDDEN_LEAVES - 1))
def test_every_hidden_key_proves_its_place_and_no_other(hidden: bytes, index: int) -> None:
    """A leaf key and its path lead to the committed root; at another place, or another key at
    this place, they do not."""
    root = hidden_root(hidden)
    proof = hidden_proof(hidden, index)
    assert root == root_from(leaf_key(hidden, index), index, proof)
    assert root != root_from(leaf_key(hidden, index), index ^ 1, proof)
    assert root != root_from(leaf_key(hidden, index ^ 1), index, proof)


def test_a_committed_session_rolls_every_die_size_free_rolls_allow(engine: Engine) -> None:
    engine.create_campaign("Lab", "sims")
    engine.execute("Lab", StartSession())
    result = engine.execute("Lab", RollFreely(expression="3d1000+1d257+1d2", why="sizes"))
    assert Provenance.COMMITTED == result.provenance
    engine.execute("Lab", EndSession())
    assert engine.verify("Lab").intact
