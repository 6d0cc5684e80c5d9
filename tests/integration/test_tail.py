"""Undo and amend read the history from their ruling on (``engine.corrections.tail``): what they
find is what reading every stream from its start finds, after any history, on every page size."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audience import GMS
from domain.campaign import evolve_campaign
from domain.errors import CannotRedecide, SealedSessionChanged
from domain.events import RulingMade
from domain.lifecycle import AddNote
from domain.rulesets.sprawl_goons import commands as sg
from engine import DiceSpec, Engine
from engine.corrections import tail
from engine.corrections.redecide import Redecider
from engine.corrections.tail import Tail, read_back
from engine.corrections.undo import NOT_UNDOABLE
from engine.store.streams import corrections, fold
from engine.write import ledger
from tests.golden import test_sprawl_goons as sprawl
from tests.integration.scenes import play_scene, play_until_rolled
from tests.integration.test_replay import moves, played


def tails(engine: Engine, first: int) -> tuple[Tail, Tail]:
    """The history from ruling ``first`` on, and the whole history (from ruling 1)."""
    campaign_id = engine.find_campaign("Lab").campaign_id
    records = engine.streams.records(campaign_id)
    return Tail(engine.streams, campaign_id, first, records), Tail(
        engine.streams, campaign_id, 1, records
    )


def candidates(engine: Engine) -> list[RulingMade]:
    campaign = engine.campaign("Lab")
    return [
        logged.ruling
        for logged in engine.log("Lab", audience=GMS)
        if logged.ruling.command not in NOT_UNDOABLE
        and logged.ruling.number not in campaign.retracted
    ]


def same_as_from_the_start(engine: Engine) -> None:
    campaign = engine.campaign("Lab")
    ruleset = engine.ruleset(campaign)
    for target in candidates(engine):
        bounded, whole = tails(engine, target.number)
        for amendment in (None, {}):
            for mode in ("plain", "redecide", "with dependents"):
                assert plan(engine, bounded, target, amendment, mode) == plan(
                    engine, whole, target, amendment, mode
                )
        past = Redecider(engine.ledger, campaign, bounded, ruleset)
        assert past.campaign == before(engine, campaign.id, evolve_campaign, target.number)
        for entry in campaign.roster:
            expected = before(engine, entry.character_id, ruleset.evolve_character, target.number)
            assert past.character(entry.character_id) == expected


def plan(engine: Engine, tail: Tail, target: RulingMade, amendment: Any, mode: str) -> Any:
    """What undoing (``amendment`` None) or amending ``target`` does to the later rulings,
    walked on ``tail`` (plain, re-deciding them or undoing them with it); a refusal to
    re-decide, as its data."""
    campaign = engine.campaign("Lab")
    walker = Redecider(engine.ledger, campaign, tail, engine.ruleset(campaign))
    try:
        return walker.plan(
            tail.made,
            target,
            amendment,
            redecide=mode == "redecide",
            with_dependents=mode == "with dependents",
        )
    except (CannotRedecide, SealedSessionChanged) as refused:  # a refusal is a plan too
        return refused.code, refused.data


def before(engine: Engine, stream: Any, evolve: Any, ruling: int) -> Any:
    """A stream just before ``ruling`` with every later correction of the rulings before it,
    folded from its start (as amendments did before ``engine.corrections.tail``)."""
    records = engine.streams.records(stream)
    fixes = corrections(records).before(ruling)
    return fold([r for r in records if r.ruling < ruling], evolve, None, fixes)


@settings(max_examples=40, deadline=None)
@given(interval=st.integers(2, 5), page=st.sampled_from([1, 2, 1000]), history=moves)
def test_the_tail_finds_what_the_whole_history_finds(
    interval: int, page: int, history: list[tuple[Any, ...]]
) -> None:
    """After any commands, undos and amendments: for every ruling that could be undone, the
    rulings depending on it, and the state before it, are those found from the start."""
    with (
        patch.object(ledger, "SNAPSHOT_INTERVAL", interval),
        patch.object(tail, "PAGE", page),
        played(history) as e,
    ):
        same_as_from_the_start(e)


@pytest.mark.parametrize("page", [1, 3, 1000])
def test_reading_back_stops_at_the_ruling(any_engine: Engine, page: int) -> None:
    """Read back for ruling n, the campaign stream's records begin with the last record before
    ruling n's, or with the stream's first."""
    play_scene(any_engine)
    campaign_id = any_engine.find_campaign("Lab").campaign_id
    everything = any_engine.streams.records(campaign_id)
    with patch.object(tail, "PAGE", page):
        for ruling in range(1, any_engine.campaign("Lab").rulings + 1):
            read = read_back(any_engine.streams, campaign_id, lambda r, n=ruling: r[0].ruling < n)
            assert read == everything[len(everything) - len(read) :]
            assert read[0].ruling < ruling or read[0] == everything[0]


def test_an_undo_of_the_latest_ruling_reads_only_its_tail(any_engine: Engine) -> None:
    """Undoing the latest ruling in a long history reads the campaign stream back one page, not
    all of it, and is the same undo."""
    play_until_rolled(any_engine)
    for number in range(12):
        any_engine.execute("Lab", AddNote(text=f"note {number}"))
    read: list[int] = []
    original = any_engine.streams.records_desc

    def spy(stream: Any, *, limit: int, lte: int | None = None) -> Any:
        read.append(limit)
        return original(stream, limit=limit, lte=lte)

    with patch.object(tail, "PAGE", 4), patch.object(any_engine.streams, "records_desc", spy):
        result = any_engine.undo("Lab", reason="wrong square")
    assert read.count(4) == 1  # one page of 4 (the others: the chain's heads, one row each)
    assert result.number == any_engine.campaign("Lab").rulings


def decoded_by_amending_the_latest(rolls: int) -> int:
    """How many stored events an amendment of the latest roll decodes, in a Sprawl Goons
    campaign of ``rolls`` rolls (snapshots every 100 versions, as the store keeps them)."""
    with Engine() as engine:
        sprawl.table(engine)
        sprawl.tanner(engine)
        roll = sg.MakeActionRoll(character="Tanner", stat="reaction", ds="10")
        for _ in range(rolls):
            latest = engine.execute(sprawl.CAMPAIGN, roll, dice=DiceSpec(faces=(3, 3)))
        mapper = engine.store.mapper
        original = mapper.to_domain_event
        count = [0]

        def counting(stored: Any) -> Any:
            count[0] += 1
            return original(stored)

        with patch.object(mapper, "to_domain_event", counting):
            engine.amend(sprawl.CAMPAIGN, latest.number, {"ds": "12"}, reason="the DS was 12")
        assert {"ds": "12"} == json.loads(
            engine.log(sprawl.CAMPAIGN, audience=GMS)[-1].ruling.params
        )["changed"]
        return count[0]


def test_an_amendment_of_the_latest_ruling_reads_as_much_in_a_long_campaign() -> None:
    """Amending the latest ruling decodes as many events after 650 rolls as after 150 (the
    same distance from the last snapshot): the state after it is loaded from the snapshot
    before the amended ruling's place (the campaign stream holds only its header, so the
    amendment voids no version there), not replayed from the campaign's start."""
    assert decoded_by_amending_the_latest(650) == decoded_by_amending_the_latest(150)
