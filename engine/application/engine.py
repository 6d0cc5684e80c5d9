"""The engine: the application API of one store. ``Store`` (``engine.application.core``) opens it
and loads state, ``Reads`` (``engine.application.reads``) reads the log for a front end and
``Reading`` (``engine.application.reading``) keeps where each member stands in it; here are the
writes: each command run as one ruling (load -> decide -> save) through the ``Ledger``, and the
corrections (undo, amend, resolving a dispute). Every method is a use a front end has."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from uuid import UUID

import attrs
from eventsourcing.utils import get_topic

from domain.campaign import CampaignState, Directory, evolve_campaign
from domain.commands import Change, Command
from domain.dice import EnteredDice, Provenance, RecordingDice
from domain.errors import EntropyStillOpen, NoCorrectionGiven
from domain.events import MemberKeyRegistered, MemberRemoved, Outcome, Role
from domain.limits import check_command, check_parameters
from domain.policy import check_allowed, check_ruling
from domain.said import said_text
from domain.visibility import visibility_of
from engine.application.access import Access
from engine.application.actions import Actions
from engine.application.notices import Notices
from engine.application.once import Once
from engine.application.reading import Reading
from engine.application.witnesses import Witnesses
from engine.dice.committed import SEALED, CommittedDice
from engine.dice.sources import DiceSpec
from engine.store.mapper import canonical_json, converter
from engine.store.records import DIRECTORY_ID
from engine.write.assembly import RulingResult
from engine.write.ledger import RulingView, evolve_directory


class Engine(Reading, Notices, Access, Actions, Once, Witnesses):
    """One store of campaigns, its application API. ``db`` is a SQLite file path, a
    ``postgresql://`` URL or ``:memory:``; ``backoff(retry)`` waits between attempts that lost
    a race (tests inject one that does not sleep)."""

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
        """Re-resolve a ruling with corrected parameters and the dice it recorded (``say`` among
        ``changes``: its corrected narration, ``domain.said``). Later rulings that no longer
        stand refuse it, are undone with it (``with_dependents``) or are decided again with
        their own dice (``redecide``). With ``dispute``, it resolves that dispute."""
        from engine.corrections.amend import amend  # amend imports this module's neighbours

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
        from engine.corrections import undo as rulings

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
        if outcome is Outcome.AMENDED and not changes:
            raise NoCorrectionGiven(dispute=dispute, ruling=ruling)
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
        from domain.lifecycle import create_campaign as register_campaign  # for `init` alone

        given = {"name": name, "gm": gm, "house_rules": house_rules or {}, "members": members or {}}
        check_parameters("init", given)

        def attempt() -> RulingResult | None:
            directory = self.streams.load(DIRECTORY_ID, evolve_directory)
            campaign_id = self.ledger.new_id()
            changes = register_campaign(
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

        return self.ledger.retried(DIRECTORY_ID, attempt)

    def seal_text(self, campaign_name: str, command: Command, *, actor: str) -> str:
        """The text ``actor`` signs, on their own client, to seal ``command`` as their next
        sealed roll of the running session (``execute(..., seal=...)`` records it)."""
        from engine.dice.seals import seal_text

        check_command(command)
        campaign = self.campaign(campaign_name)
        check_allowed(campaign, actor, command)
        return seal_text(campaign, actor, command)

    def _committed_at(self, campaign_id: UUID) -> float | None:
        """When the campaign's latest dice commitment was recorded (Unix seconds; None when it
        has none), read from its row: a query of that topic where the store can."""
        from engine.audit.chain import COMMITTED, stored_body
        from engine.audit.rows import StoreRows

        last = None
        for row in StoreRows(self.store.recorder).picked(campaign_id, (COMMITTED,)):
            last = row
        body = stored_body(last) if last is not None else None
        if not body or "at" not in body:
            return None
        return datetime.fromisoformat(str(body["at"])).timestamp()

    def execute(
        self,
        campaign_name: str,
        command: Command,
        *,
        actor: str | None = None,
        dice: DiceSpec | None = None,
        hidden: bool = False,
        say: str = "",
        seal: str = "",
        signed_in: bool = False,
        interaction: str = "",
    ) -> RulingResult:
        """Decide ``command`` against fresh state and record its events as one ruling.
        ``hidden``: a GM's hidden ruling (a secret roll), read by the GMs alone until
        ``reveal``. ``say``: the narration of the ruling ("Tanner vaults the rail"), recorded
        in its header with the command (``domain.said``). ``seal``: the actor's own signature
        of the text ``seal_text`` gives (protocol 3): the roll's dice come from the committed
        seed and the seal, so the GM's machine could not foresee them (``engine.dice.seals``
        refuses a seal that is not the actor's signature of this roll). ``interaction``: with
        ``seal`` Discord's signature of it, what Discord signed of the slash command that asked
        for the roll (its timestamp and raw body): the roll is sealed through Discord
        (``engine.dice.interactions`` checks it), and only when it draws committed dice.
        ``signed_in``: the actor is the member signed in on this front end (the table server's
        page or API, Discord), never set by the CLI: a key a member puts on their own seat so
        is recorded as theirs (``MemberKeyRegistered.signed_in``), and from protocol 4 only such
        a key's signed entropy counts.

        ``actor`` is the member who made the call (default: the campaign's GM); a command the
        table's policy does not let them issue is refused ``NOT_ALLOWED``; one whose text is
        over the limits (``domain.limits``), ``TEXT_TOO_LONG`` or ``COMMAND_TEXT_TOO_LONG``."""
        check_command(command)
        narration = said_text(say)
        spec = dice or DiceSpec()
        campaign_id = self.find_campaign(campaign_name).campaign_id

        def attempt() -> RulingResult | None:
            loaded = self.streams.load(campaign_id, evolve_campaign)
            campaign: CampaignState = loaded.state
            who = actor or campaign.gm
            sealed = None
            if seal:  # the seal's checks (and Ed25519) load only for a sealed roll
                from engine.dice.seals import SealOnHiddenRoll, SealWithGivenDice, check_seal

                if hidden:
                    raise SealOnHiddenRoll()
                if interaction:
                    from engine.dice.interactions import check_interaction_seal

                    if spec.given is not None:
                        raise SealWithGivenDice(given=spec.given)
                    moment = self.ledger.now().timestamp()
                    committed = self._committed_at(campaign_id)
                    sealed = check_interaction_seal(
                        campaign, who, command, seal, interaction, moment, committed
                    )
                else:
                    sealed = check_seal(campaign, who, command, seal, given=spec.given)
            check_ruling(
                campaign, who, command, hidden=hidden, given=spec.given, typed=bool(spec.faces)
            )
            visibility, audience = visibility_of(command, hidden=hidden)
            view = RulingView(self.ledger, loaded, self.ruleset(campaign))
            source = self.ledger.dice_source(
                spec, campaign, roller=who, hidden=hidden, roll_seal=seal
            )
            recording = RecordingDice(source)
            changes = [*command.decide(view, recording)]
            if signed_in:
                changes = [signed_in_key(change, who) for change in changes]
            if isinstance(source, EnteredDice):
                source.check_all_used()
            entropy = getattr(command, "entropy", "")
            changes = self.ledger.with_secrets(campaign, changes, entropy)
            drawn = source if isinstance(source, CommittedDice) and recording.rolled else None
            if drawn is not None and campaign.dice_protocol >= SEALED:
                waiting = campaign.waiting_for_entropy()
                if waiting:
                    raise EntropyStillOpen(session=campaign.session, waiting=", ".join(waiting))
            lane = leaf = None
            if drawn is not None and campaign.dice_protocol >= 2:
                lane, leaf = (who, None) if drawn.leaf is None else (None, drawn.leaf)
            if sealed is not None and interaction and not recording.rolled:
                sealed = None  # offered by Discord, kept only by a roll that draws dice
            if sealed is not None:
                lane = who
            params = {"topic": get_topic(type(command)), "args": converter.unstructure(command)}
            if narration:
                params["say"] = narration
            return self.ledger.commit(
                campaign=campaign,
                campaign_id=campaign_id,
                versions=view.versions,
                states=view.states,
                evolvers={s: self.evolver(campaign, s) for s in view.versions},
                changes=changes,
                command=command.name,
                params=canonical_json(params).decode(),
                actor=who,
                dice=tuple(recording.rolled),
                provenance=Provenance.COMMITTED if drawn else spec.provenance,
                seed=spec.seed,
                counter=drawn.start if drawn else None,
                draws=drawn.draws if drawn else 0,
                lane=lane,
                leaf=leaf,
                visibility=visibility,
                audience=audience,
                roll_seal=seal if sealed is not None else "",
                sealed=sealed,
                interaction=interaction if sealed is not None else "",
            )

        result = self.ledger.retried(campaign_id, attempt)
        for record in result.records:  # an unseated member's sign-ins go with the seat
            if isinstance(record.event, MemberRemoved):
                self.access.revoke(campaign_id, record.event.name)
        return result


def signed_in_key(change: Change, actor: str) -> Change:
    """``change``, with a key ``actor`` put on their own seat marked as put there from their
    own signed-in client; any other change as it is."""
    event = change.event
    if isinstance(event, MemberKeyRegistered) and event.name == actor:
        return attrs.evolve(change, event=attrs.evolve(event, signed_in=True))
    return change
