"""A tester driven by the OpenAPI schema alone can write every verb: each verb's body has its own
typed ``params`` object (``web.openapi_params``), and every body the schema allows is read, then
taken or refused by a rule (a domain code), never refused as a malformed request.

The bodies are made from ``/schema/openapi.json`` and nothing else: the fewest keys, every key,
and a few drawn by Hypothesis from the schema, each checked against the schema first."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from domain.events import Role
from domain.lifecycle import StartScene, StartSession
from domain.rulesets import SYSTEMS
from engine import Engine
from web import create_app

PREFIX = "/api/campaigns/{campaign}/commands/"
# What a request the schema allows must never be refused with: the shape of the body itself.
SHAPE = frozenset({"INVALID_PARAMETER", "UNKNOWN_PARAMETER", "INVALID_REQUEST"})


def value(schema: dict[str, Any], every: bool) -> Any:
    """One value of ``schema``: the first of its choices, the least of its numbers, a short
    text; an object with its required keys only, or (``every``) with all of them."""
    if "anyOf" in schema:
        return value(next(s for s in schema["anyOf"] if s.get("type") != "null"), every)
    if "enum" in schema:
        return schema["enum"][-1 if every else 0]
    kind = schema["type"]
    if kind == "object":
        keys = list(schema["properties"] if every else schema.get("required", []))
        if every and "not" in schema:  # not all of these together: the last one left out
            keys.remove(schema["not"]["required"][-1])
        return {key: value(schema["properties"][key], every) for key in keys}
    if kind == "array":
        return [value(schema["items"], every)] if every else []
    if kind == "boolean":
        return every
    if kind == "integer":
        low, high = schema.get("minimum", 0), schema.get("maximum", 3)
        return max(low, min(high, 1))
    if "pattern" in schema:
        return "12"
    return "x"


def drawn(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Hypothesis's values of ``schema`` (the keywords the verbs' schemas use)."""
    if "anyOf" in schema:
        return st.one_of([drawn(s) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "null":
        return st.none()
    if kind == "object":
        required = set(schema.get("required", []))
        properties = {k: drawn(s) for k, s in schema["properties"].items()}
        objects = st.fixed_dictionaries(
            {k: s for k, s in properties.items() if k in required},
            optional={k: s for k, s in properties.items() if k not in required},
        )
        if "not" not in schema:
            return objects
        ruled_out = jsonschema.Draft202012Validator(schema["not"])
        return objects.filter(lambda v: not ruled_out.is_valid(v))
    if kind == "array":
        return st.lists(drawn(schema["items"]), max_size=3)
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if "pattern" in schema:
        return st.from_regex(re.compile(schema["pattern"]), fullmatch=True)
    return st.text(max_size=min(12, schema.get("maxLength", 12)))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One campaign per system (named for it) in a scene, the GM's token of each, and the
    schema."""
    db = str(tmp_path_factory.mktemp("schema") / "all.db")
    tokens = {}
    with Engine(db) as engine:
        for system in sorted(SYSTEMS):
            engine.create_campaign(system, system, gm="GM", members={"ana": Role.PLAYER})
            engine.execute(system, StartSession())
            engine.execute(system, StartScene(stage="the schema"))
            tokens[system] = engine.token(system, "GM")
    with TestClient(create_app(db)) as client:
        document = client.get("/schema/openapi.json").json()
        yield client, tokens, document


def bodies_of(document: dict[str, Any], system: str) -> dict[str, dict[str, Any]]:
    """Each verb's body schema for a ``system`` campaign: its params the system's object."""
    found = {}
    for path, item in document["paths"].items():
        if not path.startswith(PREFIX):
            continue
        body = item["post"]["requestBody"]["content"]["application/json"]["schema"]
        params = body["properties"]["params"]
        shapes = params.get("anyOf", [params])
        mine = [s for s in shapes if system in s["title"].split(", ")]
        if mine:
            properties = {**body["properties"], "params": mine[0]}
            found[path.removeprefix(PREFIX)] = {**body, "properties": properties}
    return found


def post(served: Any, system: str, verb: str, schema: dict[str, Any], body: Any) -> None:
    """Post a body the schema allows; it is taken, or refused with a domain code that is not
    about its shape."""
    client, tokens, _ = served
    jsonschema.Draft202012Validator(schema).validate(body)  # the schema does allow it
    url = f"/api/campaigns/{system}/commands/{verb}"
    response = client.post(url, json=body, headers={"Authorization": f"Bearer {tokens[system]}"})
    assert response.status_code < 500, (verb, body, response.text)
    if response.status_code >= 400:
        code = response.json()["error"]["code"]
        assert code not in SHAPE, (verb, body, response.text)


def test_every_verb_has_its_own_typed_params(served: Any) -> None:
    """No verb's params is an untyped mapping: each is an object listing its keys, no others,
    every key with a type (or a choice of types)."""
    _, _, document = served
    for system in sorted(SYSTEMS):
        bodies = bodies_of(document, system)
        assert bodies, system
        for verb, body in bodies.items():
            params = body["properties"]["params"]
            assert params["additionalProperties"] is False, verb
            for key, schema in params["properties"].items():
                assert "type" in schema or "anyOf" in schema, (system, verb, key)


def test_a_choice_and_a_bounded_number_are_in_the_schema(served: Any) -> None:
    _, _, document = served
    sprawl = bodies_of(document, "sprawl-goons")["roll"]["properties"]["params"]["properties"]
    assert ["morphology", "reaction", "cognition", "equilibrium"] == sprawl["stat"]["enum"]
    dispute = bodies_of(document, "sims")["dispute"]["properties"]["params"]["properties"]
    assert {"type": "integer", "minimum": 1, "x-refers": "ruling"} == dispute["ruling"]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_fewest_and_all_keys_the_schema_allows_are_read(served: Any, system: str) -> None:
    """For every verb: the body with only the required keys and the one with every key, each
    value the schema's first (or last) choice, its least number, a short text."""
    _, _, document = served
    for verb, schema in sorted(bodies_of(document, system).items()):
        for every in (False, True):
            post(served, system, verb, schema, value(schema, every))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_bodies_drawn_from_the_schema_are_read(served: Any, system: str) -> None:
    """Bodies Hypothesis draws from each verb's schema (any values the schema allows)."""
    _, _, document = served
    bodies = sorted(bodies_of(document, system).items())

    @settings(
        max_examples=3 * len(bodies),
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        verb, schema = data.draw(st.sampled_from(bodies))
        post(served, system, verb, schema, data.draw(drawn(schema)))

    check()
