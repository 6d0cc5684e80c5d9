"""The engine: runs each command as one ruling (load -> decide -> save), atomically, with retries.

Every ruling ends with a ``RulingMade`` header on the campaign's stream, so the campaign stream is
the order of the table: two writers of one campaign conflict on its version, and the loser
re-decides from fresh state (new dice only where the dice are drawn digitally).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

import attrs
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import get_topic

from domain.campaign import CampaignState, Directory, DirectoryEntry, evolve_campaign
from domain.campaign import evolve_directory as _evolve_directory
from domain.commands import Change, Command
from domain.dice import DiceSource, Die, EnteredDice, Provenance, RecordingDice
from domain.errors import ConcurrentWrites, UnknownCampaign, UnknownCharacter
from domain.events import (
    DiceCommitted,
    DiceRevealed,
    Event,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    SessionEnded,
    SessionSealed,
    SessionStarted,
    StreamHead,
)
from domain.lifecycle import create_campaign
from domain.rulesets import ruleset_named
from domain.rulesets.base import Ruleset
from engine import clock
from engine.assembly import Draft, RulingResult, assemble
from engine.chain import encoded, seal
from engine.committed_dice import CommittedDice, commitment, mixed, new_secret
from engine.committed_dice import key as committed_key
from engine.dice_secrets import DiceSecrets, secrets_for
from engine.dice_sources import DiceSpec
from engine.mapper import canonical_json, converter
from engine.readmodels import ReadModels
from engine.records import DIRECTORY_ID, Recorded, Snapshot
from engine.store import MEMORY, open_store
from engine.streams import Evolve, Loaded, Streams

if TYPE_CHECKING:  # verify, the log and undo import theirs when called
    from engine.audit import Report
    from engine.recaps import Doc, Recaps
    from engine.rulings import LoggedRuling
    from engine.timeline import Change as Changed
    from engine.transfer import Imported

MAX_ATTEMPTS = 20
SNAPSHOT_INTERVAL = 100
BACKOFF_UNIT = 0.004  # seconds; about one ruling's load -> decide -> save on a busy store
BACKOFF_CAP = 0.25


def jittered_backoff(retry: int) -> None:
    """Wait before retry number ``retry``: the first retry at once, then a random time up to
    4 ms x 2^retry (at most 0.25 s), so writers that keep colliding on one campaign spread out
    instead of re-colliding in lockstep."""
    if retry > 1:
        time.sleep(random.uniform(0, min(BACKOFF_CAP, BACKOFF_UNIT * 2**retry)))


def evolve_directory(event: Event, state: Any) -> Any:
    return _evolve_directory(event, state)


class RulingView:
    """The state one ruling decides on; streams are loaded on first use."""

    def __init__(self, engine: Engine, campaign: Loaded, ruleset: Ruleset) -> None:
        self._engine = engine
        self._campaign: CampaignState = campaign.state
        self.ruleset = ruleset
        self.versions: dict[UUID, int] = {self._campaign.id: campaign.version}
        self.states: dict[UUID, Any] = {self._campaign.id: campaign.state}

    @property
    def campaign(self) -> CampaignState:
        return self._campaign

    def character(self, character_id: UUID) -> Any:
        if character_id not in self.states:
            loaded = self._engine.streams.load(character_id, self.ruleset.evolve_character)
            self.states[character_id] = loaded.state
            self.versions[character_id] = loaded.version
        return self.states[character_id]

    def new_id(self) -> UUID:
        stream = self._engine.new_id()
        self.versions[stream] = 0
        self.states[stream] = None
        return stream


class Engine:
    """One store of campaigns. ``db`` is a SQLite file path, a ``postgresql://`` URL or
    ``:memory:``. ``backoff(retry)`` waits between attempts that lost a race (tests inject one
    that does not sleep)."""

    def __init__(
        self,
        db: str = MEMORY,
        *,
        now: Callable[[], datetime] = clock.now,
        new_id: Callable[[], UUID] = uuid4,
        backoff: Callable[[int], None] = jittered_backoff,
    ) -> None:
        self.db = db
        self.backoff = backoff
        self.store = open_store(db)
        self.streams = Streams(self.store)
        self.now = now
        self.new_id = new_id
        self.dice_secrets: DiceSecrets = secrets_for(db, self.store)
        # Campaigns found in the directory: an entry, once registered, never changes or goes.
        self._found: dict[str, DirectoryEntry] = {}
        self.read_models = ReadModels(db, self.store)  # recaps and timelines, opened when read

    def close(self) -> None:
        self.read_models.close()
        self.store.close()

    def __enter__(self) -> Engine:
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

    def campaign(self, name: str) -> CampaignState:
        state: CampaignState = self.streams.load(
            self.find_campaign(name).campaign_id, evolve_campaign
        ).state
        return state

    def ruleset(self, campaign: CampaignState) -> Ruleset:
        return ruleset_named(campaign.system)

    def evolver(self, campaign: CampaignState, stream: UUID) -> Evolve:
        if stream == campaign.id:
            return evolve_campaign
        return self.ruleset(campaign).evolve_character

    def character(self, campaign_name: str, ref: str) -> Any:
        campaign = self.campaign(campaign_name)
        entry = campaign.find(ref)
        return self.streams.load(
            entry.character_id, self.evolver(campaign, entry.character_id)
        ).state

    def characters(self, campaign_name: str) -> list[Any]:
        campaign = self.campaign(campaign_name)
        evolve = self.ruleset(campaign).evolve_character
        return [self.streams.load(e.character_id, evolve).state for e in campaign.roster]

    def character_at(
        self, campaign_name: str, ref: str, *, ruling: int, corrected: bool = False
    ) -> Any:
        """A character as it stood after ruling ``ruling`` (None if it did not exist yet)."""
        campaign = self.campaign(campaign_name)
        try:
            entry = campaign.find(ref)
        except UnknownCharacter:
            # Its creation may have been undone since: look in the roster as recorded then.
            then: CampaignState | None = self._stream_at(campaign, campaign.id, ruling, False)
            if then is None:
                raise
            entry = then.find(ref)
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

    def verify(self, campaign_name: str) -> Report:
        """Check the campaign's hash chains, ruling ranges and session seals in the stored rows."""
        from engine import audit

        return audit.verify(self, campaign_name)

    def headers(self, campaign_name: str) -> list[Recorded]:
        """Each ruling's header (its ``RulingMade`` in its envelope), in order: the log without
        the rulings' events, read from the campaign stream alone."""
        from engine import rulings

        campaign_id = self.find_campaign(campaign_name).campaign_id
        return rulings.headers(self.streams.records(campaign_id))

    def log(
        self,
        campaign_name: str,
        *,
        session: int | None = None,
        rulings: Collection[int] | None = None,
    ) -> list[LoggedRuling]:
        """Every ruling in order (only session ``session``'s, only the ``rulings`` numbered, when
        given), with its events."""
        from engine import rulings as log

        return log.read_log(self, campaign_name, session=session, rulings=rulings)

    def amend(
        self,
        campaign_name: str,
        ruling: int,
        changes: Mapping[str, str],
        *,
        reason: str,
        actor: str | None = None,
        dice: DiceSpec | None = None,
        with_dependents: bool = False,
        redecide: bool = False,
    ) -> RulingResult:
        """Re-resolve a ruling with corrected parameters and the dice it recorded. Later rulings
        that no longer stand refuse it, are undone with it (``with_dependents``) or are decided
        again with their own dice (``redecide``)."""
        from engine.amend import amend  # amend imports this module's neighbours

        return amend(
            self,
            campaign_name,
            ruling,
            changes,
            reason=reason,
            actor=actor,
            dice=dice,
            with_dependents=with_dependents,
            redecide=redecide,
        )

    def undo(
        self,
        campaign_name: str,
        ruling: int | None = None,
        *,
        reason: str,
        actor: str | None = None,
        with_dependents: bool = False,
        redecide: bool = False,
    ) -> RulingResult:
        """Retract a ruling (default: the latest in force). Later rulings that no longer stand
        without it refuse it, are undone with it (``with_dependents``) or are decided again
        with their own dice (``redecide``)."""
        from engine import rulings

        return rulings.undo(
            self,
            campaign_name,
            ruling,
            reason=reason,
            actor=actor,
            with_dependents=with_dependents,
            redecide=redecide,
        )

    def history(self, campaign_name: str, ref: str) -> list[Changed]:
        """Every ruling that changed a character, in order, with its events on that character."""
        from engine import timeline

        return timeline.history(self, campaign_name, ref)

    def ruling_at(
        self,
        campaign_name: str,
        *,
        ruling: int | None = None,
        session: int | None = None,
        time: datetime | None = None,
    ) -> int:
        """The last ruling at a point: a ruling number, the end of session N, or a moment."""
        from engine import timeline

        return timeline.ruling_at(self, campaign_name, ruling=ruling, session=session, time=time)

    def session_rulings(self, campaign_name: str, session: int | None = None) -> list[LoggedRuling]:
        """The rulings of one session (default: the latest session), in order."""
        from engine import timeline

        return timeline.session_rulings(self, campaign_name, session)

    # --- Recaps and timelines (the projections' read models) --------------------------------

    @property
    def recaps(self) -> Recaps:
        from engine.recaps import Recaps

        return Recaps(self.read_models)

    def recap(self, campaign_name: str, session: int | None = None, *, gm: bool = False) -> Doc:
        """A session's recap (default: the latest) as plain data; ``gm`` keeps the GM's notes."""
        return self.recaps.session(self.campaign(campaign_name), session, gm=gm)

    def hero_timeline(self, campaign_name: str, ref: str) -> Doc:
        """One hero's Exposure reveal timeline (The Code) as plain data."""
        return self.recaps.hero(self.campaign(campaign_name), ref)

    def campaign_timelines(self, campaign_name: str) -> Doc:
        """Every hero's Exposure timeline in a campaign of The Code, as plain data."""
        return self.recaps.campaign(self.campaign(campaign_name))

    def catch_up(self, model: str, progress: Callable[[int, int], None] | None = None) -> int:
        """Bring read model ``model`` (``recaps``, ``exposure``) up to the end of the log; how
        many events it processed. Reads catch up by themselves: this is for a worker."""
        from engine.recaps import MODELS

        return self.read_models.catch_up(MODELS[model], progress=progress)

    def rebuild(self, model: str, progress: Callable[[int, int], None] | None = None) -> int:
        """Throw read model ``model``'s documents away and process the whole log again."""
        from engine.recaps import MODELS

        return self.read_models.rebuild(MODELS[model], progress=progress)

    # --- Moving campaigns between stores ------------------------------------------------------

    def export(self, campaign_name: str) -> Iterator[str]:
        """The campaign as JSON lines (verified first): a header, then every stored event."""
        from engine.transfer import export_lines

        return export_lines(self, campaign_name)

    def import_campaign(
        self, lines: Iterable[str | bytes], progress: Callable[[int], None] | None = None
    ) -> Imported:
        """Verify an export completely, then write it into this store in one transaction."""
        from engine.transfer import import_lines

        return import_lines(self, lines, progress)

    # --- Writing -----------------------------------------------------------------------------

    def retried(self, attempt: Callable[[], RulingResult | None]) -> RulingResult:
        """The one retry policy of every write: ``attempt`` loads, decides and saves, and gives
        None when another writer got there first; then it runs again on fresh state, after a
        jittered backoff (``backoff``), at most ``MAX_ATTEMPTS`` times in all."""
        for retry in range(MAX_ATTEMPTS):
            if retry:
                self.backoff(retry)
            result = attempt()
            if result is not None:
                return result
        raise ConcurrentWrites(attempts=MAX_ATTEMPTS)

    def create_campaign(
        self,
        name: str,
        system: str,
        *,
        gm: str = "GM",
        house_rules: Mapping[str, str] | None = None,
    ) -> RulingResult:
        """Register a campaign and record its first ruling (its creation)."""

        def attempt() -> RulingResult | None:
            directory = self.streams.load(DIRECTORY_ID, evolve_directory)
            campaign_id = self.new_id()
            changes = create_campaign(
                directory.state or Directory(),
                directory_id=DIRECTORY_ID,
                campaign_id=campaign_id,
                name=name,
                system=system,
                gm=gm,
                house_rules=dict(house_rules or {}),
            )
            params = {"name": name, "system": system, "gm": gm, "house_rules": house_rules or {}}
            return self._commit(
                campaign=None,
                campaign_id=campaign_id,
                versions={DIRECTORY_ID: directory.version, campaign_id: 0},
                states={DIRECTORY_ID: directory.state, campaign_id: None},
                evolvers={DIRECTORY_ID: evolve_directory, campaign_id: evolve_campaign},
                changes=changes,
                command="init",
                params=canonical_json(params).decode(),
                actor=gm,
                dice=(),
            )

        return self.retried(attempt)

    def execute(
        self,
        campaign_name: str,
        command: Command,
        *,
        actor: str | None = None,
        dice: DiceSpec | None = None,
    ) -> RulingResult:
        """Decide ``command`` against fresh state and record its events as one ruling.

        ``actor`` is who made the call (default: the campaign's GM)."""
        spec = dice or DiceSpec()
        campaign_id = self.find_campaign(campaign_name).campaign_id

        def attempt() -> RulingResult | None:
            loaded = self.streams.load(campaign_id, evolve_campaign)
            campaign: CampaignState = loaded.state
            view = RulingView(self, loaded, self.ruleset(campaign))
            source = self._dice_source(spec, campaign)
            recording = RecordingDice(source)
            changes = [*command.decide(view, recording)]
            if isinstance(source, EnteredDice):
                source.check_all_used()
            changes += self._commitments(campaign, changes, getattr(command, "entropy", ""))
            committed = isinstance(source, CommittedDice) and bool(recording.rolled)
            params = {"topic": get_topic(type(command)), "args": converter.unstructure(command)}
            return self._commit(
                campaign=campaign,
                campaign_id=campaign_id,
                versions=view.versions,
                states=view.states,
                evolvers={s: self.evolver(campaign, s) for s in view.versions},
                changes=changes,
                command=command.name,
                params=canonical_json(params).decode(),
                actor=actor or campaign.gm,
                dice=tuple(recording.rolled),
                provenance=Provenance.COMMITTED if committed else spec.provenance,
                seed=spec.seed,
                counter=campaign.dice_counter if committed else None,
                draws=source.draws if isinstance(source, CommittedDice) else 0,
            )

        return self.retried(attempt)

    def _dice_source(self, spec: DiceSpec, campaign: CampaignState) -> DiceSource:
        """Digital dice without a seed come from the session's committed seed when there is one."""
        if spec.faces is None and spec.seed is None and campaign.commitment and campaign.session:
            secret = self._kept_secret(campaign, campaign.session)
            if secret is not None:
                entropy = mixed(campaign.commitment_entropy, campaign.entropy)
                key = committed_key(secret, entropy)
                return CommittedDice(key=key, start=campaign.dice_counter)
        return spec.fresh()

    def _kept_secret(self, campaign: CampaignState, session: int) -> bytes | None:
        """The session's secret seed, if this store keeps the one the campaign committed to."""
        kept = self.dice_secrets.get(campaign.id, session)
        if kept is None or commitment(kept[0]) != campaign.commitment:
            return None
        return kept[0]

    def _commitments(
        self, campaign: CampaignState, changes: Sequence[Change], entropy: str
    ) -> list[Change]:
        """A starting session commits to a fresh secret seed; an ending one reveals it."""
        extra: list[Change] = []
        for change in changes:
            if isinstance(change.event, SessionStarted):
                number = change.event.number
                self.dice_secrets.put(campaign.id, number, new_secret(), entropy)
                kept = self.dice_secrets.get(campaign.id, number)  # the first one put wins
                assert kept is not None
                committed = DiceCommitted(
                    session=number, seed_hash=commitment(kept[0]), entropy=entropy
                )
                extra.append(Change(campaign.id, committed))
            elif isinstance(change.event, SessionEnded) and campaign.commitment:
                secret = self._kept_secret(campaign, change.event.number)
                if secret is not None:
                    revealed = DiceRevealed(
                        session=change.event.number,
                        seed=secret.hex(),
                        counters=campaign.dice_counter,
                    )
                    extra.append(Change(campaign.id, revealed))
        return extra

    def record(
        self,
        campaign: Loaded,
        changes: Sequence[Change],
        *,
        command: str,
        params: str,
        actor: str,
        dice: tuple[Die, ...] = (),
        provenance: Provenance | None = None,
        seed: int | None = None,
    ) -> RulingResult | None:
        """Record changes decided outside a Command (undo, amend); None on a concurrent write."""
        state: CampaignState = campaign.state
        versions = {state.id: campaign.version}
        states: dict[UUID, Any] = {state.id: state}
        for change in changes:
            if change.stream not in versions:
                loaded = self.streams.load(change.stream, self.evolver(state, change.stream))
                versions[change.stream] = loaded.version
                states[change.stream] = loaded.state
        return self._commit(
            campaign=state,
            campaign_id=state.id,
            versions=versions,
            states=states,
            evolvers={s: self.evolver(state, s) for s in versions},
            changes=changes,
            command=command,
            params=params,
            actor=actor,
            dice=dice,
            provenance=provenance,
            seed=seed,
        )

    def _commit(
        self,
        *,
        campaign: CampaignState | None,
        campaign_id: UUID,
        versions: Mapping[UUID, int],
        states: Mapping[UUID, Any],
        evolvers: Mapping[UUID, Evolve],
        changes: Sequence[Change],
        command: str,
        params: str,
        actor: str,
        dice: tuple[Die, ...],
        provenance: Provenance | None = None,
        seed: int | None = None,
        counter: int | None = None,
        draws: int = 0,
    ) -> RulingResult | None:
        """Record one ruling; None when another writer got there first (the caller retries)."""
        at = self.now()

        def draft_of(extra: Sequence[Change]) -> tuple[Draft, list[StoredEvent]]:
            draft = assemble(
                campaign=campaign,
                campaign_id=campaign_id,
                versions=versions,
                states=states,
                evolvers=evolvers,
                changes=[*changes, *extra],
                command=command,
                params=params,
                actor=actor,
                dice=dice,
                provenance=provenance,
                seed=seed,
                counter=counter,
                draws=draws,
                at=at,
            )
            heads = {stream: self._head(stream) for stream in draft.by_stream}
            records, rows = encoded(draft.records, heads)
            return attrs.evolve(draft, records=records), rows

        draft, rows = draft_of(())
        ended = next((c.event for c in changes if isinstance(c.event, SessionEnded)), None)
        if ended is not None:
            sealed = self._seal(campaign_id, ended.number, draft)
            draft, rows = draft_of((Change(campaign_id, sealed),))
        try:
            self.store.recorder.insert_events(rows)  # one transaction, as encoded above
        except IntegrityError:
            return None
        after = dict(draft.after)
        for stream, events in draft.by_stream.items():
            if any(isinstance(e, RulingRetracted | RulingAmended) for e in events):
                # A correction changes the past: the corrected state comes from a replay.
                after[stream] = self.streams.load(stream, evolvers[stream]).state
        lasts = {stream: versions[stream] + len(e) for stream, e in draft.by_stream.items()}
        self._snapshot(lasts, versions, after, draft.records[0].timestamp)
        return RulingResult(
            campaign=after[campaign_id],
            number=draft.header.number,
            command=command,
            records=draft.records,
            dice=dice,
            provenance=draft.header.provenance,
            states=after,
        )

    def _head(self, stream: UUID) -> str:
        last = self.streams.last(stream)
        return last.chain if last else ""

    def _seal(self, campaign_id: UUID, number: int, draft: Draft) -> SessionSealed:
        """Seal session ``number``: the heads of every stream it touched, this ruling included."""
        from engine.rulings import headers

        records = self.streams.records(campaign_id)
        session_streams = {
            span.stream
            for header in headers(records)
            if header.session == number
            for span in header.event.touched  # type: ignore[attr-defined]
        }
        # Chained to the seal before it: removing a session's end breaks the next one's seal.
        previous = next(
            (r.event.digest for r in reversed(records) if isinstance(r.event, SessionSealed)), ""
        )
        latest = {r.originator_id: r for r in draft.records if not isinstance(r.event, RulingMade)}
        heads = {}
        for stream in session_streams | set(latest):
            record = latest.get(stream) or self.streams.last(stream)
            if record is not None:
                heads[stream] = (record.originator_version, record.chain)
        listed = tuple(
            StreamHead(stream=stream, version=version, chain=chain)
            for stream, (version, chain) in sorted(heads.items(), key=lambda item: str(item[0]))
        )
        return SessionSealed(
            number=number, digest=seal(heads, previous), heads=listed, previous=previous
        )

    def _snapshot(
        self,
        lasts: Mapping[UUID, int],
        before: Mapping[UUID, int],
        after: Mapping[UUID, Any],
        at: datetime,
    ) -> None:
        """Snapshot each stream that crossed a multiple of the interval. The events are durable
        already, so a failed snapshot is skipped, never reported as a failed command."""
        if self.store.snapshots is None:
            return
        for stream, last in lasts.items():
            state = after[stream]
            if state is None:
                continue
            if last // SNAPSHOT_INTERVAL > before[stream] // SNAPSHOT_INTERVAL:
                with contextlib.suppress(Exception):  # see the docstring
                    snapshot = Snapshot(
                        originator_id=stream,
                        originator_version=last,
                        timestamp=at,
                        state=state,
                        chain=self.streams.link_at(stream, last),  # the head just written
                    )
                    self.store.snapshots.put([snapshot])
