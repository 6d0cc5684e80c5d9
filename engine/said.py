"""The narration a ruling was recorded with (``--say``): kept in its header's parameters, beside
the command, so it goes where the ruling goes (chained, sealed, exported, read by whoever reads
the ruling) and an undo or amendment of the ruling leaves it as it was said."""

from __future__ import annotations

from domain.limits import check_text

SAY = "say"  # the key of a ruling's parameters that holds its narration


def said_text(say: str) -> str:
    """The narration to record (stripped; empty: none), held to the text limit."""
    text = say.strip()
    check_text(SAY, text)
    return text
