"""A session recap as plain data (the JSON format), from the recap read model's document.

Keys (format ``campaign-log/recap``, version 1):
- ``campaign``: ``name``, ``system``, ``gm``;
- ``session``: ``number``, ``started_at``, ``ended_at`` (null while it runs);
- ``before_session``: beats recorded between the previous session and this one;
- ``scenes``: the session in order, a part per scene: ``number`` (null between scenes),
  ``stage``, ``beats``;
  a beat is ``ruling``, ``command``, ``actor``, ``at``, ``text`` (one line), ``lines``
  (``who``, ``text``), ``amended_by`` (null or the ruling that amended it);
- ``story`` ("What happened"): the narration and the in-character posts that stand, in order:
  ``ruling``, ``voice`` (``narration``, ``character``, ``npc``, or ``say``: a ruling's
  narration), ``speaker``, ``text`` (a post's rolls written out), ``beat`` (what a narrated
  ruling did, one line; empty for a post);
- ``highlights``: ``ruling``, ``who``, ``kind``, ``text``;
- ``characters``: ``name``, ``scores`` (``score``, ``start``, ``end``), ``revealed`` (texts);
- ``corrections``: ``ruling``, ``session``, ``kind`` (``undone`` / ``amended`` /
  ``re-decided``), ``by``, ``actor``, ``reason``, ``was`` (lines as first recorded), ``now``
  (lines in force); an amendment that corrected the ruling's narration has it first in each,
  quoted;
- ``disputes`` (raised or resolved in the session): ``dispute``, ``ruling``, ``by``, ``reason``,
  ``outcome`` (null while open, ``upheld`` / ``undone`` / ``amended``), ``resolution`` (the
  GM's reason), ``resolved_by`` (the ruling that resolved it) and ``actor`` (who resolved it).

Undone rulings leave the scenes and appear only under corrections; amended ones show what stands
now. GM-only lines are left out unless ``gm`` is asked for.
"""

from __future__ import annotations

from typing import Any, cast

from domain.events import Event
from projections.describe import describe, said_of_all
from projections.event_data import event_of
from projections.recap_facts import gm_only, highlight, moved
from projections.recap_story import told
from projections.views import (
    Beat,
    CharacterScores,
    Correction,
    Dispute,
    Highlight,
    Line,
    Recap,
    Scene,
    StoryBeat,
)

Doc = dict[str, Any]  # a read model's document (storage), not a view
FORMAT = "campaign-log/recap"
VERSION = 1


def one_line(lines: list[Line]) -> str:
    """A ruling's lines as one: each character named once per run of its lines."""
    parts: list[str] = []
    who: str | None = None
    for line in lines:
        if line["who"] != who or not parts:
            who = line["who"]
            parts.append(f"{who}: {line['text']}" if who else line["text"])
        else:
            parts[-1] += f"; {line['text']}"
    return " / ".join(parts)


def facts(events: list[tuple[str | None, Event]]) -> Doc:
    """What a recap reads of some events, each with who it is about, rendered now: ``lines``
    (with whether only the GM may read each), the scores they moved and their highlights."""
    lines: list[Doc] = []
    scores: list[Doc] = []
    highlights: list[Doc] = []
    for about, event in events:
        text = describe(event)
        who = None if said_of_all(event) else about  # a turn order is the conflict's
        hidden = gm_only(event)
        if text is not None:
            lines.append({"who": who, "text": text, "gm_only": hidden})
        if hidden:
            continue
        kind = highlight(event)
        if kind is not None and text is not None:
            highlights.append({"who": who, "kind": kind, "text": text})
        for score, before, after in moved(event):
            scores.append({"who": who, "score": score, "before": before, "after": after})
    return {"lines": lines, "moved": scores, "highlights": highlights}


def _rendered(kept: list[Doc], story: Doc | None) -> Doc:
    """Stored events (``who``, ``event`` as data) and a story part's facts, rendered."""
    events = [(k["who"], event_of(k["event"])) for k in kept]
    part = None if story is None else told(story, (e for _, e in events))
    return {**facts(events), "story": part}


def read_entry(entry: Doc) -> Doc:
    """A stored entry (facts: its events) as a recap reads it: its lines, moved scores,
    highlights and story rendered from its events, and each amendment's from its own."""
    amended = [{**a, **_rendered(a["events"], a.get("story"))} for a in entry["amended"]]
    return {**entry, **_rendered(entry["events"], entry.get("story")), "amended": amended}


def _visible(lines: list[Doc], gm: bool) -> list[Line]:
    """The lines a reader sees; a line several characters share (a turn order) reads once."""
    seen: set[str] = set()
    shown: list[Line] = []
    for x in lines:
        if (gm or not x["gm_only"]) and x["text"] not in seen:
            seen.add(x["text"])
            shown.append({"who": x["who"], "text": x["text"]})
    return shown


def _now(entry: Doc) -> Doc:
    """What stands for a ruling: its last amendment, or what it recorded."""
    return entry["amended"][-1] if entry["amended"] else entry


def _beat(entry: Doc, gm: bool) -> Beat | None:
    lines = _visible(_now(entry)["lines"], gm)
    if entry["undone"] is not None or not lines:
        return None
    return {
        "ruling": entry["ruling"],
        "command": entry["command"],
        "actor": entry["actor"],
        "at": entry["at"],
        "text": one_line(lines),
        "lines": lines,
        "amended_by": entry["amended"][-1]["by"] if entry["amended"] else None,
    }


def recap(doc: Doc, *, gm: bool = False) -> Recap:
    """The recap of one session document (see the module docstring for its keys), its text
    rendered now from the events the document keeps."""
    doc = {
        **doc,
        "prologue": [read_entry(e) for e in doc["prologue"]],
        "rulings": [read_entry(e) for e in doc["rulings"]],
    }
    entries: list[Doc] = [*doc["prologue"], *doc["rulings"]]
    standing = [e for e in entries if e["undone"] is None]
    stages = {s["number"]: s["stage"] for s in doc["scenes"]}
    scenes: list[Scene] = []
    before: list[Beat] = []
    for entry in doc["prologue"]:
        beat = _beat(entry, gm)
        if beat is not None:
            before.append(beat)
    for entry in doc["rulings"]:
        beat = _beat(entry, gm)
        if beat is None:
            continue
        if not scenes or scenes[-1]["number"] != entry["scene"]:
            stage = stages.get(entry["scene"])
            scenes.append({"number": entry["scene"], "stage": stage, "beats": []})
        scenes[-1]["beats"].append(beat)
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {"name": doc["campaign"], "system": doc["system"], "gm": doc["gm"]},
        "session": {
            "number": doc["session"],
            "started_at": doc["started_at"],
            "ended_at": doc["ended_at"],
        },
        "before_session": before,
        "scenes": scenes,
        "story": _story(entries, gm),
        "highlights": [
            cast(Highlight, {"ruling": e["ruling"], **h})  # h: as stored, keys in its order
            for e in standing
            for h in _now(e)["highlights"]
        ],
        "characters": _characters(standing),
        "corrections": _corrections(doc, entries, gm),
        "disputes": doc.get("disputes", []),
    }


def _story(entries: list[Doc], gm: bool) -> list[StoryBeat]:
    """What happened: each standing entry's part of the story, as it stands now."""
    told: list[StoryBeat] = []
    for entry in entries:
        part = _now(entry).get("story", entry.get("story"))
        if entry["undone"] is not None or not part:
            continue
        beat = one_line(_visible(_now(entry)["lines"], gm)) if part["voice"] == "say" else ""
        told.append({"ruling": entry["ruling"], **part, "beat": beat})  # type: ignore[typeddict-item]
    return told


def _characters(standing: list[Doc]) -> list[CharacterScores]:
    """Each character's scores at the start and the end of the session, and what was revealed."""
    scores: dict[str, dict[str, list[Any]]] = {}
    revealed: dict[str, list[str]] = {}
    for entry in standing:
        now = _now(entry)
        for m in now["moved"]:
            if m["who"] is None:
                continue
            span = scores.setdefault(m["who"], {}).setdefault(m["score"], [m["before"], None])
            span[1] = m["after"]
        for h in now["highlights"]:
            if h["kind"] == "detail revealed" and h["who"] is not None:
                revealed.setdefault(h["who"], []).append(h["text"])
    names = list(dict.fromkeys([*scores, *revealed]))
    return [
        {
            "name": name,
            "scores": [
                {"score": score, "start": span[0], "end": span[1]}
                for score, span in scores.get(name, {}).items()
            ],
            "revealed": revealed.get(name, []),
        }
        for name in names
    ]


def _corrections(doc: Doc, entries: list[Doc], gm: bool) -> list[Correction]:
    """Rulings of this session undone or amended (whenever), and corrections made during this
    session to rulings of other sessions."""
    found: dict[tuple[int, str, int], Correction] = {}
    for entry in entries:
        was = _visible(entry["lines"], gm)
        if entry["undone"] is not None:
            u = entry["undone"]
            found[(entry["ruling"], "undone", u["by"])] = cast(
                Correction,
                {
                    "ruling": entry["ruling"],
                    "session": doc["session"],
                    "kind": "undone",
                    **u,  # by, actor, reason: as stored, keys in its order
                    "was": was,
                    "now": [],
                },
            )
        previous, said_before = was, _said(entry.get("story"))
        for a in entry["amended"]:
            now = _visible(a["lines"], gm)
            said_now = _said(a.get("story"))
            told = said_now != said_before  # a corrected narration reads first, was and now
            kind = a.get("kind", "amended")  # documents written before re-decisions lack it
            found[(entry["ruling"], kind, a["by"])] = {
                "ruling": entry["ruling"],
                "session": doc["session"],
                "kind": kind,
                "by": a["by"],
                "actor": a["actor"],
                "reason": a["reason"],
                "was": [*(said_before if told else []), *previous],
                "now": [*(said_now if told else []), *now],
            }
            previous, said_before = now, said_now
    for c in doc["corrections_made"]:
        key = (c["ruling"], c["kind"], c["by"])
        stored = {**c, "session": c["session"] or None, "was": [], "now": []}
        found.setdefault(key, cast(Correction, stored))  # as stored, keys in its order
    return sorted(found.values(), key=lambda c: (c["by"], c["ruling"]))


def _said(part: Doc | None) -> list[Line]:
    """A ruling's narration (its story's ``say`` part, as told) as a line, quoted; none else."""
    if part is None or part.get("voice") != "say":
        return []
    return [{"who": None, "text": f'"{part["text"]}"'}]


def dispute_text(d: Dispute) -> str:
    """A dispute in one line: who objected to which ruling and why, and how it ended."""
    raised = f"Dispute {d['dispute']}: {d['by']} disputes ruling #{d['ruling']}: {d['reason']}."
    if d["outcome"] is None:
        return f"{raised} Open."
    outcome = str(d["outcome"]).capitalize()
    return f"{raised} {outcome} by #{d['resolved_by']} ({d['actor']}): {d['resolution']}."


def without(doc: Doc, hidden: frozenset[int]) -> Doc:
    """A session document without the rulings in ``hidden`` (the GM's hidden rulings, for a
    reader who may not see them): their entries, their corrections, their disputes."""
    if not hidden:
        return doc

    def kept(entry: Doc) -> Doc:
        return {**entry, "amended": [a for a in entry["amended"] if a["by"] not in hidden]}

    return {
        **doc,
        "prologue": [kept(e) for e in doc["prologue"] if e["ruling"] not in hidden],
        "rulings": [kept(e) for e in doc["rulings"] if e["ruling"] not in hidden],
        "corrections_made": [
            c for c in doc["corrections_made"] if not {c["ruling"], c["by"]} & hidden
        ],
        "disputes": [d for d in doc.get("disputes", []) if d["ruling"] not in hidden],
    }
