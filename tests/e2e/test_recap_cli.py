"""`campaign recap`, `campaign timeline` and `campaign rebuild` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import campaign


def cli(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(campaign, ["--db", str(db), *args])
    return result.exit_code, result.output


def night(db: Path) -> None:
    for line in (
        ["init", "Night Shift", "--system", "code-green", "--gm", "Rosa"],
        ["session", "start"],
        ["scene", "start", "The cold room"],
        ["note", "a secret door", "--gm-only"],
        ["note", "the lights go out"],
    ):
        assert 0 == cli(db, *line)[0]


def test_recap_as_json_has_the_documented_keys(tmp_path: Path, frozen: None) -> None:
    """The JSON recap starts with its format and version, and lists its sections."""
    db = tmp_path / "c.db"
    night(db)
    code, out = cli(db, "recap", "--format", "json")
    recap = json.loads(out)
    expected = [
        "format",
        "version",
        "campaign",
        "session",
        "before_session",
        "scenes",
        "story",
        "highlights",
        "characters",
        "corrections",
        "disputes",
    ]
    assert (0, expected) == (code, list(recap))
    assert ["note: the lights go out"] == [b["text"] for b in recap["scenes"][0]["beats"]]


def test_recap_writes_an_html_page(tmp_path: Path, frozen: None) -> None:
    """--out writes one self-contained page and says where."""
    db = tmp_path / "c.db"
    night(db)
    page = tmp_path / "out" / "recap.html"
    code, out = cli(db, "recap", "--session", "1", "--format", "html", "--out", str(page))
    html = page.read_text(encoding="utf-8")
    assert (0, f"wrote {page}\n") == (code, out)
    assert html.startswith("<!DOCTYPE html>")
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "secret" not in html


def test_an_unknown_session_is_refused(tmp_path: Path, frozen: None) -> None:
    """A session the campaign never had exits 2 with a one-line reason."""
    db = tmp_path / "c.db"
    night(db)
    code, out = cli(db, "recap", "--session", "4")
    assert (2, "error: NO_SUCH_POINT: the log has no session 4\n") == (code, out)


def test_a_timeline_of_another_system_is_refused(tmp_path: Path, frozen: None) -> None:
    """Exposure timelines are The Code's."""
    db = tmp_path / "c.db"
    night(db)
    code, out = cli(db, "timeline")
    expected = (
        "error: NOT_THE_CODE: 'Night Shift' is played under code-green: "
        "Exposure timelines are The Code's\n"
    )
    assert (2, expected) == (code, out)


def test_rebuild_reports_what_it_processed(tmp_path: Path, frozen: None) -> None:
    """A rebuild processes every event again, per read model."""
    db = tmp_path / "c.db"
    night(db)
    code, out = cli(db, "--json", "rebuild")
    counts = json.loads(out)["rebuilt"]
    assert (0, ["dice", "exposure", "index", "recaps", "search"]) == (code, sorted(counts))
    assert counts["exposure"] == counts["recaps"] == counts["index"] == counts["dice"] > 0
    assert counts["search"] == counts["dice"]


def test_json_and_another_format_contradict(tmp_path: Path, frozen: None) -> None:
    """Issue 22: `--json recap --format md` is refused (exit 2) instead of choosing one; --json
    alone, or with --format json, is the JSON recap, and no option at all is Markdown."""
    db = tmp_path / "c.db"
    night(db)
    for fmt in ("md", "html"):
        result = CliRunner().invoke(campaign, ["--db", str(db), "--json", "recap", "--format", fmt])
        assert 2 == result.exit_code
        assert '"code": "FORMAT_CONTRADICTS"' in result.stderr
    assert cli(db, "--json", "recap")[1] == cli(db, "--json", "recap", "--format", "json")[1]
    assert cli(db, "recap")[1].startswith("# ")
