"""Recaps and timelines as Markdown that pastes cleanly into forums and chat."""

from __future__ import annotations

import re

from projections.describe import spoken, system_title
from projections.plain_text import plain_text
from projections.recap import dispute_text
from projections.views import (
    Beat,
    CampaignTimeline,
    Correction,
    HeroTimeline,
    Known,
    Line,
    Recap,
    Row,
    StoryBeat,
)

# Markdown as GitHub, Discord and Reddit read it. Anywhere: emphasis, code, HTML and autolinks
# (`<`: also Discord's <@id> mentions and <t:...>), tables and spoilers (`|`), strike-through.
_SPECIAL = re.compile(r"([\\`*_<|~])")
_LINK = re.compile(r"\](?=\s*[(\[])")  # the `](` or `][` that closes a link's text
_MENTION = re.compile(r"@(?=\w)")  # @everyone, @here, @user: a zero-width space after the @
_SPOILER = re.compile(r">(?=!)")  # Reddit's inline >!spoiler!<
_ENTITY = re.compile(r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)")
# At the start of a line: headings, quotes, lists, setext rules, link definitions.
_BLOCK = re.compile(r"\A([#>+\-=\[])")
_ORDERED = re.compile(r"\A([0-9]+)([.)])")


def md(text: object) -> str:
    """User text as inert Markdown: one line, markup characters escaped, links, raw HTML,
    mentions and line-start markers (headings, quotes, lists) neutralised; renders as typed."""
    out = _MENTION.sub("@\u200b", plain_text(text).strip())
    out = _SPECIAL.sub(r"\\\1", out)
    out = _LINK.sub(r"\\]", out)
    out = _SPOILER.sub(r"\\>", out)
    out = _ENTITY.sub(r"\\&", out)  # `&lt;` shows as typed, not as `<`
    out = _ORDERED.sub(r"\1\\\2", out)
    return _BLOCK.sub(r"\\\1", out)


def stamp(iso: str | None) -> str:
    return "" if iso is None else iso[:16].replace("T", " ")


def _lines(lines: list[Line]) -> str:
    return " / ".join(md(f"{x['who']}: {x['text']}" if x["who"] else x["text"]) for x in lines)


def _beat(beat: Beat) -> str:
    amended = f" _(amended by #{beat['amended_by']})_" if beat["amended_by"] else ""
    return f"- **#{beat['ruling']}** {md(beat['text'])}{amended}"


def _told(part: StoryBeat) -> str:
    """A part of the story as one item: who speaks, what they said (a post's lines as one,
    inert), and for a narrated ruling what it did."""
    said = " ".join(md(line) for line in part["text"].splitlines() if line.strip())
    if part["voice"] == "say":
        beat = f" _({md(part['beat'])})_" if part["beat"] else ""
        return f"- **#{part['ruling']}** {said}{beat}"
    return f"- **#{part['ruling']} {md(part['speaker'])}:** {said}"


def _correction(c: Correction) -> list[str]:
    where = f" (session {c['session']})" if c.get("session") else ""
    head = (
        f"- **#{c['ruling']}**{where} {c['kind']} by #{c['by']} ({md(c['actor'])}): "
        f"{md(c['reason'])}"
    )
    out = [head]
    if c["was"]:
        out.append(f"  - was: {_lines(c['was'])}")
    if c["now"]:
        out.append(f"  - now: {_lines(c['now'])}")
    return out


def recap_md(r: Recap) -> str:
    """A session recap (``projections.recap``) as Markdown."""
    c, s = r["campaign"], r["session"]
    until = f" to {stamp(s['ended_at'])}" if s["ended_at"] else " (still running)"
    out = [
        f"# {md(c['name'])}: session {s['number']}",
        "",
        f"_{md(system_title(c['system']))}, GM {md(c['gm'])}, {stamp(s['started_at'])}{until}_",
    ]
    if r.get("story"):
        out += ["", "## What happened", ""]
        out += [_told(part) for part in r["story"]]
    if r["before_session"]:
        out += ["", "## Before the session", ""]
        out += [_beat(b) for b in r["before_session"]]
    for scene in r["scenes"]:
        title = (
            f"Scene {scene['number']}: {md(scene['stage'])}"
            if scene["number"] is not None
            else "Between scenes"
            if len(r["scenes"]) > 1
            else "Play"
        )
        out += ["", f"## {title}", ""]
        out += [_beat(b) for b in scene["beats"]] or ["- (nothing recorded)"]
    if r["highlights"]:
        out += ["", "## Highlights", ""]
        out += [
            f"- #{h['ruling']} {md(h['who'] or 'campaign')}, {h['kind']}: {md(h['text'])}"
            for h in r["highlights"]
        ]
    if r["characters"]:
        out += ["", "## Characters at the end of the session", ""]
        for ch in r["characters"]:
            scores = ", ".join(
                f"{md(x['score'])} {md(x['start'])} -> {md(x['end'])}" for x in ch["scores"]
            )
            out.append(f"- **{md(ch['name'])}**: {scores or 'no score moved'}")
            out += [f"  - {md(text)}" for text in ch["revealed"]]
    if r["corrections"]:
        out += ["", "## Corrections", ""]
        for correction in r["corrections"]:
            out += _correction(correction)
    if r.get("disputes"):
        out += ["", "## Disputes", ""]
        out += [f"- {md(dispute_text(d))}" for d in r["disputes"]]
    return "\n".join(out) + "\n"


def row_cells(row: Row) -> list[str]:
    """A timeline row's cells as Markdown: ruling, session, Exposure, because, revealed and
    notes, each ``-`` when it has nothing (the table here, the lists of ``render_discord``)."""
    changes = ", ".join(
        f"{x['before']} -> {x['after']} ({spoken(x['cause'])}, peak {x['peak_after']})"
        for x in row["changes"]
    )
    reveals = "; ".join(
        f"{spoken(x['detail'])} = {md(repr(x['value']))} "
        f"({'off the ladder' if x['level'] is None else 'level ' + str(x['level'])}, "
        f"{spoken(x['cause'])}{', GM choice' if x['gm_override'] else ''})"
        for x in row["reveals"]
    )
    session = row["session"] if row["session"] is not None else "-"
    notes = ""
    if row["voided"] is not None:
        v = row["voided"]
        notes = f"VOIDED: {v['kind']} by #{v['by']} ({md(v['actor'])}): {md(v['reason'])}"
    elif row["amended_by"]:
        notes = f"as amended by #{row['amended_by']}"
    because = md("; ".join(row["because"]))
    cells = [f"#{row['ruling']}", str(session), changes or "-", because or "-", reveals or "-"]
    return [*cells, notes or "-"]


def _row(row: Row) -> str:
    cells = row_cells(row)
    if row["voided"] is not None:
        cells = [f"~~{cell}~~" for cell in cells[:-1]] + cells[-1:]
    return "| " + " | ".join(cells) + " |"


def known_text(known: Known) -> str:
    """What the public knew (``nothing``, or each detail with its value)."""
    if not known["public"]:
        return "nothing"
    return ", ".join(f"{spoken(x['detail'])} ({md(repr(x['value']))})" for x in known["public"])


def timeline_md(t: HeroTimeline) -> str:
    """One hero's Exposure reveal timeline (``projections.timeline``) as Markdown."""
    table = [
        "| ruling | session | Exposure | because | revealed | notes |",
        "|---|---|---|---|---|---|",
        *[_row(row) for row in t["rows"]],
    ]
    return timeline_around(t, table)


def timeline_around(t: HeroTimeline, rows: list[str]) -> str:
    """A hero's timeline with its ``rows`` as given (a table here, a list for Discord): the
    heading and where the hero stands before them, what the public knew after."""
    now = t["now"]
    out = [
        f"# {md(t['hero'])}: Exposure and reveals",
        "",
        f"_{md(t['campaign'])}, played by {md(t['player'])}; Exposure {t['start']} at creation,"
        f" now {now['exposure']} (peak {now['peak']})_",
        "",
        *rows,
    ]
    if t["sessions"]:
        out += ["", "## What the public knew", ""]
        out += [
            f"- end of session {s['number']} (Exposure {s['exposure']}, peak {s['peak']}): "
            f"{known_text(s)}"
            for s in t["sessions"]
        ]
    out += ["", f"Now: {known_text(now)}"]
    return "\n".join(out) + "\n"


def campaign_timeline_md(view: CampaignTimeline) -> str:
    """Every hero's timeline, after a table of where each stood at each session's end."""
    out = [f"# {md(view['campaign'])}: Exposure across heroes", ""]
    if view["sessions"]:
        out += ["| session | hero | Exposure | peak | details public |", "|---|---|---|---|---|"]
        for s in view["sessions"]:
            out += [
                f"| {s['number']} | {md(h['hero'])} | {h['exposure']} | {h['peak']} | "
                f"{h['public']} |"
                for h in s["heroes"]
            ]
    for line in view["heroes"]:
        out += ["", timeline_md(line).replace("\n# ", "\n## ").replace("# ", "## ", 1).rstrip()]
    return "\n".join(out) + "\n"
