"""A stored log that does not replay, as the command line reports it: a fault of the store (exit
1), not a refusal. Apart from ``cli.errors`` so that reporting a refusal needs no engine."""

from __future__ import annotations

from engine import StoreFault


class HistoryDoesNotReplay(StoreFault):
    code = "HISTORY_CONFLICT"
    template = "the stored log does not replay: {problem}"
