"""A verb says whether it rolls (``rolls: ClassVar[bool] = True`` on its command, read as
``Verb.rolls``: the pages give a rolling verb's form its dice field and hide the GM's rolls by
default): held here to what each command's ``decide`` does, by reading its code for any use of
its dice source (an inner function or generator reading it counts), so a command that starts to
roll and does not say so fails here rather than losing its dice field."""

from __future__ import annotations

import dis
from typing import Any

import pytest

from domain.registry import rolls, verbs
from domain.rulesets import SYSTEMS


def reads_dice(decide: Any) -> bool:
    """Whether ``decide`` (view, dice) reads its dice source at all."""
    code = decide.__code__
    assert code.co_argcount >= 3, f"{decide.__qualname__} takes no dice source"
    dice = code.co_varnames[2]
    if dice in code.co_cellvars:  # read by an inner function or generator
        return True
    return any(
        i.opname.startswith("LOAD_")
        and dice in (i.argval if isinstance(i.argval, tuple) else (i.argval,))
        for i in dis.get_instructions(decide)
    )


COMMANDS = sorted(
    {verb.command for system in SYSTEMS for verb in verbs(system).values()},
    key=lambda c: f"{c.__module__}.{c.__qualname__}",
)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_command_says_it_rolls_exactly_when_its_decide_reads_dice(command: type[Any]) -> None:
    assert rolls(command) is reads_dice(command.decide)


def test_every_verb_of_a_command_that_rolls_rolls() -> None:
    for system in SYSTEMS:
        for verb in verbs(system).values():
            assert verb.rolls is rolls(verb.command), (system, verb.name)


def test_some_verbs_roll_and_some_do_not() -> None:
    said = {rolls(c) for c in COMMANDS}
    assert said == {True, False}
    assert verbs("sims")["roll"].rolls
    assert not verbs("sims")["scene start"].rolls
