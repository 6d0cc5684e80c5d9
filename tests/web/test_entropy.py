"""The players' entropy through the table server's API, as an attacker sends it: the GM posts a
player's genuine signature spelt another way, or the same signed words again. The engine's
command refuses both, so the API answers with the refusal and appends nothing."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from domain.audience import GMS
from domain.table import RegisterKey
from engine import Engine
from tests.integration.players import Player
from tests.web.conftest import API, CAMPAIGN, Table

ENTROPY = f"{API}/commands/entropy"


def alice_with_a_key(table: Table) -> tuple[Player, str]:
    """alice's key on her seat, and her genuine signature of "pancakes" for the session."""
    alice = Player("alice")
    with Engine(table.db) as engine:
        register = RegisterKey(member="alice", key=alice.public)
        engine.execute(CAMPAIGN, register, actor="alice", signed_in=True)
        commitment = engine.campaign(CAMPAIGN).commitment or ""
    return alice, alice.sign(commitment, "pancakes")


def sent(client: TestClient[Any], table: Table, role: str, signature: str) -> Any:
    params = {"words": "pancakes", "by": "alice", "signature": signature}
    return client.post(ENTROPY, json={"params": params}, headers=table.headers(role))


def test_a_signature_spelt_another_way_is_refused(client: TestClient[Any], table: Table) -> None:
    _, genuine = alice_with_a_key(table)
    before = table.events()
    mixed = "".join(c.upper() if i % 3 else c for i, c in enumerate(genuine))
    for role, spelling in (
        ("gm", genuine.upper()),
        ("gm", mixed),
        ("gm", f"{genuine}\n"),
        ("player", genuine.upper()),
    ):
        response = sent(client, table, role, spelling)
        assert 409 == response.status_code, (role, spelling, response.text)
        error = response.json()["error"]
        assert "ENTROPY_SIGNATURE_NOT_CANONICAL" == error["code"]
        assert "128 lowercase hex digits" in error["message"]
    assert before == table.events()
    assert 201 == sent(client, table, "gm", genuine).status_code
    with Engine(table.db) as engine:
        assert (("alice", "pancakes", genuine),) == engine.campaign(CAMPAIGN).signed


def test_the_same_signed_words_are_taken_once(client: TestClient[Any], table: Table) -> None:
    _, genuine = alice_with_a_key(table)
    assert 201 == sent(client, table, "player", genuine).status_code
    before = table.events()
    for role in ("gm", "player"):
        response = sent(client, table, role, genuine)
        assert 409 == response.status_code, (role, response.text)
        assert "ENTROPY_ALREADY_COUNTED" == response.json()["error"]["code"]
    assert before == table.events()


KEY = f"{API}/commands/member/key"


def key_events(table: Table) -> list[Any]:
    from domain.events import MemberKeyRegistered

    with Engine(table.db) as engine:
        return [
            r.event
            for e in engine.log(CAMPAIGN, audience=GMS)
            for r in e.events
            if isinstance(r.event, MemberKeyRegistered)
        ]


def test_a_key_a_player_puts_on_her_seat_through_the_api_is_hers_and_counts(
    client: TestClient[Any], table: Table
) -> None:
    """Signed in, alice registers her key (as the dice page's register() does): it is recorded
    as put there from her own signed-in client, so her signed words count; the same key put on
    her seat by the GM, signed in as himself, is recorded as put there at the GM's keyboard."""
    alice = Player("alice")
    params = {"member": "alice", "key": alice.public}
    assert 201 == client.post(KEY, json={"params": params}, headers=table.headers("gm")).status_code
    assert [False] == [e.signed_in for e in key_events(table)]
    response = client.post(KEY, json={"params": params}, headers=table.headers("player"))
    assert 201 == response.status_code, response.text
    assert [False, True] == [e.signed_in for e in key_events(table)]
    with Engine(table.db) as engine:
        commitment = engine.campaign(CAMPAIGN).commitment or ""
    assert 201 == sent(client, table, "player", alice.sign(commitment, "pancakes")).status_code
    with Engine(table.db) as engine:
        assert ["alice"] == [who for who, _, _ in engine.campaign(CAMPAIGN).signed]
