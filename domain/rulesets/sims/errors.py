"""The Sims RPG's refusals. Each names the rule it enforces (rule text section in brackets).

The refusals every system shares (``NameTaken``, ``CharacterDead``, ``NotAPlayerCharacter``) are
in ``domain.errors``."""

from __future__ import annotations

from domain.errors import DomainError

# --- Sheets ---------------------------------------------------------------------------------


class UnreadableQuality(DomainError):
    template = (
        "{text!r} is not a quality: write NAME:AREA:RANK, e.g. Cutlass:Combat:Good (Qualities)"
    )


class UnknownArea(DomainError):
    template = "{area!r} is not an area; choose one of: {known} (Qualities)"


class UnknownRank(DomainError):
    template = "{rank!r} is not a rank; choose one of: Poor, Average, Good, Expert, Master (Ranks)"


class WrongQualityCount(DomainError):
    template = "a player character has exactly 10 qualities, got {count} (Qualities)"


class WrongCombatQualityCount(DomainError):
    template = "a player character has exactly two Combat qualities, got {count} (Qualities)"


class WrongArea(DomainError):
    template = (
        "{quality} is in {area}; a new character's qualities are Physical, Mental, Social, "
        "Professional or Combat (Qualities)"
    )


class WrongRankDistribution(DomainError):
    template = (
        "a new character has two Good qualities, one Poor and the rest Average; got {given} "
        "(Ranks; use --custom for a GM-made sheet)"
    )


class DuplicateQualityName(DomainError):
    template = "{quality} is on the sheet twice; every quality has its own name (Qualities)"


class SecondaryNeedsOneRank(DomainError):
    template = "a secondary NPC is one Difficulty rank, got {count} qualities (Recovering, Ex. 8)"


class NoQualities(DomainError):
    template = "a sheet needs at least one quality"


class QualityNotOwned(DomainError):
    template = "{name} has no quality {quality!r}; its qualities are {own}"


class GmApprovalRequired(DomainError):
    template = (
        "replacing a quality needs the GM's approval first (Master Chart note); "
        "record it with --gm-approved"
    )


# --- Acting ---------------------------------------------------------------------------------


class ActorOutOfScene(DomainError):
    template = (
        "{name} is out of the scene and cannot act until no quality is below Poor "
        "(Out of the Scene)"
    )


class TargetOutOfScene(DomainError):
    template = (
        "{name} is out of the scene already; a helpless character can only be killed "
        "(`campaign kill`) (Out for Blood)"
    )


class ContributorOutOfScene(DomainError):
    template = "{name} is out of the scene and cannot join forces (Using Multiple Qualities)"


class AllocationPending(DomainError):
    template = (
        "{name} must first distribute {ranks} {kind} Rank(s) over its qualities "
        "(`campaign allocate`) (Damage)"
    )


class TieRerollPending(DomainError):
    template = (
        "{name}'s attack on {defender} tied: nobody is hurt and the attack is rolled again "
        "before anything else (`campaign reroll`) (Example 3 note)"
    )


class NoTieToReroll(DomainError):
    template = "no attack is tied; only a tied attack is rolled again (Example 3 note)"


class SimpleSituationNoRollNeeded(DomainError):
    template = (
        "the GM ruled {task!r} a simple situation {name} succeeds at without a roll in this "
        "scene; no roll is needed (undo that ruling to roll instead) (Simple Situation)"
    )


class RecoveryChoicePending(DomainError):
    template = (
        "{name} must first choose where its {count} recovered rank(s) go (`campaign restore`)"
    )


class NotYourTurn(DomainError):
    template = "it is {current}'s turn, not {name}'s (Attacker - Defender)"


class CannotAttackSelf(DomainError):
    template = "{name} cannot be its own defender (Attacker - Defender)"


class DefenderTwice(DomainError):
    template = "{name} is named twice; split an attack between different targets (Multiple Targets)"


class NoTargets(DomainError):
    template = "an attack needs at least one defender (Attacker - Defender)"


class KillingNotChosen(DomainError):
    template = (
        "killing damage is chosen at the start of a conflict only under house rule "
        "lethality=choose-at-start (Out for Blood)"
    )


class StrategyAlreadyActive(DomainError):
    template = "{name} plays {strategy} until its next turn already (Conflict Strategies)"


class UnknownStrategy(DomainError):
    template = (
        "{text!r} is not a strategy; choose full-attack or full-defense (Conflict Strategies)"
    )


# --- Damage and recovery ----------------------------------------------------------------------


class NoAllocationPending(DomainError):
    template = "{name} has no Failure or Damage Ranks to distribute (Damage)"


class AllocationCountMismatch(DomainError):
    template = (
        "{name} took {ranks} rank(s); distribute every one of them, or stop at the step that "
        "takes a quality below Poor; got {steps} step(s) (Damage)"
    )


class StepsAfterOutOfScene(DomainError):
    template = (
        "{quality} went below Poor at step {step}: {name} is out of the scene and the remaining "
        "ranks are discarded, so no steps may follow (Out of the Scene)"
    )


class BottomOutLast(DomainError):
    template = (
        "house rule forceBottomOutLast: {quality} may go below Poor only once every other "
        "quality is at Poor"
    )


class NothingToRecover(DomainError):
    template = "{name} has no lost ranks to recover (Recovering from Damage)"


class RecoveryNotAuthorized(DomainError):
    template = (
        "{name} recovers no more ranks until the GM says to roll again "
        "(`campaign authorize-recovery`) (Recovering from Damage, Continuing Danger)"
    )


class RecoveryAlreadyAuthorized(DomainError):
    template = "{name} may roll for recovery already (Recovering from Damage)"


class NoRecoveryPending(DomainError):
    template = "{name} has no recovered ranks to place; roll first (`campaign recover`)"


class RecoveryStepCountMismatch(DomainError):
    template = "{name} has {count} recovered rank(s) to place, got {steps} step(s) (Recovering)"


class AboveBaseRank(DomainError):
    template = (
        "{quality} is back at its {base} rank already; recovery restores lost ranks only "
        "(Recovering from Damage)"
    )


class VictimNotOutOfScene(DomainError):
    template = (
        "{name} is not helpless: only a character out of the scene can be killed (Out for Blood)"
    )


class NotAPhysicalConflict(DomainError):
    template = "{what}: only a physical conflict, fought with Damage Ranks, kills (Out for Blood)"


class KillNotOnNextTurn(DomainError):
    template = (
        "{name} went out during this turn; the kill is a statement on the attacker's next turn "
        "(Out for Blood)"
    )


class SceneHasUnfinishedBusiness(DomainError):
    template = "{name}: {what}; finish it before the scene ends"


# --- Improvement ----------------------------------------------------------------------------


class NoUpgradeAvailable(DomainError):
    template = (
        "{name} has no upgrade to spend: upgrades come from a successful campaign or an "
        "announced Upgrade Mission (Characters Improvement)"
    )


class QualityAlreadyMaster(DomainError):
    template = "{quality} is Master: it cannot be improved further (Characters Improvement)"


class MissionNotAnnounced(DomainError):
    template = (
        "{mission!r} was not announced to {name} in advance as an Upgrade Mission; the GM "
        "announces it before the mission (`campaign mission announce`) (Characters Improvement)"
    )


class MissionAlreadyAnnounced(DomainError):
    template = "{mission!r} is announced for {name} already"


class NotEnoughMasters(DomainError):
    template = "{what} needs Master in at least {required} qualities; {name} has {count} ({rule})"


class HasMasterPlusQualities(DomainError):
    template = "{name} took Master+ qualities; Rebirth is for characters without them (Rebirth)"


class TooManyExtraordinary(DomainError):
    template = "only one of the four Rebirth qualities may be psychic or extraordinary (Rebirth)"


class WrongExtraCount(DomainError):
    template = "{what} brings exactly {required} new qualities, got {count} ({rule})"


class TurnOrderTooShort(DomainError):
    template = "a conflict needs at least two sides; got {count} character(s) (Conflict Situation)"


class NoTurnOrder(DomainError):
    template = "no conflict has a turn order; set one with `campaign turns` (Attacker - Defender)"


class NotADefender(DomainError):
    template = "{name} is not a defender of this attack, so it cannot react with Full Defense"


# --- Behind the Scenes ----------------------------------------------------------------------


class MessageToSelf(DomainError):
    template = "{name} cannot write a private message to themself (Behind the Scenes)"


class ObserverCannotMessage(DomainError):
    template = (
        "{name} is an observer: private messages pass between the GM and the players "
        "(Behind the Scenes)"
    )


class MessageNeedsCharacter(DomainError):
    template = (
        "neither {sender} nor {to} plays a character: a private message is written to or from "
        "a character's player, or as a character (--character NAME) (Behind the Scenes)"
    )


class MessageToOneMember(DomainError):
    template = (
        "a private message is written to one member, not to {names}: write to each in a post "
        "of its own (Behind the Scenes)"
    )
