"""The engine: the application API of one store. Reads load streams (``Streams``), writes run each
command as one ruling (load -> decide -> save) through the ``Ledger``, corrections and read models
have collaborators of their own; every method here is a use a front end has."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from eventsourcing.utils import get_topic

from domain.campaign import CampaignState, Directory, DirectoryEntry, evolve_campaign
from domain.commands import Command
from domain.dice import EnteredDice, Provenance, RecordingDice
from domain.errors import UnknownCampaign, UnknownCharacter
from domain.events import Outcome, Role
from domain.lifecycle import create_campaign
from domain.policy import check_allowed
from domain.rulesets import ruleset_named
from domain.rulesets.base import Ruleset
from engine import clock
from engine.assembly import RulingResult
from engine.committed_dice import CommittedDice
from engine.dice_secrets import DiceSecrets, secrets_for
from engine.dice_sources import DiceSpec
from engine.ledger import Ledger, RulingView, evolve_directory, evolver_of, jittered_backoff
from engine.mapper import canonical_json, converter
from engine.readmodels import ReadModels
from engine.records import DIRECTORY_ID, Recorded
from engine.store import MEMORY, open_store
from engine.streams import Evolve, Streams

if TYPE_CHECKING:  # verify, the log and undo import theirs when called
    from engine.audit import Report
    from engine.recaps import Doc, Recaps
    from engine.rulings import LoggedRuling
    from engine.timeline import Change as Changed
    from engine.transfer import Imported


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
        self.store = open_store(db)
        self.streams = Streams(self.store)
        self.dice_secrets: DiceSecrets = secrets_for(db, self.store)
        self.ledger = Ledger(
            self.store,
            self.streams,
            now=now,
            new_id=new_id,
            backoff=backoff,
            dice_secrets=self.dice_secrets,
        )
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
        return evolver_of(campaign, stream)

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

        return audit.verify(self.store, self.find_campaign(campaign_name).campaign_id)

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

        campaign_id = self.find_campaign(campaign_name).campaign_id
        return log.read_log(self.streams, campaign_id, session=session, rulings=rulings)

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
        dispute: int | None = None,
    ) -> RulingResult:
        """Re-resolve a ruling with corrected parameters and the dice it recorded. Later rulings
        that no longer stand refuse it, are undone with it (``with_dependents``) or are decided
        again with their own dice (``redecide``). With ``dispute``, it resolves that dispute."""
        from engine.amend import amend  # amend imports this module's neighbours

        return amend(
            self.ledger,
            self.find_campaign(campaign_name).campaign_id,
            ruling,
            changes,
            reason=reason,
            actor=actor,
            dice=dice,
            with_dependents=with_dependents,
            redecide=redecide,
            dispute=dispute,
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
        dispute: int | None = None,
    ) -> RulingResult:
        """Retract a ruling (default: the latest in force). Later rulings that no longer stand
        without it refuse it, are undone with it (``with_dependents``) or are decided again
        with their own dice (``redecide``). With ``dispute``, the undo resolves that dispute."""
        from engine import rulings

        return rulings.undo(
            self.ledger,
            self.find_campaign(campaign_name).campaign_id,
            ruling,
            reason=reason,
            actor=actor,
            with_dependents=with_dependents,
            redecide=redecide,
            dispute=dispute,
        )

    def resolve(
        self,
        campaign_name: str,
        dispute: int,
        outcome: Outcome,
        *,
        reason: str,
        changes: Mapping[str, str] | None = None,
        actor: str | None = None,
        dice: DiceSpec | None = None,
        with_dependents: bool = False,
        redecide: bool = False,
    ) -> RulingResult:
        """Resolve an open dispute (the GM): the ruling stands (``upheld``), or is undone or
        amended (with ``changes``) by the ruling that resolves it."""
        from domain.table import UpholdRuling, open_dispute

        if outcome is Outcome.UPHELD:
            return self.execute(
                campaign_name, UpholdRuling(dispute=dispute, reason=reason), actor=actor
            )
        ruling = open_dispute(self.campaign(campaign_name), dispute).ruling
        if outcome is Outcome.UNDONE:
            return self.undo(
                campaign_name,
                ruling,
                reason=reason,
                actor=actor,
                with_dependents=with_dependents,
                redecide=redecide,
                dispute=dispute,
            )
        return self.amend(
            campaign_name,
            ruling,
            changes or {},
            reason=reason,
            actor=actor,
            dice=dice,
            with_dependents=with_dependents,
            redecide=redecide,
            dispute=dispute,
        )

    def history(self, campaign_name: str, ref: str) -> list[Changed]:
        """Every ruling that changed a character, in order, with its events on that character."""
        from engine import timeline

        return timeline.history(self.streams, self.campaign(campaign_name), ref)

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

        made = self.headers(campaign_name)
        return timeline.ruling_at(made, ruling=ruling, session=session, time=time)

    def session_rulings(self, campaign_name: str, session: int | None = None) -> list[LoggedRuling]:
        """The rulings of one session (default: the latest session), in order."""
        from engine import timeline

        campaign_id = self.find_campaign(campaign_name).campaign_id
        return timeline.session_rulings(self.streams, campaign_id, session)

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

        entry = self.find_campaign(campaign_name)
        return export_lines(self.store, entry, self.verify(campaign_name))

    def import_campaign(
        self, lines: Iterable[str | bytes], progress: Callable[[int], None] | None = None
    ) -> Imported:
        """Verify an export completely, then write it into this store in one transaction."""
        from engine.transfer import import_lines

        return import_lines(self.ledger, lines, progress)

    # --- Writing ---------------------------------------------------------------------------

    def create_campaign(
        self,
        name: str,
        system: str,
        *,
        gm: str = "GM",
        house_rules: Mapping[str, str] | None = None,
        members: Mapping[str, Role] | None = None,
    ) -> RulingResult:
        """Register a campaign and record its first ruling (its creation), with the table's
        first ``members`` (name -> role) seated beside its GM."""

        def attempt() -> RulingResult | None:
            directory = self.streams.load(DIRECTORY_ID, evolve_directory)
            campaign_id = self.ledger.new_id()
            changes = create_campaign(
                directory.state or Directory(),
                directory_id=DIRECTORY_ID,
                campaign_id=campaign_id,
                name=name,
                system=system,
                gm=gm,
                house_rules=dict(house_rules or {}),
                members=members,
            )
            params = {"name": name, "system": system, "gm": gm, "house_rules": house_rules or {}}
            if members:
                params["members"] = {who: str(role) for who, role in members.items()}
            return self.ledger.commit(
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

        return self.ledger.retried(attempt)

    def execute(
        self,
        campaign_name: str,
        command: Command,
        *,
        actor: str | None = None,
        dice: DiceSpec | None = None,
    ) -> RulingResult:
        """Decide ``command`` against fresh state and record its events as one ruling.

        ``actor`` is the member who made the call (default: the campaign's GM); a command the
        table's policy does not let them issue is refused ``NOT_ALLOWED``."""
        spec = dice or DiceSpec()
        campaign_id = self.find_campaign(campaign_name).campaign_id

        def attempt() -> RulingResult | None:
            loaded = self.streams.load(campaign_id, evolve_campaign)
            campaign: CampaignState = loaded.state
            check_allowed(campaign, actor or campaign.gm, command)
            view = RulingView(self.ledger, loaded, self.ruleset(campaign))
            source = self.ledger.dice_source(spec, campaign)
            recording = RecordingDice(source)
            changes = [*command.decide(view, recording)]
            if isinstance(source, EnteredDice):
                source.check_all_used()
            changes += self.ledger.commitments(campaign, changes, getattr(command, "entropy", ""))
            committed = isinstance(source, CommittedDice) and bool(recording.rolled)
            params = {"topic": get_topic(type(command)), "args": converter.unstructure(command)}
            return self.ledger.commit(
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

        return self.ledger.retried(attempt)
