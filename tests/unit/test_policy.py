"""The permission policy, walked command by command and role by role: the GM may issue every
command; a player exactly those their system's policy lists (for their own characters, with the
GM's calls left alone); an observer only disputes. Pure domain: no store."""

from __future__ import annotations

import importlib
import types
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints
from uuid import uuid4

import attrs
import pytest

from domain.campaign import CampaignState, Member, RosterEntry
from domain.errors import NotAllowed, NotAMember
from domain.events import HouseRule, Role
from domain.policy import OBSERVERS, PlayerMay, check_allowed, check_gm, players_may
from domain.registry import SHARED, verb_of, verbs
from domain.registry import acting as registry_acting
from domain.rulesets import SYSTEMS

MINE, THEIRS = "Mine", "Theirs"


def table(system: str, **house_rules: str) -> CampaignState:
    mine, theirs = uuid4(), uuid4()
    return CampaignState(
        id=uuid4(),
        name="Lab",
        system=system,
        gm="Rosa",
        house_rules=tuple(HouseRule(key=k, value=v) for k, v in house_rules.items()),
        roster=(
            RosterEntry(character_id=mine, name=MINE, player="ana"),
            RosterEntry(character_id=theirs, name=THEIRS, player="bob"),
        ),
        members=(
            Member(name="ana", role=Role.PLAYER),
            Member(name="bob", role=Role.PLAYER),
            Member(name="olly", role=Role.OBSERVER),
            Member(name="Sam", role=Role.GM),
        ),
    )


def commands(system: str) -> list[type[Any]]:
    """Every command a campaign of ``system`` runs: its own and the shared ones."""
    modules = [
        importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.commands"),
        *map(importlib.import_module, SHARED),
    ]
    found = {
        value
        for module in modules
        for name in getattr(module, "__all__", dir(module))
        if isinstance(value := getattr(module, name), type)
        and attrs.has(value)
        and callable(getattr(value, "decide", None))
    }
    return sorted(found, key=lambda c: c.name)


def _value(kind: Any, who: str, acting: bool) -> Any:
    """A value of a field's type; a character field names ``who`` when it says who acts."""
    origin = get_origin(kind)
    optional = origin is types.UnionType and type(None) in get_args(kind)
    if optional:
        return who if acting else None
    if origin is tuple:
        return (who,) if acting else ()
    if kind is bool:
        return False
    if kind is int:
        return 1
    if isinstance(kind, type) and hasattr(kind, "__members__"):
        return next(iter(kind.__members__.values()))
    return who if acting else "x"


def build(cls: type[Any], may: PlayerMay | None, who: str, actor: str) -> Any:
    """``cls`` with every required field filled in: the acting characters ``who``, the player
    field ``actor``; the GM's calls and other options at their defaults."""
    hints = get_type_hints(cls)
    values = {}
    for field in attrs.fields(cls):
        acting = may is not None and field.name in registry_acting(cls)
        if may is not None and field.name == may.as_player:
            values[field.name] = actor
        elif field.default is attrs.NOTHING or acting:
            values[field.name] = _value(hints[field.name], who, acting)
    return cls(**values)


CASES = [(system, cls) for system in sorted(SYSTEMS) for cls in commands(system)]


@pytest.mark.parametrize(("system", "cls"), CASES, ids=[f"{s}:{c.name}" for s, c in CASES])
def test_every_command_against_every_role(system: str, cls: type[Any]) -> None:
    campaign = table(system)
    may = players_may(system).get(verb_of(cls))
    # The GMs may issue it.
    for gm in ("Rosa", "Sam"):
        check_allowed(campaign, gm, build(cls, may, MINE, gm))
    # A player: exactly what the policy lists, for their own characters.
    own = build(cls, may, MINE, "ana")
    if may is None:
        with pytest.raises(NotAllowed):
            check_allowed(campaign, "ana", own)
    else:
        if may.opened_by:  # the GM's call until the campaign plays with the house rule
            with pytest.raises(NotAllowed, match=f"house rule {may.opened_by}=true opens it"):
                check_allowed(campaign, "ana", own)
            campaign = table(system, **{may.opened_by: "true"})
        check_allowed(campaign, "ana", own)
        if registry_acting(cls):
            with pytest.raises(NotAllowed, match="not one of ana's characters"):
                check_allowed(campaign, "ana", build(cls, may, THEIRS, "ana"))
        if may.as_player:
            with pytest.raises(NotAllowed, match="as themself"):
                check_allowed(campaign, "ana", build(cls, may, MINE, "bob"))
    # An observer: disputes only.
    watching = build(cls, OBSERVERS.get(verb_of(cls)), MINE, "olly")
    if verb_of(cls) in OBSERVERS:
        check_allowed(campaign, "olly", watching)
    else:
        with pytest.raises(NotAllowed):
            check_allowed(campaign, "olly", watching)
    # Nobody else.
    with pytest.raises(NotAMember):
        check_allowed(campaign, "mallory", own)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_policy_names_real_commands_and_fields(system: str) -> None:
    """A policy row for a verb that does not exist, or a field it lacks, would never apply."""
    by_name = {verb_of(cls): cls for cls in commands(system)}
    for name, may in players_may(system).items():
        assert name in by_name, f"{system}: no verb {name!r}"
        fields = attrs.fields_dict(by_name[name])
        for field in (*may.gm_calls, *filter(None, [may.as_player])):
            assert field in fields, f"{system} {name}: no field {field!r}"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_policy_and_the_moves_key_a_verb_alike(system: str) -> None:
    """One key per verb: what a user types (``use-item``, whose rulings log ``use``), in the
    policy's tables and in the moves' checks alike (``domain.policy``, ``domain.moves``)."""
    from domain import moves as shared_moves
    from domain.rulesets import ruleset_named

    found = verbs(system)
    moves = ruleset_named(system).moves
    keys = {*players_may(system), *OBSERVERS, *moves.checks, *moves.table, *shared_moves.SHARED}
    assert keys <= set(found), f"{system}: keys that are no verb: {keys - set(found)}"
    renamed = {name for name, verb in found.items() if name != verb.command.name}
    if system == "sprawl-goons":
        assert {"use-item", "first-aid", "level-up"} <= renamed & set(players_may(system))


@pytest.mark.parametrize("call", ["glitch", "upgrade"], ids=["glitch", "upgrade"])
def test_glitch_and_upgrade_are_the_referees_calls(call: str) -> None:
    from domain.rulesets.sprawl_goons.commands import MakeActionRoll

    campaign = table("sprawl-goons")
    roll = MakeActionRoll(character=MINE, stat="reaction", ds="10", **{call: True})
    with pytest.raises(NotAllowed, match=f"--{call} is the GM's call"):
        check_allowed(campaign, "ana", roll)
    check_allowed(campaign, "Rosa", roll)


def test_the_mo_followed_is_the_gms_ruling_unless_a_house_rule_opens_it() -> None:
    """R-TC-14, TC-A27: `mo` (the MO followed: a bonus die) is a GM-ruled session flag, so a
    player's is refused by default; house rule playersRecordMo=true lets a player record it
    for their own hero (never for another's)."""
    from domain.rulesets.the_code.commands import FollowMo

    mine = FollowMo(hero=MINE)
    digest = table("the-code")
    with pytest.raises(NotAllowed, match="may not mo: the GM's call") as refused:
        check_allowed(digest, "ana", mine)
    assert "playersRecordMo=true" in refused.value.message
    check_allowed(digest, "Sam", mine)
    opened = table("the-code", playersRecordMo="true")
    check_allowed(opened, "ana", mine)
    with pytest.raises(NotAllowed, match="not one of ana's characters"):
        check_allowed(opened, "ana", FollowMo(hero=THEIRS))
    with pytest.raises(NotAllowed):
        check_allowed(table("the-code", playersRecordMo="false"), "ana", mine)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_house_rule_that_opens_a_command_is_off_by_default(system: str) -> None:
    """``PlayerMay.opened_by`` names a true-or-false house rule of the system whose default is
    false: the command is the GM's unless a campaign chooses otherwise."""
    from domain.rulesets import ruleset_named

    defaults = {r.key: r.value for r in ruleset_named(system).house_rules({})}
    for name, may in players_may(system).items():
        if may.opened_by:
            assert "false" == defaults.get(may.opened_by), (system, name)


def test_corrections_are_the_gms() -> None:
    campaign = table("sims")
    check_gm(campaign, "Sam", "undo")
    for who, error in (("ana", NotAllowed), ("olly", NotAllowed), ("mallory", NotAMember)):
        with pytest.raises(error):
            check_gm(campaign, who, "undo")


def test_a_player_names_the_character_who_acts() -> None:
    """Code Green's `roll` rolls the open test when no character is named: a player says whose."""
    from domain.rulesets.code_green.commands import RollTest

    campaign = table("code-green")
    with pytest.raises(NotAllowed, match="names the character"):
        check_allowed(campaign, "ana", RollTest())
    check_allowed(campaign, "ana", RollTest(character=MINE))


def policy_table(system: str) -> str:
    """docs/table-and-members.md's table of what a player may issue in ``system`` (kept equal to
    the data)."""
    rows = ["| verb | a player may, for | the GM's calls |", "|---|---|---|"]
    found = verbs(system)
    for name, may in sorted(players_may(system).items()):
        whom = ", ".join(
            "their own character" + ("" if field in ("character", "hero") else f" (the {field})")
            for field in registry_acting(found[name].command)
        )
        if may.as_player:
            named = may.as_player not in ("by", "member")  # --by, or the seat named first
            whom = "themself" + (f" (--{may.as_player})" if named else "")
        whom = may.whom or whom
        if may.opened_by:
            whom += f", with house rule `{may.opened_by}=true` (else the GM's call)"
        calls = ", ".join(f"`--{c.replace('_', '-')}`" for c in may.gm_calls) or "-"
        rows.append(f"| `{name}` | {whom or 'anyone'} | {calls} |")
    return "\n".join(rows)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_docs_show_the_policy(system: str) -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "table-and-members.md"
    text = page.read_text(encoding="utf-8")
    assert policy_table(system) in text, (
        f"docs/table-and-members.md's {system} table:\n{policy_table(system)}"
    )


if __name__ == "__main__":  # print the tables for docs/table-and-members.md
    for name in sorted(SYSTEMS):
        print(f"{name}:\n\n{policy_table(name)}\n")
