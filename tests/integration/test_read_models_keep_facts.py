"""Read models keep facts, not prose: the recap and Exposure timeline documents hold the events a
ruling recorded (as data) and the text is rendered when a recap or a timeline is read, so a
change to how an event reads changes every recap at once, with no read model rebuilt.

Each example campaign (every system, posts, narration, undos and amendments among them) is
played; then no stored document may hold a rendered string, and a new wording of every event
shows in every recap and timeline while the stored documents stay byte for byte the same."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from domain.audience import GMS
from domain.events import RulingMade
from engine import Engine, converter
from engine.reads.recaps import RECAPS, NotAHero
from projections.describe import describe
from projections.event_data import data_of, event_of
from projections.the_code_presentation import EXPOSURE
from tests.conftest import FROZEN_AT
from tests.examples import player as example_player
from tests.golden.test_recap_golden import SCRIPTS

MODELS = (RECAPS, EXPOSURE)


def _strings(value: Any) -> Iterator[str]:
    """Every string a JSON value holds (its leaves; not its keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _played(script: Path, folder: Path) -> Path:
    db = folder / f"{script.stem}.db"
    with freeze_time(FROZEN_AT), contextlib.redirect_stdout(io.StringIO()):
        assert 0 == example_player()(script, db)
    return db


def _stored(engine: Engine) -> dict[str, list[tuple[str, str]]]:
    """Every document of the recap and timeline models as stored (JSON text), by model."""
    for model in MODELS:
        engine.read_models.catch_up(model)
    views = engine.read_models.views
    return {model.name: views.listed(model.name, "", 1_000_000) for model in MODELS}


def _views(engine: Engine) -> list[Any]:
    """Every recap (as the GM reads it) and timeline of the store's campaign."""
    (entry,) = engine.directory().campaigns
    campaign = engine.campaign(entry.name)
    shown: list[Any] = [
        engine.recap(entry.name, n, audience=GMS) for n in range(1, campaign.sessions + 1)
    ]
    if campaign.system == "the-code":
        shown.append(engine.campaign_timelines(entry.name, audience=GMS))
        for hero in campaign.roster:
            with contextlib.suppress(NotAHero):
                shown.append(engine.hero_timeline(entry.name, hero.name, audience=GMS))
    return shown


def _rendered(view: Any) -> Iterator[str]:
    """The strings of a view put together from events (lines, beats, highlights, the story,
    corrections, what explains a timeline row)."""
    if view.get("format") == "campaign-log/recap":
        for part in [*view["before_session"], *(b for s in view["scenes"] for b in s["beats"])]:
            yield part["text"]
            yield from (line["text"] for line in part["lines"])
        yield from (h["text"] for h in view["highlights"])
        yield from (x for c in view["characters"] for x in c["revealed"])
        yield from (x for s in view["story"] for x in (s["speaker"], s["text"], s["beat"]))
        for c in view["corrections"]:
            yield from (line["text"] for line in [*c["was"], *c["now"]])
    for line in view.get("heroes", [view]):
        yield from (x for row in line.get("rows", []) for x in row["because"])


def _facts(engine: Engine) -> set[str]:
    """Every string the log itself holds: each event's fields (an amendment's events in it),
    each ruling's actor, time and parameters."""
    (entry,) = engine.directory().campaigns
    found: set[str] = set()
    for logged in engine.log(entry.name, audience=GMS):
        for record in (logged.header, *logged.events):
            found |= {record.actor, record.timestamp.isoformat()}
            found |= set(_strings(converter.unstructure(record.event)))
            if isinstance(record.event, RulingMade):
                found |= set(_strings(json.loads(record.event.params or "{}")))
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_no_stored_document_holds_a_rendered_string(script: Path, tmp_path: Path) -> None:
    """No string of a stored recap or timeline document is one the views render (a line, a
    beat, a highlight, a story's text or speaker, what explains a row) that the log does not
    hold as it is: the documents keep the facts the text is made from."""
    with freeze_time(FROZEN_AT), Engine(str(_played(script, tmp_path))) as engine:
        stored = _stored(engine)
        rendered = {s for view in _views(engine) for s in _rendered(view) if s}
        rendered -= _facts(engine)
        assert rendered  # the views did render text of their own
        (entry,) = engine.directory().campaigns
        lines = {
            describe(r.event) for x in engine.log(entry.name, audience=GMS) for r in x.events
        } - {None}
    held = {
        (name, key, text)
        for name, documents in stored.items()
        for key, body in documents
        for text in _strings(json.loads(body))
        if text in rendered or text in lines
    }
    assert held == set()


@contextlib.contextmanager
def reworded() -> Iterator[None]:
    """Every event reads in capitals for a while (as a change to ``describe`` would make it)."""
    before = dict(describe.registry)

    def shouted(impl: Any) -> Any:
        return lambda event: None if (text := impl(event)) is None else text.upper()

    for cls, impl in before.items():
        describe.register(cls)(shouted(impl))
    try:
        yield
    finally:
        for cls, impl in before.items():
            describe.register(cls)(impl)


def _texts(views: list[Any]) -> list[str]:
    return [text for view in views for text in _rendered(view)]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_new_wording_reads_in_every_recap_with_the_documents_unchanged(
    script: Path, tmp_path: Path
) -> None:
    """Events reworded: every recap's and timeline's lines read the new way at once, while the
    stored documents (kept, and rebuilt from scratch under the new wording) are the same."""
    with freeze_time(FROZEN_AT), Engine(str(_played(script, tmp_path))) as engine:
        stored = _stored(engine)
        was = _views(engine)
        with reworded():
            now = _views(engine)
            for model in MODELS:
                engine.read_models.rebuild(model)
            rebuilt = _stored(engine)
        again = _views(engine)
    assert stored == rebuilt
    assert was == again
    changed = [(a, b) for a, b in zip(_texts(was), _texts(now), strict=True) if a != b]
    assert changed  # some text is read from events, so it reads the new way
    for a, b in zip(was, now, strict=True):
        if a.get("format") != "campaign-log/recap":
            continue
        lines = [line for s in a["scenes"] for beat in s["beats"] for line in beat["lines"]]
        upper = [line for s in b["scenes"] for beat in s["beats"] for line in beat["lines"]]
        assert [{**x, "text": x["text"].upper()} for x in lines] == upper


def test_event_data_reads_back_as_the_event(engine: Engine) -> None:
    """An event kept as data is the same event read back, and the data is plain JSON."""
    from tests.integration.test_recap_models import played

    played(engine)
    for logged in engine.log("Lab", audience=GMS):
        for record in (logged.header, *logged.events):
            data = data_of(record.event)
            assert event_of(json.loads(json.dumps(data))) == record.event


def test_only_domain_events_are_read_back() -> None:
    """Data naming a class outside the domain's events is refused, never imported as one."""
    with pytest.raises(ValueError, match="not a domain event"):
        event_of({"topic": "os:system", "event": {}})
    with pytest.raises(ValueError, match="not a domain event"):
        event_of({"topic": "domain.events:HouseRule", "event": {"key": "a", "value": "b"}})
