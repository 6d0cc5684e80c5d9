"""Options of shapes Discord never sends, for the real registered commands, signed with the
application's key: the endpoint answers with a line naming what is wrong (a refusal, whose
sender alone sees it), never a server error, and a refusal appends nothing. The author of a
post, a dispute or entropy is the member the account is linked to."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from domain.audience import GMS
from engine import Engine
from tests.web import test_discord
from tests.web.test_discord import (
    ANA_ACCOUNT,
    GM_ACCOUNT,
    command,
    events,
    option,
    send,
    sub,
)
from web.discord.answers import EPHEMERAL
from web.discord.slash import commands

# The table of tests/web/test_discord.py: its store, its application's key, its server.
db, key, client = test_discord.db, test_discord.key, test_discord.client
NOT_DISCORDS = "MALFORMED_INTERACTION: the interaction is not one Discord sends: "
REGISTERED = commands("sprawl-goons")  # the fixture's table plays Sprawl Goons
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
WRONG_FOR = {3: st.integers() | st.booleans(), 4: st.text(max_size=5), 5: st.integers(2, 9)}
WRONG_VALUES = st.none() | st.lists(JSON, max_size=2) | st.dictionaries(st.text(max_size=3), JSON)


def good_value(spec: dict[str, Any]) -> Any:
    return {3: "1", 4: 1, 5: False}.get(spec["type"], "1")


def well_formed(declared: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The required options of a declaration, each a value of its type."""
    return [
        {"name": o["name"], "type": o["type"], "value": good_value(o)}
        for o in declared
        if o.get("required")
    ]


@st.composite
def malformed(draw: st.DrawFn) -> tuple[str, Any]:
    """A registered command's name and options of a shape Discord does not send."""
    registered = draw(st.sampled_from(REGISTERED))
    declared = registered["options"]
    subs = [o for o in declared if o["type"] == 1]
    if subs and draw(st.booleans()):  # a subcommand shape that is wrong
        chosen = draw(st.sampled_from(subs))
        shape = draw(st.integers(0, 4))
        if shape == 0:
            return registered["name"], well_formed(chosen["options"])  # no subcommand
        if shape == 1:
            # options that are not a list (none at all, or [], is a subcommand sent bare:
            # a missing required option is then refused INVALID_PARAMETER, not malformed)
            shapeless = draw(JSON.filter(lambda v: not isinstance(v, list | None)))
            return registered["name"], [{**sub(chosen["name"]), "options": shapeless}]
        if shape == 2:
            return registered["name"], [sub("nothing-such")]
        if shape == 3:
            return registered["name"], [sub(chosen["name"]), sub(chosen["name"])]
        return registered["name"], [{**sub(chosen["name"]), "type": 2}]
    if subs:
        chosen = draw(st.sampled_from(subs))
        given = well_formed(chosen["options"])
        wrap: Any = lambda options: [{**sub(chosen["name"]), "options": options}]  # noqa: E731
        specs = chosen["options"]
    else:
        given, specs = well_formed(declared), declared
        wrap = lambda options: options  # noqa: E731
    kind = draw(st.integers(0, 6 if specs else 3))
    if kind == 0:
        return registered["name"], draw(JSON.filter(lambda v: not isinstance(v, list | None)))
    if kind == 1:
        return registered["name"], wrap(
            [*given, draw(JSON.filter(lambda v: not isinstance(v, dict)))]
        )
    if kind == 2:
        return registered["name"], wrap([*given, option("nothing_such", "x")])
    if kind == 3:
        return registered["name"], wrap(draw(st.lists(JSON, min_size=1, max_size=3)))
    spec = draw(st.sampled_from(specs))
    others = [o for o in given if o["name"] != spec["name"]]
    if kind == 4:  # a value of another JSON type than declared, or none
        wrong = draw(WRONG_FOR.get(spec["type"], st.none()) | WRONG_VALUES)
        return registered["name"], wrap([*others, {**option(spec["name"], wrong, spec["type"])}])
    if kind == 5:  # no value at all
        return registered["name"], wrap([*others, {"name": spec["name"], "type": spec["type"]}])
    wrong_type = draw(st.sampled_from([t for t in (1, 2, 3, 4, 5, 10) if t != spec["type"]]))
    return registered["name"], wrap([*others, option(spec["name"], good_value(spec), wrong_type)])


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(malformed(), st.sampled_from([ANA_ACCOUNT, GM_ACCOUNT]), st.sampled_from([2, 4]))
def test_malformed_options_are_refused_with_a_line_never_a_server_error(
    client: TestClient[Any],
    key: Ed25519PrivateKey,
    db: str,
    sent: tuple[str, Any],
    account: str,
    kind: int,
) -> None:
    name, options = sent
    payload = command(name, account=account)
    payload["type"] = kind
    payload["data"]["options"] = options
    before = events(db)
    answer = send(client, key, payload)
    assert answer.status_code < 500, (name, options)
    found = answer.json()
    if kind == 4 and found["type"] == 8:  # autocomplete: choices, or none
        assert isinstance(found["data"]["choices"], list)
        return
    assert found["type"] == 4
    assert EPHEMERAL == found["data"]["flags"]
    code = "MALFORMED_INTERACTION" if kind == 2 else found["data"]["content"].split(":")[0]
    assert found["data"]["content"].startswith(f"{code}: ")
    assert code.isupper()
    assert before == events(db)


@pytest.mark.parametrize(
    "options",
    [
        [option("expression", 6, kind=4), option("why", "x")],  # an integer for a string
        [option("expression", ["1d6"]), option("why", "x")],  # a list
        [option("expression", {"d": 6}), option("why", "x")],  # an object
        [option("expression", None), option("why", "x")],  # null
        [{"name": "expression", "type": 3}, option("why", "x")],  # no value
        {"expression": "1d6"},  # options that are not a list
        [option("expression", "1d6"), option("mood", "x")],  # an option of no such name
        [sub("expression", option("expression", "1d6"))],  # a subcommand where none is
    ],
)
def test_each_malformed_shape_is_named_in_its_refusal(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str, options: Any
) -> None:
    payload = command("dice")
    payload["data"]["options"] = options
    before = events(db)
    answer = send(client, key, payload)
    assert 200 == answer.status_code  # Discord shows a line only from a 200 (see docs/discord.md)
    assert answer.json()["data"]["content"].startswith("MALFORMED_INTERACTION: ")
    assert before == events(db)


def test_a_subcommand_group_without_its_subcommand_is_refused(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    before = events(db)
    for options in ([option("member", "eve")], [{**sub("add"), "options": "eve"}]):
        payload = command("member", account=GM_ACCOUNT)
        payload["data"]["options"] = options
        content = send(client, key, payload).json()["data"]["content"]
        assert content.startswith(f"{NOT_DISCORDS}/member")
    assert before == events(db)


def test_the_author_of_a_post_dispute_or_entropy_is_the_linked_member(
    client: TestClient[Any], key: Ed25519PrivateKey, db: str
) -> None:
    posted = send(client, key, command("post", option("text", "I wait"), option("ooc", True, 5)))
    assert "embeds" in posted.json()["data"], posted.json()
    disputed = send(
        client, key, command("dispute", option("ruling", 1, kind=4), option("reason", "no"))
    )
    assert "embeds" in disputed.json()["data"], disputed.json()
    with Engine(db) as engine:
        last = engine.log("Docklands", audience=GMS)[-2:]
        campaign = engine.campaign("Docklands")
    assert [("post", "ana"), ("dispute", "ana")] == [
        (e.ruling.command, e.header.actor) for e in last
    ]
    assert ["ana"] == [d.by for d in campaign.disputes]
    before = events(db)
    typed = command("post", option("text", "as Rosa"), option("by", "Rosa"))
    refused = send(client, key, typed).json()["data"]["content"]
    assert refused.startswith(f"{NOT_DISCORDS}/post has no option 'by'")
    assert before == events(db)
