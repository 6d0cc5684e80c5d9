"""The table page measured as the issue measured it (issue 44): the Sprawl Goons table of
``tests.web.long_table`` (38 rulings) served on 127.0.0.1, opened in the system's Chromium by the
GM and a player, at 1280 x 900 and at a phone's 390 x 844, scripts on and off, on a return visit
(the member read up to ruling 30 before; 31 to 38 are new). For each: the page's height, where it
opens (its scroll offset, and whether the first new entry is in view), how far below the view the
composer's text box is, and how many Tab presses from where it opens reach that box.

    python -m tests.web.measure_table            # prints one line per measure, and JSON
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.web import long_table
from tests.web.servers import chromium, serving_in_thread

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
BOX = "#f-post-text"


def _place(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """(box) => {
            const top = (el) => el ? Math.round(el.getBoundingClientRect().top + scrollY) : null;
            const view = (el) => !!el && el.getBoundingClientRect().top >= 0
                && el.getBoundingClientRect().top < innerHeight;
            const first = document.querySelector("li.entry.new, p.fold.new");
            return {
                height: document.documentElement.scrollHeight,
                opens_at: Math.round(scrollY),
                first_new_in_view: view(first),
                box_below_view: top(document.querySelector(box)) - Math.round(scrollY),
                title: document.title,
            };
        }""",
        BOX,
    )


def _tabs(page: Any, limit: int = 400) -> int:
    for count in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({BOX!r})"):
            return count
    return -1


def access_key(page: Any, key: str = "w") -> None:
    """Press the page's access key ``key`` as Chromium on Linux takes it (Alt and the key's
    character: Playwright's own key presses send no character with Alt held)."""
    cdp = page.context.new_cdp_session(page)
    code = {"key": key, "code": f"Key{key.upper()}", "windowsVirtualKeyCode": ord(key.upper())}
    cdp.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", "modifiers": 1, **code})
    char = {"type": "char", "modifiers": 1, "text": key, "unmodifiedText": key}
    cdp.send("Input.dispatchKeyEvent", {**char, **code})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "modifiers": 1, **code})
    cdp.detach()


def _by_access_key(page: Any) -> bool:
    """Whether Alt+W from where the page opens puts the focus in the post box."""
    access_key(page)
    page.wait_for_timeout(100)
    return bool(page.evaluate(f"document.activeElement.matches({BOX!r})"))


# (member, size, scripts on, the address's fragment): scripts off, the plain address (as the
# sign-in's redirect gives it) and the table's link on every page (``#new``)
VISITS = [
    (member, size, js, fragment)
    for member in (long_table.GM, long_table.ANA)
    for size in SIZES
    for js, fragment in ((True, ""), (False, ""), (False, "#new"))
]


def campaign_of(member: str, size: str, js: bool, fragment: str) -> str:
    """Each visit's own copy of the table (a visit marks what it shows read)."""
    return f"{long_table.CAMPAIGN} {member} {size} {'js' if js else 'plain'}{fragment}"


def before_visits(db: str) -> None:
    """Every visit's campaign, its member having read up to ``READ_UP_TO`` on an earlier visit
    (where the engine keeps read positions: ``Engine.mark_read``)."""
    from engine import Engine

    long_table.built(db, *(campaign_of(*visit) for visit in VISITS))
    with Engine(db) as engine:
        mark = getattr(engine, "mark_read", None)
        for visit in VISITS:
            if mark is not None:
                mark(campaign_of(*visit), 1, long_table.READ_UP_TO, member=visit[0])


def _signed_in(
    browser: Any, base: str, db: str, campaign: str, member: str, **opts: Any
) -> tuple[Any, str]:
    """A browser context signed in as ``member`` (its invite link posted, the redirect not
    followed: the table not shown yet), and the table's address the sign-in sends it to."""
    from engine import Engine

    context = browser.new_context(**opts)
    with Engine(db) as engine:
        secret = engine.invite(campaign, member)
    joined = context.request.post(f"{base}/join/{secret}", max_redirects=0)
    return context, base + str(joined.headers["location"])


def measures(base: str, db: str, browser: Any) -> Iterator[dict[str, Any]]:
    """One measure per visit."""
    for member, size, js, fragment in VISITS:
        width, height = SIZES[size]
        viewport = {"width": width, "height": height}
        campaign = campaign_of(member, size, js, fragment)
        context, table = _signed_in(
            browser, base, db, campaign, member, viewport=viewport, java_script_enabled=js
        )
        page = context.new_page()
        try:
            page.goto(table + fragment)
            page.wait_for_timeout(400)  # the script, if any, has placed the page
            found = _place(page)
            found["tabs_to_box"] = _tabs(page)
            page.goto(table + fragment)
            page.wait_for_timeout(400)
            found["alt_w"] = _by_access_key(page)
            yield {"member": member, "size": size, "js": js, "url": fragment, **found}
        finally:
            context.close()


def refusals(base: str, db: str, browser: Any) -> Iterator[dict[str, Any]]:
    """Scripts off, ana's roll refused by the rules (a DS that is no DS): where the answer
    opens, where its line stands from the view's top, and what has the focus."""
    for size, (width, height) in SIZES.items():
        campaign = f"{long_table.CAMPAIGN} refused {size}"
        long_table.built(db, campaign)
        viewport = {"width": width, "height": height}
        context, table = _signed_in(
            browser,
            base,
            db,
            campaign,
            long_table.ANA,
            viewport=viewport,
            java_script_enabled=False,
        )
        page = context.new_page()
        try:
            page.goto(table)
            page.locator("#d-roll > summary").click()
            page.locator("#f-roll-ds").fill("sideways")
            page.locator("#d-roll button[type=submit]").click()
            page.wait_for_load_state()
            found = page.evaluate(
                """() => {
                    const line = document.querySelector("output.said.refusal, p.refusal");
                    const active = document.activeElement;
                    return {
                        opens_at: Math.round(scrollY),
                        line_from_view: line
                            ? Math.round(line.getBoundingClientRect().top) : null,
                        line_text: line ? line.textContent.trim().slice(0, 60) : "",
                        focused: active === document.body ? "nothing"
                            : `${active.tagName.toLowerCase()}#${active.id}`,
                        height: innerHeight,
                    };
                }"""
            )
            yield {"size": size, **found}
        finally:
            context.close()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "long.db")
        before_visits(db)
        with serving_in_thread(db) as base, chromium() as browser:
            found = list(measures(base, db, browser))
            refused = list(refusals(base, db, browser))
    for m in found:
        print(
            f"{m['member']:5} {m['size']:7} js={'on ' if m['js'] else 'off'} "
            f"height {m['height']:5} px, opens at {m['opens_at']:5}, first new in view: "
            f"{'yes' if m['first_new_in_view'] else 'no '}, {m['url']:4} text box "
            f"{m['box_below_view']:5} px "
            f"below the view's top, {m['tabs_to_box']:3} Tabs to it, Alt+W: "
            f"{'yes' if m['alt_w'] else 'no '}; title {m['title']!r}"
        )
    for r in refused:
        print(
            f"refused roll, scripts off, {r['size']:7}: opens at {r['opens_at']}, its line "
            f"{r['line_from_view']} px from the view's top (view {r['height']} px), focus on "
            f"{r['focused']}: {r['line_text']!r}"
        )
    json.dump([*found, *refused], sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
