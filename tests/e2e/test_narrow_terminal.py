"""At 60 columns the tables, sheets and the Code Green grid stay readable: no line is wider, no
header breaks mid-word, and the grid's columns line up whatever their contents."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import render
from cli.main import campaign

EXAMPLES = Path(__file__).parents[2] / "examples"
WIDTH = 60

# Each example campaign, a character of it, and the headers its tables print.
SYSTEMS = {
    "night-shift": "Hush",
    "rain-city": "The Hawk",
    "sprawl-goons": "Tanner",
    "zion-run": "Neo",
}
TABLE_HEADERS = {
    "list": ("campaign", "system", "characters", "sessions", "rulings"),
    "dice-stats": ("die", "source", "rolls", "faces 1..n", "chi²"),
}

Terminal = Callable[[str], Result]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example campaign played once into its own store."""
    spec = importlib.util.spec_from_file_location("play", EXAMPLES / "play.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = tmp_path_factory.mktemp("examples")
    played = {}
    for example in SYSTEMS:
        db = folder / f"{example}.db"
        with contextlib.redirect_stdout(io.StringIO()):
            assert 0 == module.play(EXAMPLES / f"{example}.campaign", db)
        played[example] = db
    return played


def terminal(db: Path, monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """The command as a terminal 60 columns wide sees it (rich reads COLUMNS; plain text wraps
    to the terminal's width, which a test's captured output does not have)."""
    monkeypatch.setattr(render, "wrap_width", lambda: WIDTH)
    runner = CliRunner(env={"COLUMNS": str(WIDTH)})

    def invoke(line: str) -> Result:
        return runner.invoke(campaign, ["--db", str(db), *shlex.split(line)])

    return invoke


def commands(character: str) -> list[str]:
    name = shlex.quote(character)
    return [
        "log",
        "show",
        f"show {name}",
        f"history {name}",
        "dice-stats",
        "disputes --all",
        "member list",
        "list",
        "character list",
        f"character show {name}",
    ]


@pytest.mark.parametrize("example", sorted(SYSTEMS))
def test_no_line_is_wider_than_the_terminal(
    example: str, stores: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """log, show, history, dice-stats, disputes, member list and each system's sheet fit 60
    columns (but for a 64-digit digest on a line of its own); a rich table keeps every header
    word whole and truncates nothing."""
    run = terminal(stores[example], monkeypatch)
    for line in commands(SYSTEMS[example]):
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
        wide = [
            text
            for text in result.output.splitlines()
            if len(text) > WIDTH and len(text.split()) > 1  # a digest alone is copied whole
        ]
        assert [] == wide, line
        assert "…" not in result.output, (line, result.output)
        for header in TABLE_HEADERS.get(line, ()):
            assert header in result.output, (line, header, result.output)


def test_a_pipe_gets_whole_lines(stores: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Output to a file or a pipe is not wrapped: each ruling's line stays whole for grep."""
    runner = CliRunner(env={"COLUMNS": str(WIDTH)})
    result = runner.invoke(campaign, ["--db", str(stores["zion-run"]), "log"])
    assert any(len(text) > WIDTH for text in result.output.splitlines())
    assert None is render.wrap_width()


def test_a_long_line_wraps_between_words_under_its_indent() -> None:
    """Continuations are indented two more than the line; a word longer than a line (a digest)
    is never broken but gets a line of its own."""
    text = "  Neo: attacks Bouncer: Neo's Kung Fu Good [+2]; upshift (Being Badass), as Expert"
    assert [
        "  Neo: attacks Bouncer: Neo's Kung Fu",
        "    Good [+2]; upshift (Being Badass),",
        "    as Expert",
    ] == render.wrapped(text, 40).splitlines()
    hashed = render.wrapped(f"seed hash {'a' * 50} ends", 20).splitlines()
    assert ["seed hash", f"  {'a' * 50}", "  ends"] == hashed


def separators(line: str) -> list[int]:
    return [match.start() for match in re.finditer(r"[|+]", line)]


def grid_of(output: str) -> list[str]:
    """The grid's lines of a Code Green sheet: the header, its rule and the rows."""
    return [line for line in output.splitlines() if "|" in line or "-+-" in line]


@pytest.mark.parametrize(
    ("layout", "form", "function"),
    [
        pytest.param("contiguous", "Legs,Tail,Teeth", "Cryptic,Invulnerable,Phasing", id="s1"),
        pytest.param("contiguous", "Ears,Eyes,Tongue", "Toxic,Polymorphic,Elastic", id="long"),
        pytest.param(
            "die-per-axis", "Legs,Tail,Tongue", "Toxic,Accelerated,Polymorphic", id="axis"
        ),
    ],
)
def test_the_grid_columns_line_up(
    layout: str,
    form: str,
    function: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Header, rule and every row of the Profile Grid have their column separators at the same
    offsets, for short and long trait names, tokens, strain marks and long d66 ranges (one
    line per row where it fits 60 columns, else each range under its square)."""
    run = terminal(tmp_path / "grid.db", monkeypatch)
    for line in [
        f"init Grid --system code-green --gm Rosa --house-rule gridRanges={layout}",
        "session start",
        'scene start "The lab"',
        f"character create --player alice --form {form} --function {function} --dice 3,1,4,1,5",
        "place alice R1C1 R2C2 R3C3",
        "test alice " + " ".join((form.split(",")[0], function.split(",")[0])),
        "roll --dice 5",
        "strain alice --to R1C2 --dice 1,1",
    ]:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    shown = run("character show alice").output
    grid = grid_of(shown)
    assert 5 <= len(grid), shown
    assert 1 == len({tuple(separators(line)) for line in grid}), shown
    assert all(len(line) <= WIDTH for line in shown.splitlines()), shown
    for name in (*form.split(","), *function.split(",")):
        assert name in shown
    assert "ox" in shown or ".x" in shown  # the strain mark beside its token
