"""The actions beside the composer, as the server renders them: only the verbs the rules allow
the member now, for the character chosen, the expected first and marked; the JSON API gives the
same list; a verb the page hides, posted anyway, is refused in place and records nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.rulesets.code_green import commands as cg
from engine import Engine, converter
from tests.web.scenes import GM, SCENES, character_of, seat
from web import create_app

SCENE = SCENES[0]  # Code Green: a test to declare, roll, assist and adapt
VERB = re.compile(r'<details class="verb( expected)?" id="d-[a-z-]+"[^>]*><summary>([a-z -]+?)[ <]')


@pytest.fixture
def night(tmp_path: Any) -> tuple[str, dict[str, str]]:
    db = str(tmp_path / "night.db")
    with Engine(db) as engine:
        seat(engine, SCENE)
        tokens = {who: engine.token(SCENE.campaign, who) for who in (GM, "alice", "bob")}
    return db, tokens


def _forms(client: TestClient[Any], token: str, query: str = "") -> list[tuple[str, bool]]:
    """The verbs of the forms on a member's table, in order, and whether each is expected."""
    page = client.get(f"/campaigns/{SCENE.campaign}{query}", headers=_bearer(token))
    assert 200 == page.status_code, page.text
    return [(verb, bool(mark)) for mark, verb in VERB.findall(page.text)]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _declare(db: str, player: str) -> None:
    with Engine(db) as engine:
        name = character_of(engine, SCENE.campaign, player)
        engine.execute(SCENE.campaign, cg.DeclareTest(character=name, form=None, function=None))


def test_the_expected_step_comes_first_and_marked(night: tuple[str, dict[str, str]]) -> None:
    """No test open: alice's first form is `test`, marked next; no roll, assist or adapt."""
    db, tokens = night
    with TestClient(create_app(db)) as client:
        forms = _forms(client, tokens["alice"])
    assert ("test", True) == forms[0]
    assert not {"roll", "assist", "adapt"} & {verb for verb, _ in forms}


def test_an_open_test_offers_its_roll_and_assists(night: tuple[str, dict[str, str]]) -> None:
    """alice's declared test: her page offers its roll first, bob's an assist, neither a test."""
    db, tokens = night
    _declare(db, "alice")
    with TestClient(create_app(db)) as client:
        alice = _forms(client, tokens["alice"])
        bob = _forms(client, tokens["bob"])
    assert ("roll", True) == alice[0]
    assert ("assist", True) == bob[0]
    assert "test" not in {verb for verb, _ in alice + bob}


def test_the_gm_chooses_whom_the_actions_are_for(night: tuple[str, dict[str, str]]) -> None:
    """``?character=`` shows the GM's actions for that character, its name in their acting
    fields and the composer's speaker; the groups stay."""
    db, tokens = night
    _declare(db, "alice")
    with Engine(db) as engine:
        bob = character_of(engine, SCENE.campaign, "bob")
    with TestClient(create_app(db)) as client:
        html = client.get(
            f"/campaigns/{SCENE.campaign}?character={bob}", headers=_bearer(tokens[GM])
        ).text
    assert f'<option value="{bob}" selected>{bob}</option>' in html
    assert f'<option value="character:{bob}" selected>' in html
    assert 'id="f-assist-helper" name="helper" data-kind="str" list="names" maxlength' in html
    assert f'value="{bob}" required' in html
    assert 'id="g-rulings" open' in html
    first = VERB.search(html[html.index('id="g-rulings"') :])
    assert first is not None
    assert ("assist", " expected") == (first[2], first[1])


def test_the_api_gives_the_same_actions(night: tuple[str, dict[str, str]]) -> None:
    """``GET .../actions`` is the engine's result as it is: the page's one shape."""
    db, tokens = night
    with Engine(db) as engine:
        expected = converter.unstructure(engine.actions(SCENE.campaign, reader="bob"))
    with TestClient(create_app(db)) as client:
        got = client.get(f"/api/campaigns/{SCENE.campaign}/actions", headers=_bearer(tokens["bob"]))
    assert 200 == got.status_code
    assert expected == got.json()
    assert {"verb": "test", "expected": True} == got.json()["actions"][0]


def test_a_hidden_verb_posted_anyway_is_refused_in_place(
    night: tuple[str, dict[str, str]],
) -> None:
    """The page is not the guard: bob's `test` while alice's is open, posted as a plain form,
    is refused by the rules; the page shows its one line and nothing is recorded."""
    db, _ = night
    _declare(db, "alice")
    page = f"/campaigns/{SCENE.campaign}"
    with Engine(db) as engine:
        bob = character_of(engine, SCENE.campaign, "bob")
        secret = engine.invite(SCENE.campaign, "bob")
        before = engine.campaign(SCENE.campaign).rulings
    with TestClient(create_app(db)) as client:
        client.post(f"/join/{secret}", follow_redirects=False)
        client.get(page)
        token = str(client.cookies.get("csrftoken"))
        refused = client.post(
            f"{page}/act",
            data={"_csrf_token": token, "_do": "test", "character": bob, "_as": bob},
            follow_redirects=False,
        )
    assert 409 == refused.status_code or 400 <= refused.status_code < 500
    focused = 'class="refusal" role="alert" id="refused" tabindex="-1" autofocus>test: '
    assert focused in refused.text  # above the actions, focused
    with Engine(db) as engine:
        assert before == engine.campaign(SCENE.campaign).rulings
