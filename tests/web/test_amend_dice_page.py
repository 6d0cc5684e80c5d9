"""The dice page checks an amendment's re-drawn dice as `verify` does (issue 42, item 4): the
server sends, of an amendment that drew dice its ruling never rolled, the ruling it amends, who
made that ruling and how many of its dice it drew; the page's own script
(web/static/dice_check.js, run here in Chromium, as the other browser tests) recomputes them
from the roller's lane, marks a forged one as not matching, and lists every ruling's re-draws
with their count, word for word as `verify` lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.audience import GMS
from domain.events import DiceRevealed
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.table import RevealRuling
from engine import Engine
from engine.dice.committed import key, lane, mixed_signed, replay
from engine.dice.sources import SystemDice
from tests.integration.players import Player, close_entropy
from tests.integration.test_commit_reveal import rewrite_campaign_stream
from tests.web.servers import CHROMIUM
from web import create_app
from web.dice_check import SCRIPT, facts

GM = "Rosa"

RUN = """async (data) => {
  const found = await diceCheck.commitments(data.steps);
  const out = [];
  for (const c of found) {
    const r = await diceCheck.check(c, data.session);
    out.push({
      problems: r.problems,
      warnings: r.warnings.map((w) => w.text),
      rows: r.rows.filter((row) => !row.gap).map((row) => [row.item.ruling, row.status, row.why]),
    });
  }
  return out;
}"""
ORIGIN = "http://127.0.0.1:9"  # never reached: the browser is answered by the route below


def checked_in_browser(browser: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What the page's script makes of the page's data in Chromium: per commitment, its
    problems, its warnings and each row's ruling, status and why (the script on a blank page
    of a local origin, where WebCrypto is available)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(
            f"{ORIGIN}/**",
            lambda route: route.fulfill(
                content_type="text/html", body="<!doctype html><title>check</title>"
            ),
        )
        page.goto(f"{ORIGIN}/check")
        page.add_script_tag(content=SCRIPT.read_text(encoding="utf-8"))
        found: list[dict[str, Any]] = page.evaluate(RUN, data)
        return found
    finally:
        context.close()


def rolls(engine: Engine, expression: str, **how: Any) -> int:
    return engine.execute("Lab", RollFreely(expression=expression, why="x"), **how).number


def amends(engine: Engine, ruling: int, expression: str) -> int:
    return engine.amend("Lab", ruling, {"expression": expression}, reason="more").number


def played(db: Path) -> dict[str, Any]:
    """Session 1: ana's key and signed words; ana's 1d6 amended to 2d6 three times; the GM's
    hidden 1d6 amended while hidden, both revealed; the GM's 1d20 amended once; a hidden 1d4
    amended, neither ever revealed. Session 2: ana's roll of session 1 amended again. Both
    ended."""
    with Engine(str(db)) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        ana = Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        ana.adds(engine, "my own words")
        counted = ana.counted(engine, "my own words")
        roll = rolls(engine, "1d6", actor="ana")
        again = [amends(engine, roll, "2d6") for _ in range(3)]
        hidden = rolls(engine, "1d6", hidden=True)
        secret = amends(engine, hidden, "3d6")
        engine.execute("Lab", RevealRuling(ruling=hidden))
        engine.execute("Lab", RevealRuling(ruling=secret))
        gms = rolls(engine, "1d20")
        gm_again = amends(engine, gms, "2d20")
        kept = rolls(engine, "1d4", hidden=True)
        kept_again = amends(engine, kept, "2d4")  # never revealed, nor is its amendment
        engine.execute("Lab", EndSession())
        engine.execute("Lab", StartSession())
        later = amends(engine, roll, "3d6")
        engine.execute("Lab", EndSession())
    return {
        "roll": roll,
        "first": again[0],
        "second": again[1],
        "third": again[2],
        "hidden": hidden,
        "secret": secret,
        "gms": gms,
        "gm_again": gm_again,
        "kept": kept,
        "kept_again": kept_again,
        "later": later,
        "counted": counted,
    }


def verify_says(db: Path, session: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    with Engine(str(db)) as engine:
        check = next(d for d in engine.verify("Lab").dice if d.session == session)
    return check.problems, check.warnings


def page(db: Path, session: int, member: str = "ana") -> dict[str, Any]:
    with Engine(str(db)) as engine:
        return facts(engine, "Lab", session, member)


def test_the_page_sends_what_each_amendment_re_drew(tmp_path: Path) -> None:
    """Each amendment that drew dice says which ruling it amends, who made it (also when that
    ruling is in an earlier session) and how many of its dice it drew; other rulings say
    nothing of the kind."""
    db = tmp_path / "campaign.db"
    n = played(db)
    steps = {s["ruling"]: s for s in page(db, 1)["steps"] if s["step"] == "roll"}
    assert {"amends": {"ruling": n["roll"], "by": "ana"}, "fresh": 1} == {
        k: steps[n["first"]][k] for k in ("amends", "fresh")
    }
    assert ("ana", 2) == (steps[n["third"]]["lane"], len(steps[n["third"]]["dice"]))
    assert {"ruling": n["hidden"], "by": GM} == steps[n["secret"]]["amends"]
    assert "amends" not in steps[n["roll"]]
    unread = next(s for s in page(db, 1)["steps"] if s["ruling"] == n["kept_again"])
    assert ("unread", {"ruling": n["kept"], "by": GM}) == (unread["step"], unread["amends"])
    assert "fresh" not in unread  # how many dice a ruling she may not read drew: not hers
    (later,) = [s for s in page(db, 2)["steps"] if s["step"] == "roll"]
    assert ({"ruling": n["roll"], "by": "ana"}, 2) == (later["amends"], later["fresh"])


IN_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium; .ci/run does)"
)


@IN_CHROMIUM
def test_the_page_checks_re_draws_and_lists_them_as_verify_does(
    tmp_path: Path, browser: Any
) -> None:
    """In ana's browser: every amendment's new dice follow from the commitment (ana's lane, the
    GM's, the hidden key revealed); the warnings are `verify`'s, word for word, among them each
    ruling's re-draws with their count; session 2's re-draw of a session 1 roll too."""
    db = tmp_path / "campaign.db"
    n = played(db)
    for session in (1, 2):
        (result,) = checked_in_browser(browser, page(db, session))
        problems, warnings = verify_says(db, session)
        assert ((), ()) == (problems, tuple(result["problems"]))
        assert list(warnings) == result["warnings"]
        assert {status for _, status, _ in result["rows"]} <= {"verified", "hidden"}
    (first,) = checked_in_browser(browser, page(db, 1))
    assert {n[k] for k in ("first", "second", "third", "secret", "gm_again")} <= {
        ruling for ruling, _, _ in first["rows"]
    }
    redraws = [w for w in first["warnings"] if "re-drawn" in w]
    amendments = f"{n['first']}, {n['second']}, {n['third']}"
    assert [
        f"ruling {n['roll']} (by ana): its dice were re-drawn 3 times, by amendments "
        f"{amendments} (by {GM})",
        f"ruling {n['hidden']} (by {GM}): its dice were re-drawn once, by amendment "
        f"{n['secret']} (by {GM})",
        f"ruling {n['gms']} (by {GM}): its dice were re-drawn once, by amendment "
        f"{n['gm_again']} (by {GM})",
        f"ruling {n['kept']} (by {GM}): its dice were re-drawn once, by amendment "
        f"{n['kept_again']} (by {GM})",
    ] == redraws
    rows = {ruling: status for ruling, status, _ in first["rows"]}
    assert ("hidden", "hidden") == (rows[n["kept"]], rows[n["kept_again"]])


@IN_CHROMIUM
def test_a_forged_re_draw_does_not_match_on_the_page(tmp_path: Path, browser: Any) -> None:
    """Rewritten in the store (chains recomputed): one amendment's new die, another's lane (the
    GM's, with the faces his lane gives there). The page marks both as not matching, saying
    why, as `verify` names them."""
    db = tmp_path / "campaign.db"
    n = played(db)
    with Engine(str(db)) as engine:
        campaign = engine.campaign("Lab")
        ended = next(
            r.event
            for entry in engine.log("Lab", session=1, audience=GMS)
            for r in entry.events
            if isinstance(r.event, DiceRevealed)
        )
    k = key(bytes.fromhex(ended.seed), mixed_signed([n["counted"]]))  # the GM's forgery

    def forge(topic: str, body: dict[str, Any]) -> None:
        event = body["event"]
        if not topic.endswith(":RulingMade"):
            return
        if event["number"] == n["first"]:
            event["dice"][-1]["face"] = event["dice"][-1]["face"] % 6 + 1
        elif event["number"] == n["second"]:
            faces, draws = replay(k, 2, (6,), lane(GM))
            event.update(lane=GM, counter=2, draws=draws)
            event["dice"][-1]["face"] = faces[0]

    rewrite_campaign_stream(db, campaign.id, forge)
    (result,) = checked_in_browser(browser, page(db, 1))
    rows = {ruling: (status, why) for ruling, status, why in result["rows"]}
    assert ("mismatch", "the recorded dice do not follow from the seed") == rows[n["first"]]
    assert (
        "mismatch",
        f"amends ruling {n['roll']}, made by ana, but drew {GM}'s committed dice",
    ) == rows[n["second"]]
    problems, _ = verify_says(db, 1)
    assert any(p.startswith(f"ruling {n['first']}: the dice do not follow") for p in problems)
    assert any(p.startswith(f"ruling {n['second']}: amends ruling") for p in problems)


def test_through_the_api_a_re_draw_comes_from_the_rollers_lane(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ana rolls 1d6 through the JSON API; the GM amends it to 2d6 there, twice. Each new die
    is drawn from ana's committed counters (the OS's dice fail if asked), and the checks list
    the two re-draws."""

    def refuse(self: SystemDice, sides: int) -> int:
        raise AssertionError(f"a d{sides} was drawn from the operating system")

    monkeypatch.setattr(SystemDice, "roll", refuse)
    db = str(tmp_path / "campaign.db")
    with Engine(db) as engine:
        engine.create_campaign("Lab", "sprawl-goons", gm=GM)
        Player("ana").seated(engine)
        engine.execute("Lab", StartSession())
        close_entropy(engine)  # ana adds no words tonight
        tokens = {who: engine.token("Lab", who) for who in (GM, "ana")}
    api = "/api/campaigns/Lab"
    with TestClient(create_app(db)) as client:

        def post(who: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {tokens[who]}"}
            response = client.post(api + path, json=body, headers=headers)
            assert 201 == response.status_code, response.text
            answer: dict[str, Any] = response.json()
            return answer

        roll = post("ana", "/commands/dice", {"params": {"expression": "1d6", "why": "x"}})
        change = {"ruling": roll["ruling"], "changes": {"expression": "2d6"}, "reason": "two"}
        made = [post(GM, "/amend", change) for _ in range(2)]
    assert ["digital-committed"] * 2 == [m["provenance"] for m in made]
    with Engine(db) as engine:
        assert 3 == engine.campaign("Lab").lane("ana")
        check = next(d for d in engine.verify("Lab").dice if d.session == 1)
    amendments = f"{made[0]['ruling']}, {made[1]['ruling']}"
    assert () == check.problems
    assert (
        f"ruling {roll['ruling']} (by ana): its dice were re-drawn 2 times, by amendments "
        f"{amendments} (by {GM})"
    ) in check.warnings
