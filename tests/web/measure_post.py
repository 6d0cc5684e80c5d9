"""How long a post takes to reach another player's page (issue 44's measure): the Sprawl Goons
table of ``tests.web.long_table`` served on 127.0.0.1, ana and ben each on the table page in the
system's Chromium; ana writes a post in the composer and sends it, and the time is taken from
her click to the post showing on ben's page (his live page fetches it). Run a few times; the
median is printed with every sample.

    python -m tests.web.measure_post [COUNT]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.web import long_table
from tests.web.measure_table import _signed_in
from tests.web.servers import chromium, serving_in_thread

WAIT = 15_000


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    samples = []
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "long.db")
        long_table.built(db, long_table.CAMPAIGN)
        with serving_in_thread(db) as base, chromium() as browser:
            writer, table = _signed_in(browser, base, db, long_table.CAMPAIGN, long_table.ANA)
            reader, theirs = _signed_in(browser, base, db, long_table.CAMPAIGN, long_table.BEN)
            page, other = writer.new_page(), reader.new_page()
            page.goto(table)
            other.goto(theirs)
            other.wait_for_selector("#live.on", timeout=WAIT)
            for n in range(count):
                words = f"Measured post number {n} reaches the table"
                page.locator("#f-post-text").fill(words)
                start = time.perf_counter()
                page.locator("#post-form button[type=submit]").click()
                other.get_by_text(words).first.wait_for(timeout=WAIT)
                samples.append((time.perf_counter() - start) * 1000)
    shown = ", ".join(f"{s:.0f}" for s in samples)
    print(f"a post reaches the other player's page: median {statistics.median(samples):.0f} ms")
    print(f"  ({count} posts: {shown} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
