"""Each rule system's presentation, registered beside its ruleset. ``projections.<package>``
(the package ``domain.rulesets.SYSTEMS`` names) holds its event lines (``projections.describe``
imports it); ``projections.<package>_presentation`` holds its ``PRESENTATION``: the sheet (text,
the drawing pages show, the extras of its JSON, the one-line status), the turn panel, the
recap's highlights and moved scores, its own read models and its extra pages (The Code's
Exposure timeline).

Shared modules ask here ("which pages has this system?") and name no system. A system's module
is imported the first time it is asked for, as its ruleset is."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from attrs import field, frozen

from domain.audience import Audience
from domain.campaign import CampaignState
from domain.events import Event
from domain.rulesets import SYSTEMS
from projections.drawing import Drawing, TurnGroup

if TYPE_CHECKING:
    from projections.documents import ReadModel

Moved = tuple[str, Any, Any]  # (score, before, after)


def _nothing_moved(event: Event) -> tuple[Moved, ...]:
    return ()


def _nothing_owed(characters: Sequence[Any], campaign: CampaignState) -> tuple[TurnGroup, ...]:
    return ()


@frozen
class Page:
    """A page of the system's own beside the table, recap and dice: ``key`` names it in the
    links, ``label`` reads in them, ``path`` follows the campaign's page (``/timeline``);
    ``html(engine, campaign, audience)`` renders it as its audience may read it."""

    key: str
    label: str
    path: str
    html: Callable[[Any, str, Audience], str]


@frozen
class Presentation:
    """What the shared code asks of a system to show it."""

    sheet_text: Callable[[Any, CampaignState], str]
    # the sheet as pages draw it (``projections.drawing``): grids, bars, rows, ladders
    sheet_drawing: Callable[[Any, CampaignState], Drawing]
    sheet_extras: Callable[[Any], dict[str, Any]]
    status: Callable[[Any], str]
    highlights: Mapping[type[Event], str] = field(factory=dict)
    moved: Callable[[Event], tuple[Moved, ...]] = _nothing_moved
    read_models: tuple[ReadModel, ...] = ()
    timeline: ReadModel | None = None  # the read model of its timelines, if it keeps them
    pages: tuple[Page, ...] = ()
    # the turn panel: whose turn it is or what is owed, from the characters the reader knows
    turns: Callable[[Sequence[Any], CampaignState], tuple[TurnGroup, ...]] = _nothing_owed


def presentation_of(system: str) -> Presentation:
    """The presentation of ``system`` (a known system: its ruleset was found first)."""
    return _of_package(SYSTEMS[system])


def presentations() -> dict[str, Presentation]:
    """Every system's presentation (importing each), in ``SYSTEMS`` order."""
    return {system: presentation_of(system) for system in SYSTEMS}


_PACKAGES = frozenset(SYSTEMS.values())
_by_module: dict[str, Presentation | None] = {}


def presentation_of_event(event: Event) -> Presentation | None:
    """The presentation of the system whose package defines ``event``'s type; None for the
    shared events."""
    where = type(event).__module__
    if where not in _by_module:
        parts = where.split(".")
        system = parts[:2] == ["domain", "rulesets"] and len(parts) > 2 and parts[2] in _PACKAGES
        _by_module[where] = _of_package(parts[2]) if system else None
    return _by_module[where]


def _of_package(package: str) -> Presentation:
    module = importlib.import_module(f"projections.{package}_presentation")
    return cast("Presentation", module.PRESENTATION)
