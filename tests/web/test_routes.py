"""The server offers exactly the CLI's verbs: one route per verb of the command registry (the
CLI is held to the registry by tests/e2e/test_registry.py), and each system's campaign takes its
own verbs only."""

from __future__ import annotations

import enum
import types
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest
from litestar.testing import TestClient

from cli import systems
from cli.main import campaign
from domain.events import Role
from domain.registry import verbs
from domain.rulesets import SYSTEMS
from engine import Engine
from tests.e2e.test_registry import NOT_COMMANDS, paths
from web import create_app

PREFIX = "/api/campaigns/{campaign:str}/commands/"


def cli_verbs(system: str) -> set[str]:
    return (paths(campaign) | paths(systems.verbs(system))) - NOT_COMMANDS


def served_verbs(client: TestClient[Any]) -> set[str]:
    return {
        path.removeprefix(PREFIX).replace("/", " ")
        for path in client.app.route_handler_method_map
        if path.startswith(PREFIX)
    }


@pytest.fixture
def every_system(tmp_path: Any) -> tuple[str, dict[str, str]]:
    """A store with one campaign per system, and its GM's and observer's tokens."""
    db = str(tmp_path / "all.db")
    tokens = {}
    with Engine(db) as engine:
        for system in sorted(SYSTEMS):
            engine.create_campaign(system, system, gm="GM", members={"olly": Role.OBSERVER})
            tokens[system] = engine.token(system, "GM")
            tokens[f"{system}/observer"] = engine.token(system, "olly")
    return db, tokens


def test_the_server_serves_exactly_the_cli_verbs(every_system: tuple[str, dict[str, str]]) -> None:
    """A verb of any system is served if and only if the CLI has it."""
    db, _ = every_system
    with TestClient(create_app(db)) as client:
        served = served_verbs(client)
    every_cli_verb = set().union(*(cli_verbs(s) for s in SYSTEMS))
    assert sorted(every_cli_verb) == sorted(served)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_each_campaign_lists_and_takes_its_own_verbs(
    every_system: tuple[str, dict[str, str]], system: str
) -> None:
    """GET verbs lists the CLI's verbs of the campaign's system; each of them reaches its own
    command (an unknown parameter is named against it), another system's verb is refused
    UNKNOWN_VERB (422), and nothing is recorded."""
    db, tokens = every_system
    auth = {"Authorization": f"Bearer {tokens[system]}"}
    with TestClient(create_app(db)) as client:
        listed = client.get(f"/api/campaigns/{system}/verbs", headers=auth).json()
        assert sorted(cli_verbs(system)) == sorted(v["verb"] for v in listed)
        own = verbs(system)
        for verb in sorted(served_verbs(client)):
            url = f"/api/campaigns/{system}/commands/{verb.replace(' ', '/')}"
            response = client.post(url, json={"params": {"no_such_field": 1}}, headers=auth)
            assert 422 == response.status_code, (verb, response.text)
            expected = "UNKNOWN_PARAMETER" if verb in own else "UNKNOWN_VERB"
            assert expected == response.json()["error"]["code"], verb


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_an_observer_may_only_dispute_and_nobody_may_do_anything(
    every_system: tuple[str, dict[str, str]], system: str
) -> None:
    """Every verb of every system: an observer is refused NOT_ALLOWED (403) but for `dispute`,
    a request with no credential NOT_SIGNED_IN (401)."""
    db, tokens = every_system
    auth = {"Authorization": f"Bearer {tokens[system + '/observer']}"}
    with TestClient(create_app(db)) as client:
        for name, verb in verbs(system).items():
            required = [p for p in verb.parameters if p.required and p.name != "by"]
            hints = get_type_hints(verb.command)
            params = {p.name: sample(hints[p.name]) for p in required}  # by: the one signed in
            url = f"/api/campaigns/{system}/commands/{name.replace(' ', '/')}"
            nobody = client.post(url, json={"params": params})
            assert 401 == nobody.status_code, name
            response = client.post(url, json={"params": params}, headers=auth)
            if name == "dispute":
                assert response.status_code in (201, 409), (name, response.text)
            else:
                assert 403 == response.status_code, (name, response.text)
                assert "NOT_ALLOWED" == response.json()["error"]["code"], name


def sample(kind: Any) -> Any:
    """A value of a parameter's type, as a request gives it."""
    union = get_origin(kind) in (Union, types.UnionType)
    first = next(o for o in get_args(kind) if o is not type(None)) if union else kind
    if get_origin(first) is tuple:
        return ["x"]
    if isinstance(first, type) and issubclass(first, enum.Enum):
        return next(iter(first)).value
    return {int: 1, bool: False}.get(first, "x")
