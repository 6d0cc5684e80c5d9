"""A `campaign` process's start-up, with Python's cyclic garbage collector paused.

Until its verb is found, a run imports modules and builds classes, functions and commands it keeps
to the end: the collector would walk them again and again, finding nothing to free (measured: 6%
of a `roll`'s instructions). ``main`` pauses it (``pause``) before it imports the command group;
once the verb is resolved (``resumed``), what start-up made is frozen (never walked again) and
the collector runs as usual for the verb's own work. A caller that runs the group itself (tests,
the bench's in-process commands) is not paused."""

from __future__ import annotations

import gc

_PAUSED: list[bool] = []  # True while this module holds the collector paused


def pause() -> None:
    if gc.isenabled():
        gc.disable()
        _PAUSED.append(True)


def resumed() -> None:
    if _PAUSED:
        _PAUSED.clear()
        gc.freeze()
        gc.enable()


def main() -> None:
    """The `campaign` program (its console script and ``python -m cli``): the collector is
    paused before the command group itself is imported."""
    pause()
    from cli.main import main as run

    run()
