"""The HTML timeline in a real browser: headless Chromium loads the page and its DOM holds the
rendered SVG chart with a marker per reveal (skipped, with the reason, where no Chromium is)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from cli.main import campaign
from tests.golden.test_recap_golden import EXAMPLES, rendered

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")
def test_chromium_renders_the_timeline_with_its_reveal_markers(tmp_path: Path) -> None:
    """Rain City's Hawk: the loaded page has the chart, three reveals and one voided reveal."""
    rendered(EXAMPLES / "rain-city.campaign", tmp_path)
    page = tmp_path / "hawk.html"
    db = str(tmp_path / "rain-city.db")
    args = ["--db", db, "timeline", "The Hawk", "--format", "html", "--out", str(page)]
    assert 0 == CliRunner().invoke(campaign, args).exit_code
    assert CHROMIUM is not None
    browser = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    dom = browser.stdout
    start, end = dom.index("<svg"), dom.index("</svg>") + len("</svg>")
    svg = ElementTree.fromstring(dom[start:end])
    groups = svg.iter(f"{SVG}g")
    reveals = [g.get("data-detail") for g in groups if g.get("class") == "reveal"]
    voided = [
        g.get("data-detail") for g in svg.iter(f"{SVG}g") if g.get("class") == "reveal voided"
    ]
    expected = (["physical-description", "profession", "modus-operandi"], ["weakness"])
    assert expected == (reveals, voided)
    assert 1 == len(list(svg.iter(f"{SVG}polyline")))
