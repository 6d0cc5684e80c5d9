"""The table as a thread one returns to, rendered by the server (no browser): it marks what is
new to the member since their last visit and opens there (``#new``), counts it in its title,
keeps their read position in the store; the composer follows the thread; a refused form answers
at itself, its line focused; an author edits their own post, the GM writes a hidden one; an
amended ruling shows what it recorded and what stands now, as `campaign log` does. The table is
``tests.web.long_table``'s (38 rulings, ruling 20 amended from DS 10 to DS 14)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from litestar.testing import TestClient

from domain.posts import WritePost
from engine import DiceSpec, Engine
from tests.conftest import event_count
from tests.web import long_table
from tests.web.long_table import ANA, BEN, CAMPAIGN, GM, READ_UP_TO
from web import create_app

PAGE = f"/campaigns/{quote(CAMPAIGN)}"
REFUSED = '<output class="said refusal" role="status" id="refused" tabindex="-1" autofocus>'


class Table:
    """The long table on a SQLite file, its members' bearer tokens, and the app."""

    def __init__(self, db: str, client: TestClient[Any]) -> None:
        self.db = db
        self.client = client
        with Engine(db) as engine:
            self.tokens = {who: engine.token(CAMPAIGN, who) for who in (GM, ANA, BEN)}

    def headers(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}"}

    def page(self, who: str, query: str = "") -> str:
        answer = self.client.get(PAGE + query, headers=self.headers(who))
        assert 200 == answer.status_code, answer.text
        return answer.text

    def act(self, who: str, **fields: str) -> Any:
        return self.client.post(
            f"{PAGE}/act", data=fields, headers=self.headers(who), follow_redirects=False
        )

    def position(self, who: str) -> int:
        with Engine(self.db) as engine:
            return engine.read_position(CAMPAIGN, 1, member=who)

    def events(self) -> int:
        with Engine(self.db) as engine:
            return event_count(engine)


def _served(db: str) -> Iterator[Table]:
    long_table.built(db)
    with Engine(db) as engine:
        for who in (GM, ANA, BEN):
            engine.mark_read(CAMPAIGN, 1, READ_UP_TO, member=who)
    with TestClient(create_app(db)) as client:
        yield Table(db, client)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from _served(str(tmp_path / "long.db"))


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    """The table on a SQLite file, or on a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        yield from _served(str(tmp_path / "long.db"))
        return
    from tests.postgres import fresh_schema

    with fresh_schema() as url:
        yield from _served(url)


def entry(html: str, ruling: int) -> str:
    """The thread's entry of ``ruling`` in the page."""
    start = html.index(f'<li id="r-{ruling}"')
    found = re.search(r"\n<li\s", html[start + 1 :])
    return html[start : start + 1 + found.start()] if found else html[start:]


def new_entries(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li id="r-(\d+)" class="entry [^"]*\bnew\b', html)]


def test_the_table_marks_what_is_new_opens_there_and_keeps_the_place(any_store: Table) -> None:
    """ana read up to ruling 30: the page marks the entries the others wrote after it (not her
    own 31, 32, 37), opens at the first (``#new``), counts them in its title and its header; it
    moves her position to the session's last ruling (in a SQLite file or a PostgreSQL
    schema), so the next visit has nothing new and opens at the last entry."""
    html = any_store.page(ANA)
    assert [33, 34, 35, 36] == new_entries(html)
    assert re.search(r"<title>\(4 new\) Docklands Long: the table</title>", html)
    assert '<a href="#new">4 new since your last visit</a>' in html
    assert 1 == html.count('id="new"')
    assert '<span id="new" class="new-since">New since your last visit</span>' in entry(html, 33)
    assert 38 == any_store.position(ANA)
    again = any_store.page(ANA)
    assert [] == new_entries(again)
    assert "<title>Docklands Long: the table</title>" in again
    assert '<span id="new" class="here">' in entry(again, 37)


def test_a_page_fetched_away_marks_nothing_and_since_keeps_its_marks(table: Table) -> None:
    """The live page fetching itself while nobody looks at it (``away``) leaves the position;
    ``since`` marks what is new from the position the page opened at."""
    table.page(GM, "?away=true")
    assert READ_UP_TO == table.position(GM)
    first = table.page(GM)
    assert 38 == table.position(GM)
    assert new_entries(first) == new_entries(table.page(GM, f"?since={READ_UP_TO}"))
    assert [31, 32, 34, 35, 37] == new_entries(first)  # not the GM's own 33 and 36


def test_the_composer_follows_the_thread_and_write_is_the_first_link(table: Table) -> None:
    """The post box comes right after the thread's last entry (the characters and disputes
    after it), and the page's first link, its access key W, leads to it."""
    html = table.page(BEN)
    assert html.index('id="log"') < html.index('id="composer"') < html.index('id="panels"')
    first = re.search(r"<a [^>]*>", html[html.index("<main>") :])
    assert first is not None
    assert 'id="write-now"' in first.group()
    assert 'href="#f-post-text"' in first.group()
    assert 'accesskey="w"' in first.group()


def test_an_amended_ruling_shows_what_it_recorded_and_what_stands_now(table: Table) -> None:
    """Ruling 20, amended from DS 10 to DS 14: its card says once what it recorded (was) and
    once what stands now, as `campaign log` does; the recorded line is not lost."""
    card = entry(table.page(ANA), 20)
    was = "Tanner: Reaction roll [2,3] + Reaction 1 = 6 vs DS 10: failure by 4"
    now = "Tanner: Reaction roll [2,3] + Reaction 1 = 6 vs DS 14: failure by 8"
    assert 1 == card.count(was)
    assert 1 == card.count(now)
    assert re.search(
        rf'<ul class="lines was"><li><span class="tag">was</span> {re.escape(was)}', card
    )
    assert re.search(
        rf'<ul class="lines now"><li><span class="tag">now</span> {re.escape(now)}', card
    )
    assert card.index(was) < card.index("Amended by #38 (Rosa)") < card.index(now)


def test_a_member_edits_their_own_post_and_no_one_elses(table: Table) -> None:
    """ana edits her post 7 through its form (a plain POST): the page shows the new text, who
    edited it and why, and the text it had; ben's posts carry no edit form on her page, and
    ben's edit of her post is refused NOT_ALLOWED at the top of the composer, recording
    nothing."""
    html = table.page(ANA)
    assert 'id="d-edit-7"' in entry(html, 7)
    assert 'id="d-edit-8"' not in entry(html, 8)  # ben's
    edited = table.act(ANA, _do="edit", ruling="7", text="Tanner keeps low.", reason="shorter")
    assert 303 == edited.status_code, edited.text
    number = int(edited.headers["location"].rsplit("-", 1)[1])
    post = entry(table.page(ANA), 7)
    assert "<p>Tanner keeps low.</p>" in post
    assert f"Edited by #{number} (ana): shorter" in post
    assert '<span class="tag">was</span> Tanner keeps low behind the rail.' in post
    before = table.events()
    refused = table.act(BEN, _do="edit", ruling="7", text="Tanner trips.", reason="fun")
    assert 403 == refused.status_code
    assert "NOT_ALLOWED" in refused.text or "amends only the text of their own" in refused.text
    assert re.search(
        r'<p class="refusal" role="alert" id="refused" tabindex="-1" autofocus>', refused.text
    )
    assert before == table.events()


def test_an_edit_that_changes_a_roll_is_refused_at_its_form(table: Table) -> None:
    """An edit of the brackets of a roll is refused POST_ROLL_CHANGED: the page answers with the
    edit form open, its line focused, the text typed kept."""
    with Engine(table.db) as engine:
        made = WritePost(text="Katya jumps [1d6 for the gap]", by=BEN, character="Katya")
        post = engine.execute(CAMPAIGN, made, actor=BEN, dice=DiceSpec(faces=(2,))).number
    before = table.events()
    typed = "Katya jumps [1d6+4 for the gap]"
    refused = table.act(BEN, _do="edit", ruling=str(post), text=typed, reason="oops")
    assert 409 == refused.status_code
    form = entry(refused.text, post)
    assert f'<details class="act" id="d-edit-{post}" open>' in form
    assert re.search(re.escape(REFUSED) + "[^<]*rolled as written", form)
    assert f">{typed}</textarea>" in form
    assert 1 == refused.text.count("autofocus")
    assert before == table.events()


def test_a_refused_form_answers_at_itself_focused(table: Table) -> None:
    """Without scripts, ana's roll refused by the rules comes back as the page with the roll's
    form open and its line focused (``autofocus``: the browser scrolls to it), once; the GM's
    refused amendment of ruling 20 opens that ruling's amend form, what was typed kept."""
    refused = table.act(ANA, _do="roll", character="Tanner", stat="reaction", ds="sideways")
    assert 422 == refused.status_code or 409 == refused.status_code
    form = refused.text[refused.text.index('id="d-roll"') :].split("</details>")[0]
    assert form.startswith('id="d-roll" open>')
    assert re.search(re.escape(REFUSED) + "a Difficulty Score", form)
    assert 1 == refused.text.count("autofocus")
    amended = table.act(GM, _do="amend", ruling="20", changes="ds=sideways", reason="lit")
    assert 400 <= amended.status_code < 500
    card = entry(amended.text, 20)
    assert '<details class="act" id="d-amend-20" open>' in card
    assert 'id="refused" tabindex="-1" autofocus>' in card
    assert ">ds=sideways</textarea>" in card


def test_the_gm_writes_a_hidden_post_players_do_not_read(table: Table) -> None:
    """The GM's composer has "hidden": the post is the GMs' (marked hidden on their page) and
    not on a player's; a player's post sent hidden is refused NOT_ALLOWED."""
    html = table.page(GM)
    assert 'id="f-post-hidden" name="hidden"' in html
    assert 'id="f-post-hidden"' not in table.page(ANA)
    text = "The crates tick, softly."
    posted = table.act(GM, _do="post", speaker="narration", text=text, hidden="on")
    assert 303 == posted.status_code, posted.text
    number = int(posted.headers["location"].rsplit("-", 1)[1])
    assert '<span class="badge">hidden</span>' in entry(table.page(GM), number)
    assert text not in table.page(ANA)
    assert text not in table.page(BEN)
    before = table.events()
    refused = table.act(ANA, _do="post", speaker="ooc", text="psst", hidden="on")
    assert 403 == refused.status_code
    assert before == table.events()


def test_the_dice_check_page_sits_in_the_tables_navigation(table: Table) -> None:
    """The dice-check page has the table's link bar, itself the current page."""
    answer = table.client.get(f"{PAGE}/dice-check", headers=table.headers(ANA))
    assert 200 == answer.status_code
    bar = answer.text[answer.text.index('<nav class="bar"') :].split("</nav>")[0]
    assert f'<a href="{PAGE}#new">Table</a>' in bar
    assert 'aria-current="page">Check the dice</a>' in bar
