"""The full-text index over the search read model's documents (``projections.search_model``):
SQLite FTS5 in a SQLite file, PostgreSQL's text search on PostgreSQL, a scan in memory.

The documents are kept, caught up and rebuilt as every read model's are (``engine.reads.models``);
the index is the database's own, over those documents, so it is never behind them:
- SQLite: an FTS5 table (``readmodel_search``) whose rows share their rowid with the documents,
  filled by triggers on ``readmodel_documents`` and, when first made, from the documents there;
- PostgreSQL: a GIN index on the documents' words (``to_tsvector('simple', …)``), used by the
  query that repeats its expression.

Both tokenizers read letters and digits, case folded, without stemming or dropping accents, as
``projections.search_model.words`` does; a search then checks each text it is handed against
the words asked for, so the three stores find the same texts. Found documents come newest first,
a page at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Protocol
from uuid import UUID

from attrs import frozen

from engine.reads.models import MemoryViews, SQLiteViews, ViewStore
from engine.store.campaign_store import PREFIX, Datastore
from projections.search_model import ruling_key, words

NAME = "search"  # the read model's name (projections.search_model.SearchModel)


@frozen
class Term:
    """One word asked for; ``prefix``: any word starting with it (written ``word*``)."""

    word: str
    prefix: bool = False

    def found_in(self, written: Sequence[str]) -> bool:
        if self.prefix:
            return any(w.startswith(self.word) for w in written)
        return self.word in written


class Index(Protocol):
    def found(
        self, campaign_id: UUID, terms: Sequence[Term], before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        """The documents holding every term, newest ruling first, the ``limit`` before ruling
        ``before`` (None: the latest): each as (ruling number, document)."""
        ...


def _bounds(campaign_id: UUID, before: int | None) -> tuple[str, str]:
    low = ruling_key(campaign_id, 0)
    end = f"{low.rpartition('/')[0]}/~"  # past every ruling's key: '~' sorts after the digits
    return low, ruling_key(campaign_id, before) if before is not None else end


def _number(key: str) -> int:
    return int(key.rpartition("/")[2])


class MemoryIndex:
    """A scan of the documents (an in-memory store lives as long as one process)."""

    def __init__(self, views: MemoryViews) -> None:
        self._views = views

    def found(
        self, campaign_id: UUID, terms: Sequence[Term], before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        low, high = _bounds(campaign_id, before)
        found = []
        for key, doc in reversed(self._views.documents(NAME).items()):
            if not low <= key < high:
                continue
            written = [w for text in doc["words"] for w in words(text)]
            if all(term.found_in(written) for term in terms):
                found.append((_number(key), doc))
                if len(found) == limit:
                    break
        return found


SQLITE_INDEX = (
    "CREATE VIRTUAL TABLE readmodel_search USING fts5("
    " words, tokenize = 'unicode61 remove_diacritics 0')",
    # The words of a document, one text a line, as the table holds them.
    "CREATE TRIGGER readmodel_search_added AFTER INSERT ON readmodel_documents"
    " WHEN new.projection = 'search' BEGIN"
    " DELETE FROM readmodel_search WHERE rowid = new.rowid;"
    " INSERT INTO readmodel_search (rowid, words) VALUES (new.rowid,"
    " (SELECT group_concat(value, char(10)) FROM json_each(new.body, '$.words')));"
    " END",
    "CREATE TRIGGER readmodel_search_removed AFTER DELETE ON readmodel_documents"
    " WHEN old.projection = 'search' BEGIN"
    " DELETE FROM readmodel_search WHERE rowid = old.rowid;"
    " END",
    "INSERT INTO readmodel_search (rowid, words) SELECT rowid,"
    " (SELECT group_concat(value, char(10)) FROM json_each(body, '$.words'))"
    " FROM readmodel_documents WHERE projection = 'search'",
)

SQLITE_FOUND = (
    "SELECT d.key, d.body FROM readmodel_search s"
    " JOIN readmodel_documents d ON d.rowid = s.rowid"
    " WHERE readmodel_search MATCH ? AND d.projection = 'search' AND d.key >= ? AND d.key < ?"
    " ORDER BY s.rowid DESC LIMIT ?"
)


class SQLiteIndex:
    """FTS5 beside the documents in the store's file (made on first use, see the module)."""

    def __init__(self, views: SQLiteViews) -> None:
        self._db = views.connection
        made = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'readmodel_search'"
        ).fetchone()
        if made is None:
            self._make()

    def _make(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            again = db.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'readmodel_search'"
            ).fetchone()
            if again is None:  # no other process made it while this one waited
                for statement in SQLITE_INDEX:
                    db.execute(statement)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def found(
        self, campaign_id: UUID, terms: Sequence[Term], before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        match = " ".join(f'"{t.word}"' + ("*" if t.prefix else "") for t in terms)
        low, high = _bounds(campaign_id, before)
        rows = self._db.execute(SQLITE_FOUND, (match, low, high, limit))
        return [(_number(key), json.loads(body)) for key, body in rows]


class PostgresIndex:
    """PostgreSQL's text search over the documents (a GIN index made on first use)."""

    VECTOR = "to_tsvector('simple', body::jsonb -> 'words')"

    def __init__(self, datastore: Datastore) -> None:
        from psycopg.sql import SQL, Identifier  # only on the PostgreSQL path

        self._datastore = datastore
        documents = Identifier(datastore.schema, f"{PREFIX}_readmodel_documents")
        index = Identifier(f"{PREFIX}_readmodel_search")
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                SQL(
                    "CREATE INDEX IF NOT EXISTS {} ON {} USING gin ({}) WHERE projection = 'search'"
                ).format(index, documents, SQL(self.VECTOR))
            )
        self._found = SQL(
            "SELECT key, body FROM {} WHERE projection = 'search'"
            ' AND key COLLATE "C" >= %s AND key COLLATE "C" < %s'
            " AND {} @@ to_tsquery('simple', %s)"
            ' ORDER BY key COLLATE "C" DESC LIMIT %s'
        ).format(documents, SQL(self.VECTOR))

    def found(
        self, campaign_id: UUID, terms: Sequence[Term], before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        query = " & ".join(t.word + (":*" if t.prefix else "") for t in terms)
        low, high = _bounds(campaign_id, before)
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(self._found, (low, high, query, limit))
            rows = cursor.fetchall()
        return [(_number(row["key"]), json.loads(row["body"])) for row in rows]


def index_of(views: ViewStore) -> Index:
    """The full-text index of the store whose read models ``views`` keeps."""
    if isinstance(views, MemoryViews):
        return MemoryIndex(views)
    if isinstance(views, SQLiteViews):
        return SQLiteIndex(views)
    return PostgresIndex(views.datastore)  # type: ignore[attr-defined]  # PostgresViews


def pages(
    index: Index, campaign_id: UUID, terms: Sequence[Term], page: int, before: int | None = None
) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """Every document found before ruling ``before`` (None: the latest), newest first, ``page``
    at a time."""
    while True:
        found = index.found(campaign_id, terms, before, page)
        if found:
            yield found
        if len(found) < page:
            return
        before = found[-1][0]
