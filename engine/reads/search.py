"""``campaign search``: what was written into a campaign (posts, rulings' narration, notes,
reasons, a free roll's why, a private message: the texts the search read model keeps), found by
its words through the store's
full-text index (``engine.reads.search_index``) and shown as its reader may read it.

A text is found when it holds every word asked for (``word*``: any word starting so), newest
ruling first. The rulings found are read as the log reads them for that reader (hidden rulings,
private messages and GM-only notes left out exactly as ``log`` leaves them out), so a search
never shows a text the reader's log would not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from attrs import frozen

from domain.audience import Audience
from domain.errors import DomainError, ErrorKind
from domain.plain import Plain
from engine.reads.search_index import Term, index_of, pages
from projections.search_model import SearchModel, words

if TYPE_CHECKING:
    from domain.campaign import CampaignState, RosterEntry
    from engine.application.reads import Reads
    from engine.corrections.undo import LoggedRuling

MODEL = SearchModel()
MAX_QUERY = 200  # characters of a query: a sentence, not a document
MAX_WORDS = 16
MAX_RESULTS = 100
ASKED = re.compile(r"([^\W_]+)(\*?)")


class SearchQueryEmpty(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "a search needs at least one word (letters or digits); got {query!r}"


class SearchQueryTooLong(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "a search is at most {limit} characters and {words} words (the search rule);"
        " this one is {length} characters and {count} words"
    )


class SearchLimitOutOfBounds(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "a search shows 1 to {limit} texts at a time; asked for {asked}"


@frozen(kw_only=True)
class FoundText(Plain):
    """One text found: where it was written (ruling, session, scene, when, by whom, on which
    character's sheet, as what kind of event) and whether its ruling still stands."""

    ruling: int
    session: int | None
    scene: int | None
    at: str
    actor: str
    character: str | None
    kind: str
    text: str
    status: str  # "" in force, "undone", "amended", "re-decided"


@frozen(kw_only=True)
class SearchResult(Plain):
    """What a search found, newest first; ``more``: older texts match too (ask again with
    ``before`` = the last ruling shown)."""

    query: str
    found: tuple[FoundText, ...]
    more: bool


def terms_of(query: str) -> tuple[Term, ...]:
    """The words asked for (``SEARCH_QUERY_EMPTY`` when none, ``SEARCH_QUERY_TOO_LONG``)."""
    asked = ASKED.findall(query.casefold())
    if len(query) > MAX_QUERY or len(asked) > MAX_WORDS:
        raise SearchQueryTooLong(
            limit=MAX_QUERY, words=MAX_WORDS, length=len(query), count=len(asked)
        )
    terms: dict[str, Term] = {}
    for written, star in asked:
        for word in words(written):
            terms.setdefault(word, Term(word, prefix=bool(star)))
    if not terms:
        raise SearchQueryEmpty(query=query)
    return tuple(terms.values())


def search(
    reads: Reads,
    campaign_name: str,
    query: str,
    *,
    audience: Audience,
    character: str | None = None,
    session: int | None = None,
    limit: int = 20,
    before: int | None = None,
) -> SearchResult:
    """The texts holding every word of ``query`` (see the module docstring)."""
    terms = terms_of(query)
    if not 1 <= limit <= MAX_RESULTS:
        raise SearchLimitOutOfBounds(limit=MAX_RESULTS, asked=limit)
    campaign = reads.campaign(campaign_name)
    sheet = campaign.find(character) if character is not None else None
    reads.read_models.catch_up(MODEL)
    index = index_of(reads.read_models.views)
    found: list[FoundText] = []
    for page in pages(index, campaign.id, terms, max(limit, 50), before):
        numbers = [n for n, doc in page if session is None or doc["s"] == session]
        logged = reads.log(campaign_name, rulings=numbers, audience=audience)
        shown = {entry.ruling.number: entry for entry in logged}
        for number, doc in page:
            entry = shown.get(number)
            if entry is None or (session is not None and doc["s"] != session):
                continue
            for text in _readable(doc, entry, terms, sheet):
                if len(found) == limit:
                    return SearchResult(query=query, found=tuple(found), more=True)
                found.append(_found(campaign, number, doc, entry, text))
    return SearchResult(query=query, found=tuple(found), more=False)


def _readable(
    doc: dict[str, Any], entry: LoggedRuling, terms: tuple[Term, ...], sheet: RosterEntry | None
) -> list[dict[str, Any]]:
    """The texts of a found document that the reader's log shows of its ruling and that hold
    every term (only those on ``sheet``'s stream or in its voice, when given)."""
    seen = {(str(r.originator_id), r.originator_version) for r in (entry.header, *entry.events)}
    return [
        text
        for text in doc["texts"]
        if (text["stream"], text["v"]) in seen
        and (sheet is None or _of(text, sheet))
        and all(term.found_in(words(text["text"])) for term in terms)
    ]


def _of(text: dict[str, Any], sheet: RosterEntry) -> bool:
    return text["stream"] == str(sheet.character_id) or text.get("who") == sheet.name


def _found(
    campaign: CampaignState,
    number: int,
    doc: dict[str, Any],
    entry: LoggedRuling,
    text: dict[str, Any],
) -> FoundText:
    names = {str(e.character_id): e.name for e in campaign.roster}
    return FoundText(
        ruling=number,
        session=doc["s"],
        scene=doc["c"],
        at=doc["at"],
        actor=doc["actor"],
        character=names.get(text["stream"]) or text.get("who"),
        kind=text["kind"],
        text=text["text"],
        status=entry.status,
    )
