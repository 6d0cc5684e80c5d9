"""The narration a ruling was recorded with (``--say``), read back from its header: what the log,
the thread, the recap and search show under a ruling. Apart from ``projections.thread`` so that
printing one ruling needs no thread."""

from __future__ import annotations

import json

from domain.events import RulingMade


def said(made: RulingMade) -> str:
    """The narration a ruling was recorded with (``--say``), or ``""``."""
    try:
        params = json.loads(made.params)
    except ValueError:
        return ""
    say = params.get("say", "") if isinstance(params, dict) else ""
    return say if isinstance(say, str) else ""
