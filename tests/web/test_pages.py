"""The pages as the server renders them, without a browser: each member's table has the forms
the policy gives them (a player's verbs for their own characters, the GM's calls left out; the
GM's controls and corrections), what they may not read is not in it, and names are escaped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient
from markupsafe import escape

from domain.policy import players_may
from domain.registry import verbs
from engine import Engine
from tests.web.conftest import CAMPAIGN, FROM_BOB, GM_NOTE, HIDDEN_WHY, TO_BOB, Table
from tests.web.scenes import GM, SCENES, XSS, seat
from web import create_app

FORM = re.compile(
    r'<form class="post" method="post" action="[^"]*/act" data-path="commands/([a-z/-]+)"'
    r' data-shape="command" data-v'
)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[tuple[str, str], str]]:
    """One campaign per system, and a token for each member of each."""
    db = str(tmp_path_factory.mktemp("pages") / "tables.db")
    with Engine(db) as engine:
        for scene in SCENES:
            seat(engine, scene)
        tokens = {
            (s.campaign, who): engine.token(s.campaign, who)
            for s in SCENES
            for who in (GM, "alice", "bob")
        }
    return db, tokens


def _now(db: str, campaign: str, who: str) -> set[str]:
    """The verbs the rules allow ``who`` now, as the engine lists them, but for the disputes'
    and the composer's (their forms are elsewhere)."""
    with Engine(db) as engine:
        found = engine.actions(campaign, reader=who).actions
    return {a.verb.replace(" ", "/") for a in found} - {"dispute", "resolve", "post"}


def _page(db: str, campaign: str, token: str) -> str:
    with TestClient(create_app(db)) as client:
        response = client.get(
            f"/campaigns/{campaign}", headers={"Authorization": f"Bearer {token}"}
        )
    assert 200 == response.status_code, response.text
    return response.text


@pytest.mark.parametrize("scene", SCENES, ids=[s.system for s in SCENES])
def test_a_players_forms_are_the_verbs_the_policy_gives_them(
    tables: tuple[str, dict[tuple[str, str], str]], scene: Any
) -> None:
    """Alice's page has one form per verb a player may issue in the system that the state does
    not refuse now (disputes are under the rulings), with her own character to choose and no
    field for the GM's calls."""
    db, tokens = tables
    html = _page(db, scene.campaign, tokens[(scene.campaign, "alice")])
    may = players_may(scene.system)
    policy = {
        name.replace(" ", "/")
        for name, verb in verbs(scene.system).items()
        if name in may and name not in ("dispute", "post")
    }
    shown = set(FORM.findall(html))
    assert _now(db, scene.campaign, "alice") == shown
    assert shown <= policy
    assert "dice" in shown
    for name in ("gm_only", "glitch", "badass", "gm_approved"):
        assert f'name="{name}"' not in html
    assert 'data-path="undo"' not in html
    for number in re.findall(r'id="d-dispute-(\d+)"', html):  # no dispute of the bookkeeping
        card = html[html.index(f'<li id="r-{number}"') :].split("</li>\n<li id=")[0]
        assert "session start" not in card.split("</p>")[0]


def test_the_gms_page_has_the_controls_and_the_corrections(
    tables: tuple[str, dict[tuple[str, str], str]],
) -> None:
    """The GM's page: the scene's end (the session and scene running, not their starts), every
    verb the state allows but the panel's, undo and amend under the rulings, the hidden
    option; no dispute buttons."""
    db, tokens = tables
    scene = SCENES[0]
    html = _page(db, scene.campaign, tokens[(scene.campaign, GM)])
    found = set(FORM.findall(html))
    assert "scene/end" in found
    assert not {"session/start", "session/end", "scene/start"} & found
    assert _now(db, scene.campaign, GM) == found
    assert 'data-path="undo"' in html
    assert 'data-path="amend"' in html
    assert 'data-kind="hidden"' in html
    assert "Dispute #" not in html


def test_each_reader_gets_only_what_they_may_read(client: TestClient[Any], table: Table) -> None:
    """The Zion table: alice reads no GM-only note, hidden roll or private message; bob reads
    his messages; the observer disputes and has no forms; the GM reads it all and resolves."""
    pages = {
        role: client.get(f"/campaigns/{CAMPAIGN}", headers=table.headers(role)).text
        for role in ("gm", "player", "other", "observer")
    }
    secrets = tuple(str(escape(s)) for s in (GM_NOTE, HIDDEN_WHY, TO_BOB, FROM_BOB))
    assert [s for s in secrets if s in pages["gm"]] == list(secrets)
    assert [] == [s for s in secrets if s in pages["player"]]
    assert [str(escape(TO_BOB)), str(escape(FROM_BOB))] == [
        s for s in secrets if s in pages["other"]
    ]
    assert [] == [s for s in secrets if s in pages["observer"]]
    assert [] == FORM.findall(pages["observer"])
    assert "Dispute #" in pages["observer"]
    assert 'data-path="resolve"' in pages["gm"]
    assert 'data-path="resolve"' not in pages["player"]


@pytest.mark.parametrize("scene", SCENES, ids=[s.system for s in SCENES])
def test_the_form_texts_are_plain_text(
    tables: tuple[str, dict[tuple[str, str], str]], scene: Any
) -> None:
    """The text above each form (its verb's help) has no reStructuredText markup: the GM's and
    a player's pages show no double backticks (issue 44)."""
    db, tokens = tables
    for who in (GM, "alice"):
        html = _page(db, scene.campaign, tokens[(scene.campaign, who)])
        assert '<p class="meta help">' in html
        assert "``" not in html, re.findall(r"[^>]*``[^<]*", html)


def test_without_javascript_the_badge_does_not_say_offline(
    tables: tuple[str, dict[tuple[str, str], str]],
) -> None:
    """The page as served, before any script runs: the live badge is empty (table.js fills it
    once the event stream opens) and, without scripts, a <noscript> says to reload for new
    posts; nothing claims the page is offline (issue 44)."""
    db, tokens = tables
    campaign = SCENES[0].campaign
    html = _page(db, campaign, tokens[(campaign, "alice")])
    assert '<span id="live" class="live" aria-live="polite"></span>' in html
    assert '<noscript><span class="live">reload for new posts</span></noscript>' in html
    assert "offline" not in html


def test_a_name_made_of_markup_is_text(tmp_path: Path) -> None:
    """A character named like an image tag is escaped wherever the page shows it."""
    from domain.rulesets.sims import commands as sims

    db = str(tmp_path / "zion.db")
    with Engine(db) as engine:
        seat(engine, SCENES[3])
        npc = sims.CreateCharacter(
            character=XSS, player=GM, qualities=("Hacking:Mental:Good",), custom=True
        )
        engine.execute(SCENES[3].campaign, npc)
        token = engine.token(SCENES[3].campaign, "alice")
    html = _page(db, SCENES[3].campaign, token)
    assert XSS not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_every_page_links_to_the_dice_check() -> None:
    """The link bar leads a member to the page on which their browser checks the dice, and to
    the table where what is new to them starts (``#new``)."""
    from web.pages import nav

    links = {n["key"]: n["href"] for n in nav("Neon", "sprawl-goons", "table")}
    assert "/campaigns/Neon/dice-check" == links["dice-check"]
    assert "/campaigns/Neon#new" == links["table"]


@pytest.mark.parametrize("page", ["recap", "dice"])
def test_a_projection_page_follows_the_stream_from_the_ruling_it_shows(
    client: TestClient[Any], table: Table, page: str
) -> None:
    """The page asks for the rulings after the one it was read at: a ruling recorded while it
    loads, before its event stream opens, still refreshes it."""
    with Engine(table.db) as engine:
        last = engine.campaign(CAMPAIGN).rulings
    html = client.get(f"/campaigns/{CAMPAIGN}/{page}", headers=table.headers("player")).text
    assert f'data-events="/campaigns/{CAMPAIGN}/events?after={last}"' in html


def _signed_in(client: TestClient, db: str, campaign: str, member: str) -> str:
    """A browser's session (cookie) and CSRF cookie, as an invite link sets them."""
    with Engine(db) as engine:
        secret = engine.invite(campaign, member)
    client.post(f"/join/{secret}", follow_redirects=False)
    client.get(f"/campaigns/{campaign}")
    return str(client.cookies.get("csrftoken"))


def test_a_post_and_a_roll_play_as_plain_forms_without_javascript(tmp_path: Path) -> None:
    """Alice posts and rolls with plain form POSTs (the CSRF token a hidden field): each is
    answered by a redirect back to the table at the ruling it recorded, which the thread shows
    under her character; a refused roll is the table again with its one line, nothing recorded;
    a form without the CSRF token is refused."""
    table = Table(db=str(tmp_path / "t.db"), tokens={})
    from tests.web.conftest import build_table

    table = build_table(table.db)
    page = f"/campaigns/{CAMPAIGN}"
    with TestClient(create_app(table.db)) as client:
        token = _signed_in(client, table.db, CAMPAIGN, "alice")
        html = client.get(page).text
        assert f'name="_csrf_token" value="{token}"' in html
        posted = client.post(
            f"{page}/act",
            data={
                "_csrf_token": token,
                "_do": "post",
                "speaker": "character:Neo",
                "text": "I *dodge* the bullets [2d6 for style]",
            },
            follow_redirects=False,
        )
        assert 303 == posted.status_code
        assert re.fullmatch(rf"{re.escape(page)}#r-\d+", posted.headers["location"])
        number = posted.headers["location"].rsplit("-", 1)[1]
        html = client.get(page).text
        card = html[html.index(f'<li id="r-{number}"') :]
        assert "Neo (alice)" in card.split("</li>")[0]
        assert "<em>dodge</em>" in card.split("</li>")[0]
        rolled = client.post(
            f"{page}/act",
            data={
                "_csrf_token": token,
                "_do": "roll",
                "character": "Neo",
                "qualities": "Kung Fu",
                "difficulty": "Good",
            },
            follow_redirects=False,
        )
        assert 303 == rolled.status_code, re.findall(r"refusal[^<]*<", rolled.text)
        before = table.events()
        refused = client.post(
            f"{page}/act",
            data={
                "_csrf_token": token,
                "_do": "roll",
                "character": "Neo",
                "qualities": "Hacking",
                "difficulty": "Good",
            },
            follow_redirects=False,
        )
        assert 422 == refused.status_code or 400 <= refused.status_code < 500
        assert 'class="said refusal"' in refused.text
        assert before == table.events()
        forged = client.post(f"{page}/act", data={"_do": "post", "speaker": "ooc", "text": "hi"})
        assert 403 == forged.status_code
        assert before == table.events()


def test_the_front_page_answers_a_person(tmp_path: Path) -> None:
    """``GET /`` is a page: how to get an invite, or (signed in) the campaign's table."""
    from tests.web.conftest import build_table

    table = build_table(str(tmp_path / "t.db"))
    with TestClient(create_app(table.db)) as client:
        anonymous = client.get("/")
        assert 200 == anonymous.status_code
        assert anonymous.headers["content-type"].startswith("text/html")
        assert "campaign member invite" in anonymous.text
        _signed_in(client, table.db, CAMPAIGN, "alice")
        signed = client.get("/")
        assert f'href="/campaigns/{CAMPAIGN}"' in signed.text
        assert "<strong>alice</strong>" in signed.text


def test_a_page_of_another_system_is_a_page_with_a_way_back(tmp_path: Path) -> None:
    """The Exposure timeline on a Sims campaign: a 404 page saying why, linking the table."""
    from tests.web.conftest import build_table

    table = build_table(str(tmp_path / "t.db"))
    with TestClient(create_app(table.db)) as client:
        response = client.get(f"/campaigns/{CAMPAIGN}/timeline", headers=table.headers("player"))
    assert 404 == response.status_code
    assert response.headers["content-type"].startswith("text/html")
    assert "no timeline page" in response.text
    assert f'<a href="/campaigns/{CAMPAIGN}">Back to the table</a>' in response.text


def test_dice_and_hidden_only_on_the_verbs_that_roll(
    tables: tuple[str, dict[tuple[str, str], str]],
) -> None:
    """The GM's forms: a dice field and "hidden" on the verbs that roll (`roll`, `dice`), none
    on `session start`, `note` or `member add`; the GM's verbs come in collapsed groups, the
    rulings first; the page's first link, its access key W, leads to the composer's post box."""
    db, tokens = tables
    scene = next(s for s in SCENES if s.system == "sims")
    html = _page(db, scene.campaign, tokens[(scene.campaign, GM)])
    for verb in ("roll", "dice"):
        assert f'id="f-{verb}-dice"' in html
        assert f'id="f-{verb}-hidden"' in html
    for key in ("session-start", "note", "member-add", "scene-end"):
        assert f'id="f-{key}-dice"' not in html
        assert f'id="f-{key}-hidden"' not in html
    groups = re.findall(r'<details class="group" id="g-([a-z]+)"', html)
    assert ["rulings", "characters", "table", "session", "members"] == groups
    assert re.search(r'<a id="write-now" class="write-now" href="#f-post-text" accesskey="w"', html)
    assert 'id="composer"' in html
    assert 'id="f-post-text"' in html
