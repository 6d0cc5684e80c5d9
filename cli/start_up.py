"""A `campaign` process's start-up, with Python's cyclic garbage collector paused.

Until its verb is found, a run imports modules and builds classes, functions and commands it keeps
to the end: the collector would walk them again and again, finding nothing to free (measured: 6%
of a `roll`'s instructions). ``main`` pauses it (``pause``) before it imports the command group;
once the verb is resolved (``resumed``), what start-up made is frozen (never walked again) and
the collector runs as usual for the verb's own work. A caller that runs the group itself (tests,
the bench's in-process commands) is not paused.

A verb that opens the store has the engine imported here, at the bottom of the stack, before
click finds the verb (``opens_the_store``). Python 3.11 keeps its frames in chunks of 16 KiB and
maps a chunk anew, and unmaps it, each time a call crosses a chunk's edge; imported from inside
click's dispatch, some twenty frames deeper, the engine built its hundred-odd classes across
that edge: 889 mmap and munmap pairs in a `roll` process (3 when imported here), 3.6% of its
time. Help, the version and completion import no engine (tests/e2e/test_cli_imports.py)."""

from __future__ import annotations

import gc
import os
import sys

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


# The group's options that take a value (``--db PATH``: tests/e2e/test_cli_imports.py holds them
# to ``cli.main.campaign``'s), and the verbs that open no store.
_VALUED = frozenset({"--db", "--campaign", "--as", "--actor"})
_NO_STORE = frozenset({"completion", "key"})
_SAYS_ONLY = frozenset({"--help", "-h", "--version"})


def opens_the_store(argv: list[str]) -> bool:
    """Whether the command line ``argv`` (without the program's name) names a verb that opens
    the store: any but help, the version, completion and the key file's own verbs."""
    from cli.completion import COMPLETING  # the command group imports it too

    if _SAYS_ONLY.intersection(argv) or os.environ.get(COMPLETING):
        return False
    words = iter(argv)
    for word in words:
        if word in _VALUED:
            next(words, None)
        elif not word.startswith("-"):
            return word not in _NO_STORE
    return False


def main() -> None:
    """The `campaign` program (its console script and ``python -m cli``): the collector is
    paused before the command group itself is imported, and the engine imported first when
    the verb opens the store."""
    pause()
    if opens_the_store(sys.argv[1:]):
        import engine  # noqa: F401 - imported at the bottom of the stack: see above
    from cli.main import main as run

    run()
