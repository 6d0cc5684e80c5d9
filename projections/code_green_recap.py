"""What a Code Green event is in a recap: its highlights (it moves no score the recap counts)."""

from __future__ import annotations

from domain.events import Event
from domain.rulesets.code_green import events as cg

HIGHLIGHTS: dict[type[Event], str] = {
    cg.Incapacitated: "incapacitated",
    cg.Recovered: "recovered",
}
