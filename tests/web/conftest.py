"""A table for the server's tests: a Sims campaign on a SQLite file, with a GM, two players, an
observer, their bearer tokens, and secrets each reader must or must not see (a private message
and its reply, a GM-only note, a hidden roll); the app in Litestar's in-process test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attrs import frozen
from litestar.testing import TestClient

from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import AddNote, StartScene, StartSession
from domain.posts import WritePost
from domain.rulesets.sims import commands as sims
from domain.rulesets.sims.tables import SheetKind
from domain.table import DisputeRuling
from engine import DiceSpec, Engine
from tests.conftest import event_count
from web import create_app

CAMPAIGN = "Zion"
API = f"/api/campaigns/{CAMPAIGN}"
# Words only some readers may read: bob's private message (the GM's to bob, bob's reply), the
# GM's note and hidden roll.
TO_BOB = "The ledger for a steak."
FROM_BOB = "Deal, Agent."
GM_NOTE = "Smith is Neo's twin"
HIDDEN_WHY = "whether the sentinels come"
ROLES = ("gm", "player", "other", "observer", "nobody")
MEMBER = {"gm": "Morpheus", "player": "alice", "other": "bob", "observer": "olly"}


@frozen
class Table:
    db: str
    tokens: dict[str, str]  # role -> bearer token

    def headers(self, role: str) -> dict[str, str]:
        token = self.tokens.get(role)
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def events(self) -> int:
        with Engine(self.db) as engine:
            return event_count(engine)


def build_table(db: str) -> Table:
    members = {"alice": Role.PLAYER, "bob": Role.PLAYER, "olly": Role.OBSERVER}
    with Engine(db) as engine:
        engine.create_campaign(CAMPAIGN, "sims", gm="Morpheus", members=members)
        for command in (
            StartSession(),
            StartScene(stage="The rooftop"),
            sims.CreateCharacter(
                character="Neo", player="alice", qualities=("Kung Fu:Combat:Good",), custom=True
            ),
            sims.CreateCharacter(
                character="Cypher", player="bob", qualities=("Knives:Combat:Good",), custom=True
            ),
            sims.CreateCharacter(
                character="Smith",
                player="Morpheus",
                qualities=("Kung Fu:Combat:Expert",),
                kind=SheetKind.NPC,
            ),
            WritePost(text=TO_BOB, to=("bob",), by="Morpheus", character="Smith"),
        ):
            engine.execute(CAMPAIGN, command)
        reply = WritePost(text=FROM_BOB, to=("Morpheus",), by="bob", character="Cypher")
        engine.execute(CAMPAIGN, reply, actor="bob")
        engine.execute(CAMPAIGN, AddNote(text=GM_NOTE, gm_only=True))
        secret = RollFreely(expression="1d6", why=HIDDEN_WHY)
        engine.execute(CAMPAIGN, secret, dice=DiceSpec(faces=(4,)), hidden=True)
        dispute = DisputeRuling(ruling=3, reason="Neo came first", by="olly")
        engine.execute(CAMPAIGN, dispute, actor="olly")
        tokens = {role: engine.token(CAMPAIGN, name) for role, name in MEMBER.items()}
    return Table(db=db, tokens=tokens)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return build_table(str(tmp_path / "zion.db"))


@pytest.fixture
def client(table: Table) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(table.db)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """The system's Chromium under Playwright, for a module's browser tests."""
    from tests.web.servers import chromium

    with chromium() as launched:
        yield launched
