"""``campaign search`` from the command line: the texts found under where and by whom, the next
page offered, a refused query on stderr with exit 2 and nothing appended."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.e2e.conftest import Run


def test_what_was_written_is_found_with_where_and_who(table: Run) -> None:
    for line in (
        'note "the cold room smells of almonds"',
        '--as alice note "Almonds: cyanide? we should leave"',
    ):
        assert 0 == table(line).exit_code
    shown = table("--as alice search almonds").output.splitlines()
    assert [
        "#9 2026-11-29 19:30 alice [session 1, scene 1]",
        "  Almonds: cyanide? we should leave",
        "#8 2026-11-29 19:30 Rosa [session 1, scene 1]",
        "  the cold room smells of almonds",
    ] == shown


def test_a_longer_search_offers_its_next_page(table: Run) -> None:
    for n in range(3):
        table(f'note "clue {n}"')
    shown = table("search clue --limit 2").output.splitlines()
    assert "(older ones too: campaign search 'clue' --before 9)" == shown[-1]
    older = json.loads(table("--json search clue --before 9").output)
    assert (["clue 0"], False) == ([f["text"] for f in older["found"]], older["more"])


def test_nothing_found_says_so(table: Run) -> None:
    assert "nothing written holds 'arsenic'\n" == table("search arsenic").output


def test_a_query_of_no_words_is_refused(table: Run, count: Callable[[], int]) -> None:
    before = count()
    result = table('search "** !!"')
    assert 2 == result.exit_code
    assert "SEARCH_QUERY_EMPTY" in result.stderr
    assert before == count()
