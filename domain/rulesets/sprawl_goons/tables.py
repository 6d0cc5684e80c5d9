"""Sprawl Goons' tables: stats, difficulty scores, item kinds, the critical injury tables and the
starting item list (rule text sections in brackets)."""

from __future__ import annotations

import enum
import re

from attrs import frozen

from domain.plain import Plain


class Stat(enum.StrEnum):
    MORPHOLOGY = "morphology"
    REACTION = "reaction"
    COGNITION = "cognition"
    EQUILIBRIUM = "equilibrium"

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.value.capitalize()


def find_stat(text: str) -> Stat | None:
    """A stat by name or unambiguous prefix (``morph``, ``r``)."""
    cleaned = text.strip().lower()
    matches = [s for s in Stat if cleaned and s.value.startswith(cleaned)]
    return matches[0] if len(matches) == 1 else None


# Morphology and Reaction rolls suffer encumbrance (Inventory).
ENCUMBERED_STATS = (Stat.MORPHOLOGY, Stat.REACTION)


class Difficulty(enum.IntEnum):
    """Difficulty Score guidelines: any whole number of 1 or more is a valid DS."""

    EASY = 8
    MODERATE = 10
    CHALLENGING = 12
    HARD = 14
    FORMIDABLE = 16
    EXTREME = 18
    IMPOSSIBLE = 20


def difficulty_named(text: str) -> int | None:
    """A DS given as a number (``12``) or a guideline name (``hard``); None if neither."""
    cleaned = text.strip()
    if re.fullmatch(r"-?\d+", cleaned):
        return int(cleaned)
    for level in Difficulty:
        if level.name.lower() == cleaned.lower():
            return int(level)
    return None


class DiceMode(enum.StrEnum):
    NORMAL = "normal"
    GLITCH = "glitch"
    UPGRADE = "upgrade"


class Kind(enum.StrEnum):
    """What a roster entry is: a player character, a non-player character, or a hackable system."""

    PC = "pc"
    NPC = "npc"
    SYSTEM = "system"


class Category(enum.StrEnum):
    MELEE = "melee"
    RANGED = "ranged"
    ARMOUR = "armour"
    IMPLANT = "implant"
    CONSOLE = "console"
    CONSUMABLE = "consumable"
    DRUG = "drug"
    GEAR = "gear"


def find_category(text: str) -> Category | None:
    cleaned = text.strip().lower().replace("armor", "armour")
    return next((c for c in Category if c.value == cleaned), None)


class Condition(enum.StrEnum):
    INTACT = "intact"
    SLAGGED = "slagged"
    BROKEN = "broken"


class Location(enum.StrEnum):
    LEG = "leg"
    TORSO = "torso"
    ARM = "arm"
    HEAD = "head"


LIMBS = (Location.LEG, Location.ARM)


def location_for(die: int) -> Location:
    """Body Locations (d6): 1 leg, 2-4 torso, 5 arm, 6 head."""
    if die == 1:
        return Location.LEG
    if die <= 4:
        return Location.TORSO
    return Location.ARM if die == 5 else Location.HEAD


SEVERITY: dict[int, str] = {
    1: "drop weapons, superficial cuts, wind knocked out, bruised, dazed, knockdown",
    2: "dislocations, shattered or broken weapons, numbed limbs or body parts",
    3: "incapacitated limbs, deep wounds, smashed teeth, broken bones",
    4: "severed arteries, internal bleeding, spine injuries, gouged eyes",
    5: "portion of a limb lost, organs ruptured, bleeding out, artery severed, stunned",
    6: "entire limb lost, body parts hacked in half, shock and blood loss, edge of consciousness",
    7: "eviscerated, flying body parts, arterial spray, death in 1 round",
}
DEADLY_BAND = 7  # "7+ ... death in 1 round"
CRIT_BONUS = 3  # "the next roll on the injury table is rolled with a +3"


def band_for(total: int) -> int:
    return min(total, DEADLY_BAND)


class Purpose(enum.StrEnum):
    GENERAL = "general"
    ATTACK = "attack"
    HACK = "hack"
    FIRST_AID = "first aid"
    GRENADE = "grenade"


class Cause(enum.StrEnum):
    """Why Resilience (or an NPC's DS) went down."""

    HIT = "hit"  # a successful dangerous roll against this character
    FAILED_ROLL = "failed dangerous roll"
    NEURAL = "neural feedback"
    GRENADE = "grenade"
    EXPLOSIVE = "planted explosive"
    FIRE = "fire"
    FALLING = "falling"


class Secondary(enum.StrEnum):
    """What a level raises besides a stat (Character Advancement)."""

    RESILIENCE = "resilience"
    INVENTORY = "inventory"


class ShotgunRange(enum.StrEnum):
    POINT_BLANK = "point-blank"
    CLOSE = "close"
    RANGE = "range"


SHOTGUN_DAMAGE = {ShotgunRange.POINT_BLANK: 3, ShotgunRange.CLOSE: 2, ShotgunRange.RANGE: 0}
MAX_SHOTGUN_TARGETS = 3
FULL_AUTO_BONUS = 4
BURST_BONUS = 2
BURSTS_PER_MAGAZINE = 3
MAX_AIM_ROUNDS = 3
GRENADE_DS = int(Difficulty.MODERATE)
EXPLOSIVE_DICE = (2, 3)  # planted explosives do 2d6 to 3d6 by type
ENCLOSED_GRENADE_DAMAGE = 3
MONOFILAMENT_DAMAGE = 1
MAX_FIRE_ROUNDS = 3
METRES_PER_DAMAGE = 3
REST_HOURS = 8
LAZARUS_HEAL = 3
FIRST_AID_HEAL = 2
FIRST_AID_DS = int(Difficulty.MODERATE)  # the referee's call; Moderate unless they say otherwise
STARTING_RESILIENCE = 12
STARTING_INVENTORY = 10
STAT_POINTS = 4
STARTING_ITEMS = 3
STARTING_CASH_DICE = 3  # "Roll 3d6x10 for starting cash"
STARTING_CASH_PER_PIP = 10


# --- Starting items (examples; others with the referee's approval) -----------------------------


@frozen(kw_only=True)
class Catalogued(Plain):
    """One entry of the starting item list."""

    key: str
    name: str
    category: Category
    needs_spec: bool = False
    uses: int | None = None  # fixed uses (Hyperdex doses)
    uses_dice: int = 0  # uses rolled on acquisition, in d6
    boost: Stat | None = None  # a temporary +1 while in effect


CATALOGUE: tuple[Catalogued, ...] = (
    Catalogued(key="melee", name="Melee Weapon", category=Category.MELEE, needs_spec=True),
    Catalogued(key="ranged", name="Ranged Weapon", category=Category.RANGED, needs_spec=True),
    Catalogued(key="armour", name="Armour", category=Category.ARMOUR, needs_spec=True),
    Catalogued(key="implant", name="Implant", category=Category.IMPLANT, needs_spec=True),
    Catalogued(key="penlight", name="Penlight", category=Category.GEAR),
    Catalogued(key="phone", name="Cheap Sanyo Cell Phone", category=Category.GEAR),
    Catalogued(
        key="console",
        name="Ono-Sendai Cyberspace Console and 'trodes",
        category=Category.CONSOLE,
    ),
    Catalogued(key="toolkit", name="Toolkit", category=Category.GEAR),
    Catalogued(key="goggles", name="IR Goggles", category=Category.GEAR),
    Catalogued(
        key="credit-card", name="Stolen Credit Card", category=Category.CONSUMABLE, uses_dice=2
    ),
    Catalogued(key="vodka", name="Half-bottle of Moskovskaya Vodka", category=Category.GEAR),
    Catalogued(
        key="hyperdex",
        name="Brazilian Hyperdex",
        category=Category.DRUG,
        uses=3,
        boost=Stat.MORPHOLOGY,
    ),
    Catalogued(key="hotel-key", name="Capsule Hotel Key", category=Category.GEAR),
    Catalogued(key="cigarettes", name="Yeheyuan Cigarettes", category=Category.GEAR),
    Catalogued(key="fake-id", name="Fake ID", category=Category.GEAR, needs_spec=True),
    Catalogued(key="handcuffs", name="Handcuffs", category=Category.GEAR),
    Catalogued(key="mirrorshades", name="Mirrorshades", category=Category.GEAR),
    Catalogued(key="drone", name="Palm-sized A/V drone", category=Category.GEAR),
    Catalogued(key="lazarus", name="Lazarus Patches", category=Category.CONSUMABLE, uses_dice=1),
)
CATALOGUE_KEYS = ", ".join(c.key for c in CATALOGUE)


def _normal(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower().replace("armor", "armour")).strip("-")


def catalogued(text: str) -> Catalogued | None:
    """The list entry a pick names: its key (``credit-card``) or part of its name."""
    wanted = _normal(text)
    if not wanted:
        return None
    exact = [c for c in CATALOGUE if c.key == wanted]
    if exact:
        return exact[0]
    partial = [c for c in CATALOGUE if wanted in _normal(c.name)]
    return partial[0] if len(partial) == 1 else None


def limb_of(name: str) -> Location | None:
    """A cybernetic limb is an implant whose name says so (``Cybernetic arm``)."""
    words = set(re.findall(r"[a-z]+", name.lower()))
    if not words & {"cyber", "cybernetic", "cyberarm", "cyberleg"}:
        return None
    if words & {"arm", "cyberarm"}:
        return Location.ARM
    if words & {"leg", "cyberleg"}:
        return Location.LEG
    return None
