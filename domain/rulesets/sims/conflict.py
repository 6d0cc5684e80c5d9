"""Conflicts: attacks against a defender's target number, ties and re-rolls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from attrs import frozen

from domain.commands import Change, View
from domain.dice import DiceSource
from domain.plain import Plain
from domain.rulesets.sims import errors
from domain.rulesets.sims.character import SimsCharacter
from domain.rulesets.sims.checks import check_alive, check_can_act, check_can_be_hit
from domain.rulesets.sims.damage import inflict
from domain.rulesets.sims.events import (
    AttackSetup,
    ConflictAttackRolled,
    ConflictTied,
    FullDefensePenaltyConsumed,
    Roll,
    Shift,
    StrategyDeclared,
)
from domain.rulesets.sims.lookup import (
    character,
    check_table_clear,
    check_turn,
    everyone,
    settings,
    split_ref,
    turn_number,
)
from domain.rulesets.sims.resolution import reroll, roll, use
from domain.rulesets.sims.settings import Settings
from domain.rulesets.sims.situations import gm_shifts, uses_of
from domain.rulesets.sims.tables import (
    DiceMode,
    Lethality,
    OffLadder,
    Outcome,
    RankKind,
    ShiftSource,
    Strategy,
    target_number,
)

# --- Attacks ------------------------------------------------------------------------------------


def resolve(
    attacker: SimsCharacter,
    defender: SimsCharacter,
    setup: AttackSetup,
    rolled: Roll,
    rules: Settings,
    turn: int,
    *,
    again: bool = False,
) -> tuple[list[Change], list[Change]]:
    """The attack's events, and the ties to record once every target is rolled."""
    if rolled.mode is DiceMode.AUTO_FAIL or rolled.total is None:
        outcome, margin = Outcome.AUTO_FAIL, None
    else:
        margin = rolled.total - setup.tn
        outcome = Outcome.HIT if margin > 0 else Outcome.TIE if margin == 0 else Outcome.MISS
    ranks = (margin or 0) + setup.bonus_ranks if outcome is Outcome.HIT else 0
    rolled_event = ConflictAttackRolled(
        setup=setup, roll=rolled, outcome=outcome, margin=margin, ranks=ranks, reroll=again
    )
    changes = [Change(attacker.id, rolled_event)]
    ties: list[Change] = []
    by = (attacker.id, attacker.name)
    if outcome is Outcome.HIT:
        for e in inflict(
            defender,
            ranks,
            setup.kind,
            attacker.name,
            rules=rules,
            turn=turn,
            bonus=setup.bonus_ranks,
            killing=setup.killing,
            by=by,
        ):
            changes.append(Change(defender.id, e))
    elif outcome is Outcome.TIE and rules.tie_muss_up:
        # Both muss each other up a little: one Failure Rank each (house rule, PDQ-X1).
        for one, other in ((defender, attacker), (attacker, defender)):
            for e in inflict(one, 1, RankKind.FAILURE, other.name, rules=rules, turn=turn):
                changes.append(Change(one.id, e))
    elif outcome is Outcome.TIE:
        ties.append(Change(attacker.id, ConflictTied(setup=setup, roll=rolled)))
    return changes, ties


def _defender_shifts(defender: SimsCharacter, reacting: bool) -> tuple[list[Shift], list[Change]]:
    shifts: list[Shift] = []
    changes: list[Change] = []
    if reacting:
        if defender.strategy is not None:
            raise errors.StrategyAlreadyActive(name=defender.name, strategy=defender.strategy)
        changes.append(Change(defender.id, StrategyDeclared(strategy=Strategy.FULL_DEFENSE)))
    if reacting or defender.strategy is Strategy.FULL_DEFENSE:
        shifts.append(Shift(source=ShiftSource.FULL_DEFENSE, steps=1))
    if defender.strategy is Strategy.FULL_ATTACK:
        shifts.append(Shift(source=ShiftSource.FULL_ATTACK_PENALTY, steps=-1))
    return shifts, changes


@frozen(kw_only=True)
class Attack(Plain):
    """Conflict: the attacker rolls against each defender's quality rank as a Difficulty; higher
    than the target number hits for the difference in ranks, equal ties and is rolled again
    (`reroll`)."""

    name: ClassVar[str] = "attack"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    attacker: str
    qualities: tuple[str, ...]
    targets: tuple[str, ...]
    kind: RankKind = RankKind.DAMAGE
    full_attack: bool = False
    full_defense: tuple[str, ...] = ()
    badass: bool = False
    penalties: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()
    killing: bool = False

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        check_table_clear(view)
        a = character(view, self.attacker)
        check_can_act(a)
        check_turn(view, a)
        rules = settings(view)
        if self.killing and rules.lethality is not Lethality.CHOOSE_AT_START:
            raise errors.KillingNotChosen()
        if self.killing and self.kind is RankKind.FAILURE:
            raise errors.NotAPhysicalConflict(what="killing damage dealt as Failure Ranks")
        defenders = self._defenders(view, a)
        reacting = {character(view, who).id for who in self.full_defense}
        for who in reacting - {d.id for d, _ in defenders}:
            raise errors.NotADefender(name=view.campaign.find(str(who)).name)
        uses = uses_of(view, a, self.qualities, self.helpers)
        changes: list[Change] = []
        own: list[Shift] = []
        full_attack = self.full_attack or a.strategy is Strategy.FULL_ATTACK
        if self.full_attack and a.strategy is not Strategy.FULL_ATTACK:
            if a.strategy is not None:
                raise errors.StrategyAlreadyActive(name=a.name, strategy=a.strategy)
            changes.append(Change(a.id, StrategyDeclared(strategy=Strategy.FULL_ATTACK)))
        if full_attack:
            own.append(Shift(source=ShiftSource.FULL_ATTACK, steps=1))
        if a.defense_penalty:
            own.append(Shift(source=ShiftSource.FULL_DEFENSE_PENALTY, steps=-1))
            changes.append(Change(a.id, FullDefensePenaltyConsumed()))
        own += gm_shifts(self.badass, self.penalties)
        if len(defenders) > 1:
            steps = -(len(defenders) - 1)
            own.append(Shift(source=ShiftSource.SPLIT, steps=steps, note=f"{len(defenders)}"))
        turn = turn_number(view)
        ties: list[Change] = []
        for number, (d, quality) in enumerate(defenders, start=1):
            shifts, declared = _defender_shifts(d, d.id in reacting)
            changes += declared
            defense = use(d, quality)
            index = defense.current + sum(s.steps for s in shifts)
            setup = AttackSetup(
                defender_id=d.id,
                defender=d.name,
                target=number,
                targets=len(defenders),
                defense=defense,
                defender_shifts=tuple(shifts),
                tn=target_number(index, clamp=rules.off_ladder_tn is OffLadder.CLAMP),
                kind=self.kind,
                bonus_ranks=1 if full_attack else 0,
                killing=self.killing,
            )
            rolled = roll(dice, uses, tuple(own))
            more, tied = resolve(a, d, setup, rolled, rules, turn)
            changes += more
            ties += tied
        return (*changes, *ties)

    def _defenders(self, view: View, a: SimsCharacter) -> list[tuple[SimsCharacter, str | None]]:
        if not self.targets:
            raise errors.NoTargets()
        found: list[tuple[SimsCharacter, str | None]] = []
        for ref in self.targets:
            who, quality = split_ref(ref)
            d = character(view, who)
            if d.id == a.id:
                raise errors.CannotAttackSelf(name=a.name)
            if any(d.id == other.id for other, _ in found):
                raise errors.DefenderTwice(name=d.name)
            check_can_be_hit(d)
            found.append((d, quality))
        return found


def check_tied(a: SimsCharacter) -> None:
    """A living attacker whose attack tied, to be rolled again (``reroll``)."""
    check_alive(a, "roll again")
    if not a.ties:
        raise errors.NoTieToReroll()


@frozen(kw_only=True)
class Reroll(Plain):
    """Roll a tied attack again, with everything as it was (Example 3 note)."""

    name: ClassVar[str] = "reroll"
    rolls: ClassVar[bool] = True  # its decide may draw dice
    attacker: str | None = None

    def decide(self, view: View, dice: DiceSource) -> Sequence[Change]:
        view.campaign.require_scene()
        if self.attacker is not None:
            a = character(view, self.attacker)
        else:
            tied = [c for c in everyone(view) if c.ties]
            if not tied:
                raise errors.NoTieToReroll()
            a = tied[0]
        check_tied(a)
        tie = a.ties[0]
        d = view.character(tie.setup.defender_id)
        rolled = reroll(dice, tie.roll)
        changes, ties = resolve(
            a, d, tie.setup, rolled, settings(view), turn_number(view), again=True
        )
        return (*changes, *ties)
