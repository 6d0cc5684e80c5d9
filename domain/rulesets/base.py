"""The surface every rule system offers the engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar
from uuid import UUID

from domain.commands import Change, View
from domain.events import Event, HouseRule
from domain.rulesets.house_rules import HouseRules

if TYPE_CHECKING:
    from domain.campaign import CampaignState
    from domain.posts import WritePost

State = TypeVar("State")
StateT = TypeVar("StateT", covariant=True)


class Ruleset(Protocol[StateT]):
    """A rule system over its character state ``StateT``: its name, its character type, its
    house rules, its replay and its scene consequences. The engine holds a ``Ruleset[Any]``
    (whichever system a campaign plays); each system is a ``Ruleset`` of its own state."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def character_type(self) -> type[StateT]: ...

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        """Every house rule with its value: the given ones checked, the others at their defaults."""
        ...

    def evolve_character(self, event: Event, state: Any) -> StateT:
        """Apply one event to a character (None before its first event)."""
        ...

    @property
    def resolutions(self) -> frozenset[str]:
        """The commands that finish what an earlier ruling opened (an allocation of a hit's
        ranks, a displacement of a strain's token): re-deciding after a correction, one that
        is refused goes with what it resolved."""
        ...

    def rederived(
        self,
        recorded: Mapping[UUID, tuple[Event, ...]],
        decided: Mapping[UUID, tuple[Event, ...]],
    ) -> Mapping[UUID, tuple[Event, ...]]:
        """A later ruling's new decision after a correction (``decided``, per stream), as the
        system records it beside what the ruling had ``recorded``."""
        ...

    def end_scene(self, view: View) -> Sequence[Change]:
        """What ending the current scene does to the characters (or a refusal)."""
        ...

    def end_session(self, view: View) -> Sequence[Change]:
        """What ending the current session does to the characters (or a refusal)."""
        ...

    def check_private_post(self, campaign: CampaignState, post: WritePost) -> None:
        """Refuse a private post (``post --to``) the system's own rules refuse, before the
        checks every system shares (``domain.posts``); nothing to refuse by default."""
        ...


class RulesetBase(Generic[State]):
    """What the systems share: house rules read from their table, their strict replay, the
    events that only happen in a scene, and nothing at a scene's or session's end."""

    name: ClassVar[str]
    title: ClassVar[str]
    character_type: type[State]
    rules: ClassVar[HouseRules[Any]]
    replay: ClassVar[Callable[[Event, Any], Any]]
    resolutions: ClassVar[frozenset[str]] = frozenset()

    def house_rules(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        return self.rules.check(given)

    def evolve_character(self, event: Event, state: State | None) -> State:
        evolved: State = type(self).replay(event, state)
        return evolved

    def rederived(
        self,
        recorded: Mapping[UUID, tuple[Event, ...]],
        decided: Mapping[UUID, tuple[Event, ...]],
    ) -> Mapping[UUID, tuple[Event, ...]]:
        return decided

    def end_scene(self, view: View) -> Sequence[Change]:
        return ()

    def end_session(self, view: View) -> Sequence[Change]:
        return ()

    def check_private_post(self, campaign: CampaignState, post: WritePost) -> None:
        return None
