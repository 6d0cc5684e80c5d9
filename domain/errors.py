"""The errors a front end answers with: a stable code, a one-line message naming the rule, the
keyword data it was made from, and its kind (what sort of ending it is). A rule's refusal is a
``DomainError``; a fault of the machine under a command (a full disk, a damaged file, a server
gone, a bug) is a ``Fault``. Both are ``CodedError``; ``except DomainError`` catches no fault."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, ClassVar


class ErrorKind(Enum):
    """What an error is, whichever front end answers it: the HTTP status (``web.errors``) and
    the exit code (``cli.errors``) follow from it, never from a list of codes."""

    BAD_INPUT = "bad input"  # the request itself is wrong: a value, a name, a parameter
    REFUSED_BY_RULE = "refused by a rule"  # well formed, but the rules or the state say no
    NOT_ALLOWED = "not allowed"  # the table's policy: not this member's to do
    NOT_SIGNED_IN = "not signed in"  # no credential, or one that no longer holds
    NOT_FOUND = "not found"  # no such campaign, no such address
    TOO_LARGE = "too large"  # more than the program reads at once
    FAULT = "fault"  # the disk, the store, a server: not the request, try again later
    UNEXPECTED = "unexpected"  # a bug


FAULTS = frozenset({ErrorKind.FAULT, ErrorKind.UNEXPECTED})


def _code_for(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


class CodedError(Exception):
    """An ending with a code: ``code`` is derived from the class name (``DestinationMarked`` ->
    ``DESTINATION_MARKED``) and is part of the public contract; ``template`` is formatted with
    the keyword data; ``kind`` is set on the bases and on the few classes that differ."""

    code: ClassVar[str] = "CODED_ERROR"
    template: ClassVar[str] = "the command did not run"
    kind: ClassVar[ErrorKind] = ErrorKind.UNEXPECTED

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" not in cls.__dict__:
            cls.code = _code_for(cls.__name__)

    def __init__(self, **data: Any) -> None:
        self.data = data
        self.reason = self.template.format(**data)
        super().__init__(self.reason)

    @property
    def message(self) -> str:
        """The reason in one line (what every front end shows)."""
        return " ".join(self.reason.split()) or self.code

    def body(self) -> dict[str, Any]:
        """The one error body, ``{"code", "message", "data"}`` (under ``"error"`` on the wire):
        the data as plain JSON. Every value of it is also in the message (a template names
        each key it is given; tests/unit/test_error_kinds.py holds the raises to that)."""
        return {"code": self.code, "message": self.message, "data": _plain(self.data)}

    def as_dict(self) -> dict[str, Any]:
        """The CLI's ``--json`` body: ``body()`` and, deprecated, to be dropped in the
        next release, the same line as ``reason`` (docs/faults.md)."""
        return {**self.body(), "reason": self.reason}


class DomainError(CodedError):
    """A command was refused. Nothing is appended when one is raised. A rule's refusal unless
    its class says otherwise (``kind``); never a fault."""

    code: ClassVar[str] = "DOMAIN_ERROR"
    template: ClassVar[str] = "the command was refused"
    kind: ClassVar[ErrorKind] = ErrorKind.REFUSED_BY_RULE


class Fault(CodedError):
    """The machine failed under a command (the disk, a file, the store, a server): not a rule
    refusing it. The CLI exits 1, the server answers 503; a ruling is still recorded whole or
    not at all."""

    code: ClassVar[str] = "FAULT"
    template: ClassVar[str] = "the command failed: {problem}"
    kind: ClassVar[ErrorKind] = ErrorKind.FAULT


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


class ReplayMismatch(Exception):
    """An event's recorded values disagree with the state it is applied to."""


class HistoryConflict(Exception):
    """An event does not fit the state it is applied to (a broken or reordered history)."""

    def __init__(self, event: object, problem: DomainError | str) -> None:
        self.event = event
        self.problem = problem
        reason = problem.reason if isinstance(problem, DomainError) else problem
        super().__init__(f"{type(event).__name__} cannot apply: {reason}")


# --- Shared refusals -------------------------------------------------------------------------


class UnknownCampaign(DomainError):
    kind = ErrorKind.NOT_FOUND
    template = "no campaign named {name!r} in this store (see `campaign list`)"


class NoCampaignChosen(DomainError):
    template = "no campaign chosen: pass --campaign NAME or run `campaign use NAME`"


class CampaignExists(DomainError):
    template = "a campaign named {name!r} already exists in this store"


class InvalidCampaignName(DomainError):
    template = "campaign names are 1 to 80 printable characters, got {name!r}"


class UnknownSystem(DomainError):
    template = "unknown rule system {system!r}; known systems: {known}"


class UnknownHouseRule(DomainError):
    template = "{system} has no house rule {key!r}; known house rules: {known}"


class InvalidHouseRule(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "house rule {key}={value!r} is invalid: {expected}"


class NameTaken(DomainError):
    """A new character's name is already on the campaign's roster (every system)."""

    template = "{name!r} is already a character's name in this campaign ({rule})"


class CharacterDead(DomainError):
    """A dead character was asked to act or be acted on (every system that kills)."""

    template = "{name} is dead and cannot {what} ({rule})"


class NotAPlayerCharacter(DomainError):
    """Something only player characters do was asked of an NPC."""

    template = "{name} is an NPC: only player characters {what} ({rule})"


class NotAllowed(DomainError):
    kind = ErrorKind.NOT_ALLOWED
    template = "{who} ({role}) may not {what}: {rule} (Members and roles)"


class NotAMember(DomainError):
    kind = ErrorKind.NOT_ALLOWED
    template = (
        "{who!r} is not a member of this campaign's table "
        "(the GM adds members: `campaign member add NAME --role player`)"
    )


class InvalidMemberName(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "member names are 1 to 80 printable characters, got {name!r}"


class MemberExists(DomainError):
    template = "{name!r} is already a member of this campaign ({role})"


class UnknownMember(DomainError):
    template = "{name!r} is not a member of this campaign (members: {known})"


class CannotRemoveGm(DomainError):
    template = "{name} created the campaign and stays its GM (Members and roles)"


class DisputeOfAnotherRuling(DomainError):
    template = "dispute {dispute} is about ruling {ruling}, not ruling {corrected}"


class NotHidden(DomainError):
    template = "ruling {ruling} is not a hidden ruling waiting to be revealed (hidden: {hidden})"


class NoCorrectionGiven(DomainError):
    template = (
        "resolving dispute {dispute} as amended needs the corrected parameters of ruling "
        "{ruling} (--set KEY=VALUE; see `campaign --json log`)"
    )


class UnknownDispute(DomainError):
    template = "no open dispute {dispute} in this campaign (open: {open})"


class AlreadyDisputed(DomainError):
    template = "{by} disputes ruling {ruling} already (dispute {dispute}, still open)"


class UnknownCharacter(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "no character {ref!r} in this campaign (known: {known})"


class NotYetCreated(DomainError):
    template = "{who} did not exist yet after ruling {ruling}"


class AmbiguousCharacter(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{ref!r} names more than one character ({matches}); use the character's name"


class SessionAlreadyActive(DomainError):
    template = "session {number} is still running; end it before starting another"


class NoActiveSession(DomainError):
    template = "no session is running; start one with `campaign session start`"


class SceneAlreadyActive(DomainError):
    template = "scene {number} is still running; end it before starting another"


class SceneNotActive(DomainError):
    template = "no scene is running; play proceeds in scenes: start one with `campaign scene start`"


class SceneStillActive(DomainError):
    template = "scene {number} is still running; end the scene before ending the session"


class EmptyText(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{what} must not be empty"


class TextTooLong(DomainError):
    """A text parameter over ``domain.limits.MAX_TEXT`` (nothing of it is echoed)."""

    kind = ErrorKind.BAD_INPUT
    template = (
        "{parameter} is {length:,} characters; a command's text is at most {limit:,} "
        "characters (see Limits in docs/dice-and-trust.md)"
    )


class CommandTextTooLong(DomainError):
    """A command's texts together over ``domain.limits.MAX_COMMAND_TEXT``."""

    kind = ErrorKind.BAD_INPUT
    template = (
        "the text given to {command} is {length:,} characters in all; a command takes at most "
        "{limit:,} characters of text, every parameter together "
        "(see Limits in docs/dice-and-trust.md)"
    )


# --- Dice ------------------------------------------------------------------------------------


class InvalidDieFace(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "a d{sides} has faces 1 to {sides}; {face} cannot come up"


class UnreadableDice(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "dice are entered as whole numbers separated by commas (e.g. --dice 3,5); got {text!r}"
    )


class NotEnoughDice(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "this roll needs more dice than were entered: {given} given, more needed"


class NoCommittedDice(DomainError):
    template = (
        "session {session} has no committed dice to add entropy to (its seed was revealed, or "
        "it started before commit-reveal); entropy goes in before a session's first digital roll"
    )


class EntropyNotAPlayer(DomainError):
    template = (
        "{by} is {what}: only the players add entropy to a session's dice, after the GM's "
        "machine committed to them (commit-reveal: the GM contributes nothing after committing)"
    )


class EntropySignatureInvalid(DomainError):
    template = (
        "{by}'s entropy is {problem}: a player with a key on their seat signs what they add "
        "(`campaign key sign`, or the dice page), and only what holds is counted"
    )


class EntropySignatureNotCanonical(DomainError):
    template = (
        "{by}'s signature is not written as 128 lowercase hex digits ({problem}): a signature "
        "is its 64 bytes, and only their one canonical text is recorded, since the dice mix the "
        "text (as `campaign key sign` and the dice page print it)"
    )


class EntropyAlreadyCounted(DomainError):
    template = (
        "{by}'s signed entropy is already counted in session {session}: one "
        "counted contribution per player per session, so nobody picks among mixes by adding more"
    )


class InvalidPublicKey(DomainError):
    template = (
        "{key!r} is not an Ed25519 public key (64 lowercase hex digits, as `campaign key new` "
        "and the dice page print it)"
    )


class NoKeyForGm(DomainError):
    template = (
        "{name} is a GM: GMs add no entropy, so their seats take no key (only players' "
        "signed entropy counts)"
    )


class DiceNotFromCommitment(DomainError):
    kind = ErrorKind.NOT_ALLOWED
    template = (
        "{who} is a {role}: in session {session}, whose dice are committed, a player's dice "
        "come from the commitment, not from {given} (a GM may type faces or a seed, and players "
        "their faces in a session started with --physical-dice; verify-dice lists every one)"
    )


class CommittedSecretMissing(DomainError):
    template = (
        "session {session} committed to dice whose secret seed this store does not hold (or no "
        "longer matches its commitment): its digital dice cannot be drawn; roll with --dice, "
        "or end the session (verify will report it revealed no seed)"
    )


class HiddenDiceExhausted(DomainError):
    template = (
        "session {session} has made {leaves} hidden committed rolls, all its commitment holds: "
        "end the session and start another to roll hidden dice again"
    )


class GmEntropyRefused(DomainError):
    template = (
        "words given at `session start` would be the GM's own entropy: the GM contributes "
        "nothing after committing; players add theirs with `campaign entropy`"
    )


class EntropyStillOpen(DomainError):
    template = (
        "session {session}'s committed dice wait for the signed words of every player with a "
        "key ({waiting}): they add them (`campaign entropy`), or the GM closes the window "
        "saying why (`campaign session close-entropy --reason ...`), before the first "
        "committed roll"
    )


class EntropyNotOpen(DomainError):
    template = "session {session}'s entropy window is not open: {why}"


class EntropyWindowClosed(DomainError):
    template = (
        "session {session}'s first committed roll (ruling {ruling}) closed the entropy window: "
        "players add entropy after `session start` and before the first digital roll"
    )


class TooManyDice(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "{given} dice were entered but the roll used only {used}; enter exactly the faces rolled"
    )


# --- Rulings and undo ------------------------------------------------------------------------


class UnknownRuling(DomainError):
    template = "ruling {ruling} is not in this campaign's log"


class NothingToUndo(DomainError):
    template = "there is no ruling left to undo"


class RulingAlreadyRetracted(DomainError):
    template = "ruling {ruling} was already undone by ruling {by}"


class CannotUndo(DomainError):
    template = "ruling {ruling} ({command}) cannot be undone: {why}"


class LaterRulingsDepend(DomainError):
    template = (
        "ruling {ruling} cannot be undone alone: later rulings {dependents} depend on it; "
        "undo them first, pass --with-dependents to undo them together, or --redecide to "
        "decide them again with their own dice"
    )


class CannotAmend(DomainError):
    template = "ruling {ruling} ({command}) cannot be amended: {why}"


class UnknownParameter(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "`{command}` has no parameter {key!r}; its parameters are: {known}"


class InvalidParameter(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "parameter {key}={value!r} is invalid: {expected}"


class AmendmentConflicts(DomainError):
    template = (
        "amending ruling {ruling} changes what later rulings {dependents} stood on; undo them "
        "first, pass --with-dependents to undo them with the amendment, or --redecide to "
        "decide them again with their own dice"
    )


class CannotRedecide(DomainError):
    template = (
        "correcting ruling {ruling} cannot re-decide later ruling {dependent} ({command}) with "
        "its own dice: {why}; undo it too (--with-dependents) or correct it first"
    )


class SealedSessionChanged(DomainError):
    template = (
        "correcting ruling {ruling} would change ruling {dependent} (session end), which sealed "
        "its session and revealed its dice: {why}"
    )


class EntropyStands(DomainError):
    template = (
        "correcting ruling {ruling} would take back ruling {dependent} (entropy), and words "
        "added to a session's committed dice count once recorded, whoever could choose the mix "
        "otherwise ({why}): correct it after the session ends, or start the session again"
    )


class RedecideOrWithDependents(DomainError):
    template = (
        "--redecide and --with-dependents contradict each other: later rulings are either "
        "decided again or undone"
    )


class ConcurrentWrites(DomainError):
    template = "the campaign kept changing under this command ({attempts} attempts); try again"


# --- Files and stored rows written outside this program (import, a newer version's store) ----


class FutureEventVersion(DomainError):
    template = (
        "{where}: {event} is at class_version {stored}, newer than this program reads "
        "({current}); it was written by a newer campaign-log: upgrade to read it"
    )


class ImportLineTooLong(DomainError):
    template = (
        "line {line}: longer than {limit} bytes, the most a line of an export may be; "
        "nothing was imported"
    )


class ImportNestedTooDeep(DomainError):
    template = (
        "line {line}: JSON nested deeper than {limit} levels, the most a line of an export may "
        "be; nothing was imported"
    )


class ImportNotText(DomainError):
    template = (
        "line {line}: not UTF-8 text (a binary file?); an export is JSON lines in UTF-8; "
        "nothing was imported"
    )


class ImportOfMemberCopy(DomainError):
    """A member's own copy of the log (``campaign export --for``): what they may not read is
    withheld, so it is no whole log to rebuild a campaign from."""

    template = (
        "the file is {member}'s own copy of the log, their unread rulings withheld: only a whole "
        "export is imported; nothing was imported"
    )


# --- Chat links: channels and accounts of a chat platform (domain.links) --------------------


class InvalidChatId(DomainError):
    code = "INVALID_DISCORD_ID"  # as first published, when Discord was the one chat platform
    template = "{value!r} is not a {platform} id ({form})"


class InvalidDiscordAppKey(DomainError):
    template = (
        "{value!r} is not a Discord application's public key (64 lower-case hex digits, as the"
        " developer portal shows it under General Information)"
    )


class ChannelLinkedAlready(DomainError):
    template = "channel {channel} plays this campaign already"


class ChannelNotLinked(DomainError):
    template = "channel {channel} does not play this campaign (linked: {linked})"
