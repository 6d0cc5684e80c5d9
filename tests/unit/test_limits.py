"""The limits of domain.limits: one text at most MAX_TEXT characters, a command's texts together
at most MAX_COMMAND_TEXT, found in any parameter (lists, mappings, nested values), named in the
refusal; the depth scanner; and the sizes agreeing with each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from attrs import frozen
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import CommandTextTooLong, TextTooLong
from domain.events import Role
from domain.limits import (
    MAX_BODY,
    MAX_BODY_DEPTH,
    MAX_COMMAND_TEXT,
    MAX_DEPTH,
    MAX_DICE,
    MAX_EXPRESSION,
    MAX_LINE,
    MAX_NAME,
    MAX_SIDES,
    MAX_TEXT,
    MIN_SIDES,
    check_command,
    check_parameters,
    nests_deeper,
)

WORST = "\x01"  # the character JSON writes longest without ASCII escapes: \u0001


@frozen
class Inner:
    words: str


@frozen(kw_only=True)
class Talk:
    name = "talk"
    text: str = ""
    items: tuple[str, ...] = ()
    inner: Inner | None = None
    role: Role = Role.PLAYER
    count: int = 0


def test_a_text_of_the_limit_is_taken_and_one_more_character_refused() -> None:
    check_command(Talk(text="x" * MAX_TEXT))
    with pytest.raises(TextTooLong) as refused:
        check_command(Talk(text="x" * (MAX_TEXT + 1)))
    assert "TEXT_TOO_LONG" == refused.value.code
    assert refused.value.reason == (
        "text is 10,001 characters; a command's text is at most 10,000 characters "
        "(see Limits in docs/dice-and-trust.md)"
    )


@pytest.mark.parametrize(
    "command",
    [
        Talk(items=("a", "x" * (MAX_TEXT + 1))),
        Talk(inner=Inner(words="x" * (MAX_TEXT + 1))),
    ],
    ids=["an item of a list", "a field of a nested value"],
)
def test_a_long_text_is_found_wherever_it_is_and_named_by_its_parameter(command: Talk) -> None:
    with pytest.raises(TextTooLong) as refused:
        check_command(command)
    assert refused.value.reason.startswith(("items is", "inner is"))


def test_the_texts_of_a_command_count_together_each_at_least_one() -> None:
    """Two full texts fit; one character more is refused; an empty item counts one (it is
    written all the same), so a list of empty items cannot grow a row without bound."""
    check_command(Talk(text="x" * MAX_TEXT, items=("y" * MAX_TEXT,)))
    with pytest.raises(CommandTextTooLong) as refused:
        check_command(Talk(text="x" * MAX_TEXT, items=("y" * MAX_TEXT, "z")))
    assert "COMMAND_TEXT_TOO_LONG" == refused.value.code
    assert "talk is 20,001 characters in all" in refused.value.reason
    with pytest.raises(CommandTextTooLong):
        check_command(Talk(items=("",) * (MAX_COMMAND_TEXT + 1)))


def test_mappings_count_their_keys_and_values_and_enums_are_not_text() -> None:
    check_parameters("init", {"members": {"a" * MAX_TEXT: Role.GM}})
    with pytest.raises(TextTooLong):
        check_parameters("init", {"members": {"a" * (MAX_TEXT + 1): Role.GM}})
    pairs = [("text", "x" * MAX_TEXT), ("reason", "y" * MAX_TEXT), ("a", "z")]
    with pytest.raises(CommandTextTooLong):
        check_parameters("amend", pairs)


def test_the_largest_header_the_text_limits_allow_fits_a_line_with_room_to_spare() -> None:
    """An amendment's header holds its command's texts and, again, its changes and reason
    (2 * MAX_COMMAND_TEXT characters) as JSON inside JSON: in the worst characters, and in the
    worst shape (one-character items of a list), it is under half of MAX_LINE."""
    for shape in (["x" * MAX_TEXT] * 2, ["x"] * MAX_COMMAND_TEXT):
        texts = [t.replace("x", WORST) for t in shape]
        params = json.dumps({"command": {"args": {"a": texts}}, "changed": {"a": texts}})
        line = json.dumps({"event": {"params": params}}, ensure_ascii=False).encode()
        assert len(line) < MAX_LINE / 2, (len(line), MAX_LINE)


def test_the_largest_command_fits_a_request_body() -> None:
    """A command with all the text allowed, as a client may write it at its longest: every
    character outside the BMP escaped as two \\uXXXX, as one-character items of a list."""
    body = json.dumps({"params": {"items": ["\U0001f600"] * MAX_COMMAND_TEXT}}, ensure_ascii=True)
    assert len(body.encode()) < MAX_BODY


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("[]{}\"'"), inner),
    max_leaves=40,
)


@given(value=json_values, limit=st.integers(0, 12))
def test_the_depth_scanner_agrees_with_a_parse(value: object, limit: int) -> None:
    raw = json.dumps(value).encode()
    assert nests_deeper(raw, limit) == (_depth(value) > limit)


def _documented_limits() -> str:
    """The Limits section of docs/dice-and-trust.md."""
    page = (Path(__file__).parents[2] / "docs" / "dice-and-trust.md").read_text(encoding="utf-8")
    return page.split("## Limits", 1)[1].split("\n## ", 1)[0]


def test_the_docs_table_says_the_limits_the_domain_holds() -> None:
    """The limits are written twice, in domain.limits and in docs/dice-and-trust.md: they agree."""
    table = _documented_limits()
    for said in (
        f"| {MAX_NAME} characters |",
        f"| {MAX_TEXT:,} characters |",
        f"| {MAX_COMMAND_TEXT:,} characters |",
        f"| 1 to {MAX_DICE} dice of {MIN_SIDES} to {MAX_SIDES:,} sides, written in at most "
        f"{MAX_EXPRESSION} characters |",
        f"| {MAX_LINE:,} bytes (1 MiB) |",
        f"| {MAX_DEPTH} levels | `IMPORT_NESTED_TOO_DEEP`",
        f"| {MAX_BODY:,} bytes (512 KiB) |",
        f"| {MAX_BODY_DEPTH} levels | `BODY_NESTED_TOO_DEEP`",
    ):
        assert said in table


def test_every_code_in_the_docs_table_is_a_refusal_of_ours() -> None:
    import importlib

    from domain.errors import DomainError

    defining = ("domain.post_rolls", "domain.rulesets.code_green.errors", "web.errors")
    for module in defining:  # where the table's refusals are defined (free rolls' too)
        importlib.import_module(module)
    codes: set[str] = set()
    classes = list(DomainError.__subclasses__())
    while classes:
        cls = classes.pop()
        codes.add(cls.code)
        classes += cls.__subclasses__()
    said = set(re.findall(r"`([A-Z][A-Z_]+)`", _documented_limits()))
    assert said <= codes, said - codes
    assert len(said) >= 10
