"""How Code Green's events read in the log and in recaps."""

from __future__ import annotations

from domain.dice import PoolMode
from domain.rulesets.code_green import events as cg
from projections.describe import describe, faces, plural

# --- Code Green ------------------------------------------------------------------------------


@describe.register(cg.TraitRolled)
def _trait_rolled(event: cg.TraitRolled) -> str:
    how = "flipped to" if event.flipped else "d66"
    verdict = "duplicate, discarded" if event.discarded else "kept"
    return f"{event.table} {how} {event.d66} -> {event.trait} ({verdict})"


@describe.register(cg.NameRolled)
def _name_rolled(event: cg.NameRolled) -> str:
    return f"name dice {faces(event.dice)} -> {event.name}"


@describe.register(cg.CharacterCreated)
def _cg_created(event: cg.CharacterCreated) -> str:
    form = ", ".join(event.form)
    function = ", ".join(event.function)
    return f"{event.name} is born: Form {form}; Function {function}"


@describe.register(cg.CharacterRenamed)
def _renamed(event: cg.CharacterRenamed) -> str:
    return f"{event.previous} takes a new name: {event.name}"


@describe.register(cg.TokenPlaced)
def _placed(event: cg.TokenPlaced) -> str:
    if not event.rolled:
        return f"token on {event.square}"
    tried = " -> ".join(str(v) for v in event.attempts)
    how = ", flipped" if event.flipped else ""
    return f"token rolled onto {event.square} (d66 {tried}{how})"


@describe.register(cg.InitialTokensPlaced)
def _all_placed(event: cg.InitialTokensPlaced) -> str:
    return f"tokens on {', '.join(event.squares)}"


@describe.register(cg.TestDeclared)
def _declared(event: cg.TestDeclared) -> str:
    if event.form is None:
        return f"test {event.test} with no applicable pair of traits"
    squares = ", ".join(event.consulted)
    return (
        f"test {event.test}: {event.function} {event.form}, "
        f"{plural(event.own_tokens, 'own token')} among the squares {squares}"
    )


@describe.register(cg.AssistanceReceived)
def _assist(event: cg.AssistanceReceived) -> str:
    return (
        f"{event.helper_name} assists with {event.function} {event.form} "
        f"({event.square}): {event.justification}"
    )


@describe.register(cg.AssistanceRejected)
def _rejected(event: cg.AssistanceRejected) -> str:
    return (
        f"the GM rules {event.helper_name}'s {event.function} {event.form} ({event.square}) "
        f"not applicable to test {event.test}; its die is taken back: {event.reason}"
    )


@describe.register(cg.AssistanceGiven)
def _assisting(event: cg.AssistanceGiven) -> str:
    return f"hands one die to {event.tester_name}'s test {event.test}"


@describe.register(cg.TestRolled)
def _test_rolled(event: cg.TestRolled) -> str:
    if event.mode is PoolMode.NO_ROLL:
        return f"test {event.test}: nothing to roll -> {event.band}"
    read = f"{faces(event.dice)} -> {event.result}: {event.band}"
    if event.mode is PoolMode.LOWEST_OF_TWO:
        return f"test {event.test}: pool {event.pool}, lowest of two {read}"
    return f"test {event.test}: pool {event.pool} {read}"


@describe.register(cg.StrainRolled)
def _strain_rolled(event: cg.StrainRolled) -> str:
    cause = f"test {event.test}" if event.test is not None else "the surroundings"
    return f"strain from {cause}: d66 {event.d66} -> {event.square}"


@describe.register(cg.StrainSuffered)
def _strained(event: cg.StrainSuffered) -> str:
    return f"{event.square} marked with strain ({event.marks} marked)"


@describe.register(cg.TokenDisplaced)
def _displaced(event: cg.TokenDisplaced) -> str:
    return f"token pushed from {event.source} to {event.destination}"


@describe.register(cg.TokenRemoved)
def _removed(event: cg.TokenRemoved) -> str:
    return f"token on {event.square} removed: fewer than three unmarked squares remain"


@describe.register(cg.Incapacitated)
def _incapacitated(event: cg.Incapacitated) -> str:
    return f"{event.square} was marked already: incapacitated"


@describe.register(cg.Adapted)
def _adapted(event: cg.Adapted) -> str:
    return f"adapts after test {event.test}: token {event.source} -> {event.destination}"


@describe.register(cg.AdaptationImpossible)
def _stuck(event: cg.AdaptationImpossible) -> str:
    return f"cannot adapt after test {event.test}: {event.reason}"


@describe.register(cg.StrainMarksCleared)
def _cleared(event: cg.StrainMarksCleared) -> str:
    return f"strain marks cleared from {', '.join(event.squares)}"


@describe.register(cg.TokensReturned)
def _returned(event: cg.TokensReturned) -> str:
    return "tokens back in hand"


@describe.register(cg.Recovered)
def _recovered(event: cg.Recovered) -> str:
    return f"recovers ({event.reason})"
