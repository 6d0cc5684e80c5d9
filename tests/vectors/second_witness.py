"""A second implementation of docs/format.md's "Witness statements", written from the page
alone (beside ``tests.vectors.second``, whose reading of the export and hashes it uses): it
imports nothing of campaign-log. It computes the log's head after each ruling of an export, the
bytes a statement signs, and holds the export to a witness file, naming the first head it no
longer holds."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.vectors.second import canonical, heads_input, read, sha256, signature_holds

WITNESS = "campaign-log witness 1"
DIRECTORY = "4a9a64e6-57b2-5dc2-acda-fb4ca6f53d53"


def statement_text(s: dict[str, Any]) -> bytes:
    """The bytes signed: twelve lines joined by a line feed, UTF-8."""
    session = "" if s["session"] is None else str(s["session"])
    lines = [WITNESS, s["campaign"], s["name"], str(s["ruling"]), str(s["version"]), s["link"]]
    lines += [s["digest"], session, s["seal"], s["at"], s["by"], s["seen"]]
    return "\n".join(lines).encode()


@dataclass
class Head:
    ruling: int
    version: int
    link: str
    heads: list[list[Any]]  # the digest's input: [stream, version, link], sorted
    digest: str
    session: int | None
    seal: str


def heads(export: str) -> dict[int, Head]:
    """The log's head at each ruling's header, by its version of the campaign's stream: the
    header's link; every other stream a header so far lists (not the directory), at the highest
    `last` listed, with its link; the last seal before it."""
    header, rows = read(export)
    campaign = header["campaign_id"]
    stored = {(r["stream"], r["version"]): r["event"]["chain"] for r in rows}
    ends: dict[str, int] = {}
    seal: tuple[int | None, str] = (None, "")
    found = {}
    for row in (r for r in rows if r["stream"] == campaign):
        event = row["event"]["event"]
        if row["topic"] == "domain.events:SessionSealed":
            seal = (event["number"], event["digest"])
        if row["topic"] != "domain.events:RulingMade":
            continue
        for span in event["touched"]:
            if span["stream"] not in (campaign, DIRECTORY):
                ends[span["stream"]] = max(ends.get(span["stream"], 0), span["last"])
        listed = [[s, v, stored[(s, v)]] for s, v in ends.items()]
        listed.append([campaign, row["version"], row["event"]["chain"]])
        listed.sort()
        digest = sha256(heads_input(listed)).hex()
        found[row["version"]] = Head(
            event["number"], row["version"], row["event"]["chain"], listed, digest, *seal
        )
    return found


def statements(text: str) -> list[dict[str, Any]]:
    """A witness file's statements: each line a JSON object; other lines skipped."""
    found = []
    for line in text.split("\n"):
        if line.strip().startswith("{"):
            value = json.loads(line)
            if value.get("statement") == WITNESS:
                found.append(value)
    return found


def problem(s: dict[str, Any], logged: dict[int, Head]) -> str:
    head = logged.get(s["version"])
    if head is None:
        return "no ruling's header at that version"
    if (head.ruling, head.link) != (s["ruling"], s["link"]):
        return "the campaign's stream"
    if head.digest != s["digest"]:
        return "the streams' heads"
    if (head.session, head.seal) != (s["session"], s["seal"]):
        return "the last seal"
    return ""


def check(export: str, witnessed: str) -> list[tuple[dict[str, Any], bool, str]]:
    """Each statement of the export's campaign, in the order of its head's version: whether its
    signature holds (unsigned: False) and what the log no longer holds ("" when it does)."""
    header, _ = read(export)
    logged = heads(export)
    mine = [s for s in statements(witnessed) if s["campaign"] == header["campaign_id"]]
    mine.sort(key=lambda s: (s["version"], s["at"], s["by"]))
    return [
        (
            s,
            bool(s["key"]) and signature_holds(s["key"], statement_text(s), s["signature"]),
            problem(s, logged),
        )
        for s in mine
    ]


def fork(checked: list[tuple[dict[str, Any], bool, str]]) -> dict[str, Any] | None:
    """The first head the log no longer holds, by a statement that is evidence (signed and
    holding, or unsigned)."""
    return next((s for s, holds, why in checked if why and (holds or not s["key"])), None)


def digest_of(listed: list[list[Any]]) -> str:
    return sha256(canonical(sorted(listed))).hex()
