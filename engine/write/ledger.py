"""The write side: each ruling recorded atomically (encoded, hash-linked, sealed at a session's
end, snapshotted), and the one retry policy of every write.

Every ruling ends with a ``RulingMade`` header on the campaign's stream, so the campaign stream is
the order of the table: two writers of one campaign conflict on its version, and the loser
re-decides from fresh state (new dice only where the dice are drawn digitally).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import attrs
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.campaign import CampaignState, evolve_campaign
from domain.campaign import evolve_directory as _evolve_directory
from domain.commands import Change
from domain.dice import DiceSource, Die, Provenance
from domain.errors import (
    CommittedSecretMissing,
    ConcurrentWrites,
    DomainError,
    GmEntropyRefused,
    HiddenDiceExhausted,
)
from domain.events import (
    DiceCommitted,
    DiceRevealed,
    Event,
    HiddenDiceRevealed,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    RulingRevealed,
    SessionEnded,
    SessionSealed,
    SessionStarted,
    StreamHead,
    Visibility,
)
from domain.rulesets import ruleset_named
from domain.rulesets.base import Ruleset
from engine.dice.committed import (
    HIDDEN_LEAVES,
    PROTOCOL,
    CommittedDice,
    commitment,
    hidden_proof,
    hidden_root,
    lane,
    leaf_key,
    mixed,
    mixed_signed,
    new_secret,
    sealed_key,
)
from engine.dice.committed import key as committed_key
from engine.dice.secrets import DiceSecrets
from engine.dice.sources import DiceSpec
from engine.store.campaign_store import CampaignStore
from engine.store.chain import encoded, seal, stored_link
from engine.store.records import Snapshot
from engine.store.streams import Evolve, Loaded, Streams
from engine.store.write_lock import WouldWait, WriteLock, turn_saved, waiting_refused
from engine.write.assembly import Draft, RulingResult, assemble

MAX_ATTEMPTS = 20
# A stream is snapshotted every this many versions: a load folds at most as many events past
# its snapshot (the campaign stream is loaded by every command, twice by a signed-in request).
SNAPSHOT_INTERVAL = 20
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


def evolver_of(campaign: CampaignState, stream: UUID) -> Evolve:
    """How a stream of ``campaign`` replays: the campaign's own, or its system's characters'."""
    if stream == campaign.id:
        return evolve_campaign
    return ruleset_named(campaign.system).evolve_character


class MissingDice:
    """A source that refuses at the first die it is asked for (a command that rolls nothing
    goes through): committed dice that cannot be drawn."""

    def __init__(self, refusal: DomainError) -> None:
        self.refusal = refusal

    def roll(self, sides: int) -> int:
        raise self.refusal


class RulingView:
    """The state one ruling decides on; streams are loaded on first use."""

    def __init__(self, ledger: Ledger, campaign: Loaded, ruleset: Ruleset[Any]) -> None:
        self._ledger = ledger
        self._campaign: CampaignState = campaign.state
        self.ruleset = ruleset
        self.versions: dict[UUID, int] = {self._campaign.id: campaign.version}
        self.states: dict[UUID, Any] = {self._campaign.id: campaign.state}

    @property
    def campaign(self) -> CampaignState:
        return self._campaign

    def character(self, character_id: UUID) -> Any:
        if character_id not in self.states:
            loaded = self._ledger.streams.load(character_id, self.ruleset.evolve_character)
            self.states[character_id] = loaded.state
            self.versions[character_id] = loaded.version
        return self.states[character_id]

    def new_id(self) -> UUID:
        stream = self._ledger.new_id()
        self.versions[stream] = 0
        self.states[stream] = None
        return stream


class Ledger:
    """Records rulings in one store. ``backoff(retry)`` waits between attempts that lost a race
    (tests inject one that does not sleep)."""

    def __init__(
        self,
        store: CampaignStore,
        streams: Streams,
        *,
        now: Callable[[], datetime],
        new_id: Callable[[], UUID],
        backoff: Callable[[int], None],
        dice_secrets: DiceSecrets,
        write_lock: WriteLock,
    ) -> None:
        self.store = store
        self.write_lock = write_lock
        self.streams = streams
        self.now = now
        self.new_id = new_id
        self.backoff = backoff
        self.dice_secrets = dice_secrets

    def retried(self, stream: UUID, attempt: Callable[[], RulingResult | None]) -> RulingResult:
        """The one retry policy of every write to ``stream``'s campaign: ``attempt`` loads,
        decides and saves under the store's write lock, so it does not race writers that take
        the lock too; it gives None when another writer got there first all the same, and then
        runs again on fresh state, after a jittered backoff (``backoff``), at most
        ``MAX_ATTEMPTS`` times in all. In a ``not_waiting`` block with nothing saved yet, a lost
        race raises ``WouldWait`` instead of backing off (the attempt saved nothing)."""
        for retry in range(MAX_ATTEMPTS):
            if retry:
                if waiting_refused():
                    raise WouldWait()
                self.backoff(retry)
                self.streams.recheck()  # a head this request read once moved: read it again
            with self.write_lock.held(stream):
                result = attempt()
            if result is not None:
                turn_saved()
                return result
        raise ConcurrentWrites(attempts=MAX_ATTEMPTS)

    def dice_source(
        self,
        spec: DiceSpec,
        campaign: CampaignState,
        *,
        roller: str,
        hidden: bool = False,
        roll_seal: str = "",
    ) -> DiceSource:
        """Digital dice without a seed come from the session's committed seed when there is one:
        protocol 2 draws a public roll from ``roller``'s own counters, a hidden one from the
        next hidden key; protocol 3 draws a roll ``roller`` sealed (``roll_seal``, checked by
        the caller) from the key the seal gives. A committed session whose secret this store lacks
        draws none at all (``MissingDice`` refuses at the first die): no silent fallback to
        other dice."""
        if spec.faces is not None or spec.seed is not None:
            return spec.fresh()
        if not (campaign.commitment and campaign.session):
            return spec.fresh()
        kept = self._kept(campaign, campaign.session)
        if kept is None:
            return MissingDice(CommittedSecretMissing(session=campaign.session))
        secret, hidden_seed = kept
        if campaign.dice_protocol < 2:
            key = committed_key(secret, mixed(campaign.commitment_entropy, campaign.entropy))
            return CommittedDice(key=key, start=campaign.dice_counter)
        entropy = mixed_signed(campaign.signed)
        if roll_seal:
            key = sealed_key(committed_key(secret, entropy), roll_seal)
            return CommittedDice(key=key, start=0, lane=lane(roller))
        if not hidden:
            key = committed_key(secret, entropy)
            return CommittedDice(key=key, start=campaign.lane(roller), lane=lane(roller))
        leaf = campaign.hidden_rolls
        if leaf >= HIDDEN_LEAVES:
            return MissingDice(HiddenDiceExhausted(session=campaign.session, leaves=leaf))
        if hidden_root(hidden_seed) != campaign.hidden_root:
            return MissingDice(CommittedSecretMissing(session=campaign.session))
        key = committed_key(leaf_key(hidden_seed, leaf), entropy)
        return CommittedDice(key=key, start=0, leaf=leaf)

    def _kept(self, campaign: CampaignState, session: int) -> tuple[bytes, bytes] | None:
        """The session's roll seed and hidden seed, if this store keeps the ones the campaign
        committed to (protocol 1 kept no hidden seed)."""
        kept = self.dice_secrets.get(campaign.id, session)
        if kept is None:
            return None
        secret, hidden_seed = kept[0][:32], kept[0][32:]
        if commitment(secret, campaign.hidden_root) != campaign.commitment:
            return None
        return secret, hidden_seed

    def with_secrets(
        self, campaign: CampaignState, changes: Sequence[Change], entropy: str
    ) -> list[Change]:
        """What the dice secrets add to a ruling: a starting session commits to fresh secrets, an
        ending one reveals its roll seed, and a revealed hidden committed roll publishes its own
        key with the proof that it was committed (never the hidden seed)."""
        found: list[Change] = []
        for change in changes:
            found.append(change)
            event = change.event
            if isinstance(event, SessionStarted):
                found.append(Change(campaign.id, self._committed(campaign, event.number, entropy)))
            elif isinstance(event, SessionEnded) and campaign.commitment:
                kept = self._kept(campaign, event.number)
                if kept is not None:
                    found.append(Change(campaign.id, self._revealed(campaign, kept[0])))
            elif isinstance(event, RulingRevealed):
                found += self._hidden_revealed(campaign, event.ruling)
        return found

    def _committed(self, campaign: CampaignState, number: int, entropy: str) -> DiceCommitted:
        # Protocol 2 keeps the roll seed and the hidden seed side by side; protocol 1's words
        # given at `session start` (``entropy``) are the GM's own, so they are not taken.
        if entropy:
            raise GmEntropyRefused()
        self.dice_secrets.put(campaign.id, number, new_secret() + new_secret(), "")
        kept = self.dice_secrets.get(campaign.id, number)  # the first one put wins
        assert kept is not None
        if self._committed_before(campaign, kept[0][:32]):  # its first start was undone
            self.dice_secrets.renew(campaign.id, number, kept[0], new_secret() + new_secret())
            kept = self.dice_secrets.get(campaign.id, number)
            assert kept is not None
        root = hidden_root(kept[0][32:])
        return DiceCommitted(
            session=number,
            seed_hash=commitment(kept[0][:32], root),
            entropy="",
            protocol=PROTOCOL,
            hidden_root=root,
        )

    def _committed_before(self, campaign: CampaignState, secret: bytes) -> bool:
        """Whether the log holds a commitment to ``secret`` already (a session start undone,
        the session started again): read from the commitments alone, filtered in SQL."""
        from engine.audit.chain import COMMITTED, stored_body
        from engine.audit.rows import StoreRows

        for row in StoreRows(self.store.recorder).picked(campaign.id, (COMMITTED,)):
            event = (stored_body(row) or {}).get("event", {})
            root = event.get("hidden_root", "")
            if event.get("seed_hash") == commitment(secret, root):
                return True
        return False

    def _revealed(self, campaign: CampaignState, secret: bytes) -> DiceRevealed:
        session = campaign.session or 0
        if campaign.dice_protocol < 2:
            return DiceRevealed(session=session, seed=secret.hex(), counters=campaign.dice_counter)
        return DiceRevealed(
            session=session,
            seed=secret.hex(),
            lanes=tuple(sorted(campaign.lanes)),
            hidden=campaign.hidden_rolls,
            sealed=tuple(sorted(campaign.seals)),
        )

    def _hidden_revealed(self, campaign: CampaignState, ruling: int) -> list[Change]:
        pending = next((h for h in campaign.hidden_dice if h[0] == ruling), None)
        if pending is None:
            return []
        _, session, leaf = pending
        kept = self.dice_secrets.get(campaign.id, session)
        if kept is None or len(kept[0]) != 64:
            raise CommittedSecretMissing(session=session)
        hidden_seed = kept[0][32:]
        shown = HiddenDiceRevealed(
            ruling=ruling,
            session=session,
            leaf=leaf,
            leaf_key=leaf_key(hidden_seed, leaf).hex(),
            proof=hidden_proof(hidden_seed, leaf),
        )
        return [Change(campaign.id, shown)]

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
        counter: int | None = None,
        draws: int = 0,
        lane: str | None = None,
        leaf: int | None = None,
        visibility: Visibility = Visibility.PUBLIC,
        audience: tuple[str, ...] = (),
        roll_seal: str = "",
        sealed: int | None = None,
    ) -> RulingResult | None:
        """Record changes decided outside a Command (undo, amend); None on a concurrent write.
        ``counter`` (with ``draws`` and ``lane`` or ``leaf``): committed dice it drew, as
        ``commit`` records them."""
        state: CampaignState = campaign.state
        versions = {state.id: campaign.version}
        states: dict[UUID, Any] = {state.id: state}
        for change in changes:
            if change.stream not in versions:
                loaded = self.streams.load(change.stream, evolver_of(state, change.stream))
                versions[change.stream] = loaded.version
                states[change.stream] = loaded.state
        return self.commit(
            campaign=state,
            campaign_id=state.id,
            versions=versions,
            states=states,
            evolvers={s: evolver_of(state, s) for s in versions},
            changes=changes,
            command=command,
            params=params,
            actor=actor,
            dice=dice,
            provenance=provenance,
            seed=seed,
            counter=counter,
            draws=draws,
            lane=lane,
            leaf=leaf,
            visibility=visibility,
            audience=audience,
        )

    def commit(
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
        lane: str | None = None,
        leaf: int | None = None,
        visibility: Visibility = Visibility.PUBLIC,
        audience: tuple[str, ...] = (),
        roll_seal: str = "",
        sealed: int | None = None,
        interaction: str = "",
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
                lane=lane,
                leaf=leaf,
                visibility=visibility,
                audience=audience,
                roll_seal=roll_seal,
                sealed=sealed,
                interaction=interaction,
                at=at,
            )
            # Each stream's link at the version its state was loaded at: a stream written
            # since holds that version's successor already, and the insert below fails.
            heads = {
                stream: self.streams.link_of(stream, versions[stream], evolvers[stream])
                for stream in draft.by_stream
            }
            records, rows = encoded(draft.records, heads)
            return attrs.evolve(draft, records=records), rows

        draft, rows = draft_of(())
        ended = next((c.event for c in changes if isinstance(c.event, SessionEnded)), None)
        if ended is not None:
            session_seal = self._seal(campaign_id, ended.number, draft)
            draft, rows = draft_of((Change(campaign_id, session_seal),))
        try:
            self.store.recorder.insert_events(rows)  # one transaction, as encoded above
        except IntegrityError:
            return None
        self.streams.recheck()  # heads a request read before its own save are read again
        after = dict(draft.after)
        lasts = {stream: versions[stream] + len(e) for stream, e in draft.by_stream.items()}
        written = {  # each stream's last row, as stored
            record.originator_id: row.state for record, row in zip(draft.records, rows, strict=True)
        }
        for stream, events in draft.by_stream.items():
            if any(isinstance(e, RulingRetracted | RulingAmended) for e in events):
                # A correction changes the past: the corrected state comes from a replay.
                after[stream] = self.streams.load(stream, evolvers[stream]).state
            elif events:  # the state the events were applied to, as the next load would fold
                stored = bytes(written[stream])
                self.streams.keep(stream, evolvers[stream], lasts[stream], stored, after[stream])
        self._snapshot(lasts, versions, after, draft.records[0].timestamp, written)
        return RulingResult(
            campaign=after[campaign_id],
            number=draft.header.number,
            command=command,
            records=draft.records,
            dice=dice,
            provenance=draft.header.provenance,
            states=after,
        )

    def head(self, stream: UUID) -> str:
        last = self.streams.last(stream)
        return last.chain if last else ""

    def _seal(self, campaign_id: UUID, number: int, draft: Draft) -> SessionSealed:
        """Seal session ``number``: the heads of every stream it touched, this ruling included."""
        from engine.store.log import headers

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
        written: Mapping[UUID, bytes],
    ) -> None:
        """Snapshot each stream that crossed a multiple of the interval, linked to the head
        just written (``written``: each stream's last row as stored). The events are durable
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
                        chain=stored_link(written[stream]),  # the head just written
                    )
                    self.store.snapshots.put([snapshot])
