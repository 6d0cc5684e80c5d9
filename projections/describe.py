"""One line of plain text per event: how the log and command output read a ruling.

Rendered from the event alone (no replay), so the log reads the same under any later version.
Events that only mirror another (the helper's side of an assist, the directory entry) read as None.
"""

from __future__ import annotations

import importlib
from functools import singledispatch

from domain.errors import DomainError
from domain.events import (
    CampaignCreated,
    CampaignRegistered,
    ChannelLinked,
    ChannelUnlinked,
    CharacterJoined,
    DiceCommitted,
    DiceRevealed,
    DisputeResolved,
    EntropyAdded,
    Event,
    FreeRollMade,
    MemberAdded,
    MemberLinked,
    MemberRemoved,
    NoteAdded,
    PostKind,
    PostWritten,
    RosterRenamed,
    RulingAmended,
    RulingDisputed,
    RulingMade,
    RulingRetracted,
    RulingRevealed,
    SceneEnded,
    SceneStarted,
    SessionEnded,
    SessionSealed,
    SessionStarted,
)
from domain.rulesets import ruleset_named


def spoken(code: object) -> str:
    """A code (``unopposed-roll``) as a GM would say it (``unopposed roll``)."""
    return str(code).replace("-", " ")


def system_title(system: object) -> str:
    """A system's name as its book writes it (``the-code``: ``The Code``)."""
    try:
        return ruleset_named(str(system)).title
    except DomainError:  # a system this version does not know: its code is all there is
        return str(system)


def plural(count: int, noun: str) -> str:
    """``1 use``, ``2 uses``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def faces(dice: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in dice) + "]"


@singledispatch
def describe(event: Event) -> str | None:
    """The line an event reads as, or None when another event of the ruling already says it.

    A rule system's lines live in ``projections.<system>``, imported on its first event."""
    if _load_lines(event):
        return describe(event)
    return type(event).__name__


@singledispatch
def said_of_all(event: Event) -> bool:
    """Whether ``event`` says one thing of all the streams it is recorded on alike (a
    conflict's turn order, recorded on each combatant's): its line reads once in a ruling,
    said of no one. A system's lines module registers its own (``projections.<system>``)."""
    if _load_lines(event):
        return said_of_all(event)
    return False


def _load_lines(event: Event) -> bool:
    """Import the lines module of the system that defines ``event``'s type, the first time
    one of its events is read (True: it was imported now, so ask again)."""
    parts = type(event).__module__.split(".")
    if parts[:2] == ["domain", "rulesets"] and parts[2] not in _loaded:
        _loaded.add(parts[2])
        importlib.import_module(f"projections.{parts[2]}")
        return True
    return False


_loaded: set[str] = set()


@describe.register(CampaignRegistered)
@describe.register(RosterRenamed)  # the system's rename event on the character says it
@describe.register(RulingMade)
def silent(event: Event) -> None:
    return None


@describe.register(CampaignCreated)
def _created(event: CampaignCreated) -> str:
    rules = ", ".join(f"{r.key}={r.value}" for r in event.house_rules)
    return (
        f"campaign {event.name!r} begins under {event.system}, GM {event.gm} (house rules: {rules})"
    )


@describe.register(CharacterJoined)
def _joined(event: CharacterJoined) -> str:
    return f"{event.name} joins the roster, played by {event.player}"


@describe.register(SessionStarted)
def _session_started(event: SessionStarted) -> str:
    return f"session {event.number} starts"


@describe.register(SessionEnded)
def _session_ended(event: SessionEnded) -> str:
    return f"session {event.number} ends"


@describe.register(SceneStarted)
def _scene_started(event: SceneStarted) -> str:
    return f"scene {event.number}: {event.stage}"


@describe.register(SceneEnded)
def _scene_ended(event: SceneEnded) -> str:
    return f"scene {event.number} ends"


@describe.register(DiceCommitted)
def _committed(event: DiceCommitted) -> str:
    mixed = f", mixed with the players' {event.entropy!r}" if event.entropy else ""
    return f"digital dice committed: seed hash {event.seed_hash}{mixed}"


@describe.register(EntropyAdded)
def _entropy(event: EntropyAdded) -> str:
    return f"{event.by} adds entropy to session {event.session}'s dice: {event.words!r}"


@describe.register(DiceRevealed)
def _revealed(event: DiceRevealed) -> str:
    return f"digital dice seed revealed: {event.seed}"


@describe.register(SessionSealed)
def _sealed(event: SessionSealed) -> str:
    return f"session {event.number} sealed over {len(event.heads)} streams: {event.digest}"


@describe.register(NoteAdded)
def _note(event: NoteAdded) -> str:
    return f"{'GM-only note' if event.gm_only else 'note'}: {event.text}"


@describe.register(FreeRollMade)
def _free_roll(event: FreeRollMade) -> str:
    why = f": {event.why}" if event.why else ""
    return f"free roll {event.expression} {event.breakdown} = {event.total}{why}"


@describe.register(MemberAdded)
def _member_added(event: MemberAdded) -> str:
    plays = f", playing {', '.join(event.names)}" if event.names else ""
    return f"{event.name} joins the table as {event.role}{plays}"


@describe.register(MemberRemoved)
def _member_removed(event: MemberRemoved) -> str:
    return f"{event.name} leaves the table"


@describe.register(ChannelLinked)
def _channel_linked(event: ChannelLinked) -> str:
    played = f"{event.platform.capitalize()} channel {event.channel} plays this campaign"
    return f"{played}; players' rolls there sealed by app key {event.key}" if event.key else played


@describe.register(ChannelUnlinked)
def _channel_unlinked(event: ChannelUnlinked) -> str:
    return f"{event.platform.capitalize()} channel {event.channel} no longer plays this campaign"


@describe.register(MemberLinked)
def _member_linked(event: MemberLinked) -> str:
    return f"{event.name} plays as {event.platform.capitalize()} account {event.user}"


@describe.register(RulingDisputed)
def _disputed(event: RulingDisputed) -> str:
    return f"dispute {event.dispute}: {event.by} disputes ruling {event.ruling}: {event.reason}"


@describe.register(DisputeResolved)
def _resolved(event: DisputeResolved) -> str:
    return f"dispute {event.dispute} over ruling {event.ruling} {event.outcome}: {event.reason}"


@describe.register(RulingRevealed)
def _ruling_revealed(event: RulingRevealed) -> str:
    return f"ruling {event.ruling} revealed to the table"


@describe.register(RulingRetracted)
def _retracted(event: RulingRetracted) -> str:
    return f"ruling {event.ruling} undone: {event.reason}"


@describe.register(RulingAmended)
def _amended(event: RulingAmended) -> str:
    return f"ruling {event.ruling} {event.kind}: {event.reason}"


@describe.register(PostWritten)
def _post(event: PostWritten) -> str:
    from projections.post_text import with_rolls

    who = {
        PostKind.NARRATION: "narration",
        PostKind.CHARACTER: f"{event.speaker} says",
        PostKind.NPC: f"{event.speaker} (NPC) says",
        PostKind.OOC: f"{event.by} (out of character)",
    }[event.kind]
    to = f" to {', '.join(event.to)}" if event.to else ""
    return f"{who}{to}: {with_rolls(event.text, event.rolls)}"
