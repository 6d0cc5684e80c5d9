"""Sprawl Goons' refusals. Each names the rule it enforces (rule text section in brackets).

A name already taken, a dead character and an NPC asked to do what only PCs do are refused with
the shared classes of ``domain.errors``, given the section as ``rule``."""

from __future__ import annotations

from domain.errors import DomainError

# --- Characters and items ----------------------------------------------------------------------


class NameRequired(DomainError):
    template = "a character needs a name (Character Creation: name your character)"


class StatPointsMustTotalFour(DomainError):
    template = (
        "distribute exactly 4 points between the stats; these total {total} (Character Creation)"
    )


class NegativeStat(DomainError):
    template = "{stat} is {value}: a stat may be 0 but not below (Character Creation)"


class UnknownStat(DomainError):
    template = "{text!r} is not a stat: morphology, reaction, cognition or equilibrium"


class StartingItemCountMustBeThree(DomainError):
    template = "choose 3 starting items, got {count} (Starting Items)"


class UnknownStartingItem(DomainError):
    template = (
        "{text!r} is not on the starting item list ({known}); another item needs the referee's "
        "approval: --custom CATEGORY:NAME (Starting Items)"
    )


class ItemSpecRequired(DomainError):
    template = "{item} must be specified, e.g. {key}:NAME (Starting Items)"


class UnknownCategory(DomainError):
    template = "{text!r} is not an item kind; use one of: {known}"


class ItemAlreadyHeld(DomainError):
    template = "{name} already carries an item named {item!r}; give this one another name"


class ItemNotOwned(DomainError):
    template = "{name} has no item {item!r} (carries: {carried})"


class ItemUnusable(DomainError):
    template = "{item} is {why} and cannot be used (Special Rules)"


class DuplicateItem(DomainError):
    template = "{item} is listed twice; each relevant item adds its bonus once (The Action Roll)"


class ImplantNeverBulky(DomainError):
    template = (
        "{item} is an implant: implants are interfaced with the body and don't count towards "
        "the Inventory total (Implants/Augmentations)"
    )


class BulkinessUnchanged(DomainError):
    template = "{item} already {counts} towards {name}'s Inventory Score (Inventory)"


class NoUsesLeft(DomainError):
    template = "{item} has no uses left"


class NotConsumable(DomainError):
    template = "{item} has no uses to spend"


class InsufficientCash(DomainError):
    template = "{name} has {cash} cash and cannot spend {amount}"


class InvalidAmount(DomainError):
    template = "{what} must be a whole number of 1 or more, got {value}"


class InvalidModifier(DomainError):
    template = "{text!r} is not a modifier: write SOURCE=+N, e.g. 'ICE-breaker=+2'"


# --- Rolls ---------------------------------------------------------------------------------------


class InvalidDs(DomainError):
    template = (
        "a Difficulty Score is a whole number of 1 or more, or easy 8, moderate 10, challenging "
        "12, hard 14, formidable 16, extreme 18, impossible 20; got {ds!r} (Difficulty Score)"
    )


class DsRequired(DomainError):
    template = "the referee sets the Difficulty Score: give a DS or a target (The Action Roll)"


class WrongTarget(DomainError):
    template = "{name} is a {kind} and cannot be {what}"


class TargetRequired(DomainError):
    template = "{what} needs at least one target"


class CannotTargetSelf(DomainError):
    template = "{name} cannot be their own target"


class MagazineEmpty(DomainError):
    template = "{item}'s magazine is empty: reload before firing (Special Rules)"


class NotARangedWeapon(DomainError):
    template = "{item} is not a ranged weapon with a magazine (Special Rules)"


class OneFireMode(DomainError):
    template = "fire full auto or in bursts, not both in one attack (Special Rules)"


class AimLimitReached(DomainError):
    template = "{name} has aimed at {target} for 3 rounds: aiming gives at most +3 (Special Rules)"


class TooManyTargets(DomainError):
    template = "a shotgun hits up to 3 bunched targets, got {count} (Special Rules)"


class OneTargetOnly(DomainError):
    template = (
        "only a shotgun at range hits several bunched targets (--shotgun range); "
        "got {count} targets (Special Rules)"
    )


class ConsoleRequired(DomainError):
    template = "hacking is done only with an interfaced cyberspace console: {why} (Hacking)"


class SystemAlreadyBreached(DomainError):
    template = "{name} was breached already (Hacking)"


class NotSpeedware(DomainError):
    template = (
        "{item} is not an augmentation or a drug; initiative adds only speedware and "
        "performance drugs (Initiative Roll)"
    )


class NoCombat(DomainError):
    template = "there is no combat round to end: nobody has rolled initiative, is dying or burning"


# --- Damage, injuries, healing ------------------------------------------------------------------


class InvalidDistance(DomainError):
    template = "a fall is a distance in metres above 0, got {metres} (Special Rules: falling)"


class UnknownExplosiveType(DomainError):
    template = (
        "planted explosives do 2d6 to 3d6 by type: give 2 or 3 dice, got {count} (Special Rules)"
    )


class FireRoundsOutOfRange(DomainError):
    template = "fire burns for 1 to 3 rounds, got {rounds} (Special Rules)"


class NotOnFire(DomainError):
    template = "{name} is not on fire"


class NoCriticalInjury(DomainError):
    template = "{name} has no critical injury that {what}"


class NotArmour(DomainError):
    template = "{item} is not armour; only armour can be slagged (Special Rules)"


class ArmourAlreadySlagged(DomainError):
    template = (
        "{item} was slagged already: it is useless and must be replaced; it cannot be repaired "
        "(Special Rules)"
    )


class NotACyberLimb(DomainError):
    template = "{item} is not a cybernetic arm or leg (Special Rules)"


class WrongLimb(DomainError):
    template = "critical injury {injury} struck the {location}, not an {limb} (Body Locations)"


class LimbWorking(DomainError):
    template = "{item} is working; there is nothing to repair"


class RestTooShort(DomainError):
    template = (
        "lost Resilience comes back after 8 hours' rest; {hours} hours is not enough (Healing)"
    )


class AreaNotSafe(DomainError):
    template = "resting restores Resilience only in a safe area (Healing)"


class NoPatchesLeft(DomainError):
    template = "{name} has no Lazarus Patches left (Healing)"


class FirstAidKitRequired(DomainError):
    template = "first aid needs an allied character with a first aid kit: {why} (Healing)"


class HealerMustBeAlly(DomainError):
    template = "first aid is given by an allied character, not by the patient (Healing)"


class PatientUnhurt(DomainError):
    template = (
        "{name} has lost no Resilience ({resilience}/{maximum}): first aid gains an injured PC "
        "2 Resilience Points, and critical injuries cannot be healed this way (Healing)"
    )


class FirstAidAlreadyGiven(DomainError):
    template = (
        "{name} had first aid in this scene already (house rule firstAidLimit="
        "oncePerPatientPerScene)"
    )


class NothingToTreat(DomainError):
    template = "{name} has no untreated critical injury to treat (Healing)"


class NoLevelDue(DomainError):
    template = (
        "{name} has no level to take: a level comes at the end of each mission "
        "(Character Advancement)"
    )


class UnknownSecondary(DomainError):
    template = "a level raises Resilience or Inventory Score: got {text!r} (Character Advancement)"


class NoPlayerCharacters(DomainError):
    template = "no living player character is on the roster to finish the mission"


class DuplicateTarget(DomainError):
    template = "{name} is named twice; name each target once"


class NotACombatant(DomainError):
    template = "{name} is not among the combatants rolling initiative"


class UnknownShotgunRange(DomainError):
    template = "a shotgun fires point-blank, close or at range, not {text!r} (Special Rules)"
