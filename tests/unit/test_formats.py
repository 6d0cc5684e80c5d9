"""The output formats are registered once (``projections.format_list``, ``projections.formats``)
and every front end serves them all: the CLI's --format choices, the server's routes, and a
renderer for every kind of view in every format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from litestar.testing import TestClient

from cli.posts import thread as thread_command
from cli.recap import recap_command, timeline_command
from projections.format_list import FORMATS, JSON
from projections.formats import KINDS, check, render
from projections.render_text import markdown_text
from tests.web.conftest import API, Table, build_table
from web import create_app

GOLDEN = Path(__file__).parents[1] / "golden" / "recaps"


def test_every_kind_has_a_renderer_for_every_format() -> None:
    check()


def _choices(command: click.Command) -> tuple[str, ...]:
    option = next(p for p in command.params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    return tuple(option.type.choices)


@pytest.mark.parametrize("command", [recap_command, timeline_command, thread_command])
def test_the_command_line_offers_every_registered_format(command: click.Command) -> None:
    assert tuple(FORMATS) == _choices(command)


def test_the_server_serves_every_registered_format_of_every_view(table: Table) -> None:
    paths = {r.path for r in create_app(table.db).routes}
    for view in ("recap", "timeline", "thread"):
        assert f"/api/campaigns/{{campaign:str}}/{view}" in paths  # JSON
        for fmt in FORMATS.values():
            if fmt is not JSON:
                assert f"/api/campaigns/{{campaign:str}}/{view}.{fmt.suffix}" in paths


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return build_table(str(tmp_path / "zion.db"))


def test_each_format_answers_with_its_media_type_and_the_same_words(table: Table) -> None:
    with TestClient(create_app(table.db)) as client:
        for view in ("recap", "thread"):
            as_json = client.get(f"{API}/{view}", headers=table.headers("gm"))
            assert 200 == as_json.status_code
            for fmt in FORMATS.values():
                if fmt is JSON:
                    continue
                answer = client.get(f"{API}/{view}.{fmt.suffix}", headers=table.headers("gm"))
                assert 200 == answer.status_code, (view, fmt.name, answer.text)
                assert answer.headers["content-type"].startswith(fmt.media_type.split(";")[0])
                assert "Zion" in answer.text, (view, fmt.name)


def test_discord_messages_come_as_a_list_cut_at_the_limit_asked(table: Table) -> None:
    with TestClient(create_app(table.db)) as client:
        whole = client.get(f"{API}/thread.discord", headers=table.headers("player")).json()
        cut = client.get(
            f"{API}/thread.discord?max_chars=120", headers=table.headers("player")
        ).json()
    assert isinstance(whole, list)
    assert all(isinstance(m, str) for m in whole)
    assert len(cut) > len(whole)
    assert all(len(m) <= 120 for m in cut)


def _golden(name: str) -> str:
    return (GOLDEN / name).read_text(encoding="utf-8")


def test_text_is_the_markdown_without_its_markup() -> None:
    text = markdown_text(_golden("night-shift-session-1.md"))
    first, underline = text.splitlines()[:2]
    assert "Night Shift: session 1" == first
    assert len(first) * "=" == underline
    assert not {"**", "\\", "\n# "} & {m for m in ("**", "\\", "\n# ") if m in text}
    assert "\n- #1 campaign 'Night Shift' begins" in text


def test_a_table_reads_as_rows_of_cells() -> None:
    text = markdown_text("| a | b |\n|---|---|\n| 1 | x\\_y |\n")
    assert ["a | b", "1 | x_y"] == text.splitlines()


def test_text_keeps_no_control_characters() -> None:
    assert "\x1b" not in markdown_text("# a\x1b[31m red\n\n- b\x07\n")


@pytest.mark.parametrize("kind", KINDS)
def test_json_is_the_views_plain_data(kind: str) -> None:
    view: Any = {"campaign": "Zion"}
    if kind == "thread":
        return  # a thread's plain data is thread_json's (its own format, tested with it)
    assert '{\n  "campaign": "Zion"\n}\n' == render(kind, "json", view)
