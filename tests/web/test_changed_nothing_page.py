"""The dice page in ana's browser counts the committed rolls nobody sealed that changed nothing,
per lane, as `verify-dice` counts them from the export: the GM's 27 coin flips `--as ana`
before her dangerous roll are listed there, with the same words. A real server on 127.0.0.1 and
the system's Chromium; skipped, saying why, without them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import Engine, idle_lines
from tests.integration.test_changed_nothing import FLIPS, attack
from tests.web.servers import CHROMIUM, chromium, serving_in_thread
from tests.web.test_dice_check import Server, sign_in


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, tuple[int, ...]]]:
    db = str(tmp_path_factory.mktemp("idle") / "lab.db")
    with Engine(db) as engine:
        _, flips = attack(engine)
    with serving_in_thread(db) as base:
        yield Server(base, db), flips


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: the browser tests of the dice check need it")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with chromium() as launched:
        yield launched


def test_the_page_counts_what_verify_dice_counts(
    attacked: tuple[Server, tuple[int, ...]], browser: Any
) -> None:
    server, flips = attacked
    page = sign_in(browser, server, "Lab", "ana")
    try:
        page.goto(f"{server.base}/campaigns/Lab/dice-check?session=1")
        page.wait_for_selector("#dice-summary:not([data-status='checking'])")
        page.wait_for_selector("#dice-idle:not([data-count=''])")
        assert [] == page.errors
        items = page.locator("#dice-idle li")
        shown = {
            items.nth(i).get_attribute("data-lane"): (
                int(items.nth(i).get_attribute("data-count")),
                items.nth(i).inner_text(),
            )
            for i in range(items.count())
        }
        with Engine(server.db) as engine:
            (check,) = engine.verify("Lab").dice
        said = idle_lines(check.idle)
        assert FLIPS == shown["ana"][0]
        assert {"ana", "bo", "hidden"} == set(shown)
        assert sorted(said) == sorted(text for _, text in shown.values())
        assert f"rulings {flips[0]}-{flips[-1]}" in shown["ana"][1]
        assert f"{FLIPS + 2}" == page.get_attribute("#dice-idle", "data-count")
    finally:
        page.context.close()


def test_no_run_no_list() -> None:
    """A session with no such roll says nothing of them (verify-dice prints no line)."""
    assert [] == idle_lines(())
