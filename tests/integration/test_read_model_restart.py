"""A read model is reset only where the thread that resets it saw it: a server's threads that
all find a read model never built (or of an older format) at once start it once. A reset that
came after another thread's reset and catch-up threw its documents away under a reader (a
session's head read, then its pages gone: a 500 under 16 players at once)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from domain.lifecycle import AddNote, StartSession
from engine import Engine
from engine.reads.models import MemoryViews, ViewStore
from engine.reads.recaps import RECAPS
from tests.postgres import fresh_schema


@contextmanager
def _memory(_: Path) -> Iterator[tuple[Engine, ViewStore]]:
    with Engine() as engine:
        yield engine, MemoryViews()


@contextmanager
def _sqlite(tmp_path: Path) -> Iterator[tuple[Engine, ViewStore]]:
    with Engine(str(tmp_path / "table.db")) as engine:
        yield engine, engine.read_models.views


@contextmanager
def _postgres(_: Path) -> Iterator[tuple[Engine, ViewStore]]:
    with fresh_schema() as url, Engine(url) as engine:
        yield engine, engine.read_models.views


STORES = [
    pytest.param(_memory, id="memory"),
    pytest.param(_sqlite, id="sqlite"),
    pytest.param(_postgres, id="postgres", marks=pytest.mark.postgres),
]


def _played(engine: Engine) -> None:
    engine.create_campaign("Lab", "code-green", gm="Rosa")
    engine.execute("Lab", StartSession())
    for n in range(3):
        engine.execute("Lab", AddNote(text=f"note {n}"))


class Late:
    """Views whose first ``tracking`` answers what it saw, after ``meanwhile`` ran (another
    thread's whole catch-up between this thread's look and its reset)."""

    def __init__(self, views: ViewStore, meanwhile: Callable[[], None]) -> None:
        self._views = views
        self._meanwhile: Callable[[], None] | None = meanwhile

    def tracking(self, name: str) -> tuple[int, int] | None:
        seen = self._views.tracking(name)
        if self._meanwhile is not None:
            meanwhile, self._meanwhile = self._meanwhile, None
            meanwhile()
        return seen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._views, name)


@pytest.mark.parametrize("opened", STORES)
def test_a_read_model_started_by_another_meanwhile_is_not_reset(
    opened: Callable[[Path], Any], tmp_path: Path
) -> None:
    """Two threads find the recaps never built; the other starts and builds them first: this one
    resets nothing, processes nothing, and the documents the other wrote are all there (the
    session start and its three notes)."""
    with opened(tmp_path) as (engine, views):
        _played(engine)
        models = engine.read_models
        built: list[int] = []
        late = Late(views, lambda: built.append(models.catch_up(RECAPS, views=views)))
        assert 0 == models.catch_up(RECAPS, views=late)
        assert built[0] > 0
        cid = engine.campaign("Lab").id
        assert 4 == len(views.document(RECAPS.name, f"session/{cid}/1/0")["rulings"])


@pytest.mark.parametrize("opened", STORES)
def test_a_reset_of_what_moved_since_is_refused(
    opened: Callable[[Path], Any], tmp_path: Path
) -> None:
    """``restart`` resets a read model only where it was seen: never tracked, or at a position
    and version; otherwise it answers False and leaves it whole."""
    with opened(tmp_path) as (engine, views):
        _played(engine)
        assert views.restart(RECAPS.name, RECAPS.version, None)
        assert not views.restart(RECAPS.name, RECAPS.version, None)
        engine.read_models.catch_up(RECAPS, views=views)
        at = views.tracking(RECAPS.name)
        assert at is not None
        assert at[0] > 0
        assert not views.restart(RECAPS.name, RECAPS.version + 1, (0, RECAPS.version))
        assert at == views.tracking(RECAPS.name)
        assert views.restart(RECAPS.name, RECAPS.version + 1, at)
        assert (0, RECAPS.version + 1) == views.tracking(RECAPS.name)
        assert [] == views.listed(RECAPS.name, "", 10)
