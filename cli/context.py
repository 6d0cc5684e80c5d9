"""What every command shares: the store, the chosen campaign, the actor, and the output mode."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

import click
from attrs import define, field

from cli.defaults import MEMORY
from domain.errors import InvalidHouseRule, InvalidParameter, NoCampaignChosen, UnknownCampaign

if TYPE_CHECKING:  # the engine is imported when a command first needs the store
    from engine import Engine


@define
class Context:
    db: str
    campaign_option: str | None
    as_json: bool
    actor: str | None
    hidden: bool = False  # --hidden on a rolling verb: the GM's hidden roll
    say: str = ""  # --say on a ruling verb: its narration (cli.say)
    creates: bool = False  # init and import make the store; every other verb needs one
    _engine: Engine | None = field(default=None, init=False)
    _made: list[Path] = field(factory=list, init=False)  # files opening the store created

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from engine import Engine

            if self.creates:
                self._made = [p for p in self._store_files() if not p.exists()]
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

    @property
    def _memory_file(self) -> Path | None:
        return None if self.db == MEMORY or "://" in self.db else Path(self.db + ".current")

    def remember(self, name: str) -> None:
        if self._memory_file is not None:
            self._memory_file.write_text(name + "\n", encoding="utf-8")

    def campaign(self) -> str:
        if self.campaign_option:
            return self.campaign_option
        memory = self._memory_file
        if memory is not None and memory.exists():
            name = memory.read_text(encoding="utf-8").strip()
            with contextlib.suppress(UnknownCampaign):  # not in this store (one replaced, say)
                return self.engine.find_campaign(name).name
        campaigns = self.engine.directory().campaigns
        if len(campaigns) == 1:
            return campaigns[0].name
        raise NoCampaignChosen()


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
