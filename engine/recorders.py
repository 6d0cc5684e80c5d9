"""The store's event recorders: eventsourcing's own, with a bulk insert and a topic filter.

``BulkSQLiteRecorder`` (SQLite) differs from the library's application recorder in three ways:
- a save's events go in with one ``executemany`` in the same transaction (the library runs one
  ``execute`` per event to read each notification id back); the ids are derived from the last
  one: a save holds the write lock, so its rows get consecutive rowids ending at
  ``last_insert_rowid``;
- ``select_events`` can keep only some topics (``topics=``), filtered in SQL: replay looks for a
  long stream's undos and amendments without reading every event into Python;
- the rows of one stream share the ``UUID`` asked for instead of parsing one per row.
``TopicFilter`` marks a recorder that takes ``topics=`` (the PostgreSQL one does too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor


class TopicFilter:
    """A recorder whose ``select_events`` takes ``topics=`` (only events of those topics)."""

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
        topics: Sequence[str] = (),
    ) -> Sequence[StoredEvent]:
        raise NotImplementedError


class BulkSQLiteRecorder(SQLiteApplicationRecorder, TopicFilter):
    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any
    ) -> Sequence[int] | None:
        if not stored_events:
            return []
        hexes: dict[Any, str] = {}  # a save's rows share few streams: each id written once
        rows = []
        for s in stored_events:
            stream = s.originator_id
            name = hexes.get(stream)
            if name is None:
                name = hexes[stream] = stream.hex if isinstance(stream, UUID) else stream
            rows.append((name, s.originator_version, s.topic, s.state))
        c.executemany(self.insert_events_statement, rows)
        c.execute("SELECT last_insert_rowid()")
        last: int = c.fetchone()[0]
        return list(range(last - len(stored_events) + 1, last + 1))

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
        topics: Sequence[str] = (),
    ) -> Sequence[StoredEvent]:
        stream = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
        statement = (
            f"SELECT originator_version, topic, state FROM {self.events_table_name} "
            "WHERE originator_id=?"
        )
        params: list[Any] = [stream.hex]
        if gt is not None:
            statement += " AND originator_version>?"
            params.append(gt)
        if lte is not None:
            statement += " AND originator_version<=?"
            params.append(lte)
        if topics:
            statement += f" AND topic IN ({','.join('?' * len(topics))})"
            params.extend(topics)
        statement += " ORDER BY originator_version " + ("DESC" if desc else "ASC")
        if limit is not None:
            statement += " LIMIT ?"
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            return [
                StoredEvent(
                    originator_id=stream,
                    originator_version=version,
                    topic=topic,
                    state=state,
                )
                for version, topic, state in c.fetchall()
            ]
