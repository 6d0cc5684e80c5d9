"""Recaps and timelines as one self-contained HTML page each, under the shared stylesheet
(``projections.stylesheet``): inline SVG, no script, no external asset. Every piece of user text
is escaped."""

from __future__ import annotations

from projections.describe import spoken, system_title
from projections.post_text import markdown_html
from projections.recap import dispute_text
from projections.render_md import stamp
from projections.render_svg import chart
from projections.stylesheet import e, page
from projections.views import (
    Beat,
    CampaignTimeline,
    HeroTimeline,
    Known,
    Line,
    Recap,
    Row,
    StoryBeat,
)

# A table wider than a phone scrolls; a keyboard reaches it (tabindex), a reader names it.
SCROLL = '<div class="scroll" tabindex="0" role="region" aria-label="table">'


def _lines(lines: list[Line]) -> str:
    return " / ".join(
        (f'<span class="who">{e(x["who"])}</span>: ' if x["who"] else "") + e(x["text"])
        for x in lines
    )


def _beats(beats: list[Beat]) -> list[str]:
    out = ["<ul>"]
    for b in beats:
        amended = (
            f' <span class="amended">(amended by #{b["amended_by"]})</span>'
            if b["amended_by"]
            else ""
        )
        out.append(
            f'<li data-ruling="{b["ruling"]}"><span class="ruling">#{b["ruling"]}</span> '
            f"{_lines(b['lines'])}{amended}</li>"
        )
    return [*out, "</ul>"]


def _story(parts: list[StoryBeat]) -> list[str]:
    """What happened: each part under its speaker, its Markdown rendered safely
    (``projections.post_text``), a narrated ruling with what it did."""
    out = []
    for part in parts:
        who = "" if part["voice"] == "say" else f'<span class="who">{e(part["speaker"])}</span>'
        beat = f'<p class="meta">{e(part["beat"])}</p>' if part["beat"] else ""
        out.append(
            f'<article class="post {e(part["voice"])}" data-ruling="{part["ruling"]}">'
            f'<header><span class="ruling">#{part["ruling"]}</span> {who}</header>'
            f'<div class="text">{markdown_html(part["text"])}</div>{beat}</article>'
        )
    return out


def recap_html(r: Recap) -> str:
    """A session recap (``projections.recap``) as a page."""
    c, s = r["campaign"], r["session"]
    title = f"{c['name']}: session {s['number']}"
    until = f" to {stamp(s['ended_at'])}" if s["ended_at"] else " (still running)"
    body = [
        f"<h1>{e(title)}</h1>",
        f'<p class="meta">{e(system_title(c["system"]))}, GM {e(c["gm"])}, '
        f"{e(stamp(s['started_at']))}{e(until)}</p>",
    ]
    if r.get("story"):
        body += ["<h2>What happened</h2>", '<div class="thread">', *_story(r["story"]), "</div>"]
    if r["before_session"]:
        body += ["<h2>Before the session</h2>", *_beats(r["before_session"])]
    for scene in r["scenes"]:
        heading = (
            f"Scene {scene['number']}: {scene['stage']}"
            if scene["number"] is not None
            else "Between scenes"
            if len(r["scenes"]) > 1
            else "Play"
        )
        body += [f"<h2>{e(heading)}</h2>", *_beats(scene["beats"])]
    if r["highlights"]:
        body.append('<h2>Highlights</h2><ul class="highlights">')
        body += [
            f'<li><span class="ruling">#{h["ruling"]}</span> '
            f'<span class="who">{e(h["who"] or "campaign")}</span>, {e(h["kind"])}: '
            f"{e(h['text'])}</li>"
            for h in r["highlights"]
        ]
        body.append("</ul>")
    if r["characters"]:
        body.append("<h2>Characters at the end of the session</h2>" + SCROLL + "<table>")
        body.append("<tr><th>character</th><th>score</th><th>start</th><th>end</th></tr>")
        for ch in r["characters"]:
            for x in ch["scores"]:
                body.append(
                    f"<tr><td>{e(ch['name'])}</td><td>{e(x['score'])}</td>"
                    f"<td>{e(x['start'])}</td><td>{e(x['end'])}</td></tr>"
                )
            for text in ch["revealed"]:
                body.append(f'<tr><td>{e(ch["name"])}</td><td colspan="3">{e(text)}</td></tr>')
        body.append("</table></div>")
    if r["corrections"]:
        body.append('<h2>Corrections</h2><div class="corrections">')
        for fix in r["corrections"]:
            where = f" (session {fix['session']})" if fix.get("session") else ""
            body.append(
                f'<div class="correction"><span class="ruling">#{fix["ruling"]}</span>{e(where)} '
                f"{e(fix['kind'])} by #{fix['by']} ({e(fix['actor'])}): {e(fix['reason'])}"
                + (f"<br>was: {_lines(fix['was'])}" if fix["was"] else "")
                + (f"<br>now: {_lines(fix['now'])}" if fix["now"] else "")
                + "</div>"
            )
        body.append("</div>")
    if r.get("disputes"):
        body.append('<h2>Disputes</h2><ul class="disputes">')
        body += [f"<li>{e(dispute_text(d))}</li>" for d in r["disputes"]]
        body.append("</ul>")
    return page(title, body)


def _row(row: Row) -> str:
    changes = "<br>".join(
        e(f"{x['before']} -> {x['after']} ({spoken(x['cause'])}, peak {x['peak_after']})")
        for x in row["changes"]
    )
    reveals = "<br>".join(
        e(
            f"{spoken(x['detail'])} = {x['value']!r} "
            f"({'off the ladder' if x['level'] is None else 'level ' + str(x['level'])}, "
            f"{spoken(x['cause'])}{', GM choice' if x['gm_override'] else ''})"
        )
        for x in row["reveals"]
    )
    notes = ""
    if row["voided"] is not None:
        v = row["voided"]
        notes = e(f"voided: {v['kind']} by #{v['by']} ({v['actor']}): {v['reason']}")
    elif row["amended_by"]:
        notes = e(f"as amended by #{row['amended_by']}")
    cls = ' class="voided"' if row["voided"] is not None else ""
    session = row["session"] if row["session"] is not None else "-"
    because = "<br>".join(e(x) for x in row["because"])
    return (
        f'<tr{cls} data-ruling="{row["ruling"]}"><td>#{row["ruling"]}</td>'
        f'<td data-label="session">{session}</td><td data-label="Exposure">{changes}</td>'
        f'<td data-label="because">{because}</td><td data-label="revealed">{reveals}</td>'
        f'<td class="notes" data-label="notes">{notes}</td></tr>'
    )


def _public(known: Known) -> str:
    if not known["public"]:
        return "nothing"
    return ", ".join(e(f"{spoken(x['detail'])} ({x['value']!r})") for x in known["public"])


def _timeline_body(t: HeroTimeline, level: int) -> list[str]:
    now = t["now"]
    body = [
        f"<h{level}>{e(t['hero'])}: Exposure and reveals</h{level}>",
        f'<p class="meta">{e(t["campaign"])}, played by {e(t["player"])}; Exposure '
        f"{t['start']} at creation, now {now['exposure']} (peak {now['peak']})</p>",
        SCROLL + '<table class="timeline stack"><tr><th>ruling</th><th>session</th>'
        "<th>Exposure</th><th>because</th><th>revealed</th><th>notes</th></tr>",
        *[_row(row) for row in t["rows"]],
        "</table></div>",
    ]
    if t["sessions"]:
        body.append('<h3>What the public knew</h3><ul class="knowledge">')
        body += [
            f'<li data-session="{s["number"]}">end of session {s["number"]} (Exposure '
            f"{s['exposure']}, peak {s['peak']}): {_public(s)}</li>"
            for s in t["sessions"]
        ]
        body.append("</ul>")
    body.append(f"<p>Now: {_public(now)}</p>")
    return body


def _figure(lines: list[HeroTimeline]) -> str:
    return f'<figure class="chart">{chart(lines)}</figure>'


def timeline_html(t: HeroTimeline) -> str:
    """One hero's Exposure reveal timeline as a page, the chart on top."""
    title = f"{t['hero']}: Exposure and reveals"
    body = _timeline_body(t, 1)
    return page(title, [*body[:2], _figure([t]), *body[2:]])


def campaign_timeline_html(view: CampaignTimeline) -> str:
    """Every hero of a campaign: one chart with a line per hero, then each timeline."""
    title = f"{view['campaign']}: Exposure across heroes"
    body = [f"<h1>{e(title)}</h1>", _figure(view["heroes"])]
    if view["sessions"]:
        body.append(
            SCROLL + "<table><tr><th>session</th><th>hero</th><th>Exposure</th>"
            "<th>peak</th>"
            "<th>details public</th></tr>"
        )
        body += [
            f"<tr><td>{s['number']}</td><td>{e(h['hero'])}</td><td>{h['exposure']}</td>"
            f"<td>{h['peak']}</td><td>{h['public']}</td></tr>"
            for s in view["sessions"]
            for h in s["heroes"]
        ]
        body.append("</table></div>")
    for line in view["heroes"]:
        body += _timeline_body(line, 2)
    return page(title, body)
