"""Each system's drawn sheet and turn panel (``Presentation.sheet_drawing``, ``.turns``), read
off the example campaigns replayed whole or stopped mid-play: Code Green's Profile Grid with its
tokens, strain marks and d66 ranges and the adaptation owed; Sprawl Goons' stats, Resilience
bar, items and injuries and the initiative order; the Sims qualities with their lost ranks, the
turn order and the ranks owed; The Code's Motivation, scores and Exposure ladder, the Motivation
roll owed and the Exposure rolls due before the session ends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.audience import GMS
from engine import Engine
from projections.drawing import Bar, Drawing, Grid, Ladder, Rows, TurnGroup
from projections.presentation import presentation_of
from tests.examples import played

STEMS = ("night-shift", "rain-city", "sprawl-goons", "zion-run")


Store = Callable[..., str]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """``store(stem)``: the example played to its end; ``store(stem, line)`` up to that line
    (each played once in the module)."""
    found: dict[tuple[str, str | None], str] = {}

    def played_to(stem: str, until: str | None = None) -> str:
        if (stem, until) not in found:
            folder = Path(tmp_path_factory.mktemp(stem))
            found[stem, until] = played(stem, folder, until)
        return found[stem, until]

    return played_to


def read(db: str) -> tuple[dict[str, Drawing], tuple[TurnGroup, ...]]:
    """Every character's drawing by name, and the turn panel, as the GM reads them."""
    with Engine(db) as engine:
        (entry,) = engine.directory().campaigns
        state = engine.campaign(entry.name)
        shown = presentation_of(state.system)
        known = [c for c in engine.characters(entry.name, audience=GMS) if c is not None]
        drawings = {c.name: shown.sheet_drawing(c, state) for c in known}
        return drawings, shown.turns(known, state)


def part(drawing: Drawing, title: str) -> Any:
    return next(p for p in drawing.parts if p.title == title)


def rows(drawing: Drawing, title: str) -> dict[str, tuple[str, list[str]]]:
    found: Rows = part(drawing, title)
    return {r.label: (r.value, [b.text for b in r.badges]) for r in found.rows}


def turns(panel: tuple[TurnGroup, ...]) -> dict[str, list[tuple[str, str, bool]]]:
    return {g.title: [(t.who, t.what, t.now) for t in g.turns] for g in panel}


@pytest.mark.parametrize("stem", STEMS)
def test_every_character_of_a_finished_example_is_drawn_and_nothing_is_owed(
    store: Store, stem: str
) -> None:
    """Played to the end (no session running), every sheet draws and the panel is empty."""
    drawings, panel = read(store(stem))
    assert drawings
    assert all(d.parts and d.summary for d in drawings.values())
    assert () == panel


def test_code_green_draws_the_profile_grid_with_tokens_marks_and_d66_ranges(
    store: Store,
) -> None:
    """Night Shift after the foolhardy strain (CG-A1 layout): alice's token moved from R1C1 to
    R1C2, strain marks on R1C1 and R3C1, test 1 (Legs, Invulnerable) rolled: the adaptation is
    owed, and its row and column are marked as tested."""
    drawings, panel = read(store("night-shift", "strain alice --foolhardy"))
    (alice,) = [d for d in drawings.values() if "played by alice" in d.summary]
    grid: Grid = part(alice, "Profile Grid")
    assert ("Cryptic", "Invulnerable", "Phasing") == grid.columns
    assert ["Legs", "Tail", "Teeth"] == [r.label for r in grid.rows]
    cells = {c.name: c for r in grid.rows for c in r.cells}
    marks = {name: [b.text for b in c.badges] for name, c in cells.items()}
    assert ["strain mark", "tested"] == marks["R1C1"]
    assert ["token", "tested"] == marks["R1C2"]
    assert ["strain mark"] == marks["R3C1"]
    assert ["tested"] == marks["R3C2"]  # the Invulnerable column
    assert "d66 11-14" == cells["R1C1"].note
    assert "d66 35-42" == cells["R2C2"].note  # DIGEST G-CG-18: 35 is Tail x Invulnerable
    in_play = rows(alice, "In play")
    assert ("Legs Invulnerable", ["rolled: adaptation owed"]) == in_play["Test 1"]
    name = alice.summary.split(" (")[0]
    assert {"The open test": [(name, "must adapt after test 1", True)]} == turns(panel)


def test_sprawl_goons_draws_stats_resilience_items_and_injuries_in_initiative_order(
    store: Store,
) -> None:
    """The Docklands Job after Tanner's second dangerous roll: Resilience 0 of 12 (a critical
    injury to the arm, untreated: Glitch dice), 2 Lazarus uses, Katya's burst fired; initiative
    as the example explains it (SG-A10): Katya's 7, then the 4s: Tanner on his higher
    Reaction, the enforcer and the ganger by their roll-off, in round 2."""
    drawings, panel = read(store("sprawl-goons", "--ds 14 --dangerous"))
    tanner = drawings["Tanner"]
    assert {"Morphology": ("2", []), "Reaction": ("1", []), "Cognition": ("1", [])} == {
        k: v for k, v in rows(tanner, "Stats").items() if k != "Equilibrium"
    }
    resilience: Bar = part(tanner, "Resilience")
    assert (0, 12, "bad", "Resilience: 0 of 12") == (
        resilience.value,
        resilience.maximum,
        resilience.tone,
        resilience.text,
    )
    assert ("consumable +1", ["2 uses", "bulky"]) == rows(tanner, "Items")["Lazarus Patches"]
    assert ("implant +1", ["not bulky"]) == rows(tanner, "Items")["Reflex booster"]
    assert ("3 arm", ["untreated"]) == rows(tanner, "Critical injuries")["Injury 1"]
    bulk: Bar = part(tanner, "Bulky items")
    assert (3, 10) == (bulk.value, bulk.maximum)
    pistol = rows(drawings["Katya"], "Items")["Hideyoki shard pistol"]
    assert ("ranged +1", ["2 bursts left", "bulky"]) == pistol  # one burst fired in round 1
    assert {
        "Round 2: initiative order": [
            ("Katya", "initiative 7", False),
            ("Tanner", "initiative 4", False),
            ("Zone Boss enforcer", "initiative 4", False),
            ("Zone Boss ganger", "initiative 4", False),
        ]
    } == turns(panel)
    assert panel[0].ordered


def test_sims_draws_qualities_with_ranks_lost_and_the_turn_order(
    store: Store,
) -> None:
    """Zion Run as the Bouncer's Full Attack lands: the turn order by fighting rank (Bouncer
    Expert, Neo Good, then the Averages, PC before NPC), the Bouncer's turn, Cypher owing the
    2 Damage Ranks; once Neo's blow lands, the Bouncer's Stubborn is zeroed by 3 Damage Ranks and
    he is out of the turn order's play."""
    drawings, panel = read(store("zion-run", "attack Bouncer Brawler"))
    assert {
        "Conflict, turn 1: turn order": [
            ("Bouncer", "Brawler (Expert)", True),
            ("Neo", "Kung Fu (Good)", False),
            ("Cypher", "Brawling (Average)", False),
            ("Ninja", "Henchman (Average)", False),
        ],
        "Owed": [("Cypher", "must allocate 2 Damage Rank(s)", True)],
    } == turns(panel)
    assert ("must allocate 2 Damage Rank(s)", ["owed"]) == rows(drawings["Cypher"], "In play")[
        "Owed"
    ]
    assert ("Good", ["Combat"]) == rows(drawings["Neo"], "Qualities")["Kung Fu"]
    later, panel = read(store("zion-run", "allocate Bouncer Stubborn"))
    stubborn = rows(later["Bouncer"], "Qualities")["Stubborn"]
    assert ("zeroed", ["Mental", "-3 Damage", "zeroed"]) == stubborn
    assert ("Bouncer", "Brawler (Expert), out", False) == turns(panel)[
        "Conflict, turn 2: turn order"
    ][0]


def test_the_code_draws_the_exposure_ladder_with_what_is_public(
    store: Store,
) -> None:
    """Rain City at its end: Lady Volt (public identity) at Exposure 1 after a peak of 3: her
    description and code name are public from the ladder, her identity from the start; the Hawk's
    Motivation bar. Mid-session: the Hawk owes a Motivation roll for the jump, and both
    heroes' Exposure rolls are due before session 1 ends."""
    drawings, _ = read(store("rain-city"))
    volt: Ladder = part(drawings["Lady Volt"], "Exposure ladder")
    assert (1, list(range(2, 11))) == (volt.at, [s.level for s in volt.steps])
    public = {s.label: s.value for s in volt.steps if s.value}
    assert {
        "physical description": "silver suit, crackling hair",
        "code name": "Lady Volt",
        "secret identity": "Vera Okafor",
    } == public
    badges = {s.label: [b.text for b in s.badges] for s in volt.steps}
    assert ["public: public identity"] == badges["secret identity"]
    assert (["public"], ["secret"]) == (badges["code name"], badges["weakness"])
    assert not any(s.reached for s in volt.steps)
    hawk: Bar = part(drawings["The Hawk"], "Motivation")
    assert (1, 3) == (hawk.value, hawk.maximum)
    _, panel = read(store("rain-city", 'challenge "The Hawk" "jump to the next roof"'))
    assert {
        "Motivation rolls owed": [
            ("The Hawk", "a Motivation roll for jump to the next roof", True)
        ],
        "Before session 1 ends": [
            ("The Hawk", "the Exposure roll (or session off)", False),
            ("Lady Volt", "the Exposure roll (or session off)", False),
        ],
    } == turns(panel)


@given(st.integers(-50, 50), st.integers(-5, 50))
def test_a_bar_is_drawn_within_its_track_whatever_its_value(value: int, maximum: int) -> None:
    """A value below 0 or over its maximum (or a maximum of 0) draws clamped, reads as it is."""
    bar = Bar(title="Resilience", value=value, maximum=maximum)
    assert 0.0 <= bar.filled <= 1.0
    assert f"Resilience: {value} of {maximum}" == bar.text
