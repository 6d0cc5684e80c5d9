"""What Discord signed of an interaction that sealed a roll (protocol 3), as a ruling records it
(``RulingMade.interaction``): the ``X-Signature-Timestamp`` header (decimal digits, Unix
seconds) followed by the raw body (a JSON object, so it begins with ``{``), as text. Discord's
Ed25519 signature is over exactly these bytes in UTF-8."""

from __future__ import annotations

import json
from typing import Any


def signed_parts(signed: str) -> tuple[str, str]:
    """The timestamp and the body of a signed interaction's text (the digits before the body)."""
    cut = 0
    while cut < len(signed) and signed[cut].isascii() and signed[cut].isdigit():
        cut += 1
    return signed[:cut], signed[cut:]


def interaction_body(signed: str) -> dict[str, Any]:
    """The interaction's body as JSON ({} when it is not a JSON object)."""
    try:
        found = json.loads(signed_parts(signed)[1])
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def interaction_id(signed: str) -> str:
    """The interaction's id ("" when it has none)."""
    found = interaction_body(signed).get("id")
    return found if isinstance(found, str) else ""
