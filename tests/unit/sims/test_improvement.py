"""Sims improvement (improvement.py, R-PDQ-14): upgrades from a successful campaign or an
announced Upgrade Mission, for living player characters, spent on a rank, Master+ or Rebirth."""

from __future__ import annotations

from domain.errors import EmptyText, NotAPlayerCharacter
from domain.rulesets.sims import errors
from domain.rulesets.sims import events as ev
from domain.rulesets.sims.commands import (
    AnnounceMission,
    CompleteAdventure,
    CreateCharacter,
    Kill,
    SucceedCampaign,
    SucceedMission,
    TakeMasterPlus,
    TakeRebirth,
    UpgradeQuality,
)
from domain.rulesets.sims.tables import Area, Rank
from engine import Engine
from tests.golden.test_sims import STARTING_SHEET, refused, run
from tests.unit.sims.conftest import knock_neo_out, who


def test_a_campaign_success_upgrades_only_player_characters(game: Engine) -> None:
    """NPCs earn nothing from a successful campaign."""
    run(game, SucceedCampaign())
    assert (1, 0) == (who(game, "Neo").upgrades, who(game, "Boss").upgrades)


def _elder(engine: Engine, masters: int, *more: str) -> None:
    """Trinity: a GM-made player sheet with ``masters`` Master qualities (and ``more``)."""
    qualities = (*(f"M{n}:Combat:Master" for n in range(masters)), *more)
    run(
        engine,
        CreateCharacter(character="Trinity", player="carol", qualities=qualities, custom=True),
    )


def test_only_living_player_characters_share_a_campaign_success(game: Engine) -> None:
    """UpgradeGranted for each living PC, none for NPCs or the dead; an adventure completed is
    recorded for the same characters and earns nothing (R-PDQ-14, PDQ-A14)."""
    _elder(game, 0, "Luck:Social:Good")
    knock_neo_out(game)
    run(game, Kill(attacker="Boss", victim="Neo"))
    events = run(game, CompleteAdventure(adventure=" The Docks "))
    assert [ev.AdventureCompleted(adventure="The Docks")] == list(events)
    events = run(game, SucceedCampaign())
    assert [ev.UpgradeGranted(source="the campaign succeeded", mission=None)] == list(events)
    assert [1, 0, 0] == [who(game, n).upgrades for n in ("Trinity", "Neo", "Boss")]


def test_only_player_characters_earn_and_spend_upgrades(game: Engine) -> None:
    """NotAPlayerCharacter names what NPCs cannot do and the rule (Characters Improvement)."""
    command = AnnounceMission(mission="The Vault", characters=("Boss",))
    error = refused(game, command, NotAPlayerCharacter)
    assert {
        "name": "Boss",
        "what": "earn and spend upgrades",
        "rule": "Characters Improvement",
    } == error.data


def test_an_adventure_needs_a_name(game: Engine) -> None:
    """EmptyText names the adventure's name (R-PDQ-14)."""
    error = refused(game, CompleteAdventure(adventure="  "), EmptyText)
    assert "the adventure's name must not be empty" == error.reason


def test_an_upgrade_mission_rewards_those_it_was_announced_to(game: Engine) -> None:
    """Announced to Neo and Trinity, the mission succeeds for both: one upgrade each, and the
    mission is spent (R-PDQ-14)."""
    _elder(game, 0, "Luck:Social:Good")
    announced = run(game, AnnounceMission(mission=" The Vault ", characters=("Neo", "Trinity")))
    assert [ev.UpgradeMissionAnnounced(mission="The Vault")] * 2 == list(announced)
    events = run(game, SucceedMission(mission="The Vault ", characters=("Trinity",)))
    assert [ev.UpgradeGranted(source="Upgrade Mission The Vault", mission="The Vault")] == list(
        events
    )
    assert [(0, ("The Vault",)), (1, ())] == [
        (who(game, n).upgrades, who(game, n).missions) for n in ("Neo", "Trinity")
    ]
    error = refused(
        game,
        SucceedMission(mission="The Vault", characters=("Trinity",)),
        errors.MissionNotAnnounced,
    )
    assert {"name": "Trinity", "mission": "The Vault"} == error.data
    run(game, SucceedMission(mission="The Vault"))
    assert [1, 1] == [who(game, n).upgrades for n in ("Neo", "Trinity")]


def test_an_announced_mission_of_nobody_names_any_character(game: Engine) -> None:
    """MissionNotAnnounced for a mission nobody was told about (R-PDQ-14)."""
    error = refused(game, SucceedMission(mission=" The Moon "), errors.MissionNotAnnounced)
    assert {"name": "any character", "mission": "The Moon"} == error.data
    assert (
        "the mission's name must not be empty"
        == refused(game, AnnounceMission(mission=" ", characters=("Neo",)), EmptyText).reason
    )


def test_an_upgrade_raises_the_base_rank_by_one(game: Engine) -> None:
    """A Good Cutlass becomes Expert (G-PDQ-31), and the upgrade is spent."""
    run(game, SucceedCampaign())
    events = run(game, UpgradeQuality(character="Neo", quality="cutlass"))
    assert [ev.QualityUpgraded(quality="Cutlass", before=Rank.GOOD, after=Rank.EXPERT)] == list(
        events
    )
    assert 0 == who(game, "Neo").upgrades


def test_upgrade_missions_master_plus_and_rebirth(game: Engine) -> None:
    """An announced mission earns an upgrade; Master+ adds two Goods; Rebirth replaces the sheet."""
    masters = tuple(f"Q{n}:Physical:Master" for n in range(6))
    run(game, CreateCharacter(character="Elder", player="eve", qualities=masters, custom=True))
    run(game, AnnounceMission(mission="The Vault", characters=("Elder",)))
    run(game, SucceedMission(mission="The Vault"))
    extra = ("Luck", "Grace", "Wit", "Mind Reading:extraordinary")
    refused(
        game,
        TakeRebirth(
            character="Elder",
            qualities=STARTING_SHEET,
            extra=("Luck", "A:psychic", "B:psychic", "C"),
        ),
        errors.TooManyExtraordinary,
    )
    run(game, TakeRebirth(character="Elder", qualities=STARTING_SHEET, extra=extra))
    assert (14, 1, 0) == (
        len(who(game, "Elder").qualities),
        who(game, "Elder").rebirths,
        who(game, "Elder").upgrades,
    )
    refused(game, TakeMasterPlus(character="Elder", qualities=("A", "B")), errors.NotEnoughMasters)


def test_master_plus_adds_two_good_qualities(game: Engine) -> None:
    """Three Masters: Master+ brings two Good qualities of the Master+ area, whatever flag they
    carry (R-PDQ-14, PDQ-A15)."""
    _elder(game, 3)
    run(game, SucceedCampaign())
    nameless = TakeMasterPlus(character="Trinity", qualities=(" :psychic", "B"))
    assert {"text": " :psychic"} == refused(game, nameless, errors.UnreadableQuality).data
    twice = TakeMasterPlus(character="Trinity", qualities=("m0", "B"))
    assert {"quality": "M0"} == refused(game, twice, errors.DuplicateQualityName).data
    events = run(game, TakeMasterPlus(character="Trinity", qualities=(" Flight :psychic", "Wit")))
    expected = tuple(
        ev.QualitySpec(name=n, area=Area.MASTER_PLUS, rank=Rank.GOOD) for n in ("Flight", "Wit")
    )
    assert [ev.MasterPlusTaken(qualities=expected)] == list(events)
    assert (5, 0) == (len(who(game, "Trinity").qualities), who(game, "Trinity").upgrades)


def test_master_plus_needs_exactly_two_names(game: Engine) -> None:
    """WrongExtraCount names what Master+ brings and what was given (Master +)."""
    _elder(game, 3)
    run(game, SucceedCampaign())
    command = TakeMasterPlus(character="Trinity", qualities=("A", "B", "C"))
    error = refused(game, command, errors.WrongExtraCount)
    assert "Master+ brings exactly 2 new qualities, got 3 (Master +)" == error.reason


def test_rebirth_replaces_the_sheet_and_keeps_the_old_one(game: Engine) -> None:
    """Six Masters: a new sheet by the creation rules plus four Good qualities, one of them
    extraordinary; the event keeps the sheet before (R-PDQ-14)."""
    _elder(game, 6)
    run(game, SucceedCampaign())
    three = TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=("A", "B", "C"))
    error = refused(game, three, errors.WrongExtraCount)
    assert "Rebirth brings exactly 4 new qualities, got 3 (Rebirth)" == error.reason
    command = TakeRebirth(
        character="Trinity",
        qualities=STARTING_SHEET,
        extra=("Luck", "Grace:PSYCHIC", "Wit", "Nerve:other"),
    )
    (reborn,) = run(game, command)
    assert isinstance(reborn, ev.CharacterReborn)
    assert [(n, Area.COMBAT, Rank.MASTER) for n in ("M0", "M1", "M2", "M3", "M4", "M5")] == [
        (q.name, q.area, q.rank) for q in reborn.previous
    ]
    assert [
        ("Luck", Area.REBIRTH),
        ("Grace", Area.EXTRAORDINARY),
        ("Wit", Area.REBIRTH),
        ("Nerve", Area.REBIRTH),
    ] == [(q.name, q.area) for q in reborn.qualities[10:]]
    assert {Rank.GOOD} == {q.rank for q in reborn.qualities[10:]}
    trinity = who(game, "Trinity")
    assert (14, 1, 0) == (len(trinity.qualities), trinity.rebirths, trinity.upgrades)


def test_rebirth_needs_six_masters(game: Engine) -> None:
    """NotEnoughMasters names what Rebirth needs and what the character has (Rebirth)."""
    _elder(game, 5)
    run(game, SucceedCampaign())
    command = TakeRebirth(character="Trinity", qualities=STARTING_SHEET, extra=("A", "B", "C", "D"))
    error = refused(game, command, errors.NotEnoughMasters)
    assert "Rebirth needs Master in at least 6 qualities; Trinity has 5 (Rebirth)" == error.reason
