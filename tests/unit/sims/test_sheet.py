"""The Sims sheet projection (projections.sims_sheet): status line, sheet text and the values the
JSON sheet adds, from a character state alone."""

from __future__ import annotations

from uuid import UUID

from attrs import evolve

from domain.rulesets.sims.character import Pending, Quality, SimsCharacter
from domain.rulesets.sims.tables import Area, Rank, RankKind, SheetKind, Strategy
from engine import converter
from projections.sims_sheet import sheet_extras, sheet_text, status

KRISTOV = SimsCharacter(
    id=UUID(int=1),
    name="Kristov",
    player="kim",
    kind=SheetKind.PC,
    qualities=(
        Quality(name="Brawler", area=Area.COMBAT, base=Rank.GOOD, lost_damage=2),
        Quality(name="Rockstar", area=Area.PROFESSIONAL, base=Rank.POOR, lost_failure=1),
    ),
    strengths=("Loud",),
)


def test_status_lists_what_the_character_waits_for() -> None:
    """Owed ranks, being out, a strategy and upgrades, in that order; 'killed' says it all."""
    pending = Pending(ranks=2, kind=RankKind.DAMAGE, source="Jefferson", killing=False)
    waiting = evolve(KRISTOV, pending=pending, strategy=Strategy.FULL_ATTACK, upgrades=1)
    expected = (
        "must allocate 2 Damage Rank(s); out of the scene; plays full-attack; 1 upgrade(s) to spend"
    )
    assert expected == status(waiting)
    assert "killed" == status(evolve(waiting, killed=True))
    assert "ready" == status(evolve(KRISTOV, qualities=KRISTOV.qualities[:1]))


def test_sheet_text_shows_base_and_current_ranks() -> None:
    """Each quality with its base and current rank and what it lost; then the strengths."""
    assert [
        "Kristov (pc, played by kim): out of the scene",
        "  quality               area          base     current",
        "  Brawler               Combat        Good     Poor  (-2 Damage)",
        "  Rockstar              Professional  Poor     zeroed  (-1 Failure)",
        "  strengths: Loud",
    ] == sheet_text(KRISTOV).splitlines()


def test_sheet_extras_add_current_ranks_out_and_status_to_the_plain_fields() -> None:
    """Merged over the plain fields, the qualities keep their place and gain ``current``; ``out``
    and ``status`` come last."""
    sheet = converter.unstructure(KRISTOV) | sheet_extras(KRISTOV)
    assert [*converter.unstructure(KRISTOV), "out", "status"] == list(sheet)
    assert [
        {
            "name": "Brawler",
            "area": "Combat",
            "base": "Good",
            "lost_failure": 0,
            "lost_damage": 2,
            "current": "Poor",
        },
        {
            "name": "Rockstar",
            "area": "Professional",
            "base": "Poor",
            "lost_failure": 1,
            "lost_damage": 0,
            "current": "zeroed",
        },
    ] == sheet["qualities"]
    assert (True, "out of the scene") == (sheet["out"], sheet["status"])
