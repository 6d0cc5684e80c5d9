"""The table server on uvicorn, stopped without dropping anything (`campaign serve`).

On SIGTERM (or Ctrl-C) uvicorn stops taking connections, asks every open connection to close
once its response is done, waits up to ``GRACE`` seconds for them, then runs the app's shutdown.
A live page's stream never ends by itself, so before that wait (``Server.shutdown``) the feed
tells each stream to reconnect and ends it (``Feed.end``): the wait is then only for the
requests in flight, the pages reconnect at once to another server of the store, and none is
cancelled under its page (no "Exception in ASGI application" in the log). A SIGTERM then ends
the process with status 0, as a stop asked for and done."""

from __future__ import annotations

import gc
import signal
import socket
from types import FrameType

import uvicorn
from litestar import Litestar

from web.live import Feed

GRACE = 5  # seconds the requests in flight have to finish once the server stops


class Server(uvicorn.Server):
    """uvicorn's server, which ends the app's live streams as soon as it stops listening."""

    def __init__(self, config: uvicorn.Config, feed: Feed) -> None:
        super().__init__(config)
        self.feed = feed

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # no new connection (a page reconnects elsewhere)
            server.close()
        self.feed.end()
        await super().shutdown(sockets)


def _stopped(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve(app: Litestar, host: str, port: int) -> None:
    """Serve ``app`` (``web.create_app``'s) on ``host``:``port`` until SIGTERM or Ctrl-C."""
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info",
        proxy_headers=True,
        timeout_graceful_shutdown=GRACE,
    )
    # uvicorn handles SIGTERM while it serves and hands it back to the handler it found once it
    # has stopped; with this one the process then exits 0 (as it does if stopped before).
    signal.signal(signal.SIGTERM, _stopped)
    # What the process built to start (modules, the app, its schema and templates) lives as long
    # as it does: kept out of the collector's full passes, each of which would otherwise walk it
    # all and hold every request meanwhile (measured with 500 streams open: 75-110 ms a pass
    # before, 20-40 ms after).
    gc.freeze()
    Server(config, app.state.feed).run()
