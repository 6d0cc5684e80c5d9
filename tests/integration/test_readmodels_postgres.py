"""Recaps and timelines on PostgreSQL: the same documents as on memory, kept by a worker too."""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cli.main import campaign
from domain.audience import GMS
from domain.lifecycle import AddNote, EndScene
from domain.rulesets.code_green.commands import Adapt, DeclareTest
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import place, scene_with_s1
from tests.postgres import fresh_schema


@pytest.fixture
def url() -> Iterator[str]:
    with fresh_schema() as fresh:
        yield fresh


def play(engine: Engine) -> None:
    who = scene_with_s1(engine)
    place(engine, who, "R1C1", "R2C2", "R3C3")
    test = DeclareTest(character=who, form="Legs", function="Invulnerable", roll=True)
    engine.execute("Lab", test, dice=DiceSpec(faces=(2, 5)))
    engine.execute("Lab", Adapt(character=who, source="R1C1", destination="R1C2"))
    engine.undo("Lab", reason="the other token")
    engine.execute("Lab", Adapt(character=who, source="R3C3", destination="R3C1"))
    engine.execute("Lab", AddNote(text="the guard is called Dolores", gm_only=True))
    engine.execute("Lab", EndScene())


def comparable(view: dict[str, object]) -> object:
    """The recap without the times each ruling was recorded at (the two runs differ there)."""

    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "at"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip({key: view[key] for key in ("scenes", "highlights", "corrections")})


def test_a_recap_on_postgresql_equals_the_one_in_memory(url: str) -> None:
    """Same history, same recap document (public and GM views)."""
    with Engine(url) as on_server, Engine() as in_memory:
        play(on_server)
        play(in_memory)
        for gm in (False, True):
            served = on_server.recap("Lab", None, gm=gm, audience=GMS)
            local = in_memory.recap("Lab", None, gm=gm, audience=GMS)
            assert comparable(local) == comparable(served)


def test_the_worker_catches_up_once_then_has_nothing_to_do(url: str) -> None:
    """`projections --once` processes the new rulings; run again, it processes none."""
    runner = CliRunner()

    def run(line: str) -> str:
        result = runner.invoke(campaign, ["--db", url, *shlex.split(line)])
        assert 0 == result.exit_code, result.output
        return result.output

    run("init Lab --system code-green --gm Rosa")
    run("session start")
    first = run("projections --once")
    assert "recaps:" in first
    assert "exposure:" in first
    assert "" == run("projections --once")
    run('note "one more"')
    assert "recaps: " in run("projections --once")
