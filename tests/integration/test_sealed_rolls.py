"""Protocol 3: a player's roll sealed by the player (issue 42, item 1). The roll's dice come
from the session's committed seed and the player's own signature of the roll, made when they
ask for it: the GM's machine, which knows the seed, cannot foresee them, nor move them with
rolls of its own; `verify` checks every seal against the key on the seat then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS
from domain.errors import DomainError
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from engine import Engine
from engine.dice.committed import key, lane, mixed_signed, replay, sealed_key
from tests.conftest import event_count
from tests.integration.players import Player
from tests.integration.test_commit_reveal import rewrite_campaign_stream

GM = "Rosa"


@pytest.fixture
def lab(stored_engine: Engine) -> tuple[Engine, Player, Player]:
    """ana and bo, keys on their seats and words added, in a running session of protocol 3,
    on SQLite and on PostgreSQL."""
    engine = stored_engine
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana, bo = Player("ana").seated(engine), Player("bo").seated(engine)
    engine.execute("Lab", StartSession())
    ana.adds(engine, "pancakes")
    bo.adds(engine, "tide at 4:12")
    return engine, ana, bo


def roll(expression: str = "1d20", why: str = "to hit") -> RollFreely:
    return RollFreely(expression=expression, why=why)


def secret_of(engine: Engine) -> bytes:
    """What the GM reads on his own machine: the session's roll seed."""
    campaign = engine.campaign("Lab")
    kept = engine.ledger.dice_secrets.get(campaign.id, campaign.session or 0)
    assert kept is not None
    return kept[0][:32]


def test_a_sealed_roll_is_recorded_with_its_seal_and_verifies(
    lab: tuple[Engine, Player, Player],
) -> None:
    engine, ana, _ = lab
    result = ana.rolls(engine, roll())
    made = result.made
    assert (made.lane, made.sealed, made.counter) == ("ana", 0, 0)
    assert 128 == len(made.seal)
    assert 1 == engine.campaign("Lab").next_seal("ana")
    assert 0 == engine.campaign("Lab").lane("ana")  # her public lane did not move
    engine.execute("Lab", EndSession())
    (check,) = engine.verify("Lab").dice
    assert () == check.problems


def test_its_dice_follow_from_the_seed_and_the_seal(lab: tuple[Engine, Player, Player]) -> None:
    engine, ana, _ = lab
    secret = secret_of(engine)
    entropy = mixed_signed(engine.campaign("Lab").signed)
    made = ana.rolls(engine, roll("3d6")).made
    faces, draws = replay(sealed_key(key(secret, entropy), made.seal), 0, (6, 6, 6), lane("ana"))
    assert faces == tuple(d.face for d in made.dice)
    assert draws == made.draws


def test_the_gm_cannot_foresee_it_by_spending_counters(lab: tuple[Engine, Player, Player]) -> None:
    """The GM reads his secret and spends ana's public counters with rolls `--as ana`: her
    sealed roll's dice do not move (they draw on no counter his rolls use), and what they are
    depends on a signature he cannot make."""
    engine, ana, _ = lab
    text = engine.seal_text("Lab", roll(), actor="ana")
    for _ in range(5):
        engine.execute("Lab", roll("1d2", "coin"), actor="ana")
    assert text == engine.seal_text("Lab", roll(), actor="ana")
    forged = Player("ana")  # another key under her name: all the GM can sign with
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.execute("Lab", roll(), actor="ana", seal=forged.seal(text))
    assert "SEAL_DOES_NOT_HOLD" == refused.value.code
    assert before == event_count(engine)
    engine.execute("Lab", roll(), actor="ana", seal=ana.seal(text))
    assert 1 == engine.campaign("Lab").next_seal("ana")


def test_the_gm_foresees_a_roll_nobody_sealed(lab: tuple[Engine, Player, Player]) -> None:
    """What the docs promise he can do: from his own secret and ana's lane, the next roll in
    her name that she did not seal, before it is recorded."""
    engine, _, _ = lab
    secret = secret_of(engine)
    entropy = mixed_signed(engine.campaign("Lab").signed)
    start = engine.campaign("Lab").lane("ana")
    foreseen, _ = replay(key(secret, entropy), start, (20,), lane("ana"))
    made = engine.execute("Lab", roll(), actor="ana").made
    assert foreseen == tuple(d.face for d in made.dice)
    assert made.sealed is None


def test_spending_counters_does_not_move_a_sealed_roll(lab: tuple[Engine, Player, Player]) -> None:
    """The faces of ana's sealed roll are those of her seal, however many rolls the GM makes
    in her name first."""
    engine, ana, _ = lab
    text = engine.seal_text("Lab", roll(), actor="ana")
    secret = secret_of(engine)
    entropy = mixed_signed(engine.campaign("Lab").signed)
    sealed_faces, _ = replay(
        sealed_key(key(secret, entropy), ana.seal(text)), 0, (20,), lane("ana")
    )
    for _ in range(7):
        engine.execute("Lab", roll("1d2", "coin"), actor="ana")
    made = engine.execute("Lab", roll(), actor="ana", seal=ana.seal(text)).made
    assert sealed_faces == tuple(d.face for d in made.dice)


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("another key", "SEAL_DOES_NOT_HOLD"),
        ("another roll", "SEAL_DOES_NOT_HOLD"),
        ("upper case", "SEAL_NOT_CANONICAL"),
        ("dice typed", "SEAL_WITH_GIVEN_DICE"),
        ("hidden", "SEAL_ON_HIDDEN_ROLL"),
        ("no key", "SEAL_WITHOUT_KEY"),
        ("as another", "SEAL_DOES_NOT_HOLD"),
    ],
)
def test_a_seal_that_is_not_the_players_signature_of_this_roll_is_refused(
    lab: tuple[Engine, Player, Player], how: str, code: str
) -> None:
    from engine import DiceSpec

    engine, ana, _ = lab
    text = engine.seal_text("Lab", roll(), actor="ana")
    seal, command, actor, more = ana.seal(text), roll(), "ana", {}
    if how == "another key":
        seal = Player("ana").seal(text)
    elif how == "another roll":
        command = roll("1d20+5")
    elif how == "upper case":
        seal = seal.upper()
    elif how == "dice typed":
        more = {"dice": DiceSpec(faces=(20,))}
    elif how == "hidden":
        actor, more = GM, {"hidden": True}
    elif how == "no key":
        actor = GM
    elif how == "as another":
        actor = "bo"
    before = event_count(engine)
    with pytest.raises(DomainError) as refused:
        engine.execute("Lab", command, actor=actor, seal=seal, **more)
    assert code == refused.value.code
    assert before == event_count(engine)


def test_a_seal_needs_a_session_of_protocol_3(engine: Engine) -> None:
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana = Player("ana").seated(engine)
    with pytest.raises(DomainError) as refused:
        engine.seal_text("Lab", roll(), actor="ana")
    assert "SEAL_WITHOUT_SEALED_DICE" == refused.value.code
    assert ana.public


@pytest.mark.parametrize("edit", ["faces", "seal"])
def test_verify_names_a_sealed_roll_rewritten_in_the_store(tmp_path: Path, edit: str) -> None:
    """The GM rewrites a sealed roll's faces, or swaps its seal for a signature of his own with
    faces that follow from it, and recomputes every link: verify names the ruling."""
    db = tmp_path / "lab.db"
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana = Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        ana.adds(engine, "pancakes")
        number = ana.rolls(engine, roll("2d6")).number
        secret, entropy = secret_of(engine), mixed_signed(engine.campaign("Lab").signed)
        text = engine.seal_text("Lab", roll("2d6"), actor="ana").replace("\n1\n", "\n0\n", 1)
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id
    mine = Player("ana").seal(text)
    faces, _ = replay(sealed_key(key(secret, entropy), mine), 0, (6, 6), lane("ana"))

    def rewritten(topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if event.get("number") == number and event.get("seal"):
            if edit == "seal":
                event["seal"] = mine
                event["dice"] = [{"sides": 6, "face": f} for f in faces]
            else:  # the first face turned to another, never the one the seal gave
                event["dice"][0]["face"] = event["dice"][0]["face"] % 6 + 1

    rewrite_campaign_stream(db, campaign_id, rewritten)
    with Engine(str(db)) as engine:
        problems = [p for d in engine.verify("Lab").dice for p in d.problems]
    assert any(f"ruling {number}" in p for p in problems), problems


def test_a_reveal_lists_each_members_sealed_rolls(lab: tuple[Engine, Player, Player]) -> None:
    engine, ana, bo = lab
    ana.rolls(engine, roll())
    ana.rolls(engine, roll())
    bo.rolls(engine, roll())
    result = engine.execute("Lab", EndSession())
    from domain.events import DiceRevealed

    (revealed,) = [r.event for r in result.records if isinstance(r.event, DiceRevealed)]
    assert (("ana", 2), ("bo", 1)) == revealed.sealed
    assert engine.log("Lab", audience=GMS)
