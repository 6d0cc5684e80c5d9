"""The one clock seam: every recorded time comes from here (freezegun freezes it in tests)."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)
