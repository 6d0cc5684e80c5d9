"""Recaps and Exposure timelines as plain data: the projections' read models, caught up with the
log and read back. The engine's ``recap``, ``hero_timeline`` and ``campaign_timelines`` are these;
renderers (Markdown, HTML) live in ``projections``."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from domain.campaign import CampaignState
from domain.errors import DomainError, ErrorKind
from engine.reads.indexed import DICE, INDEX
from engine.reads.models import ReadModels
from engine.reads.search import MODEL as SEARCH
from engine.reads.timeline import NoSuchPoint
from projections.documents import ReadModel
from projections.presentation import presentation_of, presentations
from projections.recap import recap, without
from projections.recap_model import RecapModel, session_document
from projections.timeline import campaign_timeline, hero_document, timeline
from projections.views import CampaignTimeline, HeroTimeline, Recap

Doc = dict[str, Any]  # a read model's document
RECAPS = RecapModel()

if TYPE_CHECKING:
    MODELS: dict[str, ReadModel]  # every read model by name (``models()``)


@cache
def models() -> dict[str, ReadModel]:
    """Every read model by name: the recaps, each system's own (The Code's timelines), the ruling
    index, the dice counts and the search model. Made the first time it is asked for, as it
    imports every system's presentation: a recap or a timeline reads its own model only."""
    return {
        RECAPS.name: RECAPS,
        **{m.name: m for shown in presentations().values() for m in shown.read_models},
        INDEX.name: INDEX,  # the ruling index and the dice counts (engine.reads.indexed)
        DICE.name: DICE,
        SEARCH.name: SEARCH,  # what was written, for the full-text index (engine.reads.search)
    }


def __getattr__(name: str) -> Any:
    """``MODELS``, made when first looked up (``models()``)."""
    if name == "MODELS":
        return models()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class NotTheCode(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{campaign!r} is played under {system}: Exposure timelines are The Code's"


class NotAHero(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{ref!r} is not a hero of The Code in this campaign"


class Recaps:
    """The documents of the recap and timeline models, each read after catching up."""

    def __init__(self, read_models: ReadModels) -> None:
        self._models = read_models

    def _fresh(self, model: ReadModel, key: str) -> tuple[Any, Callable[[str], Any]]:
        """A document after the model caught up with the log, and a reader of its others."""
        self._models.catch_up(model)
        read = partial(self._models.views.document, model.name)
        return read(key), read

    def session(
        self, campaign: CampaignState, session: int | None, *, gm: bool, hidden: frozenset[int]
    ) -> Recap:
        """The recap of session ``session`` (default: the latest) as plain data, without the
        rulings in ``hidden``."""
        number = session if session is not None else campaign.sessions
        if not 1 <= number <= campaign.sessions:
            raise NoSuchPoint(what=f"session {number}" if number else "session yet")
        key = f"session/{campaign.id}/{number}"
        _, read = self._fresh(RECAPS, key)
        return recap(without(session_document(read, key), hidden), gm=gm)

    def hero(self, campaign: CampaignState, ref: str, hidden: frozenset[int]) -> HeroTimeline:
        """One hero's Exposure reveal timeline as plain data, without the rulings in
        ``hidden``."""
        model = _timeline_of(campaign)
        key = f"hero/{campaign.id}/{campaign.find(ref).character_id}"
        _, read = self._fresh(model, key)
        doc = hero_document(read, key)
        if doc is None:
            raise NotAHero(ref=ref)
        return timeline(_rows_without(doc, hidden), read(f"campaign/{campaign.id}"))

    def campaign(self, campaign: CampaignState, hidden: frozenset[int]) -> CampaignTimeline:
        """Every hero's timeline in a campaign, and where each stood at each session's end."""
        meta, read = self._fresh(_timeline_of(campaign), f"campaign/{campaign.id}")
        meta = meta or {"heroes": [], "sessions": {}}
        meta.setdefault("name", campaign.name)
        heroes = [hero_document(read, f"hero/{campaign.id}/{h}") for h in meta["heroes"]]
        shown = [_rows_without(doc, hidden) for doc in heroes if doc is not None]
        return campaign_timeline(meta, shown)


def _rows_without(doc: Doc, hidden: frozenset[int]) -> Doc:
    return {**doc, "rows": [row for row in doc["rows"] if row["ruling"] not in hidden]}


def _timeline_of(campaign: CampaignState) -> ReadModel:
    """The read model of the campaign's timelines, as its system's presentation keeps them."""
    model = presentation_of(campaign.system).timeline
    if model is None:
        raise NotTheCode(campaign=campaign.name, system=campaign.system)
    return model
