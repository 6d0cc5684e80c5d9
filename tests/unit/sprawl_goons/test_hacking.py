"""Sprawl Goons hacking (hacking.py, R-SG-10): Cognition + an interfaced console against the
system's DS; a breach, a DS worn down (SG-A8), or neural damage from a secure system."""

from __future__ import annotations

from domain.rulesets.sprawl_goons import errors
from domain.rulesets.sprawl_goons import events as sg
from domain.rulesets.sprawl_goons.commands import Fall, Hack
from domain.rulesets.sprawl_goons.tables import Cause, DiceMode, Location, Purpose, Stat
from engine import Engine
from tests.golden.test_sprawl_goons import npc, one, refused, run, sheet, table
from tests.unit.sprawl_goons.conftest import CONSOLE, dix


def hack_rolled(
    dice: tuple[int, ...], kept: tuple[int, ...], ds: int, **kw: object
) -> sg.ActionRolled:
    total = sum(kept) + 2 + 1
    fields: dict[str, object] = {
        "purpose": Purpose.HACK,
        "stat": Stat.COGNITION,
        "stat_value": 2,
        "items": (sg.ItemBonus(item=CONSOLE, bonus=1),),
        "modifiers": (),
        "encumbrance": 0,
        "mode": DiceMode.NORMAL,
        "called": (),
        "forced_glitch": False,
        "dice": dice,
        "kept": kept,
        "total": total,
        "ds": ds,
        "target": "Vault",
        "margin": total - ds,
        "success": total >= ds,
        "dangerous": False,
        "others": (),
    }
    return sg.ActionRolled(**fields)  # type: ignore[arg-type]


def test_a_successful_hack_breaches_the_system(engine: Engine) -> None:
    """Hacking: Cognition + console + 2d6 against the system's DS; success breaches it."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "9", system=True)
    events = run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    assert (hack_rolled((3, 4), (3, 4), 9), sg.SystemBreached(by="Dix")) == events
    assert sheet(engine, "Vault").breached


def test_a_called_glitch_and_a_bonus_count_in_the_hack(engine: Engine) -> None:
    """The referee's Glitch keeps the two lowest of three; a situational bonus adds to the total."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "10", system=True, neural=True)
    bonus = ("ICE-breaker=+2",)
    hack = Hack(character="Dix", system="Vault", console="console", bonuses=bonus, glitch=True)
    rolled = run(engine, hack, 6, 1, 2)[0]
    assert isinstance(rolled, sg.ActionRolled)
    expected = (DiceMode.GLITCH, (DiceMode.GLITCH,), (1, 2), 8, True, "Vault")
    actual = (
        rolled.mode,
        rolled.called,
        rolled.kept,
        rolled.total,
        rolled.dangerous,
        rolled.target,
    )
    assert expected == actual
    upgraded = Hack(character="Dix", system="Vault", console="console", upgrade=True)
    rolled = run(engine, upgraded, 6, 1, 2)[0]
    assert isinstance(rolled, sg.ActionRolled)
    assert (DiceMode.UPGRADE, (6, 2)) == (rolled.mode, rolled.kept)


def test_under_system_ds_depletes_a_hack_wears_the_ds_down_then_breaches(engine: Engine) -> None:
    """SG-A8 (systemDsDepletes): a success takes its margin off the system's DS; at 0 it is
    breached. A failure against a system that is not secure costs nothing."""
    table(engine, systemDsDepletes="true")
    dix(engine)
    npc(engine, "Vault", "9", system=True)
    first = run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    lost = sg.ResilienceLost(
        amount=1, cause=Cause.HIT, source="Dix", base=1, bonuses=(), before=9, after=8
    )
    assert (hack_rolled((3, 4), (3, 4), 9), lost) == first
    assert not sheet(engine, "Vault").breached
    missed = run(engine, Hack(character="Dix", system="Vault", console="console"), 1, 1)
    assert (hack_rolled((1, 1), (1, 1), 8),) == missed
    run(engine, Hack(character="Dix", system="Vault", console="console"), 6, 6)  # 8 -> 1
    last = run(engine, Hack(character="Dix", system="Vault", console="console"), 1, 2)
    lost = sg.ResilienceLost(
        amount=5, cause=Cause.HIT, source="Dix", base=5, bonuses=(), before=1, after=0
    )
    assert (hack_rolled((1, 2), (1, 2), 1), lost, sg.SystemBreached(by="Dix")) == last
    assert (True, 0) == (sheet(engine, "Vault").breached, sheet(engine, "Vault").resilience)


def test_hacking_refusals_say_why(engine: Engine) -> None:
    """No console named, one not carried, a non-console, a PC as the system, a breached one."""
    table(engine)
    dix(engine)
    npc(engine, "Vault", "3", system=True)
    cases = [
        (Hack(character="Dix", system="Vault"), errors.ConsoleRequired, "name the console Dix"),
        (Hack(character="Dix", system="Vault", console="deck"), errors.ConsoleRequired, "'deck'"),
        (
            Hack(character="Dix", system="Vault", console="kevlar"),
            errors.ConsoleRequired,
            "Kevlar jacket is not a cyberspace console",
        ),
        (
            Hack(character="Dix", system="Dix", console="console"),
            errors.WrongTarget,
            "Dix is a PC and cannot be hacked",
        ),
    ]
    for command, error, words in cases:
        assert words in refused(engine, command, error, 3, 4).reason
    run(engine, Hack(character="Dix", system="Vault", console="console"), 3, 4)
    again = refused(
        engine,
        Hack(character="Dix", system="Vault", console="console"),
        errors.SystemAlreadyBreached,
    )
    assert "Vault was breached already (Hacking)" == again.reason


def test_a_failed_hack_on_a_secure_system_hurts_the_hacker(engine: Engine) -> None:
    """Neural damage: the margin of failure against a secure system, from the system's name."""
    table(engine)
    dix(engine)
    npc(engine, "Ice", "12", system=True, neural=True)
    events = run(engine, Hack(character="Dix", system="Ice", console="console"), 1, 2)
    lost = sg.ResilienceLost(
        amount=6, cause=Cause.NEURAL, source="Ice", base=6, bonuses=(), before=12, after=6
    )
    assert lost == events[1]
    assert 6 == sheet(engine, "Dix").resilience


def test_neural_feedback_to_zero_rolls_a_critical_injury(engine: Engine) -> None:
    """R-SG-10 + R-SG-06: neural damage that takes the hacker to 0 rolls a critical injury; the
    referee's Glitch and Upgrade together cancel to 2d6 (SG-A3)."""
    table(engine)
    dix(engine)
    npc(engine, "Ice", "18", system=True, neural=True)
    run(engine, Fall(character="Dix", metres=27))
    hack = Hack(character="Dix", system="Ice", console="console", glitch=True, upgrade=True)
    events = run(engine, hack, 1, 1, 3, 5)
    rolled = one(events, sg.ActionRolled)
    assert (DiceMode.NORMAL, (1, 1), 5) == (rolled.mode, rolled.kept, rolled.total)
    lost = one(events, sg.ResilienceLost)
    assert (13, 3, 0) == (lost.amount, lost.before, lost.after)
    crit = one(events, sg.CriticalInjuryRolled)
    assert (3, 0, Location.ARM) == (crit.severity_die, crit.modifier, crit.location)
