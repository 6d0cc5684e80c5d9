"""Who may issue which command: the permission policy of the table, as data.

The GM (the campaign's creator, and any member added as ``gm``) may issue every command. A player
may issue only the commands their system's ``policy`` module lists (``PLAYERS``) and the shared
ones below, each for the characters they play (a command a house rule opens to players, only
when the campaign plays with it: ``PlayerMay.opened_by``); an observer may only dispute.
Everything else is the GM's: sessions and scenes, strain, damage and Glitch/Upgrade calls, NPCs,
undo, amend, resolving disputes, members. A command outside the policy is refused
``NOT_ALLOWED``. A command no verb builds any more is held to what a player could issue with it
when one did (a system's ``RETIRED``): the rulings it recorded still stand.

Every table here, a system's ``PLAYERS`` and ``RETIRED`` and ``OBSERVERS`` are keyed by verb,
what a user types (``domain.registry.verb_of``: ``use-item``, whose rulings log ``use``), as the
verbs' checks of ``domain.moves`` are and as every front end names them.

``check_ruling`` is the check a ruling is held to, before it is decided and by ``verify`` on the
campaign as it stood before it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from types import MappingProxyType

from attrs import frozen

from domain.campaign import CampaignState, Member
from domain.commands import Command
from domain.errors import DiceNotFromCommitment, NotAllowed, NotAMember
from domain.events import Role
from domain.plain import Plain
from domain.registry import acting, default_of, verb_of


@frozen(kw_only=True)
class PlayerMay(Plain):
    """A command a player may issue: ``as_player`` a field that must name the player (the
    player of a new character, who adds entropy), ``gm_calls`` the options that stay the GM's
    (a player leaves them at their defaults). The fields that say which characters act (each
    must be one the player plays) are the command's own: its parameters of the kind
    ``domain.kinds.ACTOR`` (``domain.registry.acting``)."""

    as_player: str | None = None
    gm_calls: tuple[str, ...] = ()
    whom: str = ""  # for whom, in words, where the fields above do not say it all
    # a house rule (true or false, false by default) that opens the command to players: while
    # it is false the command is the GM's call, as the digest reads the rule
    opened_by: str = ""


# Commands every system shares.
SHARED: Mapping[str, PlayerMay] = {
    "note": PlayerMay(gm_calls=("gm_only",)),
    "entropy": PlayerMay(as_player="by"),
    "member key": PlayerMay(as_player="member"),  # a player's own seat
    "dispute": PlayerMay(as_player="by"),
    "dice": PlayerMay(),  # a free roll, for anything (--hidden stays the GM's)
    # For their own characters, or out of character (domain.posts checks which).
    "post": PlayerMay(as_player="by", whom="themself: their own characters, or --ooc"),
}
OBSERVERS: Mapping[str, PlayerMay] = {
    "dispute": PlayerMay(as_player="by"),
    "post": PlayerMay(as_player="by"),  # out of character (domain.posts)
}


@functools.cache
def players_may(system: str) -> Mapping[str, PlayerMay]:
    """What a player may issue in ``system``: the shared commands and the system's own (those
    a house rule opens to players included: ``players_may_in`` says what a campaign allows).
    Looked up once a system (``verify`` asks once a player's ruling)."""
    from domain.rulesets import SYSTEMS

    module = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.policy")
    return MappingProxyType({**SHARED, **module.PLAYERS})


@functools.cache
def players_could(system: str) -> Mapping[str, PlayerMay]:
    """What a player could issue in ``system`` of the commands no verb builds any more (its
    ``policy`` module's ``RETIRED``): a ruling an older version recorded with one still stands
    (``check_allowed`` holds it to this), though no front end offers it."""
    from domain.rulesets import SYSTEMS

    module = importlib.import_module(f"domain.rulesets.{SYSTEMS[system]}.policy")
    return MappingProxyType(dict(getattr(module, "RETIRED", {})))


def players_may_in(campaign: CampaignState) -> Mapping[str, PlayerMay]:
    """What a player may issue in ``campaign``: ``players_may`` of its system, less what a
    house rule the campaign leaves off would open to players (``PlayerMay.opened_by``)."""
    return {
        name: may
        for name, may in players_may(campaign.system).items()
        if not may.opened_by or house_rule_on(campaign, may.opened_by)
    }


def house_rule_on(campaign: CampaignState, key: str) -> bool:
    """Whether the campaign plays with the true-or-false house rule ``key`` true (a campaign
    recorded before its system had the rule plays it at its default)."""
    from domain.rulesets import ruleset_named

    given = {rule.key: rule.value for rule in campaign.house_rules}
    rules = ruleset_named(campaign.system).house_rules(given)
    return any(rule.key == key and rule.value == "true" for rule in rules)


def acting_member(campaign: CampaignState, actor: str) -> Member:
    """The member making a call, or a refusal when ``actor`` has no seat at the table."""
    member = campaign.member(actor)
    if member is None:
        raise NotAMember(who=actor)
    return member


def check_gm(campaign: CampaignState, actor: str, what: str) -> None:
    """Refuse anyone but a GM (undo, amend, resolving a dispute)."""
    member = acting_member(campaign, actor)
    if member.role is not Role.GM:
        raise NotAllowed(who=actor, role=member.role, what=what, rule="only the GM does that")


def check_own_dice(
    campaign: CampaignState, actor: str, given: str | None, *, typed: bool = False
) -> None:
    """A player's dice in a session with committed dice come from the commitment: faces typed
    (``typed``) or a seed (``given`` says which, in words) are the GM's alone, and listed by
    the players' check; typed faces are the players' too in a session with physical dice."""
    if given is None or not (campaign.commitment and campaign.session):
        return
    if campaign.physical_dice and typed:  # a table that rolls real dice
        return
    member = acting_member(campaign, actor)
    if member.role is not Role.GM:
        raise DiceNotFromCommitment(
            who=actor, role=member.role, session=campaign.session, given=given
        )


def check_ruling(
    campaign: CampaignState,
    actor: str,
    command: Command,
    *,
    hidden: bool = False,
    given: str | None = None,
    typed: bool = False,
) -> None:
    """Refuse a ruling ``actor`` may not make on ``campaign`` as it stands: ``command``
    (``check_allowed``), kept ``hidden`` (the GM's), with dice ``given`` instead of the
    session's commitment (``check_own_dice``), and what the command's own fields say of who
    acts (a command's ``check_actor``: a post's speaker and recipients, ``domain.posts``). The
    engine runs it before deciding a command, and ``verify`` on every ruling of a log, on the
    campaign as it stood before that ruling (``engine.audit.policy``): the two cannot disagree.
    Every check lets a GM through but ``check_actor``, whose refusals of a GM are the command's
    own rules (a post with two speakers)."""
    check_allowed(campaign, actor, command)
    if hidden:
        check_gm(campaign, actor, "hide a ruling")
    check_own_dice(campaign, actor, given, typed=typed)
    check_actor = getattr(command, "check_actor", None)
    if callable(check_actor):
        check_actor(campaign)


def check_allowed(campaign: CampaignState, actor: str, command: Command) -> None:
    """Refuse ``command`` when ``actor`` may not issue it (see the module's docstring)."""
    member = acting_member(campaign, actor)
    if member.role is Role.GM:
        return
    what = command.name  # as the log and the refusal say it
    verb = verb_of(type(command))  # as the policy's tables are keyed
    if member.role is Role.OBSERVER:
        may = OBSERVERS.get(verb)
        why = "observers read the log and dispute rulings"
    else:
        may = players_may(campaign.system).get(verb) or players_could(campaign.system).get(verb)
        why = "only the GM does that"
    if may is None:
        raise NotAllowed(who=actor, role=member.role, what=what, rule=why)
    if may.opened_by and not house_rule_on(campaign, may.opened_by):
        rule = f"the GM's call (house rule {may.opened_by}=true opens it to players)"
        raise NotAllowed(who=actor, role=member.role, what=what, rule=rule)
    for name in may.gm_calls:
        if getattr(command, name) != default_of(type(command), name):
            rule = f"--{name.replace('_', '-')} is the GM's call"
            raise NotAllowed(who=actor, role=member.role, what=what, rule=rule)
    if may.as_player is not None and getattr(command, may.as_player) != actor:
        rule = f"a player {what}s as themself ({may.as_player} {actor!r})"
        raise NotAllowed(who=actor, role=member.role, what=what, rule=rule)
    own = campaign.own_characters(member)
    for name in acting(type(command)):
        value = getattr(command, name)
        if value is None:  # "the one whose test is open": a player says who
            rule = f"a player names the character who acts ({name})"
            raise NotAllowed(who=actor, role=member.role, what=what, rule=rule)
        for ref in value if isinstance(value, tuple) else (value,):
            if campaign.find(ref).character_id not in own:
                rule = f"{ref} is not one of {actor}'s characters"
                raise NotAllowed(who=actor, role=member.role, what=what, rule=rule)
