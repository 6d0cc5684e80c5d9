"""The Code's hero sheet: the text `character show` prints, the one-line status, and the values
the JSON sheet adds to the hero's fields."""

from __future__ import annotations

from typing import Any

from domain.rulesets.the_code.character import TcHero


def status(h: TcHero) -> str:
    """One line: the scores that move in play."""
    return (
        f"Motivation {h.motivation}/{h.max_motivation}, Reward Points {h.reward_points}, "
        f"Exposure {h.exposure} (peak {h.peak}), Popularity {h.popularity}"
    )


def sheet_text(h: TcHero) -> str:
    """The hero sheet as `character show` prints it: the details, the scores, what the public
    knows."""
    identity = "public" if h.public_identity else "secret"
    conduct = [t for t, on in (("violent", h.violent), ("secretive", h.secretive)) if on]
    lines = [
        f"{h.name} (played by {h.player}); {identity} identity: {h.secret_identity}",
        f"  Profession: {h.profession}; Advantages: {', '.join(h.advantages)}",
        f"  Weakness: {h.weakness}; MO: {h.modus_operandi}",
        f"  Objective: {h.objective} ({h.objective_score})"
        + (f"; ruled {' and '.join(conduct)}" if conduct else ""),
        f"  Motivation {h.motivation}/{h.max_motivation}"
        + (f" ({h.bonus_max} bought)" if h.bonus_max else ""),
        f"  Reward Points {h.reward_points}",
        f"  Exposure {h.exposure} (peak {h.peak})",
        f"  Popularity {h.popularity}",
    ]
    if h.pending_task:
        lines.append(f"  Waiting for a Motivation roll: {h.pending_task}")
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
    """Derived values the JSON sheet adds to the hero's own fields."""
    return {"max_motivation": h.max_motivation}
