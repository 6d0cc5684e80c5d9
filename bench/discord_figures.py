"""Discord figures: an interaction's answer time (issue 31), p50 and p99 with 1, 8 and 32
members acting at once (``bench.sizes``' levels in `make bench`), on SQLite and on PostgreSQL,
against the bare insert endpoint driven by the same clients in the same run
(``bench.community_figures``).

Each member is linked to a Discord account and each table's channel to its campaign; every
request is a free roll as Discord sends it (``/dice``, an APPLICATION_COMMAND), signed with an
Ed25519 key the bench makes, to `campaign serve` with that key's public half. The answer must come
well inside Discord's three seconds: the p50 and the p99 are held to 1 s (a row of their own).
Load loops are bounded in count and time and talk to 127.0.0.1 only; PostgreSQL databases are
made and dropped by the bench.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Row, say, tail_row
from bench.community_figures import POOL, Seat, bare, drive, fixed, recorded, serve, tables
from bench.sizes import DEFAULT, Sizes

ANSWER_WITHIN = 1.0  # seconds: the p99 this holds itself to (Discord waits 3)


def account_of(index: int) -> str:
    return str(2_200_000_000_000_000_000 + index)


def channel_of(campaign: str) -> str:
    return str(1_100_000_000_000_000_000 + int(campaign.rsplit(" ", 1)[1]))


def linked(db: str, seats: list[Seat]) -> None:
    """Each table's channel and each member's account linked (the GM's rulings)."""
    from domain.links import LinkChannel, LinkMember
    from engine import Engine

    with Engine(db) as engine:
        for campaign in sorted({s[0] for s in seats}):
            engine.execute(campaign, LinkChannel(channel=channel_of(campaign)))
        for index, (campaign, member, _) in enumerate(seats):
            engine.execute(campaign, LinkMember(member=member, discord=account_of(index)))


def signer() -> tuple[str, Callable[[bytes], dict[str, str]]]:
    """A key pair: the public half (hex) for the server, and what signs a request's body."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    def headers(body: bytes) -> dict[str, str]:
        stamp = str(int(time.time()))
        return {
            "X-Signature-Ed25519": key.sign(stamp.encode() + body).hex(),
            "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json",
        }

    return public, headers


def interaction_sender(
    seats: list[Seat], sign: Callable[[bytes], dict[str, str]]
) -> Callable[[Any, str, Seat, str], Any]:
    """What sends a seat's free roll as a signed Discord interaction."""
    index_of = {seat: n for n, seat in enumerate(seats)}
    ids = itertools.count(3300000000000000001)  # each its own id: a replay is answered once

    def send(http: Any, url: str, seat: Seat, why: str) -> Any:
        options = [
            {"name": "expression", "type": 3, "value": "2d6"},
            {"name": "why", "type": 3, "value": why},
            {"name": "faces", "type": 3, "value": "3,4"},
        ]
        payload = {
            "id": str(next(ids)),
            "application_id": "4400000000000000001",
            "type": 2,
            "token": "interaction-token",
            "version": 1,
            "channel_id": channel_of(seat[0]),
            "member": {"user": {"id": account_of(index_of[seat])}},
            "data": {"id": "1", "name": "dice", "type": 1, "options": options},
        }
        body = json.dumps(payload).encode()
        answer = http.post(url, content=body, headers=sign(body))
        if answer.status_code == 200 and "embeds" not in answer.json().get("data", {}):
            answer.status_code = 500  # a refusal where a ruling was expected counts as a failure
        return answer

    return send


def rows_of(store: str, fresh: Callable[[], str], work: Path, sizes: Sizes) -> list[Row]:
    rows = []
    for members in sizes.members:
        say(f"  {members} Discord member(s) at once, {store}")
        db = fresh()
        seats = tables(db, members)
        linked(db, seats)
        public, sign = signer()
        send = interaction_sender(seats, sign)
        per = max(5, sizes.interactions // members)
        env = {"CAMPAIGN_DISCORD_PUBLIC_KEY": public}
        with serve(db, work / f"discord-{store}-{members}.log", env=env) as base:
            to_us = fixed(base + "/discord/interactions")
            drive(seats, to_us, 2, "warm", send)
            mine, statuses, took, failures = drive(seats, to_us, per, "load", send)
        seen = recorded(db, {s[0] for s in seats})
        wanted = {f"load {s[1]} {t}" for s in seats for t in range(per)}
        lost = len([w for w in wanted if w not in seen])
        errors = sum(n for status, n in statuses.items() if status != 200)
        bare_db = fresh() if store == "PostgreSQL" else str(work / f"bare-discord-{members}.db")
        with bare(bare_db, work / f"bare-discord-{store}-{members}.log") as theirs:
            to_bare = fixed(theirs + "/roll")
            drive(seats, to_bare, 2, "warm")
            baseline, _, _, _ = drive(seats, to_bare, per, "load")
        note = (
            f"{sum(statuses.values())} interactions in {took:.1f} s, {errors} not answered with a"
            f" ruling, {len(failures)} transport errors, {lost} lost"
        )
        kind = f"PostgreSQL, a pool of {POOL}" if store == "PostgreSQL" else "SQLite"
        figure = f"{store} Discord endpoint, {members} member(s) at once: /dice"
        rows += [
            tail_row(figure, mine, baseline, f"bare insert endpoint ({kind})", note=note),
            tail_row(
                figure + ", against the bound",
                mine,
                ANSWER_WITHIN,
                f"{ANSWER_WITHIN:g} s (the bound set for it; Discord waits 3 s)",
                "<= 1",
            ),
        ]
    return rows


def everything(work: Path, sizes: Sizes) -> list[Row]:
    """The Discord figures on SQLite, then on PostgreSQL when a server answers."""
    from bench import community_figures
    from bench.postgres_figures import SERVER, reachable

    files = iter(range(10**6))
    rows = rows_of("SQLite", lambda: str(work / f"discord-{next(files)}.db"), work, sizes)
    problem = reachable()
    if problem:
        note = f"not measured: no PostgreSQL server answered at {SERVER} ({problem})"
        return [*rows, Row("PostgreSQL Discord figures", "", None, None, "", note=note)]
    admin = SERVER.rstrip("/") + "/postgres"
    try:
        rows += rows_of("PostgreSQL", community_figures.postgres_database(admin), work, sizes)
    finally:
        community_figures.drop_database(admin)
    return rows


if __name__ == "__main__":  # pragma: no cover - by hand: python -m bench.discord_figures
    import sys

    from bench.common import scratch

    for row in everything(scratch(), DEFAULT):
        print(json.dumps(row.as_dict()), flush=True)
    sys.exit(0)
