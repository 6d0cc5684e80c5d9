"""Every HTML page in a real browser, at a desktop's width and a phone's: headless Chromium draws
the recap, a hero's timeline, the campaign's Exposure chart and the dice-stats page of Rain City,
writes screenshots to build/screenshots/<page>-<width>.png (look at them), and its DOM holds each
chart's axes and legend (skipped, with the reason, where no Chromium is)."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from cli.main import campaign
from projections.stylesheet import STYLESHEET
from tests.e2e.test_timeline_chromium import CHROMIUM, FLAGS, SVG
from tests.golden.test_recap_golden import EXAMPLES, rendered

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (apt-get install chromium)"
)

SHOTS = Path(__file__).parents[2] / "build" / "screenshots"
WINDOWS = {1280: "1280,900", 390: "390,844"}
PAGES = {
    "recap": ["recap", "--session", "1", "--format", "html"],
    "timeline": ["timeline", "The Hawk", "--format", "html"],
    "exposure": ["timeline", "--format", "html"],
    "dice-stats": ["dice-stats", "--html"],
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Rain City played, and each of its pages written by the `campaign` command."""
    folder = tmp_path_factory.mktemp("pages")
    rendered(EXAMPLES / "rain-city.campaign", folder)
    written = {}
    for name, args in PAGES.items():
        page = folder / f"{name}.html"
        line = ["--db", str(folder / "rain-city.db"), *args, str(page)]
        if "--format" in args:
            line.insert(-1, "--out")
        result = CliRunner().invoke(campaign, line)
        assert 0 == result.exit_code, result.output
        written[name] = page
    return written


def _chromium(*args: str, profile: Path) -> str:
    assert CHROMIUM is not None
    browser = subprocess.run(
        [CHROMIUM, *FLAGS, "--hide-scrollbars", f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return browser.stdout


def _png(path: Path) -> tuple[int, int, int]:
    """A PNG's width, height and how many different byte values its pixel rows hold."""
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    chunks, at = [], 8
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        if data[at + 4 : at + 8] == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + size])
        at += 12 + size
    return width, height, len(set(zlib.decompress(b"".join(chunks))))


def _svgs(dom: str) -> list[ElementTree.Element]:
    found, at = [], 0
    while (start := dom.find("<svg", at)) >= 0:
        at = dom.index("</svg>", start) + len("</svg>")
        found.append(ElementTree.fromstring(dom[start:at]))
    return found


def _classed(svg: ElementTree.Element, tag: str, cls: str) -> list[ElementTree.Element]:
    return [x for x in svg.iter(f"{SVG}{tag}") if cls in (x.get("class") or "").split()]


@pytest.mark.parametrize("name", list(PAGES))
def test_each_page_is_drawn_at_desktop_and_phone_widths(
    name: str, pages: dict[str, Path], tmp_path: Path
) -> None:
    """A screenshot at 1280 and at 390 px wide: the window's size, with more than blank in it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, window in WINDOWS.items():
        shot = SHOTS / f"{name}-{width}.png"
        shot.unlink(missing_ok=True)
        _chromium(
            f"--window-size={window}",
            f"--screenshot={shot}",
            pages[name].as_uri(),
            profile=tmp_path / f"profile-{width}",
        )
        wide, high, shades = _png(shot)
        assert (width, int(window.split(",")[1])) == (wide, high)
        assert shot.stat().st_size > 10_000
        assert shades > 20


def test_the_pages_share_one_stylesheet_in_the_browser(
    pages: dict[str, Path], tmp_path: Path
) -> None:
    """Each loaded page carries the same inline stylesheet and no script."""
    for name, page in pages.items():
        dom = _chromium("--dump-dom", page.as_uri(), profile=tmp_path / name)
        assert (1, 0) == (dom.count(STYLESHEET.strip()), dom.count("<script")), name


def test_the_dice_chart_has_its_axes_counts_and_expected_line(
    pages: dict[str, Path], tmp_path: Path
) -> None:
    """Rain City's 42 d10s: counts up the side, faces 1..10 along, a count on each bar, the
    expected line labelled 4.2, the test in words and the note that 42 rolls are too few."""
    dom = _chromium("--dump-dom", pages["dice-stats"].as_uri(), profile=tmp_path / "p")
    (svg,) = _svgs(dom)
    assert "100%" == svg.get("width")
    ticks = ["".join(t.itertext()) for t in _classed(svg, "text", "y-tick")]
    faces = ["".join(t.itertext()) for t in _classed(svg, "text", "x-tick")]
    (label,) = ["".join(t.itertext()) for t in _classed(svg, "text", "expected-label")]
    assert ("0", [str(n) for n in range(1, 11)], "expected 4.2") == (ticks[0], faces, label)
    assert 10 == len(_classed(svg, "text", "count")) == len(_classed(svg, "rect", "bar"))
    assert 1 == len(_classed(svg, "line", "expected"))
    assert "chi-square 6.1 with 9 degrees of freedom, p&nbsp;=&nbsp;0.73" in dom
    assert "Too few rolls for the test to mean much" in dom


@pytest.mark.parametrize(("name", "keys"), [("timeline", 3), ("exposure", 5)])
def test_the_exposure_chart_has_axes_and_a_legend(
    name: str, keys: int, pages: dict[str, Path], tmp_path: Path
) -> None:
    """Both axes, Exposure ticks 0..10, and a legend: dot, diamond, hollow (and each hero on
    the campaign's chart); the chart follows the page's width."""
    dom = _chromium("--dump-dom", pages[name].as_uri(), profile=tmp_path / "p")
    (svg,) = _svgs(dom)
    assert ("100%", 2) == (svg.get("width"), len(_classed(svg, "line", "axis")))
    (legend,) = _classed(svg, "g", "legend")
    symbols = [g.get("data-symbol") for g in legend]
    assert ["dot", "diamond", "hollow"] == symbols[:3]
    assert keys == len(symbols)
    ticks = ["".join(t.itertext()) for t in _classed(svg, "text", "tick")]
    assert [str(n) for n in range(0, 11, 2)] == ticks[:6]
