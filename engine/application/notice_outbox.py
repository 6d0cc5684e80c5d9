"""The notices waiting for members' next mails (``engine.application.notices``), kept in the
notices' table (``engine.application.notice_marks``) under ``outbox CAMPAIGN MEMBER``, with the
time of each member's last mail under ``mailed CAMPAIGN MEMBER``. Taking a member's mail is a
claim: the process that swaps in the new time of their last mail takes their notices, any other
finds the mail already taken."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from datetime import datetime, timedelta
from uuid import UUID

from engine.application.notice_marks import Marks
from engine.application.waits import Notice

GATHER = timedelta(minutes=1)  # how long a notice waits for others to go in the same mail
WAITING = 200  # notices kept for a member's next mail at most (the latest)


def queue(
    marks: Marks, campaign: UUID, member: str, notices: Collection[Notice], at: datetime
) -> None:
    """Keep ``notices`` for ``member``'s next mail (the latest ``WAITING`` of them)."""
    added = [{"at": at.isoformat(), "notice": _kept(n)} for n in notices]
    key = f"outbox {campaign.hex} {member}"
    while added:
        kept = marks.get(key)
        waiting = (json.loads(kept or "[]") + added)[-WAITING:]
        if marks.swap(key, kept, json.dumps(waiting)):
            return


def take_due(
    marks: Marks, now: datetime, every: timedelta
) -> Iterator[tuple[str, str, list[Notice]]]:
    """Each mail due now, taken by this process, as (campaign id's hex, member, notices): a
    member's whose oldest notice waited ``GATHER`` and whose last mail went ``every`` or longer
    ago."""
    for key in marks.keys("outbox "):
        _, campaign, member = key.split(" ", 2)
        kept = json.loads(marks.get(key) or "[]")
        if not kept or datetime.fromisoformat(kept[0]["at"]) > now - GATHER:
            continue
        mailed = f"mailed {campaign} {member}"
        last = marks.get(mailed)
        if last is not None and datetime.fromisoformat(last) > now - every:
            continue
        if not marks.swap(mailed, last, now.isoformat()):
            continue  # another process mails them
        yield campaign, member, _take(marks, key)


def _take(marks: Marks, key: str) -> list[Notice]:
    while True:
        kept = marks.get(key)
        if marks.swap(key, kept, "[]"):
            return [_notice(item["notice"]) for item in json.loads(kept or "[]")]


def _kept(notice: Notice) -> dict[str, object]:
    return {
        "member": notice.member,
        "kind": notice.kind,
        "ruling": notice.ruling,
        "line": notice.line,
        "about": notice.about,
    }


def _notice(kept: dict[str, object]) -> Notice:
    return Notice(
        member=str(kept["member"]),
        kind=str(kept["kind"]),
        ruling=int(str(kept["ruling"])),
        line=str(kept["line"]),
        about=str(kept["about"]),
    )
