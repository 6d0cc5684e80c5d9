"""A thread (``projections.thread``) in each format: plain text for the terminal, inert Markdown
(forums; Discord, split as recaps are), one HTML page (the posts' Markdown rendered by
``projections.post_text``), and JSON (``thread_json``).

Only the HTML renders a post's Markdown; everywhere else a post is inert text, as every other
text of the log is (``projections.render_md.md``): a line of a post is one line of output."""

from __future__ import annotations

from typing import Any

from domain.events import PostKind
from projections.describe import system_title
from projections.plain_text import plain_text
from projections.post_text import markdown_html, roll_text, with_rolls
from projections.render_discord import MAX_CHARS, split
from projections.render_md import md, stamp
from projections.stylesheet import e, page
from projections.thread import FORMAT, VERSION, Entry, Post, Thread

# --- Who speaks ----------------------------------------------------------------------------------


def speaker(post: Post, gm: str) -> str:
    """The post's speaker as the thread heads it: ``Tanner (alice)``, ``Agent Smith (NPC)``,
    ``GM Rosa``, ``alice (out of character)``."""
    if post.voice is PostKind.CHARACTER:
        return f"{post.speaker} ({post.player})"
    if post.voice is PostKind.NPC:
        return f"{post.speaker} (NPC, {post.author})"
    if post.voice is PostKind.OOC:
        return f"{post.author} (out of character)"
    return f"GM {post.author}" if post.author == gm else f"{post.author} narrates"


def marks(entry: Entry, gm: str = "") -> list[str]:
    """What the thread says about an entry besides its text: private, hidden, edited, struck."""
    found = []
    readers = [name for name in entry.private if name != gm]
    if entry.private:
        found.append("private to " + ", ".join(readers) + " and the GMs")
    if entry.hidden:
        found.append("hidden: the GMs' until revealed")
    for (
        edit
    ) in entry.edits:  # one mark an amendment, whether it edited the text, the narration or both
        mark = f"edited by #{edit.by} ({edit.actor}): {edit.reason}"
        if mark not in found:
            found.append(mark)
    if entry.struck is not None:
        s = entry.struck
        found.append(f"struck by #{s.by} ({s.actor}): {s.reason}")
    return found


def _title(t: Thread) -> str:
    where = f"session {t.session}" if t.session is not None else "the whole campaign"
    return f"{t.campaign}: {where}, the thread"


# --- Text ----------------------------------------------------------------------------------------


def _text_lines(text: str) -> list[str]:
    return [plain_text(line) for line in text.splitlines()] or [""]


def thread_text(t: Thread) -> str:
    """The thread for a terminal: every user text cleaned of controls, one line per line."""
    out = [plain_text(_title(t)), ""]
    for entry in t.entries:
        head = f"#{entry.ruling}"
        if entry.post is not None:
            head += f" {plain_text(speaker(entry.post, t.gm))}:"
            body = _text_lines(with_rolls(entry.post.text, entry.post.rolls))
        else:
            head += f" {plain_text(entry.command)} ({plain_text(entry.actor)})"
            body = _text_lines(entry.say) if entry.say else []
        out.append(head)
        out += [f"    {line}" for line in body]
        if entry.post is None:
            out += [f"  - {plain_text(line)}" for line in entry.lines]
        out += [f"  [{plain_text(m)}]" for m in marks(entry, t.gm)]
    return "\n".join(out) + "\n"


# --- Markdown (and Discord) ---------------------------------------------------------------------


def _quoted(text: str) -> list[str]:
    """A text as a Markdown quote, each of its lines inert (``md``); paragraphs kept."""
    return [f"> {md(line)}" if line.strip() else ">" for line in text.splitlines()] or [">"]


def _md_entry(entry: Entry, gm: str) -> list[str]:
    strike = "~~" if entry.struck is not None else ""
    if entry.post is not None:
        head = f"**#{entry.ruling} {md(speaker(entry.post, gm))}**"
        body = _quoted(with_rolls(entry.post.text, entry.post.rolls))
        if strike:
            body = [f"> {strike}{line[2:]}{strike}" if line != ">" else line for line in body]
    else:
        head = f"**#{entry.ruling}** {md(entry.command)} _({md(entry.actor)})_"
        body = _quoted(entry.say) if entry.say else []
        body += [f"- {strike}{md(line)}{strike}" for line in entry.lines]
    notes = [f"_{md(m)}_" for m in marks(entry, gm)]
    return [head, *body, *notes]


def thread_md(t: Thread) -> str:
    """The thread as Markdown that pastes into a forum as inert text: each post a quote under
    its speaker, rolls written out, struck posts struck through."""
    out = [f"# {md(_title(t))}", "", f"_{md(system_title(t.system))}, GM {md(t.gm)}_"]
    for entry in t.entries:
        out += ["", *_md_entry(entry, t.gm)]
    if not t.entries:
        out += ["", "(nothing posted)"]
    return "\n".join(out) + "\n"


def thread_discord(t: Thread, limit: int = MAX_CHARS) -> list[str]:
    """The thread as Discord messages, split as recaps are (``render_discord.split``)."""
    return split(thread_md(t), limit)


# --- HTML ----------------------------------------------------------------------------------------

_VOICE = {
    PostKind.NARRATION: "narration",
    PostKind.CHARACTER: "in-character",
    PostKind.NPC: "npc",
    PostKind.OOC: "ooc",
}


def entry_html(entry: Entry, gm: str) -> str:
    """One entry as an ``<article>``: a post's Markdown rendered, a ruling's narration rendered
    and its lines escaped."""
    classes = ["post" if entry.post is not None else "ruling"]
    if entry.post is not None:
        classes.append(_VOICE[entry.post.voice])
        head = e(speaker(entry.post, gm))
        body = markdown_html(entry.post.text, entry.post.rolls)
    else:
        head = f"{e(entry.command)} ({e(entry.actor)})"
        body = markdown_html(entry.say) if entry.say else ""
        if entry.lines:
            body += "<ul>" + "".join(f"<li>{e(line)}</li>" for line in entry.lines) + "</ul>"
    if entry.struck is not None:
        classes.append("struck")
    if entry.edits:
        classes.append("edited")
    if entry.private:
        classes.append("private")
    if entry.hidden:
        classes.append("hidden")
    notes = "".join(f'<p class="mark">{e(m)}</p>' for m in marks(entry, gm))
    return (
        f'<article class="{" ".join(classes)}" data-ruling="{entry.ruling}">'
        f'<header><span class="ruling">#{entry.ruling}</span> <span class="who">{head}</span>'
        f' <span class="meta">{e(stamp(entry.at))}</span></header>'
        f'<div class="text">{body}</div>{notes}</article>'
    )


def thread_html(t: Thread) -> str:
    """The thread as one page: each post under its speaker, its Markdown rendered safely."""
    title = _title(t)
    body = [
        f"<h1>{e(title)}</h1>",
        f'<p class="meta">{e(system_title(t.system))}, GM {e(t.gm)}</p>',
        '<div class="thread">',
        *(entry_html(entry, t.gm) for entry in t.entries),
        "</div>",
    ]
    return page(title, body)


# --- JSON ----------------------------------------------------------------------------------------


def _roll(roll: Any) -> dict[str, Any]:
    """A roll of a post; ``faces`` is a list holding the list of every face drawn."""
    return {
        "expression": roll.expression,
        "why": roll.why,
        "start": roll.start,
        "end": roll.end,
        "faces": [list(roll.faces)],
        "total": roll.total,
        "text": roll_text(roll),
    }


def entry_json(entry: Entry) -> dict[str, Any]:
    post = entry.post
    return {
        "ruling": entry.ruling,
        "command": entry.command,
        "actor": entry.actor,
        "at": entry.at,
        "session": entry.session,
        "scene": entry.scene,
        "hidden": entry.hidden,
        "private": list(entry.private),
        "post": None
        if post is None
        else {
            "voice": str(post.voice),
            "speaker": post.speaker,
            "author": post.author,
            "player": post.player,
            "to": list(post.to),
            "text": post.text,
            "rolls": [_roll(r) for r in post.rolls],
        },
        "say": entry.say,
        "lines": list(entry.lines),
        "struck": None
        if entry.struck is None
        else {"by": entry.struck.by, "actor": entry.struck.actor, "reason": entry.struck.reason},
        "edits": [
            {"by": x.by, "actor": x.actor, "reason": x.reason, "was": x.was} for x in entry.edits
        ],
    }


def thread_json(t: Thread) -> dict[str, Any]:
    """The thread as plain data (format ``campaign-log/thread``, version 1)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {"name": t.campaign, "system": t.system, "gm": t.gm},
        "session": t.session,
        "entries": [entry_json(entry) for entry in t.entries],
    }
