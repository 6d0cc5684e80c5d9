"""The store an engine opens and the state it loads: campaigns, characters, and either as it
stood after a ruling. ``Store`` is the base of ``Engine`` (``engine.application.engine``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self
from uuid import UUID, uuid4

from domain.audience import Audience
from domain.campaign import CampaignState, Directory, DirectoryEntry, evolve_campaign
from domain.errors import (
    DomainError,
    HistoryConflict,
    ReplayMismatch,
    UnknownCampaign,
    UnknownCharacter,
)
from domain.rulesets import ruleset_named
from domain.rulesets.base import Ruleset
from domain.visibility import hidden_from
from engine.dice.secrets import DiceSecrets, secrets_for
from engine.reads.models import ReadModels
from engine.store.campaign_store import MEMORY, StoredLogDamaged, open_store
from engine.store.records import DIRECTORY_ID
from engine.store.streams import Evolve, Heads, Streams
from engine.store.write_lock import NoLock, write_lock_for
from engine.write import clock
from engine.write.ledger import Ledger, evolve_directory, evolver_of, jittered_backoff

if TYPE_CHECKING:  # verify, the log and undo import theirs when called
    pass


class Store:
    """One store of campaigns. ``db`` is a SQLite file path, a ``postgresql://`` URL or
    ``:memory:`` (a SQLite file is made when missing, unless ``create`` is False).
    ``backoff(retry)`` waits between attempts that lost a race (tests inject one
    that does not sleep). A writer waits its turn on the store's write lock
    (``engine.store.write_lock``) unless ``lock_writes`` is False (tests use that to stage a lost
    race). ``pool``: the most connections to a PostgreSQL server it opens at once (a server process
    shares one engine among its threads and sizes its pool; a command keeps the default)."""

    def __init__(
        self,
        db: str = MEMORY,
        *,
        now: Callable[[], datetime] = clock.now,
        new_id: Callable[[], UUID] = uuid4,
        backoff: Callable[[int], None] = jittered_backoff,
        create: bool = True,
        lock_writes: bool = True,
        pool: int | None = None,
    ) -> None:
        self.db = db
        self.store = open_store(db, create=create, pool=pool)
        self.streams = Streams(self.store, Heads())  # its heads kept between loads
        self.dice_secrets: DiceSecrets = secrets_for(db, self.store)
        self.ledger = Ledger(
            self.store,
            self.streams,
            now=now,
            new_id=new_id,
            backoff=backoff,
            dice_secrets=self.dice_secrets,
            write_lock=write_lock_for(db, self.store) if lock_writes else NoLock(),
        )
        # Campaigns found in the directory: an entry, once registered, never changes or goes.
        self._found: dict[str, DirectoryEntry] = {}
        self.read_models = ReadModels(db, self.store)  # recaps and timelines, opened when read

    def close(self) -> None:
        self.read_models.close()
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- Reading -----------------------------------------------------------------------------

    def directory(self) -> Directory:
        state = self.streams.load(DIRECTORY_ID, evolve_directory).state
        return state if state is not None else Directory()

    def find_campaign(self, name: str) -> DirectoryEntry:
        entry = self._found.get(name) or self.directory().named(name)
        if entry is None:
            raise UnknownCampaign(name=name)
        self._found[name] = entry
        return entry

    def checked_once(self) -> AbstractContextManager[None]:
        """A block of this thread, for one request: each stream's head is read from the store
        at its first load in it and not again (the server's sign-in checks the member's seat in
        the campaign, then the command loads it: one read of its head, not two). A save in the
        block, or one another writer made, is read again as before (``Streams.checked_once``)."""
        return self.streams.checked_once()

    def campaign(self, name: str) -> CampaignState:
        entry = self.find_campaign(name)
        state: CampaignState | None = self.streams.load(entry.campaign_id, evolve_campaign).state
        if state is None:  # the directory lists it, its stream holds nothing
            stream = f"stream {entry.campaign_id}"
            problem = f"the store lists campaign {name!r} at {stream}, which holds no events"
            raise StoredLogDamaged(problem=problem)
        return state

    def ruleset(self, campaign: CampaignState) -> Ruleset[Any]:
        return ruleset_named(campaign.system)

    def evolver(self, campaign: CampaignState, stream: UUID) -> Evolve:
        return evolver_of(campaign, stream)

    def character(self, campaign_name: str, ref: str, *, audience: Audience) -> Any:
        """A character now, as ``audience`` may know it (see ``_known``)."""
        campaign = self.campaign(campaign_name)
        return self._known(campaign, campaign.find(ref).character_id, audience)

    def characters(self, campaign_name: str, *, audience: Audience) -> list[Any]:
        campaign = self.campaign(campaign_name)
        return [self._known(campaign, e.character_id, audience) for e in campaign.roster]

    def _known(self, campaign: CampaignState, stream: UUID, audience: Audience) -> Any:
        """A stream's state now; for a reader kept from some of its rulings (the GM's hidden
        ones), its state without them, or, where the rest does not replay without them, as it
        stood before the first of them."""
        evolve = self.evolver(campaign, stream)
        hidden = hidden_from(campaign, audience)  # none for a GM
        records = self.streams.records(stream) if hidden else []
        kept_from = [r.ruling for r in records if r.ruling in hidden]
        if not kept_from:
            return self.streams.load(stream, evolve).state
        try:
            return self.streams.replay([r for r in records if r.ruling not in hidden], evolve)
        except (DomainError, HistoryConflict, ReplayMismatch):
            return self._stream_at(campaign, stream, min(kept_from) - 1, True)

    def character_at(
        self,
        campaign_name: str,
        ref: str,
        *,
        ruling: int,
        corrected: bool = False,
        audience: Audience,
    ) -> Any:
        """A character as it stood after ruling ``ruling`` (None if it did not exist yet); for a
        reader kept from one of the GM's hidden rulings up to then, as it stood before it."""
        campaign = self.campaign(campaign_name)
        try:
            entry = campaign.find(ref)
        except UnknownCharacter:
            # Its creation may have been undone since: look in the roster as recorded then.
            then: CampaignState | None = self._stream_at(campaign, campaign.id, ruling, False)
            if then is None:
                raise
            entry = then.find(ref)
        hidden = hidden_from(campaign, audience)  # none for a GM
        if hidden:
            records = self.streams.records(entry.character_id)
            ruling = min([ruling, *(r.ruling - 1 for r in records if r.ruling in hidden)])
        return self._stream_at(campaign, entry.character_id, ruling, corrected)

    def campaign_at(
        self, campaign_name: str, *, ruling: int, corrected: bool = False
    ) -> CampaignState:
        """The campaign (roster, session, scene) as it stood after ruling ``ruling``."""
        campaign = self.campaign(campaign_name)
        state: CampaignState = self._stream_at(campaign, campaign.id, ruling, corrected)
        return state

    def _stream_at(
        self, campaign: CampaignState, stream: UUID, ruling: int, corrected: bool
    ) -> Any:
        """Replay a stream up to a ruling: as recorded then, or with every later undo applied
        to that past (``corrected``)."""
        records = self.streams.records(stream)
        then = [r for r in records if r.ruling <= ruling]
        later = [r for r in records if r.ruling > ruling] if corrected else []
        return self.streams.replay(then, self.evolver(campaign, stream), later=later, upto=ruling)
