"""`campaign discord` and `campaign member link` from the command line: the GM's links as
rulings (refusals on stderr, exit 2, nothing appended), the slash commands printed, and
registered with a bulk overwrite to a local stand-in of Discord's API."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.e2e.conftest import Run
from tests.web.discord_standin import discord_api
from web.discord.slash import commands

CHANNEL, ACCOUNT = "1100000000000000001", "2200000000000000002"


def test_register_sends_the_commands_with_the_bots_token(
    table: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    with discord_api() as api:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        result = table(
            "discord register --application 4400000000000000001 --guild 5500000000000000001"
        )
    assert 0 == result.exit_code, result.output
    (heard,) = api.heard
    assert (
        "/api/v10/applications/4400000000000000001/guilds/5500000000000000001/commands"
        == heard.path
    )
    assert "Bot the-bot-token" == heard.headers["Authorization"]
    assert heard.headers["User-Agent"].startswith("DiscordBot (")
    assert commands("code-green") == heard.body
    assert f"registered {len(heard.body)} commands in server 5500000000000000001\n" == result.output


def test_registering_without_a_token_is_refused(
    table: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CAMPAIGN_DISCORD_TOKEN", raising=False)
    result = table("discord register --application 4400000000000000001")
    assert (2, "NO_DISCORD_TOKEN") == (result.exit_code, result.stderr.split(":")[1].strip())


def test_a_refused_registration_says_why(table: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    with discord_api() as api:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "x")
        monkeypatch.setattr("web.slash_commands", lambda system: [{"name": "BAD NAME"}])
        result = table("discord register --application 4400000000000000001")
    assert 1 == result.exit_code
    assert "DISCORD_REFUSED: Discord answered 400: " in result.stderr


def test_commands_prints_the_json_registered(table: Run) -> None:
    assert commands("code-green") == json.loads(table("discord commands").output)
    assert commands("sims") == json.loads(table("discord commands --system sims").output)


def test_the_gm_links_a_channel_and_accounts(table: Run, count: Callable[[], int]) -> None:
    assert 0 == table(f"discord link {CHANNEL}").exit_code
    assert 0 == table("member add ana --role player").exit_code
    shown = table(f"member link ana --discord {ACCOUNT}").output
    assert f"ana plays as Discord account {ACCOUNT}" in shown
    before = count()
    for line, code in (
        (f"discord link {CHANNEL}", "CHANNEL_LINKED_ALREADY"),
        ("discord link 42", "INVALID_DISCORD_ID"),
        ("discord unlink 1100000000000000009", "CHANNEL_NOT_LINKED"),
        (f"member link nobody --discord {ACCOUNT}", "UNKNOWN_MEMBER"),
        (f"--as ana member link ana --discord {ACCOUNT}", "NOT_ALLOWED"),
        (f"--as ana discord unlink {CHANNEL}", "NOT_ALLOWED"),
    ):
        result = table(line)
        assert (2, code) == (result.exit_code, result.stderr.split(":")[1].strip()), line
    assert before == count()
    assert 0 == table(f"discord unlink {CHANNEL}").exit_code


def test_an_invitation_code_for_discord(table: Run) -> None:
    assert 0 == table("member add ana --role player").exit_code
    printed = table("member invite ana --discord").stdout.strip()
    assert printed.startswith("/join code:")
    assert len(printed) > len("/join code:") + 30
    assert 2 == table("--as ana member invite ana --discord").exit_code  # the GM's call


def test_serve_says_the_interactions_endpoint_is_on(
    table: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up lines of `campaign serve` (the server itself not started): the endpoint's
    line with the application's public key, none without."""
    started: list[object] = []
    monkeypatch.setattr("web.serve", lambda app, host, port: started.append(app))
    monkeypatch.delenv("CAMPAIGN_DISCORD_PUBLIC_KEY", raising=False)
    plain = table("serve --port 8123")
    assert 0 == plain.exit_code, plain.output
    assert "Discord" not in plain.stderr
    key = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    monkeypatch.setenv("CAMPAIGN_DISCORD_PUBLIC_KEY", key.hex())
    result = table("serve --port 8000")
    assert 0 == result.exit_code, result.output
    assert 2 == len(started)
    (line,) = [line for line in result.stderr.splitlines() if "Discord" in line]
    assert line.startswith(
        "Discord interactions endpoint on: http://127.0.0.1:8000/discord/interactions"
    )
    page = Path(__file__).parents[2] / "docs" / "discord.md"
    assert f"   {line}\n" in page.read_text(encoding="utf-8")  # as docs/discord.md shows it
