"""The Code's character sheet: the text `character show` prints, the one-line status and the
values the JSON sheet adds to the character's fields (a hero's, or an NPC's)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.the_code.character import TcHero
from domain.rulesets.the_code.tables import STEPS


def _motivation(h: TcHero) -> str:
    if not h.has_motivation:
        return "no Motivation score"
    bought = f" ({h.bonus_max} bought)" if h.bonus_max else ""
    return f"Motivation {h.motivation}/{h.max_motivation}{bought}"


def status(h: TcHero) -> str:
    """One line: the scores that move in play."""
    if h.npc:
        return f"NPC, {_motivation(h)}"
    return (
        f"Motivation {h.motivation}/{h.max_motivation}, Reward Points {h.reward_points}, "
        f"Exposure {h.exposure} (peak {h.peak}), Popularity {h.popularity}"
    )


def _steps(h: TcHero) -> list[str]:
    if not h.steps:
        return []
    lines = ["  Ability steps ruled:"]
    lines += [f"    {s.task}: step {s.step} ({STEPS[s.step]})" for s in h.steps]
    return lines


def _npc_text(h: TcHero) -> str:
    traits = [
        f"{what}: {value}"
        for what, value in (
            ("Profession", h.profession),
            ("Advantages", ", ".join(h.advantages)),
            ("Weakness", h.weakness),
        )
        if value
    ]
    lines = [f"{h.name} (NPC)"]
    if traits:
        lines.append("  " + "; ".join(traits))
    lines.append(f"  {_motivation(h)}")
    return "\n".join([*lines, *_steps(h)])


def sheet_text(h: TcHero) -> str:
    """The sheet as `character show` prints it: a hero's details, scores, Ability steps,
    problems solved and what the public knows; an NPC's traits, Motivation and steps."""
    if h.npc:
        return _npc_text(h)
    identity = "public" if h.public_identity else "secret"
    conduct = [t for t, on in (("violent", h.violent), ("secretive", h.secretive)) if on]
    lines = [
        f"{h.name} (played by {h.player}); {identity} identity: {h.secret_identity}",
        f"  Profession: {h.profession}; Advantages: {', '.join(h.advantages)}",
        f"  Weakness: {h.weakness}; MO: {h.modus_operandi}",
        f"  Objective: {h.objective} ({h.objective_score})"
        + (f"; ruled {' and '.join(conduct)}" if conduct else ""),
        f"  {_motivation(h)}",
        f"  Reward Points {h.reward_points}",
        f"  Exposure {h.exposure} (peak {h.peak})",
        f"  Popularity {h.popularity}",
    ]
    if h.pending_task:
        lines.append(f"  Waiting for a Motivation roll: {h.pending_task}")
    lines += _steps(h)
    if h.problems:
        lines.append("  Community problems solved:")
        for p in h.problems:
            back = "; it came back" if p.recurred else ""
            lines.append(f"    {p.description} ({p.scale}, session {p.session}{back})")
    if not h.revealed:
        lines.append("  The public knows no details" + (" of this hero" if h.peak else ""))
    else:
        lines.append("  The public knows:")
        for r in h.revealed:
            level = f"level {r.level}" if r.level is not None else "off the ladder"
            when = f"session {r.session}" if r.session is not None else "before play"
            lines.append(f"    {r.detail}: {r.value!r} ({level}, {r.cause}, {when})")
    return "\n".join(lines)


def sheet_extras(h: TcHero) -> dict[str, Any]:
    """Derived values the JSON sheet adds to the character's own fields."""
    return {"max_motivation": h.max_motivation}
