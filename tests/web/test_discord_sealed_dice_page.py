"""The dice page checks a roll sealed through Discord (protocol 3) as `verify` does: the page's
own script (web/static/dice_check.js, in Chromium) checks Discord's signature of the interaction
by the key recorded at the channel's link, the account linked to the roller, the options sent
against the arguments recorded, each interaction once and after the commitment, and recomputes
the dice from the revealed seed and the signature; a rewritten one does not match in the
browser, and `verify` names the same ruling."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession
from engine import Engine
from tests.conftest import FROZEN_AT
from tests.integration.test_commit_reveal import rewrite_campaign_stream
from tests.integration.test_discord_sealed_rolls import BO_ACCOUNT, Discord, table, through
from tests.web.servers import CHROMIUM
from tests.web.test_amend_dice_page import checked_in_browser, page

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)
EDITS = {  # each rewrite, and what the page says of the roll
    "its arguments": "is not this roll",
    "its body": "not signed by the Discord application",
    "the account linked": "sent by Discord account",
    "used twice": "sealed a roll of this session already",
    "before the commitment": "before the session's commitment",
}


def played(db: Path) -> tuple[Any, Any]:
    """Two rolls of ana's through Discord, and the session ended: the two rulings' headers."""
    discord = Discord()
    with freeze_time(FROZEN_AT), Engine(str(db)) as engine:
        table(engine, discord)
        first = through(engine, discord.dice("1d20", "to hit")).made
        sent = discord.dice("1d20", "coin")
        second = through(engine, sent, RollFreely(expression="1d20", why="coin")).made
        engine.execute("Lab", EndSession())
    return first, second


def statuses(result: dict[str, Any]) -> dict[int, str]:
    return {ruling: status for ruling, status, _ in result["rows"]}


def test_a_roll_sealed_through_discord_is_verified_in_the_browser(
    tmp_path: Path, browser: Any
) -> None:
    db = tmp_path / "lab.db"
    first, second = played(db)
    (result,) = checked_in_browser(browser, page(db, 1))
    assert [] == result["problems"]
    assert "verified" == statuses(result)[first.number] == statuses(result)[second.number]
    with Engine(str(db)) as engine:
        assert [()] == [d.problems for d in engine.verify("Lab").dice]


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_rewritten_discord_seal_does_not_match_in_the_browser(
    tmp_path: Path, browser: Any, edit: str
) -> None:
    db = tmp_path / "lab.db"
    first, second = played(db)
    with Engine(str(db)) as engine:
        campaign_id = engine.campaign("Lab").id

    def rewritten(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if topic.endswith(":DiceCommitted") and edit == "before the commitment":
            body["at"] = (FROZEN_AT + timedelta(seconds=10)).isoformat()
        if topic.endswith(":MemberLinked") and edit == "the account linked":
            event["user"] = BO_ACCOUNT
        if not topic.endswith(":RulingMade") or event["number"] != second.number:
            return
        if edit == "its arguments":
            params = json.loads(event["params"])
            params["args"]["why"] = "coin, twice"
            event["params"] = json.dumps(params, separators=(",", ":"), sort_keys=True)
        elif edit == "its body":
            event["interaction"] = event["interaction"].replace("coin", "coin!")
        elif edit == "used twice":
            event["interaction"], event["seal"] = first.interaction, first.seal
            event["params"] = first.params

    rewrite_campaign_stream(db, campaign_id, rewritten)
    (result,) = checked_in_browser(browser, page(db, 1))
    assert "mismatch" == statuses(result)[second.number]
    why = {ruling: why for ruling, _, why in result["rows"]}[second.number]
    assert EDITS[edit] in why, why
    with Engine(str(db)) as engine:
        problems = [p for d in engine.verify("Lab").dice for p in d.problems]
    assert any(f"ruling {second.number}:" in p for p in problems), problems
