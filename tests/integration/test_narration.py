"""`replay` in one pass (``engine.reads.narration``): the state it narrates after each ruling is the
state `show --at N --corrected` gives, for every ruling of every session of every example
campaign, and each character's stream is read once however long the session is."""

from __future__ import annotations

import functools
import importlib.util
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.audience import GMS, of_actor
from domain.events import Role
from engine import Engine

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "examples").glob("*.campaign"))


def _play() -> Any:
    spec = importlib.util.spec_from_file_location("play", ROOT / "examples" / "play.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play


@pytest.fixture(scope="module", params=SCRIPTS, ids=[s.stem for s in SCRIPTS])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("narration") / "campaign.db"
    assert 0 == _play()(request.param, db)
    return str(db)


def test_each_narrated_state_is_the_corrected_state_then(played: str) -> None:
    with Engine(played) as engine:
        (entry,) = engine.directory().campaigns
        names = {e.character_id: e.name for e in engine.campaign(entry.name).roster}
        for session in range(1, engine.campaign(entry.name).sessions + 1):
            for narrated in engine.replay(entry.name, session, audience=GMS):
                number = narrated.logged.ruling.number
                for stream, state in narrated.after.items():
                    then = engine.character_at(
                        entry.name, names[stream], ruling=number, corrected=True, audience=GMS
                    )
                    assert then == state, (session, number, names[stream])


def test_each_stream_is_read_at_most_twice(played: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many rulings a session has, a character's stream is read twice: for the log's
    events and to fold (a replay per ruling read it once per ruling that touched it)."""
    with Engine(played) as engine:
        (entry,) = engine.directory().campaigns
        reads: list[Any] = []
        original = engine.streams.records

        def records(stream: Any, **kwargs: Any) -> Any:
            reads.append(stream)
            return original(stream, **kwargs)

        monkeypatch.setattr(engine.streams, "records", records)
        for session in range(1, engine.campaign(entry.name).sessions + 1):
            reads.clear()
            narrated = list(engine.replay(entry.name, session, audience=GMS))
            counted = Counter(reads)
            assert narrated
            assert counted.pop(entry.campaign_id, 0) <= 3  # the session's headers, its log
            assert max(counted.values(), default=0) <= 2, counted


def test_progress_hears_of_each_ruling_narrated(played: str) -> None:
    """``progress(done, total)`` after each ruling: 1..n of n, for the GM and for each player
    seated (whom some rulings may be kept from) alike."""
    with Engine(played) as engine:
        (entry,) = engine.directory().campaigns
        campaign = engine.campaign(entry.name)
        players = [m.name for m in campaign.members if m.role == Role.PLAYER]
        for reader in [None, *players]:
            heard: list[tuple[int, int]] = []
            progress = functools.partial(lambda into, *d: into.append(d), heard)
            narrated = list(
                engine.replay(entry.name, 1, audience=of_actor(reader), progress=progress)
            )
            total = len(narrated)
            assert [(done, total) for done in range(1, total + 1)] == heard, reader
