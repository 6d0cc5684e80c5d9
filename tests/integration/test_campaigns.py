"""Contract tests on every store: campaigns in one store, refusals, and persistence across opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.audience import GMS
from domain.errors import DomainError
from domain.events import CampaignCreated, CampaignRegistered, HouseRule, RulingMade
from domain.lifecycle import AddNote, StartSession
from engine import Engine
from engine.application.engine import DIRECTORY_ID
from tests.conftest import event_count
from tests.integration.scenes import ALICE, BOB, play_scene, stream_ids


def test_several_campaigns_are_listed_in_creation_order(any_engine: Engine) -> None:
    """Each created campaign appears in the store's directory, in order, with its system."""
    for name in ("Lab", "Ward 7", "Vault"):
        any_engine.create_campaign(name, "code-green")

    listed = [(c.name, c.system) for c in any_engine.directory().campaigns]

    assert [("Lab", "code-green"), ("Ward 7", "code-green"), ("Vault", "code-green")] == listed


def test_campaigns_in_one_store_keep_separate_streams(any_engine: Engine) -> None:
    """A ruling in one campaign changes neither the other campaign nor its ruling numbers."""
    any_engine.create_campaign("Lab", "code-green")
    any_engine.create_campaign("Ward", "code-green")
    any_engine.execute("Lab", StartSession())
    any_engine.execute("Lab", AddNote(text="the lights flicker"))

    lab, ward = any_engine.campaign("Lab"), any_engine.campaign("Ward")

    assert (3, 1, None, 0) == (lab.rulings, lab.session, ward.session, ward.sessions)
    assert 1 == ward.rulings
    assert lab.id != ward.id
    assert [1] == [entry.ruling.number for entry in any_engine.log("Ward", audience=GMS)]


def test_creating_a_campaign_records_its_registration_and_first_ruling(any_engine: Engine) -> None:
    """Ruling 1 ('init') registers the campaign in the directory and opens its stream."""
    result = any_engine.create_campaign("Lab", "code-green", gm="Mo")

    events = [type(r.event) for r in result.records]
    streams = [r.originator_id for r in result.records]

    assert [CampaignRegistered, CampaignCreated, RulingMade] == events
    assert [DIRECTORY_ID, result.campaign.id, result.campaign.id] == streams
    assert (1, "init", "Mo") == (result.number, result.command, result.records[0].actor)
    assert (1, "Mo", "Lab") == (
        any_engine.campaign("Lab").rulings,
        any_engine.campaign("Lab").gm,
        any_engine.campaign("Lab").name,
    )


def test_house_rules_are_recorded_with_defaults_filled_in(any_engine: Engine) -> None:
    """A given house rule is kept; every other one is recorded at its default."""
    any_engine.create_campaign("Lab", "code-green", house_rules={"maxStrainPerTest": "2"})

    rules = any_engine.campaign("Lab").house_rules

    assert HouseRule(key="maxStrainPerTest", value="2") in rules
    assert HouseRule(key="gridRanges", value="contiguous") in rules
    assert 5 == len(rules)


def test_duplicate_campaign_name_is_refused_and_appends_nothing(any_engine: Engine) -> None:
    """A second campaign with a taken name is refused with CAMPAIGN_EXISTS."""
    any_engine.create_campaign("Lab", "code-green")
    before = event_count(any_engine)

    with pytest.raises(DomainError) as refused:
        any_engine.create_campaign("Lab", "code-green")

    assert "CAMPAIGN_EXISTS" == refused.value.code
    assert "'Lab'" in refused.value.reason
    assert before == event_count(any_engine)
    assert ["Lab"] == [c.name for c in any_engine.directory().campaigns]


@pytest.mark.parametrize(
    ("name", "system", "house_rules", "code"),
    [
        pytest.param("", "code-green", {}, "INVALID_CAMPAIGN_NAME", id="empty-name"),
        pytest.param("x" * 81, "code-green", {}, "INVALID_CAMPAIGN_NAME", id="long-name"),
        pytest.param("Lab\n2", "code-green", {}, "INVALID_CAMPAIGN_NAME", id="newline"),
        pytest.param("Lab", "dnd-5e", {}, "UNKNOWN_SYSTEM", id="unknown-system"),
        pytest.param("Lab", "code-green", {"nope": "1"}, "UNKNOWN_HOUSE_RULE", id="unknown-rule"),
        pytest.param(
            "Lab", "code-green", {"maxStrainPerTest": "-1"}, "INVALID_HOUSE_RULE", id="bad-rule"
        ),
    ],
)
def test_bad_campaign_creation_is_refused_and_appends_nothing(
    any_engine: Engine, name: str, system: str, house_rules: dict[str, str], code: str
) -> None:
    """Bad names, systems and house rules are refused with their code; the store stays empty."""
    with pytest.raises(DomainError) as refused:
        any_engine.create_campaign(name, system, house_rules=house_rules)

    assert code == refused.value.code
    assert 0 == event_count(any_engine)
    assert () == any_engine.directory().campaigns


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda e: e.campaign("Nowhere"), id="campaign"),
        pytest.param(lambda e: e.execute("Nowhere", StartSession()), id="execute"),
        pytest.param(lambda e: e.undo("Nowhere", reason="oops"), id="undo"),
        pytest.param(lambda e: e.log("Nowhere", audience=GMS), id="log"),
        pytest.param(lambda e: e.character("Nowhere", ALICE, audience=GMS), id="character"),
        pytest.param(lambda e: e.characters("Nowhere", audience=GMS), id="characters"),
    ],
)
def test_unknown_campaign_is_refused(any_engine: Engine, call: object) -> None:
    """Every entry point names an unknown campaign with UNKNOWN_CAMPAIGN."""
    any_engine.create_campaign("Lab", "code-green")
    before = event_count(any_engine)

    with pytest.raises(DomainError) as refused:
        call(any_engine)  # type: ignore[operator]

    assert "UNKNOWN_CAMPAIGN" == refused.value.code
    assert "'Nowhere'" in refused.value.reason
    assert before == event_count(any_engine)


def test_reopened_sqlite_file_gives_the_same_state(frozen: None, tmp_path: Path) -> None:
    """A new Engine on the same file sees the same directory, campaign, characters and log."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        first.create_campaign("Ward", "code-green")
        play_scene(first)
        expected = (
            first.directory(),
            first.campaign("Lab"),
            first.characters("Lab", audience=GMS),
            [(entry.header, entry.events) for entry in first.log("Lab", audience=GMS)],
            [list(first.store.events.get(s)) for s in stream_ids(first)],
        )

    with Engine(db) as second:
        actual = (
            second.directory(),
            second.campaign("Lab"),
            second.characters("Lab", audience=GMS),
            [(entry.header, entry.events) for entry in second.log("Lab", audience=GMS)],
            [list(second.store.events.get(s)) for s in stream_ids(second)],
        )

    assert expected == actual


def test_reopened_sqlite_file_continues_numbering(frozen: None, tmp_path: Path) -> None:
    """After reopening, the next ruling takes the next number and sees the characters."""
    db = str(tmp_path / "campaign.db")
    with Engine(db) as first:
        play_scene(first)

    with Engine(db) as second:
        result = second.execute("Lab", AddNote(text="back next week"))
        names = [c.name for c in second.characters("Lab", audience=GMS)]

    assert 15 == result.number
    assert [ALICE, BOB] == names


def test_memory_stores_are_independent(frozen: None) -> None:
    """Two in-memory engines never see each other's campaigns."""
    with Engine() as first, Engine() as second:
        first.create_campaign("Lab", "code-green")

        assert () == second.directory().campaigns
        assert ["Lab"] == [c.name for c in first.directory().campaigns]


def test_a_campaign_another_process_creates_is_found(frozen: None, tmp_path: Path) -> None:
    """An engine remembers the campaigns it found, never one it did not: a campaign created
    through another engine on the same file after a refused lookup is found at once."""
    db = str(tmp_path / "shared.db")
    with Engine(db) as first, Engine(db) as second:
        first.create_campaign("Lab", "code-green")
        assert first.find_campaign("Lab") == second.find_campaign("Lab")
        with pytest.raises(DomainError, match="Ward 7"):
            first.find_campaign("Ward 7")
        second.create_campaign("Ward 7", "the-code")
        assert "the-code" == first.find_campaign("Ward 7").system
