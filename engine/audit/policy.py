"""Who could make each ruling: the table's policy as it stood then, held to every ruling of a
log by ``verify`` (and by ``import``), with the very checks the engine makes before it records one
(``domain.policy.check_ruling`` for a command, ``check_gm`` for an undo,
``domain.own_words.check_amendment`` for an amendment), on the campaign as it stood before that
ruling: its stream folded up to the header before, with the corrections recorded up to there
(``engine.audit.replay.Folding``). A ruling those checks refuse for the member who made it (a
player's undo, reveal or resolution, a post as another's character, a seat nobody had) is one the
program never records: it is named (``Refusal``), and the log does not verify.

``PolicyWalk`` is handed the campaign stream's records in version order, as they are decoded for
the replay (or, on import, as the lines are read). What it holds is a ruling's records, those
since the last state kept (at most ``CHECKPOINT``: past that they are let go and read again when
a state is wanted), a few states, and the version of each ruling's header (8 bytes a ruling: an
amendment by a player reads the header of the ruling it amends again). The rulings of the
campaign's creator, a GM in every state of the table, pass every check without one (but a
post's ``check_actor``, which asks the state): a log the GM recorded alone is never folded here.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Mapping
from typing import Any
from uuid import UUID

from attrs import frozen

from domain.campaign import CampaignState, evolve_campaign
from domain.dice import Provenance
from domain.errors import DomainError, NotAllowed
from domain.events import (
    AMEND,
    UNDO,
    CampaignCreated,
    DisputeResolved,
    Event,
    HiddenDiceRevealed,
    RulingAmended,
    RulingMade,
    RulingRetracted,
    RulingRevealed,
    Visibility,
)
from domain.own_words import check_amendment
from domain.policy import check_gm, check_ruling
from domain.said import SAY
from domain.table import RevealRuling, UpholdRuling
from engine.audit import replay
from engine.audit.chain import why
from engine.audit.report import Finding
from engine.audit.rows import Rows
from engine.audit.rulings import LARGEST
from engine.dice.sources import DiceSpec
from engine.store.event_classes import command_classes
from engine.store.mapper import converter
from engine.store.records import Recorded

INIT = "init"
# The events only corrections write, and the verbs that write them (on the campaign stream, where
# every undo, amendment, resolution and reveal writes): one elsewhere is no ruling of the program's.
WRITTEN_BY: dict[type[Event], frozenset[str]] = {
    RulingRetracted: frozenset({UNDO, AMEND}),
    RulingAmended: frozenset({UNDO, AMEND}),
    DisputeResolved: frozenset({UpholdRuling.name, UNDO, AMEND}),
    RulingRevealed: frozenset({RevealRuling.name}),
    HiddenDiceRevealed: frozenset({RevealRuling.name}),
}
NAMED = 50  # refusals named one by one; past that, how many more
COMMANDS = 256  # recorded commands kept read, by their parameters
_UNREAD: Any = object()
KIND = "policy"  # the findings' kind


class _Unfolded(Exception):
    """The campaign does not fold (or its rows do not read) up to a ruling: the walk stops."""


@frozen
class Refusal:
    """A ruling the engine would have refused its actor: where its header stands, the verb, the
    member, and the refusal (its code and the rule, in one line)."""

    ruling: int
    version: int
    command: str
    actor: str
    code: str
    reason: str

    def finding(self, stream: UUID) -> Finding:
        code = f" ({self.code})" if self.code else ""
        problem = (
            f"ruling {self.ruling} ({self.command}, by {self.actor}) is one the program never "
            f"records: {self.reason}{code}"
        )
        return Finding(KIND, problem, stream, self.version, self.ruling)


class PolicyWalk:
    """The campaign stream's records, in version order (``record``); ``refusals`` once read."""

    def __init__(self, campaign_id: UUID, rows: Rows, decode: Callable[[Any], Any]) -> None:
        self.campaign_id = campaign_id
        self.rows = rows
        self.decode = decode
        self.folding = replay.Folding(
            replay.strict(evolve_campaign), campaign_id, rows, decode, place=self._place
        )
        self.headers = array("q")  # ruling n's header version at n - 1, while numbered 1, 2...
        self.pending: list[Recorded] = []  # the records of the ruling being read
        self.last = 0  # the version of the last header read
        self.held = True  # the folding's chunk holds every record since its last state
        self.gm: str | None = None  # the campaign's creator
        self.classes: Mapping[str, type[Any]] = {}  # the commands of its system, by topic
        self.acting: frozenset[str] = frozenset()  # verbs whose commands check who acts
        self.commands: dict[str, Any] = {}  # recorded commands read, by their parameters
        self.found: list[Refusal] = []
        self.more = 0
        self.stopped = False  # the stream no longer folds (the replay names why)

    def record(self, record: Recorded) -> None:
        if self.stopped:
            return
        event = record.event
        if not isinstance(event, RulingMade):
            if isinstance(event, CampaignCreated) and self.gm is None:
                self.gm = event.gm
                try:
                    self.classes = command_classes(event.system)
                except (KeyError, ModuleNotFoundError):  # no system of this program's
                    self.stopped = True
                    return
                self.acting = frozenset(
                    c.name for c in self.classes.values() if hasattr(c, "check_actor")
                )
            self.pending.append(record)
            if len(self.pending) > LARGEST:  # more than a ruling writes: the ledger names it
                self.stopped = True
            return
        try:
            self._check(record, event)
        except _Unfolded:  # the history does not fold or read there: the replay names where
            self.stopped = True
            return
        version = record.originator_version
        if not 0 <= version < 2**63:  # past what a stored version holds: the ledger names it
            self.stopped = True
            return
        if event.number == len(self.headers) + 1:
            self.headers.append(version)
        chunk = self.folding.chunk
        if self.held:
            chunk += self.pending
            chunk.append(record)
            if len(chunk) >= replay.CHECKPOINT:  # read again when a state is wanted
                chunk.clear()
                self.held = False
        self.pending = []
        self.last = version

    def refusals(self) -> list[Refusal]:
        return self.found

    def findings(self) -> list[Finding]:
        found = [refusal.finding(self.campaign_id) for refusal in self.found]
        if self.more:
            problem = f"and {self.more} more rulings the program refuses their actors"
            found.append(Finding(KIND, problem, self.campaign_id))
        return found

    # --- Checking one ruling ----------------------------------------------------------------

    def _check(self, record: Recorded, made: RulingMade) -> None:
        actor = record.actor
        if self.last == 0:  # the campaign's creation: recorded by its GM
            if made.command == INIT and actor != self.gm:
                reason = f"a campaign is created by its GM ({self.gm}), as its first ruling"
                self._refused(record, made, NotAllowed.code, reason)
            return
        written = {type(r.event) for r in self.pending} & WRITTEN_BY.keys()
        if actor == self.gm and not written and made.command not in self.acting:
            return  # a GM in every state: every check lets them through
        command: Any = None
        if made.command not in (UNDO, AMEND):
            command = self._recorded(made)
            if command is None:
                reason = "its recorded command does not read: nobody could have made it"
                self._refused(record, made, "", reason)
                return
        verb = command.name if command is not None else made.command
        for kind in sorted(written, key=lambda k: k.__name__):
            if verb not in WRITTEN_BY[kind]:
                makers = " and ".join(sorted(WRITTEN_BY[kind]))
                reason = f"it records a {kind.__name__}, which only {makers} record"
                self._refused(record, made, "", reason)
        if actor == self.gm and made.command not in self.acting:
            return
        try:
            state = self._state()
        except Exception as error:
            raise _Unfolded from error
        try:
            if made.command == UNDO:
                check_gm(state, actor, UNDO)
            elif made.command == AMEND:
                self._amendment(state, actor, json.loads(made.params))
            else:
                self._command(state, actor, made, command)
        except DomainError as refused:
            self._refused(record, made, refused.code, refused.message)
        except Exception as error:  # whatever a forged header holds that no check expected
            reason = f"who could make it cannot be checked ({why(error)})"
            self._refused(record, made, "", reason)

    def _recorded(self, made: RulingMade) -> Any:
        """The command a ruling's header recorded (None: one that does not read, or that is no
        command of the campaign's system); the same parameters read once while they repeat (a
        player's same roll: a command is a frozen value)."""
        known = self.commands.get(made.params, _UNREAD)
        if known is not _UNREAD:
            return known
        try:
            params = json.loads(made.params)
            cls = self.classes.get(params["topic"])
            command = None if cls is None else converter.structure(params["args"], cls)
        except Exception:  # whatever a forged header holds
            command = None
        if len(self.commands) >= COMMANDS:
            self.commands.clear()
        self.commands[made.params] = command
        return command

    def _command(self, state: CampaignState, actor: str, made: RulingMade, command: Any) -> None:
        """``check_ruling`` as the engine ran it: hidden when the GMs alone read it and the
        command did not ask for that itself (a GM-only note), with the dice the header says were
        given instead of drawn (faces typed, a seed)."""
        typed = made.provenance is Provenance.PHYSICAL and bool(made.dice)
        faces = tuple(die.face for die in made.dice) if typed else None
        given = DiceSpec(faces=faces, seed=None if typed else made.seed).given
        gm_only = getattr(command, "gm_only", False) is True
        hidden = made.visibility is Visibility.GM and not gm_only
        check_ruling(state, actor, command, hidden=hidden, given=given, typed=typed)

    def _amendment(self, state: CampaignState, actor: str, params: dict[str, Any]) -> None:
        """``check_amendment``, from what the amendment's header recorded and the header of the
        ruling it amends (read again)."""
        changes = dict(params.get("changed") or {})
        if SAY in params:
            changes[SAY] = params[SAY]
        number = params["ruling"]
        target = self._header(number) if type(number) is int else None
        made = target.event if target is not None else None
        args: Any = {}
        if isinstance(made, RulingMade) and made.command not in (UNDO, AMEND):
            args = json.loads(made.params).get("args", {})
        check_amendment(
            state,
            actor,
            changes,
            ruling=number,
            command=made.command if isinstance(made, RulingMade) else "",
            args=args if isinstance(args, dict) else {},
            author=target.actor if target is not None else "",
            new_dice=int(params.get("new_dice", 0)),
            resolves=params.get("dispute") is not None,
        )

    def _refused(self, record: Recorded, made: RulingMade, code: str, reason: str) -> None:
        if len(self.found) >= NAMED:
            self.more += 1
            return
        refusal = Refusal(
            made.number, record.originator_version, made.command, record.actor, code, reason
        )
        self.found.append(refusal)

    # --- The campaign before the ruling -----------------------------------------------------

    def _state(self) -> CampaignState:
        """The campaign as recorded up to the last header read: what the ruling after it was
        decided on."""
        folding = self.folding
        if self.held and not folding.chunk and folding.points[-1] == self.last:
            state: CampaignState = folding.states[-1]
            return state
        state = folding.close(self.last, held=self.held)
        self.held = True
        return state

    def _place(self, ruling: int) -> int | None:
        """Where the first record of a ruling after ``ruling`` stands: after its header."""
        if 0 < ruling <= len(self.headers):
            return int(self.headers[ruling - 1]) + 1
        return None

    def _header(self, number: int) -> Recorded | None:
        """Ruling ``number``'s header, read again (None: none was read)."""
        if not 0 < number <= len(self.headers):
            return None
        version = int(self.headers[number - 1])
        for page in self.rows.pages(self.campaign_id, version - 1):
            found: Recorded = self.decode(page[0])
            return found if found.originator_version == version else None
        return None
