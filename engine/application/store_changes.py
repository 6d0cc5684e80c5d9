"""How a server learns that its store changed, from the store alone (a process that did not
write a ruling still hears of it): the store's position (its last event's notification id),
and a wait for it to move. On PostgreSQL the wait is a ``LISTEN`` on the channel the recorder
``NOTIFY``s in every save's transaction, so it wakes as soon as any process commits (one pooled
connection, held while it listens, which also reads the position); a SQLite
file cannot tell another process, so there the wait reads the position every ``poll`` seconds
(one indexed ``MAX``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.store.campaign_store import is_postgres

if TYPE_CHECKING:
    from engine.application.engine import Engine

STOP_CHECK = 0.2  # seconds between looks at ``stop`` while listening (a server's stop waits it)
QUIET_CHECK = 1.0  # seconds between reads of the position while no notification comes


def position(engine: Engine) -> int:
    """The store's position: the notification id of the last event recorded (0: none)."""
    return int(engine.store.recorder.max_notification_id() or 0)


def store_changes(engine: Engine, stop: threading.Event, *, poll: float = 0.25) -> Iterator[int]:
    """The store's position now, then each new one as the store moves on, until ``stop`` is
    set (looked at every ``STOP_CHECK`` seconds, or ``poll``). Blocking: run it in a thread of
    its own."""
    last = position(engine)
    yield last
    if is_postgres(engine.db):
        yield from _listened(engine, stop, last)
        return
    while not stop.wait(poll):
        now = position(engine)
        if now != last:
            last = now
            yield now


def _listened(engine: Engine, stop: threading.Event, last: int) -> Iterator[int]:
    from psycopg.sql import SQL, Identifier

    recorder: Any = engine.store.recorder
    with recorder.datastore.get_connection() as connection:
        connection.execute(SQL("LISTEN {}").format(Identifier(recorder.channel_name)))
        try:
            read = time.monotonic()
            while not stop.is_set():
                heard = False
                for _ in connection.notifies(timeout=STOP_CHECK, stop_after=1):
                    heard = True
                if not heard and time.monotonic() - read < QUIET_CHECK:
                    continue  # nothing new: look at ``stop`` again
                read = time.monotonic()
                # Read on the listening connection: the listener holds one of the pool's
                # connections, never two (engine.store.write_lock counts on it).
                row = connection.execute(recorder.max_notification_id_statement).fetchone()
                now = int((row or {}).get("max") or 0)
                # another schema's NOTIFY shares the channel: compare
                if now != last:
                    last = now
                    yield now
        finally:
            connection.execute("UNLISTEN *")  # the connection goes back to the pool
