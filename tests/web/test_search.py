"""``GET …/search``: each member finds what their log shows them and nothing else (bob's private
messages, the GM's note and hidden roll), with the keys and values of ``campaign --json search``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from cli.main import campaign
from tests.web.conftest import API, CAMPAIGN, FROM_BOB, GM_NOTE, HIDDEN_WHY, MEMBER, TO_BOB, Table

# Each secret, the words that find it, and who may read it.
SECRETS = [
    (TO_BOB, "ledger steak", {"gm", "other"}),
    (FROM_BOB, "agent", {"gm", "other"}),
    (GM_NOTE, "twin", {"gm"}),
    (HIDDEN_WHY, "sentinel*", {"gm"}),
]


@pytest.mark.parametrize("role", ["gm", "player", "other", "observer"])
def test_each_member_finds_only_what_they_may_read(
    client: TestClient[Any], table: Table, role: str
) -> None:
    for text, query, readers in SECRETS:
        answer = client.get(f"{API}/search", params={"q": query}, headers=table.headers(role))
        assert 200 == answer.status_code, answer.text
        found = [f["text"] for f in answer.json()["found"]]
        assert ([text] if role in readers else []) == found, (role, query)


def test_nobody_signed_in_is_refused(client: TestClient[Any]) -> None:
    assert 401 == client.get(f"{API}/search", params={"q": "ledger"}).status_code


def test_a_query_without_words_is_a_domain_refusal(client: TestClient[Any], table: Table) -> None:
    answer = client.get(f"{API}/search", params={"q": "***"}, headers=table.headers("gm"))
    assert (422, "SEARCH_QUERY_EMPTY") == (answer.status_code, answer.json()["error"]["code"])


@pytest.mark.parametrize("role", ["gm", "other"])
def test_the_api_and_the_cli_give_the_same_search(
    client: TestClient[Any], table: Table, role: str
) -> None:
    answer = client.get(f"{API}/search", params={"q": "deal"}, headers=table.headers(role))
    argv = ["--db", table.db, "--campaign", CAMPAIGN, "--as", MEMBER[role], "--json"]
    printed = CliRunner().invoke(campaign, [*argv, "search", "deal"])
    assert 0 == printed.exit_code, printed.output
    assert json.loads(printed.output) == answer.json()
