"""Each system registers its presentation beside its ruleset (``projections.presentation``): the
shared recap facts, pages and sheets find it from the system's name or an event's type alone."""

from __future__ import annotations

import pytest

from domain.events import SessionStarted
from domain.rulesets import SYSTEMS
from projections.presentation import Presentation, presentation_of, presentation_of_event
from projections.recap_facts import highlight, moved

SHARED_PAGES = {"", "/recap", "/dice", "/dice-check", "/events", "/characters"}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_registers_a_presentation_of_its_own_events(system: str) -> None:
    shown = presentation_of(system)
    assert isinstance(shown, Presentation)
    package = f"domain.rulesets.{SYSTEMS[system]}."
    assert shown.highlights, "a system with nothing to highlight in a recap"
    assert all(kind.__module__.startswith(package) for kind in shown.highlights)
    paths = [page.path for page in shown.pages]
    assert len(set(paths)) == len(paths)
    assert not SHARED_PAGES & set(paths), "a page of its own hides a shared one"
    assert all(page.path.startswith("/") for page in shown.pages)


def test_an_event_finds_its_systems_presentation_and_a_shared_one_none() -> None:
    from domain.rulesets.the_code import events as tc

    kinds = list(presentation_of("the-code").highlights)
    assert all(presentation_of_event_type(k) is presentation_of("the-code") for k in kinds)
    assert tc.ExposureChanged in kinds
    start = SessionStarted(number=1)
    assert presentation_of_event(start) is None
    assert highlight(start) is None
    assert moved(start) == ()


def presentation_of_event_type(kind: type) -> Presentation | None:
    event = kind.__new__(kind)  # the type is all the registry reads
    return presentation_of_event(event)


def test_only_the_code_keeps_timelines_and_its_page_is_the_exposure_timeline() -> None:
    with_pages = {s: presentation_of(s).pages for s in SYSTEMS if presentation_of(s).pages}
    assert {s: [(p.key, p.label, p.path) for p in pages] for s, pages in with_pages.items()} == {
        "the-code": [("timeline", "Exposure", "/timeline")]
    }
    assert [s for s in SYSTEMS if presentation_of(s).timeline is not None] == ["the-code"]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_draws_its_sheet_and_says_whose_turn_it_is(system: str) -> None:
    """The sheet pages draw and the turn panel asks each system's own functions, defined in its
    own presentation module (none falls back to the shared 'nothing owed')."""
    shown = presentation_of(system)
    module = f"projections.{SYSTEMS[system]}_presentation"
    assert (module, module) == (shown.sheet_drawing.__module__, shown.turns.__module__)
