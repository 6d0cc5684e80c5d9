"""How The Code's events read in the log and in recaps."""

from __future__ import annotations

from domain.rulesets.the_code import events as tc
from domain.rulesets.the_code.tables import STEPS, ContestBy, DieRole
from projections.describe import describe, faces, spoken


def _signed(value: int) -> str:
    return f"{value:+d}"


@describe.register(tc.HeroCreated)
def _created(event: tc.HeroCreated) -> str:
    identity = "public" if event.public_identity else "secret"
    return (
        f"{event.code_name} takes the stage ({identity} identity): {event.profession}; "
        f"Advantages {', '.join(event.advantages)}; Weakness {event.weakness}; "
        f"Objective {event.objective} ({event.objective_score}); MO {event.modus_operandi}; "
        f"Motivation {event.motivation}, Exposure {event.exposure}, "
        f"Popularity {event.popularity}, Reward Points {event.reward_points}"
    )


@describe.register(tc.NpcCreated)
def _npc(event: tc.NpcCreated) -> str:
    traits = [
        f"{what} {value}"
        for what, value in (
            ("Profession", event.profession),
            ("Advantages", ", ".join(event.advantages)),
            ("Weakness", event.weakness),
        )
        if value
    ]
    score = "no Motivation score" if event.motivation is None else f"Motivation {event.motivation}"
    return f"{event.name} enters as an NPC: {'; '.join([*traits, score])}"


@describe.register(tc.DetailRevealed)
def _revealed(event: tc.DetailRevealed) -> str:
    where = f"level {event.level}" if event.level is not None else "off the ladder"
    chosen = f", GM's choice over {spoken(event.suggested)}" if event.gm_override else ""
    detail, cause = spoken(event.detail), spoken(event.cause)
    return f"the public learns the {detail}: {event.value!r} ({where}, {cause}{chosen})"


@describe.register(tc.IdentityMadePublic)
def _identity(event: tc.IdentityMadePublic) -> str:
    return "the secret identity is out: a public identity from now on"


@describe.register(tc.ExposureChanged)
def _exposure(event: tc.ExposureChanged) -> str:
    clamped = "" if event.after - event.before == event.delta else f" ({_signed(event.delta)})"
    peak = f"peak {event.peak_after}"
    return f"Exposure {event.before} -> {event.after}{clamped} ({spoken(event.cause)}; {peak})"


@describe.register(tc.ExposureRolled)
def _exposure_rolled(event: tc.ExposureRolled) -> str:
    mo = " incl. the MO die" if event.mo_die_included else ""
    if not event.dice:
        return "Exposure roll: no dice to roll"
    verdict = f"an even die: +{event.gain}" if event.any_even else "no even die"
    return f"Exposure roll {faces(event.dice)}{mo}: {verdict}"


@describe.register(tc.SessionTakenOff)
def _session_off(event: tc.SessionTakenOff) -> str:
    return "takes the session off" + (" and lies low" if event.reduced else "")


@describe.register(tc.TraitBlabbed)
def _blabbed(event: tc.TraitBlabbed) -> str:
    known = f" (already public: {', '.join(event.already_public)})" if event.already_public else ""
    return f"{event.confidant} blabs the {', '.join(event.details)}{known}"


@describe.register(tc.MoFollowed)
def _mo(event: tc.MoFollowed) -> str:
    return f"follows the MO this session: {event.description}"


@describe.register(tc.WeaknessCameIntoPlay)
def _weakness(event: tc.WeaknessCameIntoPlay) -> str:
    return f"the Weakness comes into play: {event.task}"


@describe.register(tc.ConductRuled)
def _conduct(event: tc.ConductRuled) -> str:
    traits = [t for t, on in (("violent", event.violent), ("secretive", event.secretive)) if on]
    return f"ruled {' and '.join(traits)}" if traits else "ruled neither violent nor secretive"


@describe.register(tc.AbilityStepRuled)
def _step(event: tc.AbilityStepRuled) -> str:
    was = "" if event.previous is None else f", was step {event.previous}"
    return f"{event.task}: step {event.step} on the Ability Sequence ({STEPS[event.step]}{was})"


@describe.register(tc.UnopposedActionResolved)
def _unopposed(event: tc.UnopposedActionResolved) -> str:
    return f"{event.task}: {event.outcome} ({event.reason})"


@describe.register(tc.MotivationRequired)
def _required(event: tc.MotivationRequired) -> str:
    return f"{event.task}: needs Motivation ({event.reason})"


@describe.register(tc.MotivationRolled)
def _motivation_rolled(event: tc.MotivationRolled) -> str:
    verdict = "succeeds" if event.success else "fails"
    return f"{event.task}: Motivation {faces(event.dice)} {verdict}; {event.cost} die(s) above 5"


@describe.register(tc.MotivationSpent)
def _spent(event: tc.MotivationSpent) -> str:
    return f"Motivation {event.before} -> {event.after} ({spoken(event.use)})"


@describe.register(tc.ContestResolved)
def _contest(event: tc.ContestResolved) -> str:
    parts = []
    for side in event.sides:
        bid = f" bid x{side.multiplier}" if side.upfront else ""
        rolled = f" {faces(side.dice)}{bid}" if side.dice else " no dice"
        parts.append(f"{side.name} (step {side.step}){rolled}, pays {side.cost}")
    ties = f"; ties removed {faces(event.ties)}" if event.ties else ""
    result = "stalemate" if event.winner is None else f"{event.winner} wins"
    how = "" if event.by is ContestBy.STALEMATE else f" by {spoken(event.by)}"
    return f"contest, {event.task}: {' vs '.join(parts)}{ties} -> {result}{how}"


@describe.register(tc.DayOffTaken)
def _day_off(event: tc.DayOffTaken) -> str:
    return f"takes {event.days} day(s) off"


@describe.register(tc.MotivationRegained)
def _regained(event: tc.MotivationRegained) -> str:
    return f"Motivation {event.before} -> {event.after} ({spoken(event.cause)})"


@describe.register(tc.ObjectiveAccomplished)
def _accomplished(event: tc.ObjectiveAccomplished) -> str:
    bonus = [b for b, on in (("MO", event.mo_followed), ("Weakness", event.weakness)) if on]
    extra = f" (bonus dice: {', '.join(bonus)})" if bonus else ""
    return f"accomplishes the Objective: {event.objective}{extra}"


@describe.register(tc.ObjectiveRewardRolled)
def _reward_rolled(event: tc.ObjectiveRewardRolled) -> str:
    marks = {DieRole.BASE: "", DieRole.WEAKNESS_BONUS: "w", DieRole.MO_BONUS: "mo"}
    dice = ",".join(f"{d.face}{marks[d.role]}" for d in event.dice)
    return f"reward roll [{dice}] vs {event.threshold}: {event.successes} success(es)"


@describe.register(tc.RewardPointsEarned)
def _earned(event: tc.RewardPointsEarned) -> str:
    return f"Reward Points {event.before} -> {event.after} (+{event.amount})"


@describe.register(tc.RewardPointsSpent)
def _rp_spent(event: tc.RewardPointsSpent) -> str:
    return f"Reward Points {event.before} -> {event.after} (-{event.amount}, {event.purpose})"


@describe.register(tc.CommunityProblemSolved)
def _solved(event: tc.CommunityProblemSolved) -> str:
    return f"solves a {event.scale} community problem: {event.description}"


@describe.register(tc.CommunityProblemRecurred)
def _recurred(event: tc.CommunityProblemRecurred) -> str:
    note = f": {event.note}" if event.note else ""
    return (
        f"the {event.scale} community problem is back: {event.description} "
        f"(solved in session {event.solved_in}){note}"
    )


@describe.register(tc.MotivationPurchaseRolled)
def _purchase(event: tc.MotivationPurchaseRolled) -> str:
    return f"Motivation die {event.die}: {'even' if event.even else 'odd, nothing gained'}"


@describe.register(tc.MaxMotivationIncreased)
def _max_up(event: tc.MaxMotivationIncreased) -> str:
    return f"maximum Motivation {event.before} -> {event.after}"


@describe.register(tc.ObjectiveAltered)
def _altered(event: tc.ObjectiveAltered) -> str:
    return (
        f"Objective {event.old_objective} ({event.old_score}) -> "
        f"{event.new_objective} ({event.new_score})"
    )


@describe.register(tc.MotivationReset)
def _reset(event: tc.MotivationReset) -> str:
    lost = f", {event.bonus_lost} bought point(s) lost" if event.bonus_lost else ""
    return f"Motivation reset to {event.current}/{event.base_max}{lost}"


@describe.register(tc.PopularityRolled)
def _popularity_rolled(event: tc.PopularityRolled) -> str:
    if not event.dice:
        return "Popularity roll: no dice to roll"
    verdict = "an even die" if event.any_even else "no even die"
    return f"Popularity roll {faces(event.dice)}: {verdict} ({_signed(event.delta)})"


@describe.register(tc.PopularityChanged)
def _popularity(event: tc.PopularityChanged) -> str:
    return f"Popularity {event.before} -> {event.after} ({spoken(event.cause)})"


@describe.register(tc.PopularityReactionRolled)
def _reaction_rolled(event: tc.PopularityReactionRolled) -> str:
    verdict = "favourable" if event.favorable else "unfavourable"
    helped = f", helped by {event.justification}" if event.augment else ""
    return f"{event.audience} react: {faces(event.dice)} vs {event.target}{helped}: {verdict}"


@describe.register(tc.ReactionResolved)
def _reaction(event: tc.ReactionResolved) -> str:
    verdict = "favourable" if event.favorable else "unfavourable"
    return f"{event.audience} react: {verdict} ({event.reason})"
