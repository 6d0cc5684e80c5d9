"""A stream's id as the read models' documents write it (``str(uuid)``), made once per id.

Every read model names the campaign (and the streams a ruling touched) in the keys and the
documents it writes, for every ruling: ``str`` of a ``UUID`` formats its 128 bits each time,
and the same few ids come again and again. So the text of each id is kept (by its number: a
``UUID`` hashes in Python, an ``int`` does not), a bounded number of them.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

KEPT = 4096  # ids whose text is kept; past that, the texts are forgotten and made again

_texts: dict[int, str] = {}


def id_text(value: Any) -> str:
    """``str(value)``: for a ``UUID``, the text kept for its number (made the first time)."""
    if type(value) is not UUID:
        return str(value)
    number = value.int
    text = _texts.get(number)
    if text is None:
        if len(_texts) >= KEPT:
            _texts.clear()
        text = _texts[number] = str(value)
    return text
