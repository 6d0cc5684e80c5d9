"""The read models of a large import computed in a child process, beside the line checks.

An import's two biggest costs are checking its lines (and folding its streams) and computing its
read models; neither needs the other's results, and a machine has more than one core. So from
``CHILD_FROM`` events (the header says how many), the import starts ``python -m
engine.transfer.models_child`` and tells it, on its standard input, how many rows the scratch
store holds each time a page of them is written there (``engine.transfer.scratch``). The child
reads those rows back from the scratch file (SQLite in WAL mode: a reader beside its one writer),
decodes them with the program's own converter and computes every read model with the very code
an import runs in one process (``engine.transfer.read_models.ImportModels``), into the import's
scratch documents file. When every check held, the import says how many rows there are in all,
and the child answers with one line of JSON: the rows it took, whether they ended on a whole
ruling, and the models that took every ruling. The import then adopts those models' documents as
it does its own (``ChildModels.adopt``).

The child never decides anything: a check refuses the file in the import, which stops the child.
A child that fails, or answers nothing, leaves every read model to catch up by itself on its next
read, as an import whose records cannot be taken as rulings does.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from uuid import UUID

from engine.reads.models import SQLiteViews
from engine.store.recorders import stream_id
from engine.transfer.read_models import ImportModels, documents

if TYPE_CHECKING:
    from eventsourcing.persistence import StoredEvent

    from engine.reads.models import ReadModels, ViewStore
    from projections.documents import ReadModel

CHILD_FROM = 20_000  # events in a file from which its read models are computed by a child
READ = 1_000  # rows the child reads from the scratch at once
QUIT = 5.0  # seconds a child that answered has to end by itself, before it is killed


def wanted(events: int) -> bool:
    """Whether an import of ``events`` events computes its read models in a child process: a
    large one, on a machine of more than one core."""
    return events >= CHILD_FROM and (os.cpu_count() or 1) > 1


class ChildModels:
    """``ImportModels``' work, done by a child process reading the import's scratch store."""

    def __init__(self, folder: Path, scratch: Path, table: str, models: Sequence[ReadModel]):
        self.folder = folder
        self.models = {model.name: model for model in models}
        self.computed = list(models)  # until the child answers: then those that took it all
        self.started = False
        self.whole = False
        self.rows = 0  # the rows the scratch store holds, as last told to the child
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *sys.path[1:]])}
        self._child: subprocess.Popen[str] | None = subprocess.Popen(
            [sys.executable, "-m", "engine.transfer.models_child", str(folder), str(scratch), table]
            + [model.name for model in models],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def start(self, registration: StoredEvent | None, system: str) -> None:
        """The campaign's directory entry, the first row the models take; None: none is computed."""
        if registration is None:
            self.leave()
            return
        self.started = True
        row = [
            stream_id(registration.originator_id).hex,
            registration.originator_version,
            registration.topic,
            registration.state.decode(),
        ]
        self._say({"system": system, "registration": row})

    def written(self, count: int) -> None:
        """The scratch store holds the first ``count`` rows of the file."""
        self.rows = count
        self._say({"rows": count})

    def add(self, record: object) -> None:
        """Nothing: the child reads the rows from the scratch store."""

    def leave(self) -> None:
        """Compute no read model: each catches up by itself."""
        self.computed = []
        self.close()

    def caught_up(self, read_models: ReadModels) -> None:
        """The child's answer, once it took every row written; then each model it computed is
        caught up with the log as it stands before the import (``ImportModels.caught_up``)."""
        count = self.rows
        answer = self._answer(count)
        if answer is None or not answer.get("whole") or answer.get("count") != count + 1:
            self.leave()
            return
        self.whole = True
        self.computed = [self.models[name] for name in answer["computed"] if name in self.models]
        for model in self.computed:
            read_models.catch_up(model)

    def adopt(self, views: ViewStore, first: int, last: int) -> list[str]:
        """Each model the child computed, handed to ``views`` for the rows written at
        notification ids ``first`` to ``last`` (``ImportModels.adopt``)."""
        if not self.whole or first <= 0:
            return []
        scratch = SQLiteViews(str(self.folder / "models.db"))
        try:
            taken = []
            for model in self.computed:
                at = (first - 1, model.version)
                if views.adopt(model.name, at, last, documents(scratch, model.name)):
                    taken.append(model.name)
            return taken
        finally:
            scratch.close()

    def close(self, answered: bool = False) -> None:
        """Stop the child: one that answered ends by itself (it closed its files first); one
        that did not is killed (the import was refused, or it failed)."""
        child, self._child = self._child, None
        if child is None:
            return
        try:
            child.wait(timeout=QUIT if answered else 0)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()

    def _say(self, message: dict[str, Any]) -> None:
        child = self._child
        if child is None or child.stdin is None:
            return
        try:
            child.stdin.write(json.dumps(message) + "\n")
            child.stdin.flush()
        except OSError:  # the child has gone: its models are left
            self.computed = []

    def _answer(self, count: int) -> dict[str, Any] | None:
        child = self._child
        if child is None or child.stdin is None or child.stdout is None:
            return None
        self._say({"rows": count, "end": True})
        try:
            child.stdin.close()
            line = child.stdout.readline()
            answer = json.loads(line) if line else None
        except (OSError, ValueError):
            answer = None
        self.close(answered=answer is not None)
        return answer if isinstance(answer, dict) else None


def _work(
    folder: Path, scratch: Path, table: str, names: list[str], orders: TextIO
) -> dict[str, Any]:
    """What the child does: the rows read from ``scratch`` as the import says they are there,
    each decoded and taken by the models named; returns the answer."""
    import sqlite3

    from engine.reads.recaps import models as every_model
    from engine.store.event_classes import event_classes
    from engine.store.mapper import admitting, decoded, loads
    from engine.store.topics import resolve

    found = every_model()
    models = ImportModels(folder, [found[name] for name in names if name in found])
    rows = sqlite3.connect(f"file:{scratch}?mode=ro", uri=True)
    query = (
        f"SELECT rowid, originator_id, originator_version, topic, state FROM {table}"
        " WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?"
    )
    classes: dict[str, Any] = {}
    taken = 0
    try:
        for order in orders:
            message = json.loads(order)
            if "system" in message:
                classes.update(event_classes(message["system"]))
                stream, version, topic, state = message["registration"]
                models.start(decoded(UUID(stream), version, resolve(topic), loads(state)))
                continue
            upto = int(message["rows"])
            with admitting(classes):
                while taken < upto:
                    page = rows.execute(query, (taken, upto, READ)).fetchall()
                    if not page:
                        break
                    for rowid, stream, version, topic, state in page:
                        models.add(decoded(UUID(stream), version, classes[topic], loads(state)))
                        taken = rowid
            if message.get("end"):
                break
        computed = [model for model in models.computed if model.failed is None]
        whole = models.started and not models.group
        if whole:
            for model in computed:
                model.flush(models.count)
        return {
            "count": models.count,
            "whole": whole,
            "computed": [model.model.name for model in computed],
        }
    finally:
        rows.close()
        models.close()


def main(argv: list[str]) -> int:
    folder, scratch, table, *names = argv
    gc.disable()  # a process of its own, whose documents hold no cycles
    try:
        answer = _work(Path(folder), Path(scratch), table, names, sys.stdin)
    except Exception as error:  # the import goes on; its models catch up by themselves
        answer = {"whole": False, "error": f"{type(error).__name__}: {error}"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
