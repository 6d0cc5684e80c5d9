"""Search figures: `campaign search` costs about the same in a campaign of 100,000 posts as in
one of 1,000 (issue 29).

Each store is ``bench.dataset``'s Docklands seed with ``count`` posts of the GM's narration
imported after it (each a ruling of two records on the campaign's stream, numbered, chained and
snapshotted as the importer writes them): "Tanner pries open container N on the docks", and in
ten of them, spread over the campaign, the word "keymaker". The search read model catches up
once, untimed; then two searches are timed in-process as `campaign search` calls the engine: a
rare word (ten posts found) and a word of every post (the newest twenty shown).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path

from bench import dataset
from bench.common import Row, same_at_scale, say, timed
from bench.sizes import Sizes
from domain.audience import GMS
from domain.events import PostKind, PostWritten, RulingMade, StreamRange
from engine import Engine
from engine.store.chain import encoded
from engine.store.records import Recorded, Snapshot
from engine.transfer.export_import import collector_paused

POST_TOPIC = "domain.posts:WritePost"
SAVE = 5_000  # rulings a save (two records each: under the 10k events of one save)
QUERIES = {"a rare word (10 found)": "keymaker", "a word of every post (20 shown)": "container"}


def text(n: int, count: int) -> str:
    rare = " The keymaker's mark is on it." if n % (count // 10) == 0 else ""
    return f"Tanner pries open container {n} on the docks.{rare}"


def import_posts(engine: Engine, count: int) -> None:
    """``count`` post rulings appended to the seeded campaign (see the module docstring)."""
    campaign = engine.campaign(dataset.NAME)
    cid = campaign.id
    evolve = engine.evolver(campaign, cid)
    loaded = engine.streams.load(cid, evolve)
    state, version = loaded.state, loaded.version
    template = engine.streams.last(cid)
    assert template is not None
    head = engine.ledger.head(cid)
    ruling = state.rulings

    def drafted(first: int, n: int) -> Iterator[Recorded]:
        nonlocal version
        for number in range(first, first + n):
            post = PostWritten(by=template.actor, kind=PostKind.NARRATION, text=text(number, count))
            args = {"by": template.actor, "text": post.text}
            params = json.dumps({"args": args, "topic": POST_TOPIC}, separators=(",", ":"))
            header = RulingMade(
                number=number,
                command="post",
                params=params,
                dice=(),
                provenance=None,
                seed=None,
                touched=(StreamRange(stream=cid, first=version + 1, last=version + 1),),
            )
            for event in (post, header):
                version += 1
                yield dataset.like(template, version, number, event)

    with collector_paused():
        done = 0
        while done < count:
            n = min(SAVE, count - done)
            records = list(drafted(ruling + 1, n))
            for record in records:
                state = evolve(record.event, state)
            linked, rows = encoded(records, {cid: head})
            head = list(linked)[-1].chain
            engine.store.recorder.insert_events(rows)
            if engine.store.snapshots is not None:
                snapshot = Snapshot(
                    originator_id=cid,
                    originator_version=version,
                    timestamp=template.timestamp,
                    state=state,
                    chain=head,
                )
                engine.store.snapshots.put([snapshot])
            ruling += n
            done += n


def measured(db: Path, count: int, repeat: int) -> dict[str, float]:
    say(f"  building {count:,} posts for the search figures")
    dataset.build(db, 0)
    with Engine(str(db)) as engine:
        import_posts(engine, count)
    with Engine(str(db)) as engine:
        for query in QUERIES.values():
            engine.search(dataset.NAME, query, audience=GMS)  # the read models catch up (untimed)
        times = {
            what: timed(partial(engine.search, dataset.NAME, query, audience=GMS), repeat)
            for what, query in QUERIES.items()
        }
        engine.read_models.close()
    dataset.remove_db(db)
    return times


def figures(work: Path, sizes: Sizes) -> list[Row]:
    large, repeat = sizes.events, sizes.repeat * 5
    small = measured(work / "search-small.db", sizes.small, repeat)
    big = measured(work / "search-large.db", large, repeat)
    figure, short = f"`search`, {{}}, {large:,} posts", f"a campaign of {sizes.small:,} posts"
    return same_at_scale(small, big, figure, short)
