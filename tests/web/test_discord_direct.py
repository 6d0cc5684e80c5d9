"""What the table may not read never reaches the channel, and reaches each of its readers: a
private post is answered to its author alone and sent by direct message to its addressees and
the GMs; a hidden roll to the GMs; a public ruling to nobody by DM. Through a local stand-in of
Discord's API, with the bot's token set."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from litestar.testing import TestClient

from domain.events import Role
from domain.links import LinkMember
from domain.table import AddMember
from engine import Engine
from tests.web.discord_standin import StandIn, discord_api
from tests.web.test_discord import (  # noqa: F401 (fixtures)
    ANA_ACCOUNT,
    GM_ACCOUNT,
    client,
    command,
    db,
    key,
    option,
    send,
)
from web.discord.answers import EPHEMERAL

CO_GM_ACCOUNT, BO_ACCOUNT = "2200000000000000005", "2200000000000000006"


@pytest.fixture
def api(db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:  # noqa: F811
    """Discord's stand-in, the bot's token, and two more members linked: Sam (a second GM)
    and bo (a player no post is written to)."""
    with Engine(db) as engine:
        engine.execute("Docklands", AddMember(member="Sam", role=Role.GM))
        engine.execute("Docklands", AddMember(member="bo", role=Role.PLAYER))
        engine.execute("Docklands", LinkMember(member="Sam", discord=CO_GM_ACCOUNT))
        engine.execute("Docklands", LinkMember(member="bo", discord=BO_ACCOUNT))
    with discord_api() as stand_in:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", stand_in.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        yield stand_in


def dms(api: StandIn, count: int) -> dict[str, list[Any]]:
    """The messages sent by DM, by the account they went to (after ``count`` requests)."""
    assert api.until(count)
    opened = {}
    sent: dict[str, list[Any]] = {}
    for heard in api.heard:
        if heard.path.endswith("/users/@me/channels"):
            account = heard.body["recipient_id"]
            opened[f"88{account}"[:19]] = account
        elif heard.path.endswith("/messages") and "/channels/" in heard.path:
            channel = heard.path.split("/channels/")[1].split("/")[0]
            sent.setdefault(opened[channel], []).append(heard.body)
    return sent


def test_a_private_post_reaches_its_addressees_and_the_gms_by_dm(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    api: StandIn,
) -> None:
    words = "I pocket the second keycard"
    answer = send(
        client,
        key,
        command("post", option("text", words), option("ooc", True, 5), option("to", "Rosa")),
    ).json()
    assert EPHEMERAL == answer["data"]["flags"]  # ana alone reads the answer in the channel
    sent = dms(api, 4)  # a DM channel and a message for each GM: Rosa (addressed) and Sam
    assert {GM_ACCOUNT, CO_GM_ACCOUNT} == set(sent)
    for messages in sent.values():
        assert words in json.dumps(messages)
        assert all(
            "components" not in m and m["allowed_mentions"] == {"parse": []} for m in messages
        )
    assert not any(
        h.body and words in json.dumps(h.body) for h in api.heard if "/webhooks/" in h.path
    )


def test_a_hidden_roll_reaches_the_other_gms_alone(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    api: StandIn,
) -> None:
    hidden = command(
        "dice",
        option("expression", "1d20"),
        option("why", "does the sniper see them"),
        option("hidden", True, 5),
        account=GM_ACCOUNT,
    )
    answer = send(client, key, hidden).json()
    assert EPHEMERAL == answer["data"]["flags"]
    sent = dms(api, 2)
    assert [CO_GM_ACCOUNT] == list(sent)  # not Rosa, who rolled it; no player
    assert "does the sniper see them" in json.dumps(sent)


def test_a_public_ruling_is_sent_to_nobody(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    api: StandIn,
) -> None:
    answer = send(
        client, key, command("dice", option("expression", "1d6"), option("why", "rain"))
    ).json()
    assert "flags" not in answer["data"]
    assert [] == api.heard  # the answer's background work is done when the client returns


def test_without_a_bot_token_the_private_post_is_only_answered(
    client: TestClient[Any],  # noqa: F811
    key: Ed25519PrivateKey,  # noqa: F811
    api: StandIn,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CAMPAIGN_DISCORD_TOKEN")
    post = command("post", option("text", "psst"), option("ooc", True, 5), option("to", "Rosa"))
    assert EPHEMERAL == send(client, key, post).json()["data"]["flags"]
    assert [] == api.heard  # the answer's background work is done when the client returns
