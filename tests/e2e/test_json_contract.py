"""The CLI's `--json` and the HTTP API give one shape: each example campaign is played, then
every read both offer is asked of each (the GM's, and a player's where the table seats one), and
`campaign --json X` must equal the API's GET of the same read, key for key and value for value.
Both give the engine's result types (``engine.results.views``) or the projections' views."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from attrs import frozen
from click.testing import CliRunner
from freezegun import freeze_time
from litestar.testing import TestClient

from cli.main import campaign as cli
from domain.events import Role
from engine import Engine
from tests.e2e.test_examples import EXAMPLES, _play
from web import create_app


@frozen
class Read:
    """One read: its CLI arguments (after ``--json``), its API path (after the campaign's) and
    query, and the key of the API's answer that holds it (None: the whole answer)."""

    args: tuple[str, ...]
    path: str
    query: tuple[tuple[str, str], ...] = ()
    key: str | None = None

    def url(self, name: str) -> str:
        query = f"?{urlencode(self.query)}" if self.query else ""
        return f"/api/campaigns/{quote(name)}{self.path}{query}"


@frozen
class Played:
    db: str
    name: str
    system: str
    gm: str
    players: tuple[str, ...]
    characters: tuple[str, ...]
    rulings: int
    sessions: int


def _name_of(script: Path) -> str:
    for raw in script.read_text(encoding="utf-8").splitlines():
        words = shlex.split(raw.strip()) if raw.strip() and not raw.startswith("#") else []
        if words[:1] == ["init"]:
            return words[1]
    raise AssertionError(f"{script} creates no campaign")


@pytest.fixture(scope="module", params=sorted(EXAMPLES.glob("*.campaign")), ids=lambda p: p.stem)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    script: Path = request.param
    db = tmp_path_factory.mktemp(script.stem) / "example.db"
    assert 0 == _play()(script, db)  # type: ignore[operator]
    name = _name_of(script)
    with Engine(str(db)) as engine:
        state = engine.campaign(name)
        players = tuple(m.name for m in state.seats if m.role == Role.PLAYER)
        return Played(
            db=str(db),
            name=name,
            system=state.system,
            gm=state.gm,
            players=players,
            characters=tuple(e.name for e in state.roster),
            rulings=state.rulings,
            sessions=state.sessions,
        )


def reads(played: Played) -> Iterator[Read]:
    """Every read the CLI and the API both offer, at a few points of the campaign."""
    middle = str(max(1, played.rulings // 2))
    yield Read(("log",), "/log")
    yield Read(("log", "--session", "1"), "/log", (("session", "1"),))
    yield Read(("disputes",), "/disputes")
    yield Read(("disputes", "--all"), "/disputes", (("every", "true"),))
    yield Read(("member", "list"), "", key="members")
    yield Read(("character", "list"), "/characters")
    yield Read(("show",), "/show")
    yield Read(("show", "--at", middle), "/show", (("at", middle),))
    yield Read(("show", "--session", "1", "--corrected"), "/show", _at_session_corrected())
    for who in played.characters:
        yield Read(("character", "show", who), f"/characters/{quote(who)}")
        yield Read(("show", who), f"/characters/{quote(who)}")
        yield Read(("history", who), f"/characters/{quote(who)}/history")
        yield Read(("diff", who, "1"), "/diff", (("who", who), ("first", "1")))
        yield Read(
            ("diff", who, "1", middle), "/diff", (("who", who), ("first", "1"), ("second", middle))
        )
        yield Read(
            ("diff", who, middle, "--views"),
            "/diff",
            (("who", who), ("first", middle), ("views", "true")),
        )
        yield Read(
            ("show", who, "--session", "1", "--corrected"),
            f"/characters/{quote(who)}",
            _at_session_corrected(),
        )
    yield Read(("recap",), "/recap")
    for session in range(1, played.sessions + 1):
        yield Read(("recap", "--session", str(session)), "/recap", (("session", str(session)),))
    yield Read(("dice-stats",), "/dice-stats")
    yield Read(("dice-stats", "--session", "1"), "/dice-stats", (("session", "1"),))
    yield Read(("verify",), "/verify")
    if played.system == "the-code":
        yield Read(("timeline",), "/timeline")
        for hero in played.characters:
            yield Read(("timeline", hero), "/timeline", (("hero", hero),))


def _at_session_corrected() -> tuple[tuple[str, str], ...]:
    return (("session", "1"), ("corrected", "true"))


def _gm_reads(played: Played) -> Iterator[Read]:
    """The reads only the GM's seat gives as asked (the GM-only recap)."""
    yield Read(("recap", "--gm"), "/recap", (("gm", "true"),))
    for player in played.players:
        yield Read(("recap", "--for", player), "/recap", (("member", player),))


@frozen
class Refused:
    """A read refused: the refusal's code (the CLI's on stderr, the API's in its body)."""

    code: str


def _cli(played: Played, reader: str | None, args: tuple[str, ...]) -> Any:
    who = ["--as", reader] if reader is not None else []
    argv = ["--db", played.db, "--campaign", played.name, "--json", *who, *args]
    result = CliRunner().invoke(cli, argv)
    if result.exit_code == 2:
        return Refused(json.loads(result.stderr)["error"]["code"])
    assert 0 == result.exit_code, (args, result.output)
    return json.loads(result.stdout)


def _api(client: TestClient[Any], token: str, played: Played, read: Read) -> Any:
    response = client.get(read.url(played.name), headers={"Authorization": f"Bearer {token}"})
    body = response.json()
    if response.status_code >= 400:
        return Refused(body["error"]["code"])
    assert 200 == response.status_code, (read.url(played.name), response.text)
    return body if read.key is None else body[read.key]


def _compare(played: Played, reader: str, cli_reader: str | None, every: list[Read]) -> None:
    with Engine(played.db) as engine:
        token = engine.token(played.name, reader)
    answered = 0
    with TestClient(create_app(played.db)) as client:
        for read in every:
            by_cli = _cli(played, cli_reader, read.args)
            assert by_cli == _api(client, token, played, read), read.args
            answered += not isinstance(by_cli, Refused)
    assert answered > len(every) // 2  # the reads were read, not refused alike


def test_the_gm_reads_the_same_json_from_the_cli_and_the_api(played: Played) -> None:
    """As the GM (the CLI's default reader): every read, the GM's own included."""
    _compare(played, played.gm, None, [*reads(played), *_gm_reads(played)])


def test_a_player_reads_the_same_json_from_the_cli_and_the_api(played: Played) -> None:
    """As a player of the table (``--as`` on the CLI, their token on the API): what they may
    read of every read is the same from both."""
    if not played.players:
        pytest.skip("the example seats no player")
    player = played.players[0]
    _compare(played, player, player, list(reads(played)))


def test_a_command_answers_the_same_json_from_the_cli_and_the_api(
    played: Played, tmp_path: Path
) -> None:
    """What a command recorded: `campaign --json note TEXT` on one copy of the store, the API's
    POST of the same note on another, at the same moment, give the same ruling."""
    copies = []
    for copy in ("cli", "api"):
        target = tmp_path / f"{copy}.db"
        with sqlite3.connect(played.db) as source, sqlite3.connect(target) as into:
            source.backup(into)
        copies.append(str(target))
    by_cli_db, by_api_db = copies
    with Engine(by_api_db) as engine:
        token = engine.token(played.name, played.gm)
    with freeze_time("2026-12-01 21:00:00"):
        argv = ["--db", by_cli_db, "--campaign", played.name, "--json", "note", "the same note"]
        result = CliRunner().invoke(cli, argv)
        assert 0 == result.exit_code, result.output
        with TestClient(create_app(by_api_db)) as client:
            response = client.post(
                f"/api/campaigns/{quote(played.name)}/commands/note",
                json={"params": {"text": "the same note"}},
                headers={"Authorization": f"Bearer {token}"},
            )
    assert 201 == response.status_code, response.text
    by_cli = json.loads(result.stdout)
    assert ("note", played.rulings + 1) == (by_cli["command"], by_cli["ruling"])
    assert by_cli == response.json()
