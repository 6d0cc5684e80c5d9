"""One text limit for every command: each text parameter of every verb of every system (and the
reasons of undo and amend, the changes of an amendment, the parameters of `init`) is refused
over domain.limits' bounds with TEXT_TOO_LONG or COMMAND_TEXT_TOO_LONG, naming the parameter
and the limit, and nothing is appended. The check is the engine's, before any rule runs."""

from __future__ import annotations

import enum
import types
from collections.abc import Iterator
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest

from domain.errors import CommandTextTooLong, DomainError, TextTooLong
from domain.events import Role
from domain.lifecycle import AddNote, StartSession
from domain.limits import MAX_COMMAND_TEXT, MAX_TEXT
from domain.registry import Verb, verbs
from domain.rulesets import SYSTEMS
from engine import Engine
from tests.conftest import event_count

LONG = "x" * (MAX_TEXT + 1)


def _plain_value(tp: Any) -> Any:
    """A value of a field's type that a command can be built with (it need not be valid)."""
    options = get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)
    if type(None) in options:
        return None
    kind = options[0]
    if kind is bool:
        return False
    if kind is int:
        return 1
    if kind is str:
        return "x"
    if get_origin(kind) is tuple:
        return ()
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return next(iter(kind))
    raise AssertionError(f"no plain value for {tp}")


def _texts(verb: Verb) -> Iterator[tuple[str, bool]]:
    """The verb's text parameters: (name, whether a list of texts)."""
    hints = get_type_hints(verb.command)
    for parameter in verb.parameters:
        tp = hints[parameter.name]
        options = get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)
        if str in options:
            yield parameter.name, False
        elif any(get_origin(o) is tuple and get_args(o)[0] is str for o in options):
            yield parameter.name, True


CASES = [
    pytest.param(system, verb, name, is_list, id=f"{system}:{verb.name}:{name}")
    for system in sorted(SYSTEMS)
    for verb in verbs(system).values()
    for name, is_list in _texts(verb)
]


@pytest.fixture(scope="module")
def engines() -> Iterator[dict[str, Engine]]:
    """A campaign of each system, in a running session."""
    found = {}
    for system in sorted(SYSTEMS):
        engine = Engine()
        engine.create_campaign(system, system, gm="Rosa", members={"ana": Role.PLAYER})
        engine.execute(system, StartSession())
        found[system] = engine
    yield found
    for engine in found.values():
        engine.close()


def test_every_text_parameter_of_every_verb_is_covered() -> None:
    """The cases below reach every system and the verbs with free text."""
    assert len(CASES) > 150
    assert sum(is_list for *_, is_list in (c.values for c in CASES)) > 50
    assert {"note", "entropy", "dice", "dispute", "post", "character create"} <= {
        verb.name for _, verb, _, _ in (c.values for c in CASES)
    }


@pytest.mark.parametrize(("system", "verb", "name", "is_list"), CASES)
def test_a_text_over_the_limit_is_refused_naming_it_and_nothing_is_appended(
    engines: dict[str, Engine], system: str, verb: Verb, name: str, is_list: bool
) -> None:
    engine = engines[system]
    hints = get_type_hints(verb.command)
    args = {p.name: _plain_value(hints[p.name]) for p in verb.parameters if p.required}
    args[name] = (LONG,) if is_list else LONG
    command = verb.command(**args)
    before = event_count(engine)
    with pytest.raises(TextTooLong) as refused:
        engine.execute(system, command)
    assert refused.value.reason.startswith(f"{name} is 10,001 characters;")
    assert "at most 10,000 characters" in refused.value.reason
    assert before == event_count(engine)


def test_the_texts_of_a_command_are_bounded_together(engines: dict[str, Engine]) -> None:
    """The Code's hero: seven details, each under the limit, too long together."""
    engine = engines["the-code"]
    verb = verbs("the-code")["character create"]
    hints = get_type_hints(verb.command)
    args = {p.name: _plain_value(hints[p.name]) for p in verb.parameters if p.required}
    args.update(secret_identity="s" * MAX_TEXT, physical_description="p" * MAX_TEXT)
    args["profession"] = "a"
    before = event_count(engine)
    with pytest.raises(CommandTextTooLong) as refused:
        engine.execute("the-code", verb.command(**args))
    assert f"{MAX_COMMAND_TEXT:,}" in refused.value.reason
    assert before == event_count(engine)


def test_a_note_of_two_million_characters_from_the_issue_is_refused(
    engines: dict[str, Engine],
) -> None:
    engine = engines["code-green"]
    before = event_count(engine)
    with pytest.raises(TextTooLong) as refused:
        engine.execute("code-green", AddNote(text="n" * 2_000_000))
    assert "text is 2,000,000 characters" in refused.value.reason
    assert before == event_count(engine)
    engine.execute("code-green", AddNote(text="n" * MAX_TEXT))  # the limit itself is taken
    assert before < event_count(engine)


@pytest.mark.parametrize(
    "correction",
    [
        lambda e: e.undo("code-green", reason=LONG),
        lambda e: e.amend("code-green", 2, {"entropy": "x"}, reason=LONG),
        lambda e: e.amend("code-green", 2, {"entropy": LONG}, reason="why"),
        lambda e: e.amend(
            "code-green", 2, {"entropy": "x" * MAX_TEXT}, reason="y" * MAX_TEXT + "z"
        ),
    ],
    ids=["undo's reason", "amend's reason", "a change", "the changes and reason together"],
)
def test_the_text_of_a_correction_is_bounded(engines: dict[str, Engine], correction: Any) -> None:
    engine = engines["code-green"]
    before = event_count(engine)
    with pytest.raises((TextTooLong, CommandTextTooLong)):
        correction(engine)
    assert before == event_count(engine)


@pytest.mark.parametrize(
    "given",
    [
        {"gm": LONG},
        {"members": {LONG: Role.PLAYER}},
        {"house_rules": {"maxStrainPerTest": LONG}},
        {"members": {f"m{n:05}" + "x" * 300: Role.PLAYER for n in range(80)}},
    ],
    ids=["the GM's name", "a member's name", "a house rule", "the members together"],
)
def test_the_parameters_of_init_are_bounded(given: dict[str, Any]) -> None:
    with Engine() as engine:
        with pytest.raises(DomainError) as refused:
            engine.create_campaign("Lab", "code-green", **given)
        assert refused.value.code in ("TEXT_TOO_LONG", "COMMAND_TEXT_TOO_LONG")
        assert 0 == event_count(engine)
