"""Issue 22: characters named as people type them (``CampaignState.find``): exactly first, then
in any letter case, then by the one name a prefix begins; an ambiguous prefix lists who."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.campaign import CampaignState, RosterEntry
from domain.errors import AmbiguousCharacter, UnknownCharacter

TANNER, TANYA, REX = uuid4(), uuid4(), uuid4()
CAMPAIGN = CampaignState(
    id=uuid4(),
    name="Lab",
    system="sprawl-goons",
    gm="Rosa",
    house_rules=(),
    roster=(
        RosterEntry(character_id=TANNER, name="Tanner", player="ana"),
        RosterEntry(character_id=TANYA, name="Tanya", player="Alice"),
        RosterEntry(character_id=REX, name="Rex", player="rex"),
    ),
)


@pytest.mark.parametrize(
    ("ref", "found"),
    [
        ("Tanner", TANNER),
        ("tanner", TANNER),
        ("TANNER", TANNER),
        ("Tann", TANNER),
        ("tany", TANYA),
        ("ALICE", TANYA),
        ("ana", TANNER),
        ("rex", REX),  # a player's exact name before another's name in another case
        (str(TANYA), TANYA),
    ],
)
def test_a_name_as_typed(ref: str, found: object) -> None:
    assert found == CAMPAIGN.find(ref).character_id


def test_an_ambiguous_prefix_lists_the_candidates() -> None:
    with pytest.raises(AmbiguousCharacter, match="Tanner, Tanya"):
        CAMPAIGN.find("tan")


@pytest.mark.parametrize("ref", ["", "Tanners", "x"])
def test_no_one_answers(ref: str) -> None:
    with pytest.raises(UnknownCharacter):
        CAMPAIGN.find(ref)
