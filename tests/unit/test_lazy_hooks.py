"""An attrs class read and written field by field (``engine.store.lazy_hooks``) gives what
cattrs' generated function for it gives: the same dict, the same bytes, the same value, for
every event class and every snapshot state."""

from __future__ import annotations

from typing import Any

import pytest
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.annotations import resolve_types
from domain.campaign import CampaignState, Directory
from domain.rulesets.code_green.character import CgCharacter
from engine.store import lazy_hooks
from engine.store.mapper import canonical_json, converter
from tests.unit.test_mapper import EVENT_CLASSES, typed

STATES = [CampaignState, Directory, CgCharacter]


def _generated(cls: type[Any]) -> tuple[Any, Any]:
    resolve_types(cls)
    structure = make_dict_structure_fn(cls, converter, _cattrs_detailed_validation=False)
    return structure, make_dict_unstructure_fn(cls, converter)


@pytest.mark.parametrize("cls", [*EVENT_CLASSES, *STATES], ids=lambda cls: cls.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_field_by_field_is_what_the_generated_function_does(
    cls: type[Any], data: st.DataObject
) -> None:
    value = data.draw(typed(cls))
    structure, unstructure = _generated(cls)
    by_field = lazy_hooks.unstructure_factory(converter)(cls)(value)
    written = unstructure(value)
    assert written == by_field
    assert canonical_json(written) == canonical_json(by_field)
    read = lazy_hooks.structure_factory(converter)(cls)(written, cls)
    assert read == structure(written, cls) == value


def test_a_class_met_often_is_generated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[type[Any]] = []
    real = make_dict_unstructure_fn

    def counted(cls: type[Any], *args: Any, **kwargs: Any) -> Any:
        made.append(cls)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr("engine.store.lazy_hooks.make_dict_unstructure_fn", counted)
    hook = lazy_hooks.unstructure_factory(converter)(Directory)
    directory = Directory()
    results = [hook(directory) for _ in range(lazy_hooks.GENERATE_AFTER * 2)]
    assert [Directory] == made
    assert all(result == results[0] for result in results)
