"""What the state lets a character do now, and what it waits for: the actions beside the
table's composer (``engine.application.actions``).

Each system's ruleset has ``moves``: for some of its verbs, a ``check`` that makes of the state
(and of the acting character, as loaded) the very refusal the verb's ``decide`` would make
first, built from the same check functions; and ``expected``, the verbs the state waits for
from a character (the roll of its declared test, the adaptation it owes), first first. The
shared verbs' checks of the table (a session to end, a scene to start) are here. A verb with no
check, or whose refusal hangs on its parameters, stays available: this is a convenience for the
page, never the guard (a verb posted while the state refuses it is refused by ``decide``).

Verbs are keyed by what a user types (``use-item``, not the ``use`` its rulings log), as the
policy's tables are (``domain.policy``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from domain.campaign import (
    check_can_end_session,
    check_can_start_scene,
    check_can_start_session,
    check_entropy_window,
)
from domain.commands import View
from domain.errors import DomainError
from domain.plain import Plain

Check = Callable[[View, Any], object]
"""A verb's refusal by the state, for one acting character's state (raises, or nothing)."""
TableCheck = Callable[[View], object]
"""A verb's refusal by the table's state, whoever acts."""


def _nothing_expected(view: View, character: Any) -> Sequence[str]:
    return ()


@frozen
class Moves(Plain):
    """A system's reading of the state: ``checks`` (verb -> ``Check``), ``table`` (verb ->
    ``TableCheck``, the system's verbs that no character does), ``expected(view, character)``
    (the verbs the state waits for from that character, first first)."""

    checks: Mapping[str, Check] = field(factory=dict)
    table: Mapping[str, TableCheck] = field(factory=dict)
    expected: Callable[[View, Any], Sequence[str]] = _nothing_expected


@frozen(kw_only=True)
class Move(Plain):
    """A verb the state does not refuse; ``expected``: one the state waits for."""

    verb: str
    expected: bool = False


def _end_scene(view: View) -> None:
    from domain.rulesets import ruleset_named

    view.campaign.require_scene()
    ruleset_named(view.campaign.system).end_scene(view)


def _end_session(view: View) -> None:
    from domain.rulesets import ruleset_named

    check_can_end_session(view.campaign)
    ruleset_named(view.campaign.system).end_session(view)


SHARED: Mapping[str, TableCheck] = {
    "session start": lambda view: check_can_start_session(view.campaign),
    "session end": _end_session,
    "scene start": lambda view: check_can_start_scene(view.campaign),
    "scene end": _end_scene,
    "entropy": lambda view: check_entropy_window(view.campaign),
}
"""The shared verbs' checks: what ``decide`` refuses of the table's state before any
parameter (ending a scene asks the system what ending it does, as ``decide`` does)."""


def _passes(check: Callable[..., object], *given: Any) -> bool:
    try:
        check(*given)
    except DomainError:
        return False
    return True


def moves_now(
    moves: Moves, view: View, allowed: Iterable[str], characters: Sequence[Any]
) -> tuple[Move, ...]:
    """The ``allowed`` verbs the state does not refuse for at least one of ``characters``
    (states, as loaded; none: no character acts, and a verb with a character's check is not
    offered), the expected ones first (in the order the characters expect them), the rest in
    the order given."""
    expected: dict[str, None] = {}
    for c in characters:
        expected.update(dict.fromkeys(moves.expected(view, c)))
    shown: list[str] = []
    for verb in allowed:
        table = SHARED.get(verb) or moves.table.get(verb)
        if table is not None and not _passes(table, view):
            continue
        check = moves.checks.get(verb)
        if check is not None and not any(_passes(check, view, c) for c in characters):
            continue
        shown.append(verb)
    first = [v for v in expected if v in shown]
    return tuple(
        [Move(verb=v, expected=True) for v in first]
        + [Move(verb=v) for v in shown if v not in expected]
    )
