"""A scene of each system played twice, once through the Discord endpoint (signed interactions,
as Discord sends them) and once through the `campaign` command line, on two stores: the two
logs are the same rulings (verbs, parameters, who made them, the dice, every line of what
changed). Discord is a front end of the one application API, not a second rules engine."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar.testing import TestClient

from cli.main import campaign
from domain.audience import GMS
from domain.events import Role
from domain.links import LinkChannel, LinkMember
from engine import Engine, event_lines
from tests.web.test_discord import CHANNEL, IDS, NOW, PATH, signed
from web import create_app
from web.discord import interactions

GM = "Rosa"
ACCOUNTS = {GM: "2200000000000000001", "ana": "2200000000000000002", "ben": "2200000000000000003"}

# Each step: who, the verb, its options as Discord sends them (``faces``: the dice rolled at
# the table), and the same as a `campaign` command line.
Step = tuple[str, str, dict[str, Any], str]
SCENES: dict[str, list[Step]] = {
    "code-green": [
        (GM, "session start", {"physical_dice": True}, "session start --physical-dice"),
        (GM, "scene start", {"stage": "The cold room"}, 'scene start "The cold room"'),
        (
            GM,
            "character create",
            {
                "player": "ana",
                "seat_player": True,  # as `campaign character create --player` sets it
                "form": "Legs,Tail,Teeth",
                "function": "Cryptic,Invulnerable,Phasing",
                "faces": "3,1,4,1,5",
            },
            "character create --player ana --form Legs,Tail,Teeth"
            " --function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
        ),
        (
            "ana",
            "place",
            {"character": "31415", "squares": "R1C1,R2C2,R3C3"},
            "place 31415 R1C1 R2C2 R3C3",
        ),
        (
            "ana",
            "test",
            {"character": "31415", "form": "Legs", "function": "Invulnerable"},
            "test 31415 Legs Invulnerable",
        ),
        ("ana", "roll", {"character": "31415", "faces": "2,5"}, "roll 31415 --dice 2,5"),
        (
            "ana",
            "adapt",
            {"character": "31415", "source": "R1C1", "destination": "R1C2"},
            "adapt 31415 R1C1 R1C2",
        ),
        ("ana", "note", {"text": "the guard was asleep"}, 'note "the guard was asleep"'),
    ],
    "sprawl-goons": [
        (
            GM,
            "character create",
            {
                "character": "Tanner",
                "player": "ana",
                "seat_player": True,  # as `campaign character create --player` sets it
                "morphology": 2,
                "reaction": 1,
                "cognition": 1,
                "equilibrium": 0,
                "items": "melee:Katana,armour:Kevlar jacket,lazarus",
                "faces": "3,4,5,2",
            },
            "character create Tanner --player ana --stats 2,1,1,0 --item melee:Katana"
            ' --item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
        ),
        (GM, "session start", {"physical_dice": True}, "session start --physical-dice"),
        (
            GM,
            "scene start",
            {"stage": "The container stacks"},
            'scene start "The container stacks"',
        ),
        (
            "ana",
            "roll",
            {"character": "Tanner", "stat": "reaction", "ds": "10", "faces": "3,3"},
            "roll Tanner reaction --ds 10 --dice 3,3",
        ),
        (
            "ana",
            "dice",
            {"expression": "2d6+1", "why": "does the crane hold", "faces": "4,2"},
            'dice 2d6+1 --why "does the crane hold" --dice 4,2',
        ),
    ],
    "sims": [
        (
            GM,
            "character create",
            {
                "character": "Neo",
                "player": "ana",
                "seat_player": True,  # as `campaign character create --player` sets it
                "qualities": "Kung Fu:Combat:Good,Outdoorsman:Physical:Good",
                "custom": True,
            },
            'character create Neo --player ana --quality "Kung Fu:Combat:Good"'
            " --quality Outdoorsman:Physical:Good --custom",
        ),
        (GM, "session start", {"physical_dice": True}, "session start --physical-dice"),
        (
            GM,
            "scene start",
            {"stage": "The wall behind the club"},
            'scene start "The wall behind the club"',
        ),
        (
            "ana",
            "roll",
            {
                "character": "Neo",
                "qualities": "Outdoorsman",
                "difficulty": "Good",
                "task": "the club wall",
                "faces": "3,5",
            },
            'roll Neo Outdoorsman --difficulty Good --task "the club wall" --dice 3,5',
        ),
        (
            "ana",
            "post",
            {"text": "Neo asks who Smith is", "to": GM, "character": "Neo"},
            'post "Neo asks who Smith is" --to Rosa --character Neo',
        ),
    ],
    "the-code": [
        (
            GM,
            "character create",
            {
                "player": "ana",
                "seat_player": True,  # as `campaign character create --player` sets it
                "code_name": "The Hawk",
                "secret_identity": "Mitch Mason",
                "physical_description": "tall, trench coat",
                "profession": "private eye",
                "advantages": "keen eyes",
                "weakness": "bum leg",
                "objective": "catch criminals",
                "objective_score": 6,
                "modus_operandi": "handcuffs crooks to a phone booth",
                "exposure": 1,
            },
            'character create "The Hawk" --player ana --identity "Mitch Mason"'
            ' --description "tall, trench coat" --profession "private eye"'
            ' --advantage "keen eyes" --weakness "bum leg" --objective "catch criminals"'
            ' --score 6 --mo "handcuffs crooks to a phone booth" --exposure 1',
        ),
        (
            GM,
            "npc",
            {"character": "the crook", "profession": "burglar", "advantages": "stealth"},
            'npc "the crook" --profession burglar --advantage stealth',
        ),
        (GM, "session start", {"physical_dice": True}, "session start --physical-dice"),
        (
            GM,
            "step",
            {"character": "The Hawk", "task": "spot the crook", "profession": True},
            'step "The Hawk" "spot the crook" --profession',
        ),
        (
            GM,
            "step",
            {
                "character": "the crook",
                "task": "spot the crook",
                "profession": True,
                "advantage": True,
            },
            'step "the crook" "spot the crook" --profession --advantage',
        ),
        (
            GM,
            "contest",
            {
                "task": "spot the crook",
                "hero": "The Hawk",
                "opponent": "the crook",
                "dice": 1,
                "faces": "7",
            },
            'contest "spot the crook" "The Hawk" --roll 1 --vs "the crook" --dice 7',
        ),
    ],
}


def table(db: str, system: str) -> None:
    with Engine(db) as engine:
        members = {"ana": Role.PLAYER, "ben": Role.PLAYER}
        engine.create_campaign("Scene", system, gm=GM, members=members)
        engine.execute("Scene", LinkChannel(channel=CHANNEL))
        for member, account in ACCOUNTS.items():
            engine.execute("Scene", LinkMember(member=member, discord=account))


def interaction(who: str, verb: str, options: dict[str, Any]) -> dict[str, Any]:
    typed = [
        {
            "name": k,
            "type": 5 if isinstance(v, bool) else 4 if isinstance(v, int) else 3,
            "value": v,
        }
        for k, v in options.items()
    ]
    first, _, second = verb.partition(" ")
    given = [{"name": second, "type": 1, "options": typed}] if second else typed
    return {
        "id": str(next(IDS)),
        "application_id": "4400000000000000001",
        "type": 2,
        "token": "t",
        "version": 1,
        "channel_id": CHANNEL,
        "member": {"user": {"id": ACCOUNTS[who]}},
        "data": {"id": "1", "name": first, "type": 1, "options": given},
    }


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))


def the_log(db: str) -> list[tuple[Any, ...]]:
    """The rulings after the table was set, without their moments, ids and the sessions' seed
    hashes (each store's own secret)."""
    with Engine(db) as engine:
        state = engine.campaign("Scene")
        return [
            (
                e.ruling.command,
                json.loads(e.ruling.params),
                e.header.actor,
                [(d.sides, d.face) for d in e.ruling.dice],
                str(e.ruling.provenance),
                [line for line in event_lines(e.events, state) if "seed hash" not in line],
            )
            for e in engine.log("Scene", audience=GMS)[2 + len(ACCOUNTS) :]
        ]


@pytest.mark.parametrize("system", sorted(SCENES))
def test_a_scene_played_in_discord_is_the_scene_played_at_the_command_line(
    system: str, tmp_path: Path, key: Ed25519PrivateKey, clock: None
) -> None:
    by_discord, by_cli = str(tmp_path / "discord.db"), str(tmp_path / "cli.db")
    table(by_discord, system)
    table(by_cli, system)
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    runner = CliRunner()
    with TestClient(create_app(by_discord, discord_public_key=public)) as client:
        for who, verb, options, line in SCENES[system]:
            body = json.dumps(interaction(who, verb, options)).encode()
            answer = client.post(PATH, content=body, headers=signed(key, body)).json()
            assert "embeds" in answer["data"], (verb, answer)
            argv = ["--db", by_cli, "--campaign", "Scene", "--as", who, *shlex.split(line)]
            result = runner.invoke(campaign, argv)
            assert 0 == result.exit_code, (line, result.output)
    played = the_log(by_discord)
    assert len(SCENES[system]) == len(played)
    assert the_log(by_cli) == played
