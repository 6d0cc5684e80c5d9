"""The dice page checks a player's sealed rolls (protocol 3) as `verify` does: the page's own
script (web/static/dice_check.js, in Chromium) recomputes each from the revealed seed and the
seal, checks the seal against the key on the seat then and the order of each member's sealed
rolls, and marks a forged one as not matching; the browser and `verify` agree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from engine import Engine
from tests.integration.players import Player
from tests.integration.test_commit_reveal import rewrite_campaign_stream
from tests.web.servers import CHROMIUM
from tests.web.test_amend_dice_page import checked_in_browser, page

GM = "Rosa"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)


def played(db: Path) -> dict[str, int]:
    """ana seals two rolls and bo one, between rolls of the GM and one the GM made as ana."""
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana, bo = Player("ana").seated(engine), Player("bo").seated(engine)
        engine.execute("Lab", StartSession())
        ana.adds(engine, "pancakes")
        first = ana.rolls(engine, RollFreely(expression="2d6", why="the jump")).number
        engine.execute("Lab", RollFreely(expression="1d20", why="the guard"))
        engine.execute("Lab", RollFreely(expression="1d4", why="coin"), actor="ana")
        second = ana.rolls(engine, RollFreely(expression="1d20+2", why="ünïcode")).number
        third = bo.rolls(engine, RollFreely(expression="3d6")).number
        engine.execute("Lab", EndSession())
    return {"first": first, "second": second, "third": third}


def statuses(result: dict[str, Any]) -> dict[int, str]:
    return {ruling: status for ruling, status, _ in result["rows"]}


def test_every_sealed_roll_is_verified_in_the_browser(tmp_path: Path, browser: Any) -> None:
    db = tmp_path / "lab.db"
    n = played(db)
    (result,) = checked_in_browser(browser, page(db, 1))
    assert [] == result["problems"]
    assert {"verified"} == set(statuses(result).values())
    assert {n["first"], n["second"], n["third"]} <= set(statuses(result))
    with Engine(str(db)) as engine:
        assert [()] == [d.problems for d in engine.verify("Lab").dice]


@pytest.mark.parametrize("edit", ["faces", "seal", "order"])
def test_a_forged_sealed_roll_does_not_match_in_the_browser(
    tmp_path: Path, browser: Any, edit: str
) -> None:
    db = tmp_path / "lab.db"
    n = played(db)
    with Engine(str(db)) as engine:
        campaign_id = engine.campaign("Lab").id

    def rewritten(topic: str, body: dict[str, Any]) -> None:
        event = body.get("event", {})
        if event.get("number") != n["second"] or not event.get("seal"):
            return
        if edit == "faces":
            event["dice"] = [{"sides": 20, "face": 1 + event["dice"][0]["face"] % 20}]
        elif edit == "seal":
            event["seal"] = Player("ana").seal("campaign-log roll 3")
        else:
            event["sealed"] = 0

    rewrite_campaign_stream(db, campaign_id, rewritten)
    (result,) = checked_in_browser(browser, page(db, 1))
    assert "mismatch" == statuses(result)[n["second"]]
    with Engine(str(db)) as engine:
        problems = [p for d in engine.verify("Lab").dice for p in d.problems]
    assert any(f"ruling {n['second']}" in p for p in problems), problems
