"""What user text can do to the places it is shown: Markdown posted to Discord, GitHub or
Reddit renders it as typed (no HTML, no link, no emphasis, no heading, no mention), the
terminal gets it without control or bidi characters, and die faces are ASCII digits."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from cli.main import campaign
from cli.render import clean
from domain.dice import parse_faces
from domain.errors import UnreadableDice
from engine import Engine
from projections.render_md import md
from tests.conftest import event_count

# CommonMark with GitHub's tables and strike-through; raw HTML is on, as on GitHub.
MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])

# Terminal and bidi controls the CLI never prints from user text.
CONTROLS = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "![x](https://example.com/t.png)",
    "[x] (javascript:alert(1))",
    "<https://example.com>",
    "*bold* _under_ `code` ~~gone~~ **strong**",
    "a | table | row",
    "# Heading",
    "## Two",
    "> quoted",
    "- listed",
    "+ listed",
    "1. ordered",
    "2) ordered",
    "---",
    "===",
    "@everyone look",
    "@here",
    "ping <@123456> and <#42> and <t:1700000000>",
    "&lt;script&gt; &#60;b&#62; &amp;",
    ">!spoiler!<",
    "line one\n# line two\n<script>",
    "back\\slash\\",
    "[ref]: javascript:alert(1)",
    "    indented code",
    "\u202eevil\u202c \x1b[31mred\x1b[0m \x07",
]


def expected_text(text: str) -> str:
    """What a reader should see: the text on one line, controls gone, mentions broken."""
    return re.sub(r"@(?=\w)", "@\u200b", clean(text).strip())


def html_text(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


CONTEXTS = {
    # How recap_md and timeline_md place user text: after a list marker, in a heading, in a
    # table cell, in emphasis.
    "list": ("- **#1** {}", "<ul>\n<li><strong>#1</strong> {}</li>\n</ul>\n"),
    "heading": ("# {}: session 1", "<h1>{}: session 1</h1>\n"),
    "table": (
        "| a | b |\n|---|---|\n| {} | x |",
        "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
        "<td>{}</td>\n<td>x</td>\n</tr>\n</tbody>\n</table>\n",
    ),
    "nested": (
        "- **#1** x\n  - {}",
        "<ul>\n<li><strong>#1</strong> x\n<ul>\n<li>{}</li>\n</ul>\n</li>\n</ul>\n",
    ),
}


def renders_as_typed(text: str, context: str) -> None:
    source, html = CONTEXTS[context]
    shown = expected_text(text)
    rendered = MARKDOWN.render(source.format(md(text)))
    assert html.format(html_text(shown)) == rendered, (text, md(text))


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("context", sorted(CONTEXTS))
def test_hostile_text_renders_as_typed(text: str, context: str) -> None:
    """No HTML, link, image, emphasis, code, heading, quote or list comes out of user text."""
    renders_as_typed(text, context)
    out = MARKDOWN.render(CONTEXTS[context][0].format(md(text)))
    for tag in ("<script", "<img", "<a ", "<em>", "<code>", "<del>", "<blockquote>", "<h2>", "<ol"):
        assert tag not in out


def test_mentions_get_a_zero_width_space() -> None:
    assert "@\u200beveryone look" == md("@everyone look")
    assert "rosa@\u200bexample.com" == md("rosa@example.com")


# Markdown's special characters, line starts, HTML, links, mentions, controls and letters.
PIECES = list("ab 19.)#>-+=*_`|~\\[]()<>!&;:@/\"'\n\t\u00a0é")
PIECES += ["\x1b", "\x07", "\u202e", "\u2066", "\u2028", "\x85", "java", "script", "&lt;"]
PIECES += ["&#60;", "http://x.y", "www.x.y", "<@1>", "||", "~~", "**", "__", "```", "](", "!["]
markdown_texts = (
    st.lists(st.sampled_from(PIECES), max_size=20)
    .map("".join)
    .filter(lambda t: expected_text(t) != "")
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=markdown_texts, context=st.sampled_from(sorted(CONTEXTS)))
def test_any_text_renders_as_typed(text: str, context: str) -> None:
    """400 generated texts: the rendered HTML is the text itself, escaped, in each context."""
    renders_as_typed(text, context)


# --- The terminal ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("ring\x07", "ring"),
        ("\x1b[2J\x1b[31mred\x1b[0m", "red"),
        ("\x1b]0;title\x07after", "after"),
        ("abc\u202edef\u202c", "abcdef"),
        ("\u2066isolated\u2069", "isolated"),
        ("two\nlines\r\nhere", "two lines here"),
        ("tab\there", "tab here"),
        ("nul\x00byte", "nulbyte"),
        ("c1\x9bcontrol", "c1control"),
        ("lone \udcff surrogate", "lone \ufffd surrogate"),
        ("Ünïcödé, 日本, emoji 🎲‍🔥", "Ünïcödé, 日本, emoji 🎲‍🔥"),
    ],
)
def test_clean_strips_controls_and_bidi(text: str, shown: str) -> None:
    assert shown == clean(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_clean_never_leaves_a_control_or_a_line_break(text: str) -> None:
    """300 generated texts: one line, no control or bidi character, the rest kept in order."""
    out = clean(text)
    assert not CONTROLS.search(out), ascii(out)
    assert len(out.splitlines()) <= 1
    if "\x1b" not in text:  # (an escape sequence goes whole, with the letters it ends with)
        kept = [c for c in text if not CONTROLS.match(c) and not c.isspace()]
        assert kept == [c for c in out if not c.isspace()]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "campaign.db"


def cli(db: Path, line: str | list[str]) -> tuple[int, str, str]:
    argv = shlex.split(line) if isinstance(line, str) else line
    result = CliRunner().invoke(campaign, ["--db", str(db), *argv])
    return result.exit_code, result.stdout, result.stderr


def test_the_cli_prints_no_control_character_from_user_text(db: Path) -> None:
    """A note, a stage and a reason full of escapes: the ruling, the log and the undo print
    none of them."""
    hostile = "\x1b[2J\x1b[1;1H\x07\u202egnp.exe\u202c\nFAKE LINE"
    assert 0 == cli(db, ["init", "Night", "--system", "code-green", "--gm", hostile])[0]
    cli(db, "session start")
    outputs = [
        cli(db, ["scene", "start", hostile]),
        cli(db, ["note", hostile]),
        cli(db, ["undo", "--reason", hostile]),
        cli(db, "log"),
    ]
    for code, stdout, _ in outputs:
        assert 0 == code
        assert not CONTROLS.search(stdout.replace("\n", "")), ascii(stdout)
        assert all(not line.startswith("FAKE LINE") for line in stdout.splitlines())
    refused = cli(db, ["character", "show", hostile])
    assert 2 == refused[0]
    assert 1 == len(refused[2].splitlines())
    assert not CONTROLS.search(refused[2].rstrip("\n"))


def test_a_recap_of_hostile_names_renders_as_text(db: Path) -> None:
    """The campaign, GM, stage, players, notes and undo reasons of a session, posted as
    Markdown: nothing of them becomes HTML, a link, a heading or a mention."""
    cli(db, ["init", "<script>alert(1)</script>", "--system", "code-green", "--gm", "@everyone"])
    cli(db, "session start")
    cli(db, ["scene", "start", "[click](javascript:alert(1)) # not a heading"])
    create = "character create --player {} --form Legs,Tail,Teeth "
    create += "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5"
    assert 0 == cli(db, shlex.split(create.format("'*bob* | _x_'")))[0]
    cli(db, ["note", "<img src=x onerror=alert(1)> `code` ~~strike~~"])
    cli(db, ["undo", "--reason", "> quoted @here"])
    code, recap, _ = cli(db, "recap")
    assert 0 == code, recap
    html = MARKDOWN.render(recap)
    for tag in ("<script", "<img", "<a ", "<code>", "<del>", "<blockquote>"):
        assert tag not in html
    assert "@everyone" not in html
    assert "@here" not in html
    for typed in (
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "[click](javascript:alert(1)) # not a heading",
        "*bob* | _x_",
        "&lt;img src=x onerror=alert(1)&gt; `code` ~~strike~~",
        "&gt; quoted @\u200bhere",
    ):
        assert typed in html
    assert 1 == html.count("<h1>")


# --- Die faces -------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", ["٣", "3,٣", "３", "1_0", "²", "3,5a", "0x3", "٣,1,4,1,5"])
def test_faces_must_be_ascii_digits(faces: str) -> None:
    with pytest.raises(UnreadableDice):
        parse_faces(faces)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=20))
def test_faces_read_back_as_typed_or_are_refused(text: str) -> None:
    """300 generated texts: read only when every item is ASCII digits (with a sign)."""
    items = text.replace(",", " ").split()
    readable = all(re.fullmatch(r"[+-]?[0-9]+", item) for item in items)
    if readable:
        assert tuple(int(item) for item in items) == parse_faces(text)
    else:
        with pytest.raises(UnreadableDice):
            parse_faces(text)


def test_an_arabic_indic_digit_is_refused_through_the_cli(db: Path) -> None:
    for line in (
        'init "Night" --system code-green --gm Rosa',
        "session start",
        'scene start "Lab"',
    ):
        assert 0 == cli(db, line)[0]
    with Engine(str(db)) as engine:
        before = event_count(engine)
    code, _, stderr = cli(
        db,
        "character create --player alice --form Legs,Tail,Teeth "
        "--function Cryptic,Invulnerable,Phasing --dice ٣,1,4,1,5",
    )
    assert 2 == code
    assert stderr.startswith("error: UNREADABLE_DICE: ")
    with Engine(str(db)) as engine:
        assert before == event_count(engine)
