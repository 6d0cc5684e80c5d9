"""The dice an amendment draws: those its ruling never rolled.

An amendment decides its ruling again with the dice that ruling recorded, in order
(``ReplayedDice``); a die past them (or of another size) is drawn anew. In a session whose dice
are committed (protocol 2 on) it is drawn exactly as a new roll's would be (``Ledger.dice_source``):
from the committed seed, in the lane of the member who made the amended ruling, at that lane's
next counter; for a hidden ruling not revealed yet, from the session's next hidden key. The
amendment's header names those counters (``counter``, ``draws``, ``lane`` or ``leaf``), so
``verify``, ``verify-dice`` and the dice page check its new dice as they check any committed
roll, and the lane moves on as for a roll. Nothing is drawn from the operating system there.
Elsewhere (outside a session, a session of protocol 1, or ``--dice``/``--seed`` given) they come
from what was given or the operating system's randomness, as before.

Each amendment that draws dice re-draws its ruling's: its parameters count the re-draws so far
(``redraws``, this one included), and the checks list the re-draws of each ruling with their
count.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from attrs import define, field

from domain.campaign import CampaignState
from domain.dice import DiceSource, Die, Provenance
from domain.events import AMEND, RulingMade
from engine.dice.committed import CommittedDice
from engine.dice.sources import DiceSpec

if TYPE_CHECKING:
    from engine.write.ledger import Ledger


@define
class ReplayedDice:
    """The dice a ruling recorded, in order; past them (or at a die of another size) new ones."""

    recorded: tuple[Die, ...]
    fresh: DiceSource
    used: list[Die] = field(factory=list)
    new: int = 0

    def roll(self, sides: int) -> int:
        position = len(self.used) - self.new
        if (
            self.new == 0
            and position < len(self.recorded)
            and self.recorded[position].sides == sides
        ):
            die = self.recorded[position]
        else:
            self.new += 1
            die = Die(sides=sides, face=self.fresh.roll(sides))
        self.used.append(die)
        return die.face


def amendment_source(
    ledger: Ledger, spec: DiceSpec, campaign: CampaignState, target: RulingMade, roller: str
) -> DiceSource:
    """Where an amendment of ``target`` (made by ``roller``) draws a die ``target`` never rolled:
    as a new roll of ``roller``'s would draw it now (hidden while ``target`` is), except in a
    running session of protocol 1, whose amendments keep drawing from ``spec`` as they did."""
    given = spec.faces is not None or spec.seed is not None
    if not given and campaign.session and campaign.commitment and campaign.dice_protocol < 2:
        return spec.fresh()
    hidden = target.number in campaign.hidden - campaign.revealed
    return ledger.dice_source(spec, campaign, roller=roller, hidden=hidden)


def header_dice(
    source: DiceSource, spec: DiceSpec, replayed: ReplayedDice, target: RulingMade, roller: str
) -> dict[str, Any]:
    """What the amendment's header records of where its dice came from: the amended ruling's
    provenance when it drew none; the counters it drew from the commitment; else ``spec``'s."""
    if not replayed.new:
        return {"provenance": target.provenance, "seed": target.seed}
    if isinstance(source, CommittedDice):
        hidden = source.leaf is not None
        return {
            "provenance": Provenance.COMMITTED,
            "seed": None,
            "counter": source.start,
            "draws": source.draws,
            "lane": None if hidden else roller,
            "leaf": source.leaf,
        }
    return {"provenance": spec.provenance, "seed": spec.seed}


def redraws_before(made: Iterable[RulingMade], target: int) -> int:
    """How many amendments among ``made`` drew dice for ruling ``target``."""
    return sum(1 for m in made if redrawn_ruling(m) == target)


def redrawn_ruling(made: RulingMade) -> int | None:
    """The ruling whose dice the amendment ``made`` re-drew (None: no amendment, or one that
    drew no die)."""
    if made.command != AMEND:
        return None
    params = json.loads(made.params)
    return int(params["ruling"]) if params.get("new_dice") else None
