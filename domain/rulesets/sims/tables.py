"""The Sims RPG's tables: the Master Chart (ranks, modifiers, target numbers) and closed sets."""

from __future__ import annotations

import enum

ZEROED = -1  # below Poor: the quality "bottoms out" and the character is out of the scene


class Rank(enum.StrEnum):
    """The five ranks of the Master Chart, lowest first."""

    POOR = "Poor"
    AVERAGE = "Average"
    GOOD = "Good"
    EXPERT = "Expert"
    MASTER = "Master"

    @property
    def level(self) -> int:
        return list(Rank).index(self)

    @property
    def modifier(self) -> int:
        return modifier(self.level)


def modifier(index: int) -> int:
    """Poor -2, Average 0, Good +2, Expert +4, Master +6 (Master Chart)."""
    return 2 * index - 2


def target_number(index: int, *, clamp: bool = False) -> int:
    """Poor 5, Average 7, Good 9, Expert 11, Master 13 (TN = 7 + modifier); off the ladder the
    same line goes on (3 below Poor, 15 above Master) unless clamped to 5..13 (PDQ-A8)."""
    if clamp:
        index = min(max(index, 0), 4)
    return 2 * index + 5


def rank_name(index: int) -> str:
    """The rank at ``index``; below Poor reads 'zeroed', above Master 'Master+N'."""
    if index < 0:
        return "zeroed"
    if index > 4:
        return f"Master+{index - 4}"
    return list(Rank)[index].value


# Characters Improvement: what Master+ and Rebirth ask for and what they bring.
MASTER_PLUS_MASTERS = 3  # Master qualities needed to take Master+
MASTER_PLUS_QUALITIES = 2  # the new qualities Master+ brings, both Good
REBIRTH_MASTERS = 6  # Master qualities needed for Rebirth
REBIRTH_EXTRAS = 4  # the Good qualities Rebirth brings beside a new sheet


def find_rank(text: str) -> Rank | None:
    cleaned = text.strip().lower()
    return next((r for r in Rank if r.value.lower() == cleaned), None)


class Area(enum.StrEnum):
    """Where a quality comes from: the four general areas, Combat, and the later additions."""

    PHYSICAL = "Physical"
    MENTAL = "Mental"
    SOCIAL = "Social"
    PROFESSIONAL = "Professional"
    COMBAT = "Combat"
    MASTER_PLUS = "Master+"
    REBIRTH = "Rebirth"
    EXTRAORDINARY = "Extraordinary"


GENERAL_AREAS = (Area.PHYSICAL, Area.MENTAL, Area.SOCIAL, Area.PROFESSIONAL)
CREATION_AREAS = (*GENERAL_AREAS, Area.COMBAT)


def find_area(text: str) -> Area | None:
    cleaned = text.strip().lower()
    return next((a for a in Area if a.value.lower() == cleaned), None)


class SheetKind(enum.StrEnum):
    PC = "pc"  # a player character
    NPC = "npc"  # a major NPC with a full sheet
    SECONDARY = "secondary"  # a secondary NPC: one Difficulty rank, one rank track


class RankKind(enum.StrEnum):
    """Lost capability: Failure Ranks (usually temporary) or Damage Ranks (more enduring)."""

    FAILURE = "Failure"
    DAMAGE = "Damage"


class Strategy(enum.StrEnum):
    FULL_ATTACK = "full-attack"
    FULL_DEFENSE = "full-defense"


class Danger(enum.StrEnum):
    MOMENTARY = "momentary"
    CONTINUING = "continuing"


class DiceMode(enum.StrEnum):
    TWO_D6 = "2d6"
    THREE_D6 = "3d6"  # a single Master quality upshifted (the only 3d6 roll)
    AUTO_FAIL = "auto-fail"  # the effective rank bottomed out: no roll


class Outcome(enum.StrEnum):
    HIT = "hit"
    TIE = "tie"
    MISS = "miss"
    AUTO_FAIL = "auto-fail"


class ShiftSource(enum.StrEnum):
    FULL_ATTACK = "Full Attack"
    FULL_ATTACK_PENALTY = "Full Attack (defence and other actions)"
    FULL_DEFENSE = "Full Defense"
    FULL_DEFENSE_PENALTY = "Full Defense (other actions and next attack)"
    BADASS = "Being Badass"
    GM_PENALTY = "GM penalty"
    GM_BONUS = "GM bonus"
    SPLIT = "split between targets"


class TieBreak(enum.StrEnum):
    """Who goes first between equal fighting ranks (PDQ-A11: the GM decides)."""

    ROLL_OFF = "roll-off"  # a PC before an NPC, then a 1d6 roll-off (the default reading)
    AS_LISTED = "as-listed"  # the GM's call: in the order the GM listed them


class Lethality(enum.StrEnum):
    DEFAULT = "default"  # kill only a helpless character, by a statement on the next turn
    CHOOSE_AT_START = "choose-at-start"  # attackers may declare killing damage


class OffLadder(enum.StrEnum):
    EXTRAPOLATE = "extrapolate"
    CLAMP = "clamp"
