"""Where the GM's machine keeps each session's secret dice seed until the session ends.

Not part of the log (it would reveal every roll before the session ends): a small table beside
the events in the same SQLite file, or memory for an in-memory store.
"""

from __future__ import annotations

import sqlite3
from typing import Protocol
from uuid import UUID


class DiceSecrets(Protocol):
    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None: ...

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None: ...


class MemorySecrets:
    def __init__(self) -> None:
        self._kept: dict[tuple[UUID, int], tuple[bytes, str]] = {}

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None:
        self._kept[(campaign, session)] = (secret, entropy)

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None:
        return self._kept.get((campaign, session))


class SQLiteSecrets:
    def __init__(self, path: str) -> None:
        self.path = path
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS dice_secrets (campaign TEXT, session INTEGER, "
                "secret BLOB, entropy TEXT, PRIMARY KEY (campaign, session))"
            )

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def put(self, campaign: UUID, session: int, secret: bytes, entropy: str) -> None:
        with self._connect() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO dice_secrets VALUES (?, ?, ?, ?)",
                (campaign.hex, session, secret, entropy),
            )

    def get(self, campaign: UUID, session: int) -> tuple[bytes, str] | None:
        with self._connect() as connection:
            row = connection.execute(
                "SELECT secret, entropy FROM dice_secrets WHERE campaign=? AND session=?",
                (campaign.hex, session),
            ).fetchone()
        return (bytes(row[0]), str(row[1])) if row else None
