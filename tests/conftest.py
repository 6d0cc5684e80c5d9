"""Shared fixtures: engines on each store, a fixed clock, a way to prove nothing was appended."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import freezegun
import pytest
from freezegun import freeze_time

from domain.commands import Command
from domain.errors import DomainError
from domain.events import Role
from domain.lifecycle import StartScene, StartSession
from domain.rulesets.code_green.commands import CreateCharacter, PlaceTokens
from engine import Engine
from engine.dice.sources import DiceSpec

# Frozen clocks are for the product's timestamps: pytest's own timing (--durations) keeps the
# real one. Only its timing module: ignoring all of `_pytest` would unfreeze every test, since
# freezegun gives the real time to any call with an ignored module a few frames up the stack.
freezegun.configure(extend_ignore_list=["_pytest.timing"])

FROZEN_AT = datetime(2026, 11, 29, 19, 30, tzinfo=UTC)

# The text's own example sheet (Code Green, Making Tests): rows Legs, Tail, Teeth; columns
# Cryptic, Invulnerable, Phasing. DIGEST §1.4 calls it S1.
S1_FORM = ("Legs", "Tail", "Teeth")
S1_FUNCTION = ("Cryptic", "Invulnerable", "Phasing")


def event_count(engine: Engine) -> int:
    """How many events the store holds (all streams): unchanged after a refused command."""
    return engine.store.recorder.max_notification_id() or 0


@contextmanager
def local_time_zone(zone: str) -> Iterator[None]:
    """The process's local time zone (``TZ``) is ``zone`` within the block, then what it was."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


@pytest.fixture
def frozen() -> Iterator[None]:
    with freeze_time(FROZEN_AT):
        yield


@pytest.fixture
def engine(frozen: None) -> Iterator[Engine]:
    with Engine() as e:
        yield e


@pytest.fixture
def sqlite_engine(frozen: None, tmp_path: Path) -> Iterator[Engine]:
    with Engine(str(tmp_path / "campaign.db")) as e:
        yield e


@pytest.fixture(params=["memory", "sqlite"])
def any_engine(request: pytest.FixtureRequest, frozen: None, tmp_path: Path) -> Iterator[Engine]:
    """The same test on every store this version opens."""
    db = ":memory:" if request.param == "memory" else str(tmp_path / "campaign.db")
    with Engine(db) as e:
        yield e


@pytest.fixture(params=["sqlite", "postgresql"])
def stored_engine(request: pytest.FixtureRequest, frozen: None, tmp_path: Path) -> Iterator[Engine]:
    """The same test on the two stores a table keeps its log in: a SQLite file, and a schema of
    its own on the PostgreSQL server (a visible skip without one; a failure in CI)."""
    if request.param == "sqlite":
        with Engine(str(tmp_path / "campaign.db")) as e:
            yield e
        return
    from tests.postgres import fresh_schema

    with fresh_schema() as url, Engine(url) as e:
        yield e


# The players the tests' rulings name as actors, seated when 'Lab' is created (ruling 1).
TABLE = {"alice": Role.PLAYER, "bob": Role.PLAYER, "Rosa": Role.GM}


def scene_with_s1(engine: Engine, *, name_dice: tuple[int, ...] = (3, 1, 4, 1, 5)) -> str:
    """A campaign 'Lab' in a running scene with one S1 character (tokens not placed yet).

    Returns the character's name (its five name dice)."""
    engine.create_campaign("Lab", "code-green", members=TABLE)
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage="The lab wakes up"))
    engine.execute(
        "Lab",
        CreateCharacter(player="alice", form=S1_FORM, function=S1_FUNCTION),
        dice=DiceSpec(faces=name_dice),
    )
    return "".join(str(d) for d in name_dice)


def place(engine: Engine, who: str, *squares: str) -> None:
    engine.execute("Lab", PlaceTokens(character=who, squares=tuple(squares)))


def add_s1_character(engine: Engine, player: str, name_dice: tuple[int, ...]) -> str:
    """Another S1 character in campaign 'Lab' (tokens not placed yet); returns its name."""
    engine.execute(
        "Lab",
        CreateCharacter(player=player, form=S1_FORM, function=S1_FUNCTION),
        dice=DiceSpec(faces=name_dice),
    )
    return "".join(str(d) for d in name_dice)


E = TypeVar("E", bound=DomainError)


def refused(engine: Engine, command: Command, error: type[E], *, faces: tuple[int, ...] = ()) -> E:
    """Run ``command`` in 'Lab', expect ``error``, and prove that nothing was appended."""
    before = event_count(engine)
    with pytest.raises(error) as raised:
        engine.execute("Lab", command, dice=DiceSpec(faces=faces))
    assert before == event_count(engine)
    return raised.value
