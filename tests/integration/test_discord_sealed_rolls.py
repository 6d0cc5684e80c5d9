"""Protocol 3 through Discord (issue 42, item 1): a player's roll asked for with a slash command
is sealed by Discord's own Ed25519 signature of the interaction, by the application key the
campaign recorded when the channel was linked. A key made here plays Discord's. The GM's
machine, which knows the seed, cannot make that signature; the checks when the roll is recorded
and in `verify` name every interaction that is not the roll's."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.errors import DomainError
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.links import LinkChannel, LinkMember
from engine import Engine
from engine.dice.committed import key, lane, mixed_signed, replay, sealed_key
from tests.conftest import FROZEN_AT, event_count
from tests.integration.players import Player, close_entropy
from tests.integration.test_commit_reveal import rewrite_campaign_stream

GM = "Rosa"
CHANNEL = "1100000000000000001"
ANA_ACCOUNT, BO_ACCOUNT = "2200000000000000002", "2200000000000000003"
NOW = int(FROZEN_AT.timestamp())
IDS = itertools.count(3300000000000000001)


class Discord:
    """Discord's side: the application's key pair (Discord holds the private half) and the
    interactions it sends, signed over the timestamp and the raw body."""

    def __init__(self) -> None:
        self._private = Ed25519PrivateKey.generate()
        raw = self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = raw.hex()

    def dice(
        self,
        expression: str,
        why: str = "",
        *,
        account: str = ANA_ACCOUNT,
        at: int = NOW,
        extra: tuple[dict[str, Any], ...] = (),
    ) -> tuple[str, str]:
        """A /dice slash command ana's account sends: Discord's signature and what it signed."""
        options = [{"name": "expression", "type": 3, "value": expression}]
        if why:
            options.append({"name": "why", "type": 3, "value": why})
        return self.command("dice", [*options, *extra], account=account, at=at)

    def command(
        self, name: str, options: list[dict[str, Any]], *, account: str = ANA_ACCOUNT, at: int = NOW
    ) -> tuple[str, str]:
        """A slash command ``account`` sends in the channel, signed."""
        body = {
            "id": str(next(IDS)),
            "application_id": "4400000000000000001",
            "type": 2,
            "token": "interaction-token",
            "version": 1,
            "guild_id": "5500000000000000001",
            "channel_id": CHANNEL,
            "member": {"user": {"id": account, "username": "ana"}, "roles": []},
            "data": {"id": "6600000000000000001", "name": name, "type": 1, "options": options},
        }
        signed = f"{at}{json.dumps(body)}"
        return self.sign(signed), signed

    def sign(self, signed: str) -> str:
        return self._private.sign(signed.encode()).hex()


@pytest.fixture
def discord() -> Discord:
    return Discord()


def table(engine: Engine, discord: Discord) -> Player:
    """A protocol-3 session in a campaign whose channel was linked with the app's key."""
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana = Player("ana").seated(engine)
    engine.execute("Lab", LinkChannel(channel=CHANNEL, key=discord.public))
    engine.execute("Lab", LinkMember(member="ana", discord=ANA_ACCOUNT))
    engine.execute("Lab", StartSession())
    ana.adds(engine, "pancakes")
    close_entropy(engine)
    return ana


@pytest.fixture
def lab(engine: Engine, discord: Discord) -> Engine:
    table(engine, discord)
    return engine


def through(engine: Engine, sent: tuple[str, str], command: Any = None, **more: Any) -> Any:
    """The roll ``sent`` asks for, recorded as ana's, sealed by the interaction."""
    seal, signed = sent
    command = command or RollFreely(expression="1d20", why="to hit")
    return engine.execute("Lab", command, actor="ana", seal=seal, interaction=signed, **more)


def test_the_link_records_the_applications_key(lab: Engine, discord: Discord) -> None:
    assert discord.public == lab.campaign("Lab").channel_key(CHANNEL)
    with pytest.raises(DomainError) as refused:
        lab.execute("Lab", LinkChannel(channel="1100000000000000002", key="abc"))
    assert "INVALID_DISCORD_APP_KEY" == refused.value.code


def test_a_discord_roll_is_sealed_by_the_interaction_and_verifies(
    lab: Engine, discord: Discord
) -> None:
    sent = discord.dice("1d20", "to hit")
    made = through(lab, sent).made
    assert (made.lane, made.sealed, made.counter, made.seal) == ("ana", 0, 0, sent[0])
    assert sent[1] == made.interaction
    lab.execute("Lab", EndSession())
    (check,) = lab.verify("Lab").dice
    assert () == check.problems
    assert (made.number, "ana", sent[0]) in check.sealed


def test_its_dice_follow_from_the_seed_and_discords_signature(
    lab: Engine, discord: Discord
) -> None:
    campaign = lab.campaign("Lab")
    kept = lab.ledger.dice_secrets.get(campaign.id, campaign.session or 0)
    assert kept is not None
    roll_key = key(kept[0][:32], mixed_signed(campaign.signed))
    sent = discord.dice("3d6")
    made = through(lab, sent, RollFreely(expression="3d6")).made
    faces, _ = replay(sealed_key(roll_key, sent[0]), 0, (6, 6, 6), lane("ana"))
    assert faces == tuple(d.face for d in made.dice)


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("body tampered", "DISCORD_SEAL_NOT_SIGNED"),
        ("another key", "DISCORD_SEAL_NOT_SIGNED"),
        ("another account", "DISCORD_SEAL_NOT_THE_ROLL"),
        ("another option", "DISCORD_SEAL_NOT_THE_ROLL"),
        ("faces typed in it", "DISCORD_SEAL_NOT_THE_ROLL"),
        ("replayed", "DISCORD_SEAL_USED_AGAIN"),
        ("old", "DISCORD_SEAL_STALE"),
        ("before the commitment", "DISCORD_SEAL_STALE"),
    ],
)
def test_an_interaction_that_is_not_the_roll_is_refused_and_nothing_is_recorded(
    lab: Engine, discord: Discord, how: str, code: str
) -> None:
    seal, signed = discord.dice("1d20", "to hit")
    command = RollFreely(expression="1d20", why="to hit")
    if how == "body tampered":
        signed = signed.replace('"1d20"', '"1d19"')
        command = RollFreely(expression="1d19", why="to hit")
    elif how == "another key":
        seal, signed = Discord().dice("1d20", "to hit")
    elif how == "another account":
        seal, signed = discord.dice("1d20", "to hit", account=BO_ACCOUNT)
    elif how == "another option":
        command = RollFreely(expression="1d20", why="to hit, again")
    elif how == "faces typed in it":
        extra = ({"name": "faces", "type": 3, "value": "20"},)
        seal, signed = discord.dice("1d20", "to hit", extra=extra)
    elif how == "replayed":
        through(lab, (seal, signed), command)
    elif how == "old":
        seal, signed = discord.dice("1d20", "to hit", at=NOW - 3600)
    elif how == "before the commitment":  # fresh, but sent before the seed was committed
        seal, signed = discord.dice("1d20", "to hit", at=NOW - 5)
    before = event_count(lab)
    with pytest.raises(DomainError) as refused:
        through(lab, (seal, signed), command)
    assert code == refused.value.code
    assert before == event_count(lab)


def test_a_command_that_rolls_nothing_keeps_no_seal(lab: Engine, discord: Discord) -> None:
    """Discord's signature is offered with every slash command; a ruling keeps it only when it
    draws committed dice."""
    from domain.lifecycle import AddNote

    seal, signed = discord.command("note", [{"name": "text", "type": 3, "value": "rain stops"}])
    made = lab.execute(
        "Lab", AddNote(text="rain stops"), actor="ana", seal=seal, interaction=signed
    ).made
    assert (made.sealed, made.seal, made.interaction) == (None, "", "")


EDITS = {
    "its arguments": "not this roll",
    "its interaction's body": "not signed by the Discord application",
    "the account linked": "not this roll",
    "an interaction used twice": "sealed a roll of session 1 already",
    "an interaction before the commitment": "before session 1's commitment",
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_verify_names_a_discord_sealed_roll_rewritten_in_the_store(
    tmp_path: Path, discord: Discord, edit: str
) -> None:
    """A forger who knows the scheme rewrites the store and recomputes every link; he cannot
    sign as Discord: verify names the ruling."""
    from freezegun import freeze_time

    db = tmp_path / "campaign.db"
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        table(engine, discord)
        first = through(engine, discord.dice("1d20", "to hit")).made
        second_sent = discord.dice("1d20", "coin")
        second = through(engine, second_sent, RollFreely(expression="1d20", why="coin")).made
        engine.execute("Lab", EndSession())
        campaign_id = engine.campaign("Lab").id

    def rewritten(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":DiceCommitted") and edit == "an interaction before the commitment":
            body["at"] = (FROZEN_AT + timedelta(seconds=10)).isoformat()
        if topic.endswith(":MemberLinked") and edit == "the account linked":
            event["user"] = BO_ACCOUNT
        if not topic.endswith(":RulingMade") or event["number"] != second.number:
            return
        if edit == "its arguments":
            params = json.loads(event["params"])
            params["args"]["why"] = "coin, twice"
            event["params"] = json.dumps(params, separators=(",", ":"), sort_keys=True)
        elif edit == "its interaction's body":
            event["interaction"] = event["interaction"].replace("coin", "coin!")
        elif edit == "an interaction used twice":  # the first's, its arguments with it
            event["interaction"], event["seal"] = first.interaction, first.seal
            event["params"] = first.params

    rewrite_campaign_stream(db, campaign_id, rewritten)
    with Engine(str(db)) as engine:
        problems = [p for d in engine.verify("Lab").dice for p in d.problems]
    assert any(f"ruling {second.number}:" in p and EDITS[edit] in p for p in problems), problems


def test_verify_dice_checks_an_export_with_discord_sealed_rolls(
    tmp_path: Path, discord: Discord
) -> None:
    """The player's own check, on an export: the roll counts as sealed by its player, and an
    export whose interaction was rewritten fails, naming the ruling."""
    from click.testing import CliRunner
    from freezegun import freeze_time

    from cli.main import campaign

    db, out = tmp_path / "campaign.db", tmp_path / "lab.jsonl"
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        table(engine, discord)
        made = through(engine, discord.dice("1d20", "to hit")).made
        engine.execute("Lab", EndSession())
    runner = CliRunner()
    exported = runner.invoke(
        campaign, ["--db", str(db), "--campaign", "Lab", "export", "--out", str(out)]
    )
    assert 0 == exported.exit_code, exported.output
    checked = runner.invoke(campaign, ["verify-dice", str(out)])
    assert 0 == checked.exit_code, checked.output
    assert "sealed by their players (nobody could foresee them): ana 1" in checked.output

    def rewritten(topic: str, body: dict[str, Any]) -> None:
        if topic.endswith(":RulingMade") and body["event"]["number"] == made.number:
            body["event"]["interaction"] = body["event"]["interaction"].replace("hit", "miss")

    with Engine(str(db)) as engine:
        rewrite_campaign_stream(db, engine.campaign("Lab").id, rewritten)
    runner.invoke(campaign, ["--db", str(db), "--campaign", "Lab", "export", "--out", str(out)])
    forged = runner.invoke(campaign, ["verify-dice", str(out)])
    assert 0 != forged.exit_code
    assert f"ruling {made.number}: the interaction is not signed by the Discord application" in (
        forged.output
    )


@pytest.mark.postgres
def test_a_discord_roll_is_sealed_and_checked_on_postgresql(discord: Discord) -> None:
    """The same on PostgreSQL: the commitment's time read from its row, a roll sealed, one sent
    before the commitment refused, and verify finds nothing wrong."""
    from freezegun import freeze_time

    from tests.postgres import fresh_schema

    with fresh_schema() as url, freeze_time(FROZEN_AT), Engine(url) as engine:
        table(engine, discord)
        with pytest.raises(DomainError) as refused:
            through(engine, discord.dice("1d20", "to hit", at=NOW - 5))
        assert "DISCORD_SEAL_STALE" == refused.value.code
        made = through(engine, discord.dice("1d20", "to hit")).made
        assert 0 == made.sealed
        assert made.interaction
        engine.execute("Lab", EndSession())
        (check,) = engine.verify("Lab").dice
        assert () == check.problems
