"""The drawn sheets and the turn panel as the server renders them (no browser): for a known state
of each system, a player's sheet page draws its parts with their values (the text form folded
under them) and the table and sheet pages' turn panel says whose turn it is or what is owed, the
same for the GM and the player; with nothing owed, it says so."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from litestar.testing import TestClient

from engine import Engine
from tests.web.owed import owe
from tests.web.scenes import GM, SCENES, Scene, character_of, seat
from web import create_app

SCENE = {s.system: s for s in SCENES}


class _Words(HTMLParser):
    """The words inside the element of an id (tags dropped, void elements minded)."""

    VOID = frozenset({"br", "input", "img", "meta", "link", "hr", "rect"})

    def __init__(self, element_id: str) -> None:
        super().__init__()
        self.wanted, self.depth = element_id, 0
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        if self.depth or ("id", self.wanted) in attrs:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.words += data.split()


def _text(html: str, element_id: str) -> str:
    """The words of the element with ``element_id``, one space apart."""
    reader = _Words(element_id)
    reader.feed(html)
    return " ".join(reader.words)


def _pages(db: str, scene: Scene, who: str, name: str) -> tuple[str, str]:
    """The table page and the sheet of ``name`` as ``who`` reads them."""
    with Engine(db) as engine:
        token = engine.token(scene.campaign, who)
    headers = {"Authorization": f"Bearer {token}"}
    base = f"/campaigns/{quote(scene.campaign)}"
    with TestClient(create_app(db)) as client:
        table = client.get(base, headers=headers)
        sheet = client.get(f"{base}/characters/{quote(name, safe='')}", headers=headers)
    assert (200, 200) == (table.status_code, sheet.status_code), sheet.text
    return table.text, sheet.text


def _played(tmp_path: Path, system: str, *, owing: bool = False) -> str:
    """The system's scene seated (and left owing: ``tests.web.owed``)."""
    db = str(tmp_path / "table.db")
    with Engine(db) as engine:
        seat(engine, SCENE[system])
        if owing:
            owe(engine, SCENE[system])
    return db


def _alice(db: str, system: str) -> str:
    with Engine(db) as engine:
        return character_of(engine, SCENE[system].campaign, "alice")


@pytest.mark.parametrize("who", [GM, "alice"])
def test_code_green_draws_the_grid_and_the_panel_shows_the_open_test(
    tmp_path: Path, who: str
) -> None:
    """Alice's tokens on the diagonal; she declares a Legs/Cryptic test: her sheet's Profile
    Grid has a token on R1C1, R2C2 and R3C3 and the d66 ranges, and the panel says her test is
    open, assists may join."""
    db = _played(tmp_path, "code-green", owing=True)
    name = _alice(db, "code-green")
    table, sheet = _pages(db, SCENE["code-green"], who, name)
    drawn = _text(sheet, "sheet")
    assert "Profile Grid Cryptic Invulnerable Phasing Legs R1C1 token tested d66 11-14" in drawn
    assert "R2C2 token d66 35-42" in drawn
    assert "Test 1 Legs Cryptic declared: assists may join" in drawn
    assert '<details class="sheet-text"' in sheet
    owed = f"Turns The open test {name} : test 1 open (1 die): assists may join, then it is rolled"
    assert owed + " now" == _text(table, "turns") == _text(sheet, "turns")


@pytest.mark.parametrize("who", [GM, "alice"])
def test_sprawl_goons_draws_resilience_and_items_and_the_initiative_order(
    tmp_path: Path, who: str
) -> None:
    """Initiative: Tanner 6 + Reaction 1 = 7, Vex 1 + 2 = 3: the panel's order for round 1;
    Tanner's sheet has his stats, his Resilience bar (a picture with its value in words) and
    his items with their bulk and uses."""
    db = _played(tmp_path, "sprawl-goons", owing=True)
    table, sheet = _pages(db, SCENE["sprawl-goons"], who, "Tanner")
    drawn = _text(sheet, "sheet")
    assert "Stats Morphology 2 Reaction 1 Cognition 1 Equilibrium 0" in drawn
    assert re.search(r"Resilience (\d+) of \1 ", drawn), drawn
    assert '<svg class="bar"' in sheet
    assert "Katana melee +1 bulky" in drawn
    assert re.search(r"Lazarus Patches consumable \+1 \d uses? bulky", drawn), drawn
    assert "Critical injuries None." in drawn
    order = "Turns Round 1: initiative order Tanner : initiative 7 Vex : initiative 3"
    assert order == _text(table, "turns") == _text(sheet, "turns")
    assert '<ol class="turn-list">' in table


def test_sims_draws_the_qualities_and_the_panel_follows_the_turn_order(tmp_path: Path) -> None:
    """Before the conflict nothing is owed; once the turn order is set (both Good, Neo wins the
    roll-off 5 to 2), the panel lists it with whose turn it is (Neo's, turn 1); Neo's sheet
    lists Kung Fu Good."""
    db = _played(tmp_path, "sims")
    table, _ = _pages(db, SCENE["sims"], "alice", "Neo")
    assert "Turns Nothing owed." == _text(table, "turns")
    with Engine(db) as engine:
        owe(engine, SCENE["sims"])
    table, sheet = _pages(db, SCENE["sims"], "alice", "Neo")
    assert "Qualities Kung Fu Good Combat base Good" in _text(sheet, "sheet")
    assert (
        "Turns Conflict, turn 1: turn order Neo : Kung Fu (Good) now Cypher : Knives (Good)"
        == _text(table, "turns")
    )


@pytest.mark.parametrize("who", [GM, "alice"])
def test_the_code_draws_the_exposure_ladder_and_the_rolls_due(tmp_path: Path, who: str) -> None:
    """The Hawk in a running session: his Motivation bar, Reward Points and Popularity, the
    Exposure ladder from 10 (secret identity) down to 2 (physical description), nothing public
    yet; the panel lists both heroes' Exposure rolls due before the session ends."""
    db = _played(tmp_path, "the-code")
    table, sheet = _pages(db, SCENE["the-code"], who, "The Hawk")
    drawn = _text(sheet, "sheet")
    assert re.search(r"Motivation (\d+) of \1 Scores Reward Points 0 Popularity \d+", drawn)
    ladder = drawn.split("Exposure ladder ", 1)[1]
    assert ladder.startswith("Exposure 0, peak 0; 0 of 9 details public 10 secret identity secret")
    assert "2 physical description secret The hero" in ladder
    due = (
        "Turns Before session 1 ends The Hawk : the Exposure roll (or session off) "
        "Lady Volt : the Exposure roll (or session off)"
    )
    assert due == _text(table, "turns") == _text(sheet, "turns")
