"""Who a read is for. Every read of the application API names its audience, and none has a
default: a read that forgot whom it is for would read everything.

- ``Member(name)``: one member of the table, reading as their seat allows (a GM's seat reads
  everything; a player's does not read the GM's hidden rulings nor posts private to others).
- ``GMS``: the GMs at their own keyboard (the CLI without ``--as``): everything.
- ``TABLE``: what every member of the table may read, and so what a place with more readers
  than the one who asked shows (a Discord channel, a webhook, a posted recap, a shared page): no
  hidden ruling before its reveal, no private post, no GM-only line.

A place is read as its audience, not as the member who asked for it: the GM's ``/recap`` in a
Discord channel is read as the table, the GM's signed-in page as the GM."""

from __future__ import annotations

from typing import Final, TypeAlias

from attrs import frozen

from domain.plain import Plain


@frozen
class Member(Plain):
    """One member of the table, by name (their seat decides what they read)."""

    name: str

    def __str__(self) -> str:
        return self.name


@frozen
class GMs(Plain):
    """The GMs at their own keyboard: everything, hidden rulings and GM-only notes too."""

    def __str__(self) -> str:
        return "the GMs"


@frozen
class Table(Plain):
    """What every member of the table may read: public rulings, and hidden ones once revealed."""

    def __str__(self) -> str:
        return "the table"


Audience: TypeAlias = Member | GMs | Table
GMS: Final = GMs()
TABLE: Final = Table()


def of_actor(actor: str | None) -> Audience:
    """The audience of a command line: the member named by ``--as``, else the GMs at the
    keyboard (the store is the GM's)."""
    return GMS if actor is None else Member(actor)


def named(words: str) -> Audience:
    """An audience from its name as typed: ``table``, ``gms``, or a member's name."""
    lowered = words.strip().lower()
    if lowered == "table":
        return TABLE
    if lowered == "gms":
        return GMS
    return Member(words.strip())
