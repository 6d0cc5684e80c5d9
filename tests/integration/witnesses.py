"""The three rewrites `verify` cannot see (tests/integration/test_tamper.py's store, rewritten and
resealed by a forger who recomputes every link), and witness statements of every head of that
store before it was rewritten: for the tests that witnesses catch each rewrite, on every store,
through the engine, the CLI and the pages."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.audience import GMS
from engine import Engine, Head, Statement, file_lines
from tests.integration.test_tamper import NAME, Forger, Played, kinds

# Each rewrite, and the first ruling it changes: a witness of any head from that ruling on
# catches it; one of a head before it does not (the log still holds those).
REWRITES = {
    "rewrite the whole log consistently": 6,  # Tanner's cash at ruling 6, every seal after
    "edit the latest ruling after the last seal, chain recomputed": 21,
    "delete the latest ruling whole after the last seal": 21,
}
SAW = "2026-11-29T22:00:00Z"


class Witness:
    """A member's own Ed25519 key, signing what they saw."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._private = Ed25519PrivateKey.generate()
        raw = self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = raw.hex()

    def saw(self, head: Head, seen: str = "the table page", at: str = SAW) -> Statement:
        unsigned = Statement(head=head, at=at, by=self.name, seen=seen)
        signature = self._private.sign(unsigned.text()).hex()
        return Statement(
            head=head, at=at, by=self.name, seen=seen, key=self.public, signature=signature
        )


def every_head(db: str, campaign: str = NAME) -> list[Head]:
    """The log's head after each ruling, as the GM's table page showed it."""
    with Engine(db) as engine:
        versions = [h.originator_version for h in engine.headers(campaign, audience=GMS)]
        found = engine.heads_at(campaign, versions, audience=GMS)
    heads = [found[v] for v in versions]
    assert all(isinstance(h, Head) for h in heads), heads
    return [h for h in heads if isinstance(h, Head)]


def rewrite(played: Played, name: str) -> None:
    """Rewrite ``played``'s store (a copy) as the kind ``name`` does, everything recomputed."""
    kind = next(k for k in kinds(played) if k.name == name)
    with sqlite3.connect(played.db) as connection:
        kind.tamper(Forger(connection, played))


def copy_of(played: Played, folder: Path) -> Played:
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "campaign.db"
    with sqlite3.connect(played.db) as source, sqlite3.connect(db) as target:
        source.backup(target)
    return Played(db, played.campaign, played.tanner)


@contextmanager
def store_of(kind: str, folder: Path) -> Iterator[str]:
    """A fresh store of ``kind``: a SQLite file in ``folder``, or a schema of its own on the test
    PostgreSQL server."""
    from tests.postgres import fresh_schema

    if kind == "sqlite":
        folder.mkdir(parents=True, exist_ok=True)
        yield str(folder / "copy.db")
        return
    with fresh_schema() as url:
        yield url


def exported(db: str, out: Path, campaign: str = NAME) -> Path:
    with Engine(db) as engine:
        out.write_text("".join(f"{line}\n" for line in engine.export(campaign, audience=GMS)))
    return out


def imported(export: Path, db: str) -> str:
    with Engine(db) as engine, export.open("rb") as handle:
        engine.import_campaign(file_lines(handle))
    return db


def removed(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
