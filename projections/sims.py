"""How the Sims RPG's events read in the log and in recaps."""

from __future__ import annotations

from domain.events import PostKind, PostWritten
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.tables import DiceMode, Outcome, rank_name
from projections.describe import describe, faces, said_of_all
from projections.thread import as_post


def _signed(value: int) -> str:
    return f"{value:+d}"


def _use(u: ev.QualityUsed) -> str:
    quality = u.quality or "no applicable quality"
    shown = rank_name(u.current)
    damaged = "" if shown == u.base.value else f" (base {u.base})"
    return f"{u.character}'s {quality} {shown}{damaged} [{_signed(u.modifier)}]"


def _shifts(shifts: tuple[ev.Shift, ...]) -> str:
    parts = []
    for s in shifts:
        word = "upshift" if s.steps > 0 else "downshift"
        count = f" x{abs(s.steps)}" if abs(s.steps) > 1 else ""
        note = f": {s.note}" if s.note and s.source.value != "split between targets" else ""
        parts.append(f"{word}{count} ({s.source}{note})")
    return "; " + ", ".join(parts) if parts else ""


def _roll(r: ev.Roll) -> str:
    used = " + ".join(_use(u) for u in r.qualities)
    effective = f", as {rank_name(r.effective)}" if r.effective is not None and r.shifts else ""
    head = f"{used}{_shifts(r.shifts)}{effective}"
    if r.mode is DiceMode.AUTO_FAIL:
        return f"{head}: bottoms out, automatic failure"
    return f"{head}: {r.mode}{_signed(r.modifier)} {faces(r.dice)} = {r.total}"


# --- Sheets ---------------------------------------------------------------------------------


@describe.register(ev.CharacterCreated)
def _created(event: ev.CharacterCreated) -> str:
    qualities = ", ".join(f"{q.name} {q.rank}" for q in event.qualities)
    sheet = {"pc": "player character", "npc": "NPC", "secondary": "secondary NPC"}[event.kind]
    custom = ", GM sheet" if event.custom and event.kind == "pc" else ""
    extra = ""
    if event.strengths:
        extra += f"; strengths: {', '.join(event.strengths)}"
    if event.weaknesses:
        extra += f"; weaknesses: {', '.join(event.weaknesses)}"
    return f"{event.name} ({sheet}{custom}): {qualities}{extra}"


@describe.register(ev.QualityReplaced)
def _replaced(event: ev.QualityReplaced) -> str:
    return f"replaces {event.old} with {event.new} ({event.area}), same rank, GM approved"


# --- Situations -----------------------------------------------------------------------------


def _task(task: str) -> str:
    return f" ({task})" if task else ""


@describe.register(ev.SimpleSituationResolved)
def _simple(event: ev.SimpleSituationResolved) -> str:
    quality = event.quality or "no applicable quality"
    return (
        f"simple situation{_task(event.task)}: {quality} {rank_name(event.rank)} beats "
        f"{event.difficulty} difficulty, success without a roll"
    )


@describe.register(ev.SituationEscalated)
def _escalated(event: ev.SituationEscalated) -> str:
    quality = event.quality or "no applicable quality"
    return (
        f"situation{_task(event.task)}: {quality} {rank_name(event.rank)} does not beat "
        f"{event.difficulty} difficulty, so it is complicated: roll"
    )


@describe.register(ev.ComplicatedSituationRolled)
def _complicated(event: ev.ComplicatedSituationRolled) -> str:
    verdict = "success" if event.success else "failure"
    return (
        f"complicated{_task(event.task)}: {_roll(event.roll)} vs {event.difficulty} TN "
        f"{event.tn} -> {verdict}"
    )


# --- Conflicts ------------------------------------------------------------------------------


@describe.register(ev.ConflictAttackRolled)
def _attack(event: ev.ConflictAttackRolled) -> str:
    s = event.setup
    split = f" (target {s.target} of {s.targets})" if s.targets > 1 else ""
    again = "rolls again: " if event.reroll else ""
    defense = f"{_use(s.defense)}{_shifts(s.defender_shifts)} TN {s.tn}"
    if event.outcome is Outcome.HIT:
        bonus = f" +{s.bonus_ranks} (Full Attack)" if s.bonus_ranks else ""
        result = f"hit by {event.margin}{bonus}: {event.ranks} {s.kind} Rank(s)"
    elif event.outcome is Outcome.TIE:
        result = "tie: nobody is hurt"
    elif event.outcome is Outcome.MISS:
        result = "miss: no damage"
    else:
        result = "automatic failure"
    return f"{again}attacks {s.defender}{split}: {_roll(event.roll)} vs {defense} -> {result}"


@describe.register(ev.ConflictTied)
def _tied(event: ev.ConflictTied) -> str:
    return f"the attack on {event.setup.defender} tied: it is rolled again before anything else"


@describe.register(ev.DamageRanksInflicted)
def _inflicted(event: ev.DamageRanksInflicted) -> str:
    killing = ", killing damage" if event.killing else ""
    return f"takes {event.ranks} {event.kind} Rank(s) from {event.source}{killing}"


@describe.register(ev.QualityDownshifted)
def _downshifted(event: ev.QualityDownshifted) -> str:
    return (
        f"{event.quality} {rank_name(event.before)} -> {rank_name(event.after)} ({event.kind} Rank)"
    )


@describe.register(ev.CharacterOutOfScene)
def _out(event: ev.CharacterOutOfScene) -> str:
    return f"{event.quality} is below Poor: out of the scene"


@describe.register(ev.RanksDiscarded)
def _discarded(event: ev.RanksDiscarded) -> str:
    return f"{event.count} rank(s) left over are discarded"


@describe.register(ev.CharacterKilled)
def _killed(event: ev.CharacterKilled) -> str:
    return f"killed by {event.by}"


@describe.register(ev.CharacterReturnedToScene)
def _returned(event: ev.CharacterReturnedToScene) -> str:
    return f"{event.quality} is back at Poor: back in the scene"


@describe.register(ev.StrategyDeclared)
def _strategy(event: ev.StrategyDeclared) -> str:
    return f"plays {event.strategy} until its next turn"


@describe.register(ev.StrategyExpired)
def _expired(event: ev.StrategyExpired) -> str:
    return f"{event.strategy} ends"


@describe.register(ev.FullDefensePenaltyConsumed)
def _consumed(event: ev.FullDefensePenaltyConsumed) -> str:
    return "this attack takes the downshift owed for playing Full Defense"


@describe.register(ev.TurnOrderSet)
def _order(event: ev.TurnOrderSet) -> str:
    order = ", ".join(
        f"{s.name} ({s.quality or 'Average'} {rank_name(s.rank)}{_rolled(s)})" for s in event.order
    )
    return f"turn order: {order}"


@said_of_all.register(ev.TurnOrderSet)
def _the_conflict_s(event: ev.TurnOrderSet) -> bool:
    """The order is the conflict's, recorded on each combatant's stream: it reads once."""
    return True


def _rolled(slot: ev.TurnSlot) -> str:
    """The faces a tie was rolled off with (PDQ-A11)."""
    return f", roll-off {', '.join(map(str, slot.roll_off))}" if slot.roll_off else ""


@describe.register(ev.TurnStarted)
def _turn_started(event: ev.TurnStarted) -> str:
    return f"turn {event.number} begins"


@describe.register(ev.TurnEnded)
def _turn_ended(event: ev.TurnEnded) -> str:
    return f"turn {event.number} ends"


# --- Scene end, recovery, improvement -----------------------------------------------------------


@describe.register(ev.DangerDeclared)
def _danger(event: ev.DangerDeclared) -> str:
    return f"is in {event.danger} danger"


@describe.register(ev.SceneWrappedUp)
def _wrapped(event: ev.SceneWrappedUp) -> str:
    return f"the scene is over ({event.danger} danger)"


@describe.register(ev.RanksRecovered)
def _recovered(event: ev.RanksRecovered) -> str:
    what = f"all {event.kind} Ranks" if event.kind else "all lost ranks"
    back = ", ".join(
        f"{r.quality} {rank_name(r.before)} -> {rank_name(r.after)}" for r in event.restored
    )
    return f"{what} come back: {back}"


@describe.register(ev.RecoveryRollAuthorized)
def _authorized(event: ev.RecoveryRollAuthorized) -> str:
    return f"may roll 1d6 for recovery ({event.reason})"


@describe.register(ev.RecoveryRolled)
def _recovery_rolled(event: ev.RecoveryRolled) -> str:
    wasted = f", {event.wasted} more than were lost" if event.wasted else ""
    return f"recovery roll {faces((event.die,))}: {event.restorable} rank(s) back{wasted}"


@describe.register(ev.RankRecovered)
def _rank_recovered(event: ev.RankRecovered) -> str:
    return f"{event.quality} {rank_name(event.before)} -> {rank_name(event.after)} (recovered)"


@describe.register(ev.AdventureCompleted)
def _adventure(event: ev.AdventureCompleted) -> str:
    return f"the adventure {event.adventure!r} is complete"


@describe.register(ev.UpgradeMissionAnnounced)
def _announced(event: ev.UpgradeMissionAnnounced) -> str:
    return f"{event.mission!r} is an Upgrade Mission"


@describe.register(ev.UpgradeGranted)
def _granted(event: ev.UpgradeGranted) -> str:
    return f"earns an upgrade: {event.source}"


@describe.register(ev.QualityUpgraded)
def _upgraded(event: ev.QualityUpgraded) -> str:
    return f"{event.quality} {event.before} -> {event.after} (upgrade)"


@describe.register(ev.MasterPlusTaken)
def _master_plus(event: ev.MasterPlusTaken) -> str:
    return "Master+: new qualities " + ", ".join(f"{q.name} {q.rank}" for q in event.qualities)


@describe.register(ev.CharacterReborn)
def _reborn(event: ev.CharacterReborn) -> str:
    qualities = ", ".join(f"{q.name} {q.rank}" for q in event.qualities)
    return f"Rebirth: a whole new sheet: {qualities}"


# --- Behind the Scenes ----------------------------------------------------------------------


@describe.register(ev.PrivateMessageSent)
def _message(event: ev.PrivateMessageSent) -> str:
    voice = f" as {event.character}" if event.character else ""
    manner = "in character" if event.in_character else "out of character"
    return f"private message from {event.sender}{voice} to {event.to} ({manner}): {event.body}"


@as_post.register(ev.PrivateMessageSent)
def _message_as_post(event: ev.PrivateMessageSent) -> PostWritten:
    """A Behind the Scenes message (before it became `post --to`) reads as a private post."""
    voiced = event.in_character and event.character is not None
    return PostWritten(
        by=event.sender,
        kind=PostKind.CHARACTER if voiced else PostKind.OOC,
        speaker=(event.character or "") if voiced else "",
        to=(event.to,),
        text=event.body,
    )
