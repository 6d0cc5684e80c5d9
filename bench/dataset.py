"""Campaigns to measure: a Sprawl Goons table played through the CLI, then rulings imported.

``seed`` plays a short campaign in-process through the `campaign` command (one character,
Tanner, in a running scene) and records one real roll: that ruling's two records (the roll on
Tanner's stream, the ``RulingMade`` header on the campaign's) are the template. ``import_rulings``
then writes many such rulings the way an importer would: numbered, versioned, hash-chained, stored
through the engine's own mapper and recorder in saves of at most 10k events, with a snapshot of
each stream after every save.
"""

from __future__ import annotations

import contextlib
import io
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import attrs
from eventsourcing.persistence import StoredEvent

from domain.events import Event, RulingMade, StreamRange
from engine import Engine
from engine.store.campaign_store import CampaignStore
from engine.store.chain import encoded
from engine.store.records import Recorded, Snapshot
from engine.store.streams import Evolve
from engine.transfer.export_import import collector_paused

NAME = "Docklands"
SETUP = (
    ["init", NAME, "--system", "sprawl-goons", "--gm", "Rosa"],
    ["session", "start"],
    [
        *("character", "create", "Tanner", "--player", "ana", "--stats", "2,1,1,0"),
        *("--item", "melee:Katana", "--item", "armour:Kevlar jacket", "--item", "lazarus"),
        *("--dice", "3,4,5,2"),
    ],
    ["scene", "start", "The container stacks"],
)
ROLL = ["roll", "Tanner", "reaction", "--ds", "10", "--dice", "3,3"]
BATCH_EVENTS = 10_000  # ENGINE-NOTES: a single save of 20k+ events can hang on PostgreSQL


def cli(db: str, argv: list[str]) -> None:
    """Run one `campaign` command in this process (its output discarded)."""
    from cli.main import campaign

    with contextlib.redirect_stdout(io.StringIO()):
        code = campaign.main(["--db", db, *argv], prog_name="campaign", standalone_mode=False)
    if code:
        raise RuntimeError(f"campaign {' '.join(argv)} exited {code}")


def seed(db: str) -> None:
    for argv in (*SETUP, ROLL):
        cli(db, argv)


@attrs.frozen
class Table:
    """The seeded campaign as the importer sees it."""

    campaign_id: UUID
    character_id: UUID
    roll: Recorded
    header: Recorded
    evolve_campaign: Evolve
    evolve_character: Evolve


def table(engine: Engine) -> Table:
    campaign = engine.campaign(NAME)
    character_id = campaign.find("Tanner").character_id
    roll = engine.streams.last(character_id)
    header = engine.streams.last(campaign.id)
    assert roll is not None
    assert header is not None
    return Table(
        campaign_id=campaign.id,
        character_id=character_id,
        roll=roll,
        header=header,
        evolve_campaign=engine.evolver(campaign, campaign.id),
        evolve_character=engine.evolver(campaign, character_id),
    )


def _rulings(
    t: Table, ruling: int, campaign_v: int, character_v: int, count: int, headers: bool
) -> Iterator[Recorded]:
    """The template's two records, numbered and versioned: records and events built directly,
    as an importer reading another tool's records would (``attrs.evolve`` is slow in bulk)."""
    roll, header = t.roll, t.header
    made: RulingMade = header.event  # type: ignore[assignment]
    for _ in range(count):
        ruling += 1
        character_v += 1
        yield like(roll, character_v, ruling, roll.event)
        if headers:
            campaign_v += 1
            touched = (StreamRange(stream=t.character_id, first=character_v, last=character_v),)
            event = RulingMade(
                number=ruling,
                command=made.command,
                params=made.params,
                dice=made.dice,
                provenance=made.provenance,
                seed=made.seed,
                touched=touched,
                counter=made.counter,
                draws=made.draws,
            )
            yield like(header, campaign_v, ruling, event)


def like(template: Recorded, version: int, ruling: int, event: Event) -> Recorded:
    """A record in ``template``'s stream and envelope, at another version and ruling."""
    return Recorded(
        originator_id=template.originator_id,
        originator_version=version,
        timestamp=template.timestamp,
        ruling=ruling,
        actor=template.actor,
        session=template.session,
        scene=template.scene,
        event=event,
    )


def command() -> Any:
    """The command behind ``ROLL``."""
    from domain.rulesets.sprawl_goons.commands import MakeActionRoll

    return MakeActionRoll(character="Tanner", stat="reaction", ds="10")


def _batches(
    engine: Engine, count: int, per_save: int, headers: bool
) -> Iterator[tuple[list[Recorded], list[StoredEvent], dict[UUID, Any], dict[UUID, int]]]:
    """Rulings drafted like the engine's: numbered, versioned, validated by evolving each
    stream's state, and chained; in saves of ``per_save`` rulings (with the states after)."""
    t = table(engine)
    streams = (t.campaign_id, t.character_id)
    loaded = {s: engine.streams.load(s, _evolver(t, s)) for s in streams}
    states: dict[UUID, Any] = {s: loaded[s].state for s in streams}
    versions = {s: loaded[s].version for s in streams}
    heads = {s: engine.ledger.head(s) for s in streams}
    ruling = states[t.campaign_id].rulings
    while count > 0:
        n = min(count, per_save)
        drafted = list(
            _rulings(t, ruling, versions[t.campaign_id], versions[t.character_id], n, headers)
        )
        for record in drafted:
            stream = record.originator_id
            states[stream] = _evolver(t, stream)(record.event, states[stream])
            versions[stream] = record.originator_version
        linked, rows = encoded(drafted, heads)  # as the engine encodes a ruling it saves
        records = list(linked)
        for record in records:
            heads[record.originator_id] = record.chain
        yield records, rows, states, versions
        ruling += n
        count -= n


def drafts(engine: Engine, count: int) -> list[list[StoredEvent]]:
    """``count`` roll rulings ready to save, one list of encoded rows per ruling."""
    return [rows for _, rows, _, _ in _batches(engine, count, 1, True)]


def import_rulings(
    engine: Engine,
    count: int,
    *,
    headers: bool = True,
    snapshots: bool = True,
    batch: int = BATCH_EVENTS,
) -> int:
    """Append ``count`` roll rulings to the seeded campaign in saves of at most 10k events,
    with a snapshot of each stream after each save; returns the events written. Like
    `campaign import`, it pauses the cyclic garbage collector while it holds a save's rows."""
    with collector_paused():
        return _import_rulings(engine, count, headers, snapshots, batch)


def _import_rulings(engine: Engine, count: int, headers: bool, snapshots: bool, batch: int) -> int:
    store: CampaignStore = engine.store
    per_save = batch // (2 if headers else 1)
    written = 0
    for records, rows, states, versions in _batches(engine, count, per_save, headers):
        store.recorder.insert_events(rows)
        if snapshots and store.snapshots is not None:
            at = records[-1].timestamp
            touched = {r.originator_id for r in records}
            heads = {r.originator_id: r.chain for r in records}  # each stream's last link
            store.snapshots.put(
                [
                    Snapshot(
                        originator_id=s,
                        originator_version=v,
                        timestamp=at,
                        state=states[s],
                        chain=heads[s],
                    )
                    for s, v in versions.items()
                    if s in touched
                ]
            )
        written += len(records)
    return written


def _evolver(t: Table, stream: UUID) -> Evolve:
    return t.evolve_campaign if stream == t.campaign_id else t.evolve_character


SQLITE_FILES = ("", "-wal", "-shm")  # a SQLite store's file and its WAL companions


def remove_db(path: Path) -> None:
    """Remove a SQLite store and its WAL files, if there are any."""
    for suffix in SQLITE_FILES:
        Path(str(path) + suffix).unlink(missing_ok=True)


def copy_db(source: Path, target: Path) -> None:
    """Copy a SQLite store (after its writer closed it, so the WAL is checkpointed)."""
    remove_db(target)
    for suffix in SQLITE_FILES:
        src = Path(str(source) + suffix)
        if src.exists():
            shutil.copyfile(src, Path(str(target) + suffix))


def build(path: Path, rulings: int = 0, **options: Any) -> Callable[[], Engine]:
    """A seeded store at ``path`` with ``rulings`` more imported; returns an opener."""
    seed(str(path))
    if rulings:
        with Engine(str(path)) as engine:
            import_rulings(engine, rulings, **options)
    return lambda: Engine(str(path))
