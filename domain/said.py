"""The narration a ruling was recorded with (``--say``): kept in its header's parameters, beside
the command, so it goes where the ruling goes (chained, sealed, exported, read by whoever reads
the ruling).

An amendment that corrects it (``amend N --set say=TEXT``) keeps the new narration in its own
header, under the same key: the narration the ruling was recorded with stays as it was said,
readable in the trail, and the last amendment that gave one says what the ruling's narration
is now (``engine.store.log.LoggedRuling.say``). Any other amendment, or an undo, leaves it as it is.
"""

from __future__ import annotations

import json
from functools import lru_cache

from domain.events import AMEND, RulingAmended, RulingMade
from domain.limits import check_text

SAY = "say"  # the key of a ruling's parameters that holds its narration


def said_text(say: str) -> str:
    """The narration to record (stripped; empty: none), held to the text limit."""
    text = say.strip()
    check_text(SAY, text)
    return text


def said(made: RulingMade) -> str:
    """The narration a ruling's header holds (``--say``; an amendment's: the narration it gave
    the ruling it amends), or ``""``."""
    params = made.params
    if isinstance(params, str) and SAY not in params and "\\u" not in params:
        return ""  # no key of its JSON can read "say" (not even escaped): nothing to parse
    return _said(params)


@lru_cache(maxsize=64)  # the read models ask it of the same header one after the other
def _said(params: str) -> str:
    try:
        parsed = json.loads(params)
    except ValueError:
        return ""
    say = parsed.get(SAY, "") if isinstance(parsed, dict) else ""
    return say if isinstance(say, str) else ""


def amended_say(made: RulingMade, amended: RulingAmended) -> str | None:
    """The narration the correction ``made`` (a header) gave the ruling ``amended`` corrects, or
    None: only the amendment asked for carries one, not a ruling it decided again."""
    if amended.redecided or made.command != AMEND:
        return None
    return said(made) or None
