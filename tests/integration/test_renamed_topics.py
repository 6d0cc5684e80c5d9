"""A ruling recorded under a command's old topic, before the class was renamed, still stands: it
loads, verifies, can be undone and amended, is decided again when an earlier ruling is undone,
and its campaign exports and imports (``domain.rulesets.renamed``).

The store is written as a release before the rename wrote it: the Sims campaign's `mission
succeed` ruling is recorded, then its header's command topic is set back to the old one
(``MissionSucceeded``) in the SQLite file and the campaign stream is chained again over it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.audience import GMS
from domain.events import RulingMade
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.renamed import RENAMED
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.commands import (
    AnnounceMission,
    CreateCharacter,
    DeclareDanger,
    SucceedMission,
)
from domain.rulesets.sims.tables import Danger
from engine import Engine
from engine.store.chain import genesis, link
from engine.store.mapper import canonical_json, with_chain
from engine.store.topics import resolve
from tests.golden.test_sims import STARTING_SHEET

NAME = "Zion"
OLD = "domain.rulesets.sims.improvement:MissionSucceeded"
MADE = "domain.events:RulingMade"
DANGER, SUCCESS = 7, 8  # the rulings of the story below


def story(engine: Engine) -> None:
    """Neo is told of two Upgrade Missions; the GM rules continuing danger (ruling 7); the Vault
    succeeds (ruling 8)."""
    engine.create_campaign(NAME, "sims", gm="Morpheus")
    engine.execute(NAME, StartSession())
    engine.execute(NAME, StartScene(stage="the club"))
    engine.execute(NAME, CreateCharacter(character="Neo", player="alice", qualities=STARTING_SHEET))
    for mission in ("The Vault", "The Keymaker"):
        engine.execute(NAME, AnnounceMission(mission=mission, characters=("Neo",)))
    danger = engine.execute(NAME, DeclareDanger(danger=Danger.CONTINUING, characters=("Neo",)))
    success = engine.execute(NAME, SucceedMission(mission="The Vault"))
    assert (DANGER, SUCCESS) == (danger.number, success.number)


def recorded_under(db: Path, campaign: UUID, ruling: int, topic: str) -> None:
    """Set ``ruling``'s recorded command topic to ``topic`` and chain the campaign stream again
    (no session was sealed over it yet, so the store holds together as written)."""
    query = (
        "SELECT originator_version, topic, state FROM stored_events WHERE originator_id=? "
        "ORDER BY originator_version"
    )
    update = "UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?"
    with sqlite3.connect(db) as c:
        previous = genesis(campaign)
        for version, row_topic, state in c.execute(query, (campaign.hex,)).fetchall():
            body: dict[str, Any] = json.loads(state)
            body.pop("chain", None)
            event = body["event"]
            if row_topic == MADE and event["number"] == ruling:
                params = json.loads(event["params"])
                params["topic"] = topic
                event["params"] = canonical_json(params).decode()
            raw = canonical_json(body)
            previous = link(previous, campaign, version, row_topic, raw)
            c.execute(update, (with_chain(raw, previous), campaign.hex, version))


def recorded_topic(engine: Engine, ruling: int) -> str:
    """The command topic ``ruling``'s header holds."""
    headers = (
        h.event for h in engine.headers(NAME, audience=GMS) if isinstance(h.event, RulingMade)
    )
    made = next(m for m in headers if m.number == ruling)
    topic: str = json.loads(made.params)["topic"]
    return topic


def neo(engine: Engine) -> SimsCharacter:
    state: SimsCharacter = engine.character(NAME, "Neo", audience=GMS)
    return state


@pytest.fixture
def old(frozen: None, tmp_path: Path) -> Iterator[Engine]:
    """The story's store, its ruling 8 recorded under the old topic."""
    db = tmp_path / "old.db"
    with Engine(str(db)) as engine:
        story(engine)
        campaign = engine.find_campaign(NAME).campaign_id
    recorded_under(db, campaign, SUCCESS, OLD)
    with Engine(str(db)) as engine:
        yield engine


def test_the_old_topic_names_the_renamed_class() -> None:
    """Every renamed Sims command's old topic resolves to the class that has it now."""
    sims = {old: new for old, new in RENAMED.items() if ".sims." in old}
    assert OLD in sims
    for old_topic, new_topic in sims.items():
        cls = resolve(old_topic)
        assert new_topic == f"{cls.__module__}:{cls.__qualname__}"


def test_a_ruling_under_the_old_topic_loads_and_verifies(old: Engine) -> None:
    """The header keeps the old topic; the chain holds; Neo has the upgrade it granted."""
    assert OLD == recorded_topic(old, SUCCESS)
    assert old.verify(NAME).intact
    assert (1, ("The Keymaker",)) == (neo(old).upgrades, neo(old).missions)


def test_it_can_be_undone(old: Engine) -> None:
    """Undoing it takes the upgrade back and leaves the Vault announced."""
    old.undo(NAME, SUCCESS, reason="the Vault was a trap")
    assert (0, ("The Vault", "The Keymaker")) == (neo(old).upgrades, neo(old).missions)
    assert old.verify(NAME).intact


def test_it_can_be_amended(old: Engine) -> None:
    """Amended to the Keymaker (its command read from the old topic), the other mission pays."""
    old.amend(NAME, SUCCESS, {"mission": "The Keymaker"}, reason="wrong mission")
    assert (1, ("The Vault",)) == (neo(old).upgrades, neo(old).missions)
    assert old.verify(NAME).intact


def test_it_is_decided_again_when_an_earlier_ruling_is_undone(old: Engine) -> None:
    """Undoing the danger before it decides it again from its recorded command: it stands."""
    old.undo(NAME, DANGER, reason="the club was quiet")
    assert (1, Danger.MOMENTARY) == (neo(old).upgrades, neo(old).danger)
    assert old.verify(NAME).intact


def test_its_export_imports(old: Engine, tmp_path: Path) -> None:
    """The export carries the old topic; another store imports it, verified, with the same
    state, and can still undo the ruling."""
    lines = list(old.export(NAME, audience=GMS))
    with Engine(str(tmp_path / "copy.db")) as copy:
        imported = copy.import_campaign(lines)
        assert old.verify(NAME).digest == imported.digest
        assert OLD == recorded_topic(copy, SUCCESS)
        assert neo(old) == neo(copy)
        copy.undo(NAME, SUCCESS, reason="the Vault was a trap")
        assert 0 == neo(copy).upgrades
