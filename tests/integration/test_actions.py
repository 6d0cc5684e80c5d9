"""The actions the rules allow a member now (``Engine.actions``, ``domain.moves``): the verbs the
policy lets them issue that the state does not refuse for their character, the expected ones
first; a verb the page hides is still refused when posted, and nothing is appended."""

from __future__ import annotations

import pytest

from domain.errors import DomainError, NotAllowed
from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.the_code import commands as tc
from engine import DiceSpec, Engine
from tests.web.scenes import GM, SCENES, character_of, seat

SCENE = {s.system: s for s in SCENES}


def _played(system: str) -> tuple[Engine, str]:
    scene = SCENE[system]
    engine = Engine()
    seat(engine, scene)
    return engine, scene.campaign


def _verbs(engine: Engine, campaign: str, who: str, character: str | None = None) -> list[str]:
    found = engine.actions(campaign, reader=who, character=character)
    return [a.verb for a in found.actions]


def _expected(engine: Engine, campaign: str, who: str, character: str | None = None) -> list[str]:
    found = engine.actions(campaign, reader=who, character=character)
    return [a.verb for a in found.actions if a.expected]


def test_code_green_offers_a_test_when_none_is_open() -> None:
    """No test open: `test` comes first; `roll`, `assist` and `adapt` are not offered."""
    engine, campaign = _played("code-green")
    verbs = _verbs(engine, campaign, "alice")
    assert verbs[0] == "test"
    assert not {"roll", "assist", "adapt"} & set(verbs)


def test_code_green_offers_roll_and_assist_while_a_test_is_open() -> None:
    """A declared test: its tester is offered `roll`, the other player `assist`, and neither a
    new `test`; the GM sees both, expected first."""
    engine, campaign = _played("code-green")
    alice = character_of(engine, campaign, "alice")
    declared = cg.DeclareTest(character=alice, form="Legs", function="Cryptic")
    engine.execute(campaign, declared, actor="alice")
    assert _expected(engine, campaign, "alice") == ["roll"]
    assert _expected(engine, campaign, "bob") == ["assist"]
    assert "test" not in _verbs(engine, campaign, "bob")
    assert _expected(engine, campaign, GM) == ["roll", "assist"]
    assert "scene end" not in _verbs(engine, campaign, GM)  # a test is open


def test_code_green_offers_adapt_when_one_is_owed() -> None:
    """After the roll, the adaptation owed comes first, and the roll is no longer offered."""
    engine, campaign = _played("code-green")
    alice = character_of(engine, campaign, "alice")
    declared = cg.DeclareTest(character=alice, form="Legs", function="Cryptic", roll=True)
    engine.execute(campaign, declared, actor="alice", dice=DiceSpec(faces=(6,)))
    verbs = _verbs(engine, campaign, "alice")
    assert verbs[0] == "adapt"
    assert "roll" not in verbs
    assert _expected(engine, campaign, GM) == ["adapt", "strain"]


def test_a_verb_hidden_by_the_state_is_still_refused_when_posted() -> None:
    """The page is a convenience, not the guard: bob's `test` while alice's is open is hidden,
    and posted anyway it is refused by the rules with nothing appended."""
    engine, campaign = _played("code-green")
    alice = character_of(engine, campaign, "alice")
    bob = character_of(engine, campaign, "bob")
    engine.execute(campaign, cg.DeclareTest(character=alice, form=None, function=None))
    assert "test" not in _verbs(engine, campaign, "bob")
    before = engine.campaign(campaign).rulings
    with pytest.raises(DomainError) as refused:
        engine.execute(campaign, cg.DeclareTest(character=bob, form=None, function=None))
    assert refused.value.code == "ANOTHER_TEST_OPEN"
    assert engine.campaign(campaign).rulings == before


def test_sprawl_goons_offers_the_attack_first_while_a_fight_is_on() -> None:
    """Out of a fight, an Action Roll comes first; once initiative is rolled, the attack, and the
    round's end for the referee."""
    engine, campaign = _played("sprawl-goons")
    assert _expected(engine, campaign, "alice") == ["roll"]
    assert "round" not in _verbs(engine, campaign, GM)
    fight = sg.RollInitiative(combatants=("Tanner", "Vex"))
    engine.execute(campaign, fight, dice=DiceSpec(faces=(3, 4)))
    assert _verbs(engine, campaign, "alice")[0] == "attack"
    assert _expected(engine, campaign, GM) == ["attack", "aim", "round"]


def test_the_code_offers_the_contest_the_scene_is_in() -> None:
    """A step ruled for a task makes the contest the GM's expected action for that hero."""
    engine, campaign = _played("the-code")
    assert "contest" not in _expected(engine, campaign, GM, "The Hawk")
    step = tc.RuleAbilityStep(character="The Hawk", task="the alley", profession=True)
    engine.execute(campaign, step)
    assert _verbs(engine, campaign, GM, "The Hawk")[0] == "contest"
    assert "motivation" not in _verbs(engine, campaign, "alice")  # no roll owed


def test_sims_offers_the_attack_to_whoever_holds_the_turn() -> None:
    """In a conflict only the character whose turn it is attacks: the other player is not
    offered `attack`; the GM's `next` waits for the turn."""
    engine, campaign = _played("sims")
    order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"), ties="as-listed")
    engine.execute(campaign, order)
    assert _expected(engine, campaign, "alice") == ["attack", "strategy"]
    assert "attack" not in _verbs(engine, campaign, "bob")
    assert _expected(engine, campaign, GM) == ["attack", "strategy", "next"]


def test_the_gm_ends_what_is_running_and_starts_what_is_not() -> None:
    """The shared verbs read the table: a running session and scene hide their starts."""
    engine, campaign = _played("sims")
    verbs = _verbs(engine, campaign, GM)
    assert "scene end" in verbs
    assert not {"session start", "scene start", "session end"} & set(verbs)


def test_a_player_acts_as_their_own_characters_only() -> None:
    """Asking for another player's character is refused, naming the rule."""
    engine, campaign = _played("the-code")
    with pytest.raises(NotAllowed):
        engine.actions(campaign, reader="alice", character="Lady Volt")
    found = engine.actions(campaign, reader="alice")
    assert (found.character, found.characters) == ("The Hawk", ["The Hawk"])
