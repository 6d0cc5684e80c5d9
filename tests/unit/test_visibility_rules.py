"""Who reads which ruling (``domain.visibility``), without a store: public, the GMs' (hidden
until revealed), private to an audience; GM-only notes; what a new ruling's visibility is."""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import uuid4

from attrs import frozen

from domain.audience import GMS, TABLE, named
from domain.audience import Member as Reader
from domain.campaign import CampaignState, Member
from domain.events import Role, Visibility
from domain.lifecycle import AddNote
from domain.visibility import hidden_from, reads_all, visibility_of


def table(**state: Any) -> CampaignState:
    seats = (
        Member(name="ana", role=Role.PLAYER),
        Member(name="bob", role=Role.PLAYER),
        Member(name="Sam", role=Role.GM),
    )
    return CampaignState(
        id=uuid4(), name="Lab", system="sims", gm="Rosa", house_rules=(), members=seats, **state
    )


@frozen(kw_only=True)
class Whisper:
    name: ClassVar[str] = "whisper"
    to: str

    def audience(self) -> tuple[str, ...]:
        return ("ana", self.to)


def test_a_new_rulings_visibility() -> None:
    assert (Visibility.PUBLIC, ()) == visibility_of(AddNote(text="hi"), hidden=False)
    assert (Visibility.GM, ()) == visibility_of(AddNote(text="hi", gm_only=True), hidden=False)
    assert (Visibility.GM, ()) == visibility_of(AddNote(text="hi"), hidden=True)
    assert (Visibility.PRIVATE, ("ana", "bob")) == visibility_of(Whisper(to="bob"), hidden=False)


def test_who_is_kept_from_what() -> None:
    campaign = table(
        hidden=frozenset({3, 5}), revealed=frozenset({5}), private=((7, ("ana", "bob")),)
    )
    for gm in (GMS, Reader("Rosa"), Reader("Sam")):
        assert reads_all(campaign, gm)
        assert frozenset() == hidden_from(campaign, gm)
    assert frozenset({3}) == hidden_from(campaign, Reader("ana"))
    assert frozenset({3}) == hidden_from(campaign, Reader("bob"))
    only_ana = table(private=((7, ("ana",)),))
    assert frozenset({7}) == hidden_from(only_ana, Reader("bob"))


def test_the_table_reads_what_every_member_may() -> None:
    """No hidden ruling before its reveal, no private ruling whoever it names (the GMs'
    included), never everything."""
    campaign = table(
        hidden=frozenset({3, 5}),
        revealed=frozenset({5}),
        private=((7, ("ana", "bob")), (8, ("Sam",)), (9, ("ana",))),
    )
    assert not reads_all(campaign, TABLE)
    assert frozenset({3, 7, 8, 9}) == hidden_from(campaign, TABLE)
    for member in ("ana", "bob"):
        assert hidden_from(campaign, Reader(member)) < hidden_from(campaign, TABLE)


def test_an_audience_is_named_as_typed() -> None:
    assert (TABLE, GMS, Reader("ana")) == (named(" Table"), named("gms"), named("ana"))
