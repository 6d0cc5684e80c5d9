"""A snapshot taken under an older shape of a state class is not trusted: the stream replays."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import typing
from pathlib import Path
from typing import Any

import attrs
import pytest

from domain.audience import GMS
from domain.campaign import CampaignState, Directory
from domain.rulesets import SYSTEMS, ruleset_named
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.mapper import canonical_json, shape
from tests.conftest import place, scene_with_s1


def test_an_old_shaped_snapshot_is_ignored(
    tmp_path: Path, frozen: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even a snapshot that lies about the state is harmless once its shape does not match."""
    monkeypatch.setattr("engine.write.ledger.SNAPSHOT_INTERVAL", 3)
    db = tmp_path / "campaign.db"
    with Engine(str(db)) as engine:
        who = scene_with_s1(engine)
        place(engine, who, "R1C1", "R2C2", "R3C3")
        test = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
        engine.execute("Lab", test, dice=DiceSpec(faces=(2, 5)))
        engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
        expected = engine.character("Lab", who, audience=GMS)
    with sqlite3.connect(db) as connection:
        query = "SELECT originator_id, originator_version, state FROM stored_snapshots"
        rows = list(connection.execute(query))
        assert rows
        for stream, version, state in rows:
            body = json.loads(state)
            body["shape"] = "written-by-0.0"
            if "tokens" in body["state"]:
                body["state"]["tokens"] = []  # what an old shape might have meant
            update = (
                "UPDATE stored_snapshots SET state=? WHERE originator_id=? AND originator_version=?"
            )
            connection.execute(update, (canonical_json(body), stream, version))
    with Engine(str(db)) as engine:
        assert expected == engine.character("Lab", who, audience=GMS)


def _described(cls: type) -> str:
    """A state class's shape as it was first computed: each attrs class's fields with their
    types as ``typing.get_type_hints`` gives them, nested classes after."""
    seen: set[type] = set()
    parts: list[str] = []

    def walk(kind: Any) -> None:
        if isinstance(kind, type) and attrs.has(kind) and kind not in seen:
            seen.add(kind)
            hints = typing.get_type_hints(kind)
            fields = ",".join(f"{a.name}={hints[a.name]}" for a in attrs.fields(kind))
            parts.append(f"{kind.__qualname__}:{fields}")
            for a in attrs.fields(kind):
                walk(hints[a.name])
        for argument in typing.get_args(kind):
            walk(argument)

    walk(cls)
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_shapes_of_stored_snapshots_are_unchanged(system: str) -> None:
    """``shape`` reads the types cattrs resolves (once a class) and still gives the fingerprint
    every stored snapshot was written with: no store's snapshots turn "old shape"."""
    for cls in (CampaignState, Directory, ruleset_named(system).character_type):
        assert _described(cls) == shape(cls), cls
