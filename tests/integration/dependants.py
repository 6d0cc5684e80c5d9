"""One meaning of "depends", checked on every correction the stories make.

A later ruling depends on ruling N when re-deciding the history without N (``--redecide``)
changes it or refuses it. So a plain undo (or amendment) must name as its dependants exactly the
rulings that the same correction with ``--redecide`` amends with a new decision or undoes with
it, or, when ``--redecide`` is refused, the rulings that refusal lists; and ``--with-dependents``
must undo at least those. Each helper here makes the plain correction first (refused, it appends
nothing), then the one the story asked for, and compares them.

Where nothing depends on N the plain correction is recorded and is the correction: re-deciding
nothing, ``--redecide`` would record the same one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from domain.errors import (
    AmendmentConflicts,
    CannotRedecide,
    DomainError,
    LaterRulingsDepend,
)
from domain.events import RulingMade
from engine import Engine
from engine.write.assembly import RulingResult
from tests.conftest import event_count


def header(result: RulingResult) -> dict[str, Any]:
    made = next(r.event for r in result.records if isinstance(r.event, RulingMade))
    params: dict[str, Any] = json.loads(made.params)
    return params


def named(refusal: DomainError) -> set[int]:
    """The rulings a refusal lists as dependants."""
    return {int(n) for n in str(refusal.data["dependents"]).split(", ")}


def changed_or_refused(result: RulingResult) -> set[int]:
    """The later rulings a correction amended with their new decision or undid with it."""
    params = header(result)
    return {r["ruling"] for r in params.get("redecided", ())} | set(params["with"])


def _refusal(correct: Callable[..., RulingResult], **mode: bool) -> RulingResult | DomainError:
    """The correction made in ``mode``, or its refusal."""
    try:
        return correct(**mode)
    except DomainError as refused:
        return refused


def _plain_first(
    engine: Engine, correct: Callable[..., RulingResult], depend: type[DomainError]
) -> RulingResult | set[int]:
    """The plain correction: recorded where nothing depends on it; refused otherwise, appending
    nothing, its dependants returned. Any other refusal is the one the asked-for correction
    makes too (a later session end it would change): checked, then raised."""
    before = event_count(engine)
    plain = _refusal(correct)
    if isinstance(plain, RulingResult):
        assert [] == header(plain)["with"]
        assert "redecided" not in header(plain)
        return plain
    assert before == event_count(engine)
    if isinstance(plain, depend):
        return named(plain)
    redecided = _refusal(correct, redecide=True)
    assert isinstance(redecided, DomainError), f"a plain correction refused ({plain}), not this"
    assert (plain.code, plain.data) == (redecided.code, redecided.data)
    assert before == event_count(engine)
    raise redecided


def _redecided(
    engine: Engine, correct: Callable[..., RulingResult], depend: type[DomainError]
) -> RulingResult:
    first = _plain_first(engine, correct, depend)
    if isinstance(first, RulingResult):
        return first
    before = event_count(engine)
    result = _refusal(correct, redecide=True)
    if isinstance(result, CannotRedecide):
        assert before == event_count(engine)
        assert first == named(result)
        assert result.data["dependent"] in first
    if isinstance(result, DomainError):
        raise result
    assert first == changed_or_refused(result)
    return result


def undo_redecided(engine: Engine, campaign: str, ruling: int, *, reason: str) -> RulingResult:
    """``undo --redecide`` of ``ruling``, after a plain undo of it (see the module)."""

    def correct(**mode: bool) -> RulingResult:
        return engine.undo(campaign, ruling, reason=reason, **mode)

    return _redecided(engine, correct, LaterRulingsDepend)


def amend_redecided(
    engine: Engine, campaign: str, ruling: int, changes: Mapping[str, str], **given: Any
) -> RulingResult:
    """``amend --redecide`` of ``ruling``, after a plain amendment of it (see the module)."""

    def correct(**mode: bool) -> RulingResult:
        return engine.amend(campaign, ruling, changes, **given, **mode)

    return _redecided(engine, correct, AmendmentConflicts)


def undo_with_dependents(
    engine: Engine, campaign: str, ruling: int, *, reason: str
) -> tuple[RulingResult, set[int]]:
    """``undo --with-dependents`` of ``ruling``, after a plain undo of it (see the module): the
    undo and the dependants the plain one named, every one of them undone with it."""

    def correct(**mode: bool) -> RulingResult:
        return engine.undo(campaign, ruling, reason=reason, **mode)

    first = _plain_first(engine, correct, LaterRulingsDepend)
    if isinstance(first, RulingResult):
        return first, set()
    result = correct(with_dependents=True)
    assert first <= set(header(result)["with"])
    return result, first
