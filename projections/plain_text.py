"""User text made safe to print on one line: the one cleaning the CLI's text output and the
Markdown renderers (``projections.render_md``) share, kept apart so that printing a ruling
needs no renderer of recaps."""

from __future__ import annotations

import re

# Characters that steer a terminal or reorder what is shown: C0 and C1 controls, DEL, the bidi
# embeddings, overrides, isolates and marks. Line and paragraph breaks become one space; lone
# surrogates (undecodable input) cannot be printed and become U+FFFD.
_BREAKS = re.compile(r"[\t\n\v\f\r\x1c-\x1e\x85\u2028\u2029]+")
_HIDDEN = re.compile(
    r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")  # CSI, OSC


def plain_text(text: object) -> str:
    """User text on one line, without the characters that could steer a terminal or reorder the
    text around it (the CLI's text output and Markdown both go through this)."""
    flat = _BREAKS.sub(" ", _ESCAPES.sub("", str(text)))
    return _SURROGATE.sub("\ufffd", _HIDDEN.sub("", flat))
