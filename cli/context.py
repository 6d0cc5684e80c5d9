"""What every command shares: the store, the chosen campaign, the actor, and the output mode."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

import click
from attrs import define, field

from cli.defaults import MEMORY
from domain.audience import Audience, of_actor
from domain.errors import InvalidHouseRule, InvalidParameter, NoCampaignChosen, UnknownCampaign

if TYPE_CHECKING:  # the engine is imported when a command first needs the store
    from engine import Engine


@define(eq=False)  # one a run: compared by identity, as click compares its objects
class Context:
    db: str
    campaign_option: str | None
    as_json: bool
    actor: str | None
    hidden: bool = False  # --hidden on a rolling verb: the GM's hidden roll
    seal: str = ""  # --seal on a rolling verb: the player's signature of the roll
    seal_text: bool = False  # --seal-text: print what the player signs, record nothing
    say: str = ""  # --say on a ruling verb: its narration (cli.say)
    creates: bool = False  # init and import make the store; every other verb needs one
    _engine: Engine | None = field(default=None, init=False)
    _made: list[Path] = field(factory=list, init=False)  # files opening the store created

    @property
    def audience(self) -> Audience:
        """Whom this run's reads are for: the member ``--as`` names, else the GMs at the
        keyboard (``domain.audience``)."""
        return of_actor(self.actor)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from engine import Engine

            if self.creates and not any(p.exists() for p in self._store_files()):
                # a new store: every file beside it is this run's, and goes if the run fails;
                # files appearing beside an existing store are its own (another process's WAL)
                self._made = self._store_files()
            self._engine = Engine(self.db, create=self.creates)
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def abandon(self) -> None:
        """After a command failed: close the store, and remove the files of a store this run
        created (a refused `init` or `import` leaves no store behind, as if never run)."""
        self.close()
        for path in self._made:
            path.unlink(missing_ok=True)
        self._made = []

    def _store_files(self) -> list[Path]:
        """A SQLite store's file and those SQLite and the write lock keep beside it."""
        if self.db == MEMORY or "://" in self.db or self.db.startswith("file:"):
            return []
        return [Path(self.db + suffix) for suffix in ("", "-wal", "-shm", "-journal", "-lock")]

    # --- The current campaign: --campaign, else the remembered one, else the only one ---------

    def remember(self, name: str) -> None:
        """Make ``name`` the current campaign, remembered beside the store with its system (so
        `campaign --help` lists that system's verbs without opening the store)."""
        memory = memory_file(self.db)
        if memory is not None:
            system = self.engine.find_campaign(name).system
            memory.write_text(f"{name}\n{system}\n", encoding="utf-8")

    def campaign(self) -> str:
        if self.campaign_option:
            return self.campaign_option
        found = remembered(self.db)
        if found is not None:
            with contextlib.suppress(UnknownCampaign):  # not in this store (one replaced, say)
                name = self.engine.find_campaign(found[0]).name
                if found[1] is None:  # a file from before the system was kept there
                    with contextlib.suppress(OSError):  # kept next time, if not now
                        self.remember(name)
                return name
        campaigns = self.engine.directory().campaigns
        if len(campaigns) == 1:
            return campaigns[0].name
        raise NoCampaignChosen()


def memory_file(db: str) -> Path | None:
    """Where the current campaign of a SQLite store is remembered (None: a store elsewhere)."""
    return None if db == MEMORY or "://" in db else Path(db + ".current")


def remembered(db: str) -> tuple[str, str | None] | None:
    """The current campaign remembered beside the store, and its system (None in a file
    written before the system was kept there), read without opening the store."""
    memory = memory_file(db)
    if memory is None or not memory.exists():
        return None
    name, _, rest = memory.read_text(encoding="utf-8").strip("\n").partition("\n")
    return name.strip(), rest.strip() or None


pass_context = click.make_pass_decorator(Context)


class WholeNumber(click.ParamType[int]):
    """A whole number written in ASCII digits (``int()`` also takes ``٣`` or ``３``, which no
    one types for a ruling number or a seed on purpose)."""

    name = "integer"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isascii() or not digits.isdigit():
            self.fail(f"{value!r} is not a whole number in the digits 0-9", param, ctx)
        return int(text)


WHOLE_NUMBER = WholeNumber()


def key_value(item: str, error: type[InvalidHouseRule | InvalidParameter]) -> tuple[str, str]:
    """``KEY=VALUE`` as its two parts, or ``error`` naming what was given."""
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise error(key=item, value="", expected="KEY=VALUE")
    return key.strip(), value.strip()
