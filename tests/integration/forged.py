"""A forger who knows the scheme, on any store: rewrites who made a ruling in the stored rows of a
campaign's stream, computes every link after it again, and every seal after it over the new links
(chained again), and deletes the stream's snapshots: what is left holds together, link by link
and seal by seal, as the docs say a rewrite that recomputes everything does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from engine import Engine
from engine.store.chain import genesis, link, seal, stored_link
from engine.store.mapper import canonical_json, loads, with_chain

MADE = "domain.events:RulingMade"
SEALED = "domain.events:SessionSealed"

Edit = Callable[[str, dict[str, Any]], None]  # (topic, body without its link), edited in place


def made_by(ruling: int, actor: str) -> Edit:
    """An edit of the campaign stream: ruling ``ruling``'s rows there (its header among them)
    say ``actor`` made it."""

    def edit(topic: str, body: dict[str, Any]) -> None:
        if body["ruling"] == ruling:
            body["actor"] = actor

    return edit


def rewrite(engine: Engine, name: str, edit: Edit) -> None:
    """Apply ``edit`` to every row of campaign ``name``'s stream, then chain the stream again,
    seal its sessions again and delete its snapshots (open a new engine on the store after:
    this one may keep what it loaded)."""
    campaign_id = engine.campaign(name).id
    recorder: Any = engine.store.recorder
    previous, links, last_seal = genesis(campaign_id), {}, ""
    for row in recorder.select_events(campaign_id):
        body = loads(row.state)
        body.pop("chain", None)
        edit(row.topic, body)
        if row.topic == SEALED:
            last_seal = _sealed_again(engine, campaign_id, body["event"], links, last_seal)
        raw = canonical_json(body)
        chain = link(previous, campaign_id, row.originator_version, row.topic, raw)
        _update(engine, campaign_id, row.originator_version, with_chain(raw, chain))
        links[row.originator_version], previous = chain, chain
    _forget_snapshots(engine, campaign_id)


def _sealed_again(
    engine: Engine, campaign_id: UUID, event: dict[str, Any], links: dict[int, str], previous: str
) -> str:
    heads = {}
    for head in event["heads"]:
        stream = UUID(head["stream"])
        if stream == campaign_id:
            head["chain"] = links[head["version"]]
        else:
            rows = engine.store.recorder.select_events(
                stream, gt=head["version"] - 1, lte=head["version"]
            )
            head["chain"] = stored_link(rows[0].state)
        heads[stream] = (head["version"], head["chain"])
    event["previous"] = previous
    event["digest"] = seal(heads, previous)
    return str(event["digest"])


def _update(engine: Engine, stream: UUID, version: int, state: bytes) -> None:
    recorder: Any = engine.store.recorder
    if not _postgres(engine):
        statement = (
            f"UPDATE {recorder.events_table_name} SET state=? "
            "WHERE originator_id IN (?, ?) AND originator_version=?"
        )
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, (state, stream.hex, str(stream), version))
        return
    from psycopg.sql import SQL, Identifier

    table = Identifier(recorder.datastore.schema, recorder.events_table_name)
    update = SQL("UPDATE {} SET state=%s WHERE originator_id=%s AND originator_version=%s")
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(update.format(table), (state, stream, version))


def _forget_snapshots(engine: Engine, stream: UUID) -> None:
    snapshots = engine.store.snapshots
    if snapshots is None:
        return
    recorder: Any = snapshots.recorder
    if not _postgres(engine):
        statement = f"DELETE FROM {recorder.events_table_name} WHERE originator_id IN (?, ?)"
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, (stream.hex, str(stream)))
        return
    from psycopg.sql import SQL, Identifier

    table = Identifier(recorder.datastore.schema, recorder.events_table_name)
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(SQL("DELETE FROM {} WHERE originator_id=%s").format(table), (stream,))


def _postgres(engine: Engine) -> bool:
    return engine.db.startswith("postgresql://")
