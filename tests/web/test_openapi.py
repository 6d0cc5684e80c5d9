"""The OpenAPI schema at /schema describes real responses: a command's result, a log and a
refusal validate against it (jsonschema, OpenAPI 3.1's JSON Schema 2020-12)."""

from __future__ import annotations

from typing import Any

import jsonschema
from litestar.testing import TestClient

from tests.web.conftest import API, Table

TEMPLATE = "/api/campaigns/{campaign}"


def check(document: dict[str, Any], path: str, method: str, response: Any) -> None:
    """Validate ``response``'s JSON body against the schema's for its path, method and status."""
    operation = document["paths"][path][method]
    content = operation["responses"][str(response.status_code)]["content"]
    schema = {**content["application/json"]["schema"], "components": document["components"]}
    jsonschema.Draft202012Validator(schema).validate(response.json())


def test_real_responses_validate_against_the_published_schema(
    client: TestClient[Any], table: Table
) -> None:
    """/schema/openapi.json is served; a note's result (201), the log (200), a refusal (409)
    and not being signed in (401) each validate against what it says."""
    document = client.get("/schema/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    gm = table.headers("gm")
    note = client.post(API + "/commands/note", json={"params": {"text": "Tea?"}}, headers=gm)
    assert 201 == note.status_code
    check(document, TEMPLATE + "/commands/note", "post", note)
    log = client.get(API + "/log", headers=gm)
    check(document, TEMPLATE + "/log", "get", log)
    refused = client.post(
        API + "/commands/scene/start", json={"params": {"stage": "x"}}, headers=gm
    )
    assert 409 == refused.status_code
    check(document, TEMPLATE + "/commands/scene/start", "post", refused)
    nobody = client.get(API + "/characters")
    assert 401 == nobody.status_code
    check(document, TEMPLATE + "/characters", "get", nobody)
    recap = client.get(API + "/recap", headers=gm)
    check(document, TEMPLATE + "/recap", "get", recap)
    campaign = client.get(API, headers=gm)
    check(document, TEMPLATE, "get", campaign)


def test_the_schema_describes_every_verb_and_both_credentials(client: TestClient[Any]) -> None:
    """Each verb's operation carries its help; bearer tokens and session cookies are named."""
    document = client.get("/schema/openapi.json").json()
    operation = document["paths"][TEMPLATE + "/commands/allocate"]["post"]
    assert "sims" in operation["description"]
    assert TEMPLATE + "/commands/message" not in document["paths"]  # now `post --to`
    assert {"bearer", "session"} == set(document["components"]["securitySchemes"])
