"""The Code's reading of the state for the table's actions (``moves.py``): a Motivation roll
owed comes first (and no other challenge meanwhile), a scene with ruled steps waits for its
contest, a session between scenes for its Exposure rolls; an NPC is offered no hero's verb."""

from __future__ import annotations

import pytest

from domain.errors import NotAllowed
from domain.events import Role
from domain.lifecycle import EndScene, StartScene, StartSession
from domain.rulesets.the_code import commands as tc
from engine import Engine
from tests.conftest import event_count
from tests.web.scenes import GM, SCENES, _hero, actions_now, played

CAMPAIGN = next(s.campaign for s in SCENES if s.system == "the-code")


def _table() -> Engine:
    return played("the-code")[0]


def _now(engine: Engine, who: str, character: str | None = None) -> list[tuple[str, bool]]:
    return actions_now(engine, CAMPAIGN, who, character)


def _verbs(engine: Engine, who: str, character: str | None = None) -> list[str]:
    return [v for v, _ in _now(engine, who, character)]


def test_a_motivation_roll_owed_comes_first() -> None:
    """A challenge that needs Motivation: the hero's `motivation` first; no new challenge."""
    engine = _table()
    assert "motivation" not in _verbs(engine, "alice")
    assert "challenge" in _verbs(engine, GM, "The Hawk")
    challenge = tc.RuleChallenge(
        hero="The Hawk", task="the vault", needs_motivation="bad-conditions"
    )
    engine.execute(CAMPAIGN, challenge)
    assert ("motivation", True) == _now(engine, "alice")[0]
    assert "challenge" not in _verbs(engine, GM, "The Hawk")


def test_ruled_steps_wait_for_their_contest() -> None:
    """A step ruled for the Hawk's task: the GM's contest for him comes first."""
    engine = _table()
    assert [] == [v for v, e in _now(engine, GM, "The Hawk") if e]
    step = tc.RuleAbilityStep(character="The Hawk", task="the alley", profession=True)
    engine.execute(CAMPAIGN, step)
    assert ("contest", True) == _now(engine, GM, "The Hawk")[0]


def test_between_scenes_the_exposure_roll_is_due() -> None:
    """The scene over: each hero's Exposure roll of the session waits, once."""
    engine = _table()
    engine.execute(CAMPAIGN, EndScene())
    assert ("exposure", True) == _now(engine, GM, "The Hawk")[0]
    assert "mo" in _verbs(engine, GM, "The Hawk")


def test_the_mo_is_offered_to_the_gm_unless_a_house_rule_opens_it() -> None:
    """R-TC-14, TC-A27: the MO followed is the GM's ruling: a player is not offered `mo`, and
    theirs is refused with nothing recorded; under house rule playersRecordMo=true it is
    offered to the hero's player and recorded."""
    engine = _table()
    assert "mo" not in _verbs(engine, "alice")
    before = event_count(engine)
    with pytest.raises(NotAllowed, match="playersRecordMo=true"):
        engine.execute(CAMPAIGN, tc.FollowMo(hero="The Hawk"), actor="alice")
    assert before == event_count(engine)

    rules = {"playersRecordMo": "true"}
    members = {"alice": Role.PLAYER}
    engine.create_campaign("Open", "the-code", gm=GM, members=members, house_rules=rules)
    engine.execute("Open", StartSession())
    engine.execute("Open", StartScene(stage="The alley"))
    engine.execute("Open", _hero("The Hawk", "alice"))
    assert "mo" in [v for v, _ in actions_now(engine, "Open", "alice")]
    engine.execute("Open", tc.FollowMo(hero="The Hawk"), actor="alice")


def test_an_npc_is_offered_no_heros_verb() -> None:
    """An NPC takes part in contests, steps and days off: no hero's verb for it."""
    engine = _table()
    engine.execute(CAMPAIGN, tc.CreateNpc(character="Mr Big", motivation=3))
    verbs = _verbs(engine, GM, "Mr Big")
    assert not {"motivation", "challenge", "mo", "exposure", "buy-motivation"} & set(verbs)
    assert "buy-motivation" not in _verbs(engine, "alice")  # no Reward Points yet
