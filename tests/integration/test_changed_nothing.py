"""Honest labels for the rolls nobody sealed (issue 42, item 2), written as the attacker: a GM
who reads his own seed spends ana's counters on coin flips `--as ana` until her next roll suits
him. He can: the roll was foreseeable. What he cannot do is make the run invisible: `verify`
and `verify-dice` count, per session and per lane, the committed rolls nobody sealed that
changed nothing (free rolls with no consequence, rolls undone, hidden rolls never revealed),
and each roll in a player's name nobody sealed reads "foreseeable by the GM, entered for ana"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import campaign as cli
from domain.audience import GMS
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.lifecycle import EndSession, StartSession
from domain.posts import WritePost
from domain.table import AddMember
from engine import Engine, dice_source, log_entry, result_lines, ruling_view
from engine.dice.committed import key, lane, mixed_signed, replay
from tests.integration.players import Player

GM = "Rosa"
FLIPS = 27


def secret_of(engine: Engine) -> bytes:
    """What the GM reads on his own machine: the session's roll seed."""
    state = engine.campaign("Lab")
    kept = engine.ledger.dice_secrets.get(state.id, state.session or 0)
    assert kept is not None
    return kept[0][:32]


def attack(engine: Engine) -> tuple[int, tuple[int, ...]]:
    """Protocol 3; ana and bo add their words. The GM foresees ana's lane from his seed, flips
    27 coins in her name, then records her dangerous roll (a post's [2d6]) as hers, unsealed,
    exactly as he foresaw it; he also rolls one hidden die he never reveals and undoes one of
    bo's rolls. The session ends; the export is what the players check."""
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana, bo = Player("ana").seated(engine), Player("bo").seated(engine)
    engine.execute("Lab", StartSession())
    ana.adds(engine, "pancakes")
    bo.adds(engine, "tide at 4:12")
    secret = secret_of(engine)
    rolled = key(secret, mixed_signed(engine.campaign("Lab").signed))
    flips = tuple(
        engine.execute("Lab", RollFreely(expression="1d2", why="coin"), actor="ana").number
        for _ in range(FLIPS)
    )
    foreseen, _ = replay(rolled, engine.campaign("Lab").lane("ana"), (6, 6), lane("ana"))
    post = WritePost(text="I jump the gap [2d6]", by="ana", ooc=True)
    decisive = engine.execute("Lab", post, actor="ana")
    assert foreseen == tuple(d.face for d in decisive.dice)
    engine.execute("Lab", RollFreely(expression="1d20", why="ambush"), hidden=True)
    undone = engine.execute("Lab", RollFreely(expression="1d6", why="slip"), actor="bo").number
    engine.undo("Lab", undone, reason="never mind")
    engine.execute("Lab", EndSession())
    return decisive.number, flips


def exported(engine: Engine, out: Path) -> Path:
    out.write_text("".join(f"{line}\n" for line in engine.export("Lab", audience=GMS)))
    return out


@pytest.fixture
def attacked(engine: Engine, tmp_path: Path) -> tuple[Engine, Path, int, tuple[int, ...]]:
    decisive, flips = attack(engine)
    return engine, exported(engine, tmp_path / "s.jsonl"), decisive, flips


def verify_dice(path: Path, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*more, "verify-dice", str(path)])
    return result.exit_code, result.output


def test_verify_dice_counts_the_27_coin_flips_in_anas_lane(
    attacked: tuple[Engine, Path, int, tuple[int, ...]],
) -> None:
    _, out, decisive, flips = attacked
    code, text = verify_dice(out, "--json")
    assert 0 == code, text
    (session,) = json.loads(text)["dice"]
    idle = session["changed_nothing"]
    assert {"ana": FLIPS, "hidden": 1, "bo": 1} == idle["lanes"]
    free = [r["ruling"] for r in idle["rolls"] if r["why"] == "free roll with no consequence"]
    assert list(flips) == free
    assert decisive not in [r["ruling"] for r in idle["rolls"]]  # a post: it changed something
    code, text = verify_dice(out)
    assert 0 == code, text
    first, last = flips[0], flips[-1]
    assert (
        f"ana's lane: {FLIPS} ({FLIPS} free rolls with no consequence: rulings {first}-{last})"
        in text
    )
    assert "hidden rolls: 1 (1 hidden, never revealed: ruling" in text
    assert "bo's lane: 1 (1 undone: ruling" in text
    assert "committed rolls nobody sealed that changed nothing (each spent a counter" in text


def test_verify_says_the_same_counts(
    attacked: tuple[Engine, Path, int, tuple[int, ...]],
) -> None:
    engine, out, _, flips = attacked
    (check,) = engine.verify("Lab").dice
    assert tuple(flips) == tuple(r.ruling for r in check.idle if r.lane == "ana")
    _, text = verify_dice(out, "--json")
    exported = json.loads(text)["dice"][0]["changed_nothing"]["rolls"]
    assert exported == [
        {"ruling": r.ruling, "lane": r.lane, "by": r.by, "why": r.why} for r in check.idle
    ]


def test_a_roll_in_a_players_name_nobody_sealed_reads_entered_for_her(
    attacked: tuple[Engine, Path, int, tuple[int, ...]],
) -> None:
    engine, _, decisive, flips = attacked
    state = engine.campaign("Lab")
    logged = {e.ruling.number: e for e in engine.log("Lab", audience=GMS)}
    labels = {n: dice_source(log_entry(logged[n], state)) for n in logged if logged[n].ruling.dice}
    said = "digital-committed, foreseeable by the GM, entered for ana"
    assert said == labels[decisive] == labels[flips[0]]
    hidden = next(n for n, e in logged.items() if e.ruling.leaf is not None)
    assert "digital-committed, foreseeable by the GM" == labels[hidden]


def test_the_gms_own_roll_reads_foreseeable_and_a_sealed_one_sealed(engine: Engine) -> None:
    engine.create_campaign("Lab", "sprawl-goons", gm=GM)
    ana = Player("ana").seated(engine)
    engine.execute("Lab", AddMember(member="cy", role=Role.OBSERVER))
    engine.execute("Lab", StartSession())
    ana.adds(engine, "pancakes")
    own = engine.execute("Lab", RollFreely(expression="1d6", why="weather"))
    own_view = ruling_view(own)
    assert result_lines(own_view)[0].endswith("(digital-committed dice, foreseeable by the GM)")
    assert own_view.entered_for is None
    sealed = ana.rolls(engine, RollFreely(expression="1d6", why="jump"))
    view = ruling_view(sealed)
    assert result_lines(view)[0].endswith("(digital-committed dice, sealed by ana)")
    assert view.entered_for is None


def test_a_lane_of_scattered_rolls_names_its_first_runs_and_counts_the_rest() -> None:
    """Rolls that changed nothing, every other ruling: the lane's line names the first ``RUNS``
    runs and counts the others, up to the last ruling, so it stays short however many."""
    from engine.audit.idle import IDLE_FREE, RUNS, idle_lines
    from engine.audit.report import IdleRoll

    rolls = [IdleRoll(ruling=n, lane="ana", by="GM", why=IDLE_FREE) for n in range(2, 400, 2)]
    (line,) = idle_lines(rolls)
    named = ", ".join(str(n) for n in range(2, 2 * RUNS + 2, 2))
    rest = len(rolls) - RUNS
    assert (
        f"ana's lane: {len(rolls)} ({len(rolls)} free rolls with no consequence: rulings "
        f"{named}, and {rest} more runs up to ruling 398)"
    ) == line
