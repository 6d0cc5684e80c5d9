"""A session narrated ruling by ruling with each character's state after each ruling (as
corrected since), in one pass: each character's stream is read once and folded forward, so the
narration costs about what reading the session's log costs, not a replay per ruling."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

from attrs import frozen

from domain.plain import Plain
from engine.store.log import LoggedRuling
from engine.store.records import Recorded
from engine.store.streams import Corrections, Evolve, Streams, corrections, fold


@frozen
class Narrated(Plain):
    """One ruling of the session and the states, after it, of the characters it touched."""

    logged: LoggedRuling
    after: dict[UUID, Any]


class Folding:
    """One stream folded forward ruling by ruling, every correction since applied."""

    def __init__(self, records: list[Recorded], evolve: Evolve) -> None:
        self._records = records
        self._evolve = evolve
        self._fixes = corrections(records)
        self._at = 0  # the index of the first record not folded yet
        self._done = 0  # the last ruling folded
        self.state: Any = None

    def advance(self, ruling: int) -> Any:
        """The state after ``ruling`` (rulings are asked for in ascending order)."""
        if self._done < ruling:
            start = self._at
            while self._at < len(self._records) and self._records[self._at].ruling <= ruling:
                self._at += 1
            replaced = {
                r: events
                for r, events in self._fixes.replacements.items()
                if self._done < r <= ruling
            }
            fixes = Corrections(voided=self._fixes.voided, replacements=replaced)
            self.state = fold(self._records[start : self._at], self._evolve, self.state, fixes)
            self._done = ruling
        return self.state


def narrate(
    streams: Streams,
    logged: Iterable[LoggedRuling],
    characters: dict[UUID, Evolve],
) -> Iterator[Narrated]:
    """Each ruling with the state after it of each character it touched (as its last
    amendment stands), folding each character's stream once."""
    folds: dict[UUID, Folding] = {}
    for entry in logged:
        touched = {r.originator_id for r in entry.standing if r.originator_id in characters}
        after = {}
        for stream in touched:
            if stream not in folds:
                folds[stream] = Folding(streams.records(stream), characters[stream])
            after[stream] = folds[stream].advance(entry.ruling.number)
        yield Narrated(entry, after)
