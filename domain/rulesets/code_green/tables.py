"""Code Green's tables: Form and Function traits (d66), the Profile Grid and the result bands."""

from __future__ import annotations

import enum

from domain.dice import d66_ordinal, is_d66

TOKENS = 3  # each character places three tokens on its grid (Initial Token Placement)


class Form(enum.StrEnum):
    BLOOD = "Blood"
    BONES = "Bones"
    BRAIN = "Brain"
    CLAWS = "Claws"
    EARS = "Ears"
    EYES = "Eyes"
    GUTS = "Guts"
    HANDS = "Hands"
    HEART = "Heart"
    HAIR = "Hair"
    LEGS = "Legs"
    LUNGS = "Lungs"
    NOSE = "Nose"
    SKIN = "Skin"
    TAIL = "Tail"
    TEETH = "Teeth"
    TONGUE = "Tongue"
    WINGS = "Wings"


class Function(enum.StrEnum):
    ACCELERATED = "Accelerated"
    AUTONOMOUS = "Autonomous"
    AUXILIARY = "Auxiliary"
    CRYOGENIC = "Cryogenic"
    CRYPTIC = "Cryptic"
    ELASTIC = "Elastic"
    ELECTRIC = "Electric"
    ENTROPIC = "Entropic"
    INVASIVE = "Invasive"
    INVULNERABLE = "Invulnerable"
    KINETIC = "Kinetic"
    MAGNETIC = "Magnetic"
    PHASING = "Phasing"
    POLYMORPHIC = "Polymorphic"
    PROJECTILE = "Projectile"
    PYROGENIC = "Pyrogenic"
    TELESCOPIC = "Telescopic"
    TOXIC = "Toxic"


class Table(enum.StrEnum):
    FORM = "form"
    FUNCTION = "function"


Trait = Form | Function


def trait_for(table: Table, value: int) -> Trait:
    """The entry a d66 result names; each covers two results (11–12 Blood, 13–14 Bones ...)."""
    entries: list[Trait] = list(Form) if table is Table.FORM else list(Function)
    return entries[d66_ordinal(value) // 2]


def find_trait(table: Table, text: str) -> Trait | None:
    entries: list[Trait] = list(Form) if table is Table.FORM else list(Function)
    return next((t for t in entries if t.value.lower() == text.strip().lower()), None)


class Square(enum.StrEnum):
    """A square of the Profile Grid: row = Form slot, column = Function slot (CG-A2)."""

    R1C1 = "R1C1"
    R1C2 = "R1C2"
    R1C3 = "R1C3"
    R2C1 = "R2C1"
    R2C2 = "R2C2"
    R2C3 = "R2C3"
    R3C1 = "R3C1"
    R3C2 = "R3C2"
    R3C3 = "R3C3"

    @property
    def row(self) -> int:
        return int(self.value[1])

    @property
    def column(self) -> int:
        return int(self.value[3])


def square_at(row: int, column: int) -> Square:
    return Square(f"R{row}C{column}")


def consulted_squares(row: int, column: int) -> tuple[Square, ...]:
    """The row of the Form trait and the column of the Function trait; the crossing counts once."""
    in_row = tuple(square_at(row, c) for c in (1, 2, 3))
    in_column = tuple(square_at(r, column) for r in (1, 2, 3) if r != row)
    return in_row + in_column


class GridLayout(enum.StrEnum):
    """How d66 results map onto the nine squares (the rule text's grid illustration is missing)."""

    CONTIGUOUS = "contiguous"  # CG-A1: four consecutive d66 results a square, row by row
    DIE_PER_AXIS = "die-per-axis"  # rejected alternative B: tens die picks the row, ones the column


def square_for(value: int, layout: GridLayout) -> Square:
    if layout is GridLayout.DIE_PER_AXIS:
        return square_at((value // 10 + 1) // 2, (value % 10 + 1) // 2)
    index = d66_ordinal(value) // 4
    return square_at(index // 3 + 1, index % 3 + 1)


def d66_range(square: Square, layout: GridLayout) -> str:
    """The d66 results that name a square, as a sheet shows them: ``11-14`` when they follow one
    another in d66 order, else each of them (``11,12,21,22``)."""
    values = [v for v in range(11, 67) if is_d66(v) and square_for(v, layout) is square]
    ordinals = [d66_ordinal(v) for v in values]
    if ordinals == list(range(ordinals[0], ordinals[0] + len(ordinals))):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


class Band(enum.StrEnum):
    LESS_THAN_HUMAN = "less than human"
    MOSTLY_HUMAN = "mostly human"
    MORE_THAN_HUMAN = "more than human"


def band_for(result: int | None) -> Band:
    """1–3 less than human (also when nothing was rolled), 4–5 mostly human, 6 more than human."""
    if result is None or result <= 3:
        return Band.LESS_THAN_HUMAN
    return Band.MOSTLY_HUMAN if result <= 5 else Band.MORE_THAN_HUMAN
