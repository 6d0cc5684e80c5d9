"""Each command parameter has one kind (``domain.kinds``), found by the registry from its
annotation and what its system declares beside the command; the declarations name real
commands and fields, and each kind checks, reads and describes its values one way."""

from __future__ import annotations

import importlib

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidParameter, TextTooLong
from domain.kinds import (
    ACTOR,
    CHARACTER,
    MEMBER,
    RULING,
    Choice,
    Flag,
    Integer,
    ListOf,
    Reference,
    Refers,
    Text,
)
from domain.limits import MAX_TEXT
from domain.registry import SHARED, SHARED_PARAMETERS, acting, parameters_of, verbs
from domain.rulesets import SYSTEMS


def _declared(system: str) -> dict[str, type]:
    return {v.command.__name__: v.command for v in verbs(system).values()}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_what_a_system_declares_names_its_commands_and_their_fields(system: str) -> None:
    """A declaration for a command or a field that does not exist would never apply."""
    module = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.commands")
    retired = {name: getattr(module, name) for name in getattr(module, "RETIRED", ())}
    classes = _declared(system) | retired  # a retired command's rulings may still be amended
    for name, fields in module.PARAMETERS.items():
        assert name in classes, f"{system}: no command {name}"
        assert classes[name].__module__ not in SHARED
        for field in fields:
            assert field in attrs.fields_dict(classes[name]), f"{system} {name}: no {field}"
    shared = {n: c for n, c in classes.items() if c.__module__ in SHARED}
    for name, fields in SHARED_PARAMETERS.items():
        assert set(fields) <= set(attrs.fields_dict(shared[name])), name


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_parameter_has_one_kind_from_its_annotation(system: str) -> None:
    """A flag is a bool, a whole number an int (or a ruling), a list a tuple, a choice an
    enum's values (or a text the system declares one of), ``| None`` may be null."""
    for verb in verbs(system).values():
        for p in parameters_of(verb.command):
            written = p.type
            assert p.nullable == written.endswith("| None"), (verb.name, p.name)
            if written.startswith("bool"):
                assert isinstance(p.kind, Flag), (verb.name, p.name)
            elif written.startswith("int"):
                assert isinstance(p.kind, Integer) or p.kind == RULING, (verb.name, p.name)
            elif written.startswith("tuple"):
                assert isinstance(p.kind, ListOf), (verb.name, p.name)
            elif written.startswith("str"):
                assert isinstance(p.kind, Text | Choice | Reference), (verb.name, p.name)
            else:
                assert isinstance(p.kind, Choice), (verb.name, p.name)


def test_references_are_declared() -> None:
    from domain.rulesets.sims.commands import Attack

    kinds = {p.name: p.kind for p in parameters_of(Attack)}
    assert ACTOR == kinds["attacker"]
    assert ListOf(item=CHARACTER) == kinds["targets"]
    assert ("attacker",) == acting(Attack)
    from domain.table import AddMember, DisputeRuling

    assert MEMBER == {p.name: p.kind for p in parameters_of(AddMember)}["member"]
    assert RULING == {p.name: p.kind for p in parameters_of(DisputeRuling)}["ruling"]


def test_a_choice_the_rule_reads_more_of_leaves_other_texts_to_the_rule() -> None:
    from domain.rulesets.sprawl_goons.commands import MakeActionRoll

    stat = {p.name: p for p in parameters_of(MakeActionRoll)}["stat"]
    assert isinstance(stat.kind, Choice)
    assert "reaction" in stat.kind.values
    assert "r" == stat.check("r")  # a prefix: the rule reads it (UNKNOWN_STAT if it cannot)
    strict = Choice(values=("a", "b"))
    with pytest.raises(InvalidParameter, match="one of 'a', 'b'"):
        strict.check("k", "c")
    assert "b" == strict.parse("k", " b ")


def test_each_kind_checks_json_values() -> None:
    assert Flag().check("k", True) is True
    with pytest.raises(InvalidParameter):
        Flag().check("k", 1)
    with pytest.raises(InvalidParameter):
        Integer().check("k", True)
    with pytest.raises(InvalidParameter, match="from 1 to 3"):
        Integer(minimum=1, maximum=3).check("k", 4)
    with pytest.raises(TextTooLong):
        Text().check("k", "x" * (MAX_TEXT + 1))
    with pytest.raises(InvalidParameter, match="a list of a whole number"):
        ListOf(item=Integer()).check("k", [1, "2"])
    assert 3 == RULING.check("k", 3)
    with pytest.raises(InvalidParameter):
        RULING.check("k", 0)
    assert Reference(refers=Refers.NPC).check("k", "Smith") == "Smith"


def test_each_kind_reads_a_line_of_text() -> None:
    """As ``amend --set`` gives them."""
    assert Flag().parse("k", "yes") is True
    assert Flag().parse("k", "0") is False
    with pytest.raises(InvalidParameter):
        Flag().parse("k", "maybe")
    assert 7 == Integer().parse("k", "7")
    with pytest.raises(InvalidParameter):
        Integer().parse("k", "seven")
    assert ["a", "b"] == ListOf(item=Text()).parse("k", "a, b")
    assert [1, 2] == ListOf(item=Integer()).parse("k", "1,2")


@given(st.integers(), st.integers(-5, 5), st.integers(-5, 5))
def test_a_bounded_number_is_taken_exactly_within_its_bounds(n: int, low: int, high: int) -> None:
    kind = Integer(minimum=low, maximum=high)
    if low <= n <= high:
        assert n == kind.check("k", n)
        assert {"type": "integer", "minimum": low, "maximum": high} == kind.schema()
    else:
        with pytest.raises(InvalidParameter):
            kind.check("k", n)


def test_a_parameter_that_may_be_null_says_so_in_its_schema() -> None:
    from domain.rulesets.code_green.commands import RollTest

    (character,) = parameters_of(RollTest)
    assert {
        "anyOf": [
            {"type": "string", "maxLength": MAX_TEXT, "x-refers": "character"},
            {"type": "null"},
        ],
        "default": None,
    } == character.schema()
    assert character.parse("none") is None
    assert character.check(None) is None
