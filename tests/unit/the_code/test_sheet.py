"""The Code's sheet projection: the one-line status and the values the JSON sheet adds (pure
functions over a hero's state)."""

from __future__ import annotations

from uuid import uuid4

from attrs import evolve

from domain.rulesets.the_code.character import TcHero
from projections.the_code_sheet import sheet_extras, sheet_text, status

HAWK = TcHero(
    id=uuid4(),
    name="The Hawk",
    player="dana",
    secret_identity="Mitch",
    public_identity=False,
    physical_description="tall, trench coat, walks with a limp",
    profession="private eye (ex-cop)",
    advantages=("keen eyes",),
    weakness="bum leg",
    objective="catch criminals",
    objective_score=6,
    modus_operandi="handcuff to the phone booth",
    motivation=2,
    base_max=3,
)


def test_the_status_line_shows_the_scores_that_move_in_play() -> None:
    """Motivation against its maximum (bought points included), RP, Exposure and its peak."""
    hawk = evolve(HAWK, bonus_max=1, reward_points=18, exposure=4, peak=5, popularity=3)
    expected = "Motivation 2/4, Reward Points 18, Exposure 4 (peak 5), Popularity 3"
    assert expected == status(hawk)


def test_the_json_sheet_adds_the_maximum_motivation() -> None:
    """The maximum is derived (base plus bought), so the JSON sheet spells it out."""
    assert {"max_motivation": 4} == sheet_extras(evolve(HAWK, bonus_max=1))


def test_the_sheet_says_when_the_public_knows_nothing() -> None:
    """A hero never exposed: no details known, and bought Motivation is shown as such."""
    text = sheet_text(evolve(HAWK, bonus_max=1))
    assert "  Motivation 2/4 (1 bought)" in text.splitlines()
    assert text.endswith("  The public knows no details")
