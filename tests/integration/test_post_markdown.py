"""A post's Markdown is rendered safely: in the HTML thread its emphasis, lists, quotes, code and
http(s) links render, while a ``<script>``, raw HTML, a ``javascript:`` (or ``data:``) link and an
image never do; the HTML recap escapes the post's text whole; the Markdown and Discord threads
and the terminal keep it inert text."""

from __future__ import annotations

import re

import pytest

from domain.audience import GMS
from domain.events import Role
from domain.lifecycle import StartScene, StartSession
from domain.posts import WritePost
from engine import DiceSpec, Engine
from projections.post_text import markdown_html
from projections.render_html import recap_html
from projections.render_thread import thread_discord, thread_html, thread_md, thread_text

HOSTILE = (
    "Hello *there* and **you**\n\n"
    "<script>alert('owned')</script>\n\n"
    "<img src=x onerror=alert(1)>\n\n"
    "[click](javascript:alert(2)) [data](data:text/html;base64,PHNjcmlwdD4=) "
    "[mixed](JaVaScRiPt:alert(3)) [ok](https://example.org/a?b=1&c=2)\n\n"
    "![pixel](https://tracker.example/p.png)\n\n"
    '<a href="javascript:alert(4)">raw</a> <div onclick="alert(5)">div</div>\n\n'
    "- a list\n- of two\n\n> a quote\n\n`code <b>` and [1d6 for luck] \ue000 0\ue001"
)


def _thread(engine: Engine) -> None:
    engine.create_campaign("Lab", "sims", gm="Rosa", members={"ana": Role.PLAYER})
    engine.execute("Lab", StartSession())
    engine.execute("Lab", StartScene(stage="The hall"))
    engine.execute("Lab", WritePost(text=HOSTILE, by="Rosa"), dice=DiceSpec(faces=(4,)))
    engine.execute("Lab", WritePost(text="<script>x()</script>", by="ana", ooc=True), actor="ana")


def _tags(html: str) -> set[str]:
    return {m.lower() for m in re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", html)}


def test_the_html_thread_renders_markdown_and_nothing_active(engine: Engine) -> None:
    _thread(engine)
    html = thread_html(engine.thread("Lab", audience=GMS))
    assert "<em>there</em>" in html
    assert "<strong>you</strong>" in html
    assert "<li>a list</li>" in html
    assert "<blockquote>" in html
    assert '<a href="https://example.org/a?b=1&amp;c=2">ok</a>' in html
    assert "<code>code &lt;b&gt;</code>" in html
    assert "&lt;script&gt;alert(&#x27;owned&#x27;)&lt;/script&gt;" in html or (
        "&lt;script&gt;" in html
    )
    lowered = html.lower()
    assert "<script" not in lowered
    assert "javascript:" not in re.sub(r"\[[^\]]*\]\(javascript:[^)]*\)", "", lowered).replace(
        "&lt;a href=&quot;javascript:alert(4)&quot;&gt;", ""
    )
    assert 'href="javascript' not in lowered
    assert 'href="data' not in lowered
    assert "onerror=" not in re.sub(r"&lt;img[^&]*&gt;", "", lowered)
    assert "<img" not in lowered
    assert "<div onclick" not in lowered
    assert _tags(html) <= {
        "html", "head", "meta", "title", "style", "body", "main", "h1", "p", "div", "article",
        "header", "span", "em", "strong", "a", "ul", "li", "blockquote", "code", "b",
    }  # fmt: skip
    assert '<span class="roll"><code>1d6</code> [4] = <b>4</b>' in html  # the roll, in place
    assert "\ue000" not in html  # a post cannot forge a roll's marker


def test_a_link_is_http_or_https_only() -> None:
    for url in ("javascript:alert(1)", "vbscript:x", "data:text/html,x", "file:///etc/passwd"):
        assert "<a " not in markdown_html(f"[x]({url})"), url
        assert "<a " not in markdown_html(f"<{url}>"), url
    assert '<a href="http://a.example">' in markdown_html("[x](http://a.example)")


def test_the_html_recap_escapes_posts_whole(engine: Engine) -> None:
    _thread(engine)
    html = recap_html(engine.recap("Lab", audience=GMS))
    assert "<script" not in html.lower()
    assert "<img" not in html.lower()
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html.lower()


@pytest.mark.parametrize("render", [thread_md, lambda t: "\n".join(thread_discord(t))])
def test_the_markdown_and_discord_threads_are_inert(engine: Engine, render: object) -> None:
    _thread(engine)
    text = render(engine.thread("Lab", audience=GMS))  # type: ignore[operator]
    assert re.search(r"(?<!\\)<", text) is None  # every `<` escaped: no HTML, no autolink
    assert re.search(r"(?<!\\)\]\(", text) is None  # every link's `](` is escaped
    assert "\\<script>" in text


def test_the_terminal_thread_is_plain_text(engine: Engine) -> None:
    _thread(engine)
    text = thread_text(engine.thread("Lab", audience=GMS))
    assert "\x1b" not in text
    assert "[1d6 for luck]" not in text
    assert "[1d6: [4] = 4, for luck]" in text
