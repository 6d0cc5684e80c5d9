"""The shortcuts the read models take for speed give what the long way gives: ``said`` without
parsing a header's params that cannot hold a narration, a stream id's text kept, an event's
data unstructured by the tuple hook of ``projections.event_data``."""

from __future__ import annotations

import json
from uuid import UUID, uuid4

import pytest
from cattrs.gen import iterable_unstructure_factory

from domain.dice import Die
from domain.events import RulingMade, StreamRange
from domain.said import said
from projections import ids
from projections.event_data import _converter, data_of, event_of


def _made(params: str) -> RulingMade:
    return RulingMade(
        number=1,
        command="roll",
        params=params,
        dice=(Die(sides=6, face=3),),
        provenance=None,
        seed=None,
        touched=(StreamRange(stream=uuid4(), first=1, last=1),),
    )


def _parsed(params: str) -> str:
    """``said`` the long way: every header's params parsed."""
    try:
        found = json.loads(params)
    except ValueError:
        return ""
    say = found.get("say", "") if isinstance(found, dict) else ""
    return say if isinstance(say, str) else ""


@pytest.mark.parametrize(
    "params",
    [
        '{"args":{"stat":"reaction"},"topic":"x"}',
        '{"args":{},"say":"The door gives."}',
        '{"\\u0073ay":"escaped key"}',
        '{"s\\u0061y":"half escaped"}',
        '{"say":3}',
        '["say"]',
        "not json, say",
        "",
        '{"args":{"say":"nested"}}',
        '{"say":"caf\\u00e9"}',
    ],
)
def test_said_is_what_parsing_the_params_gives(params: str) -> None:
    assert said(_made(params)) == _parsed(params)
    assert said(_made(params)) == _parsed(params)  # asked again: kept


def test_an_id_text_is_its_str() -> None:
    first = uuid4()
    assert ids.id_text(first) == str(first)
    assert ids.id_text(UUID(str(first))) == str(first)  # an equal id: the same text
    assert ids.id_text("campaign") == "campaign"
    assert ids.id_text(7) == "7"


def test_the_ids_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ids, "KEPT", 3)
    made = [uuid4() for _ in range(10)]
    assert [ids.id_text(u) for u in made] == [str(u) for u in made]
    assert len(ids._texts) <= 3


def test_an_events_tuples_unstructure_as_cattrs_own_hook_does() -> None:
    made = _made('{"args":{}}')
    data = data_of(made)
    assert data["event"]["dice"] == [{"sides": 6, "face": 3}]
    assert data["event"]["audience"] == []
    assert event_of(data) == made
    for cls, value in ((tuple[StreamRange, ...], made.touched), (tuple[Die, ...], made.dice)):
        own = iterable_unstructure_factory(cls, _converter, unstructure_to=list)
        plain = _converter.unstructure(value, cls)
        assert plain == own(value)
        assert type(plain) is type(own(value)) is list
    assert _converter.unstructure(("a", "b"), tuple[str, ...]) == ["a", "b"]
    assert _converter.unstructure((), tuple[Die, ...]) == []
