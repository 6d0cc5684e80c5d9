"""Generated invalid commands in the four systems (wrong die faces, unknown names, out-of-range
numbers, illegal moves, wrong order), through the engine and through the `campaign` command:
each is refused with a typed error and a one-line reason, no traceback, nothing appended."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import campaign
from domain.commands import Command
from domain.errors import DomainError
from domain.rulesets.code_green import commands as cg
from domain.rulesets.sims import commands as sims
from domain.rulesets.sprawl_goons import commands as sg
from domain.rulesets.the_code import commands as tc
from engine import Engine
from engine.dice.sources import DiceSpec
from tests.conftest import S1_FORM, S1_FUNCTION, event_count

SETUPS: dict[str, list[str]] = {
    "code-green": [
        'init "Night Shift" --system code-green --gm Rosa',
        "session start",
        'scene start "The cold room"',
        "character create --player alice --form Legs,Tail,Teeth "
        "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
        "character create --player bob --form Guts,Lungs,Blood "
        "--function Phasing,Invasive,Auxiliary --dice 2,1,1,4,4",
        "place alice R1C1 R2C2 R3C3",
        "place bob R1C3 R3C1 R2C2",
    ],
    "the-code": [
        'init "Rain City" --system the-code --gm Sam',
        'character create "The Hawk" --player dana --identity "Mitch Mason" '
        '--description "tall, trench coat" --profession "private eye" --advantage "keen eyes" '
        '--weakness "bum leg" --objective "catch criminals" --score 6 --mo "phone booth" '
        "--exposure 1 --reward-points 30",
        "session start",
    ],
    "sprawl-goons": [
        'init "Docklands" --system sprawl-goons --gm Rosa',
        "session start",
        'scene start "Container stacks"',
        "character create Tanner --player ana --stats 2,1,1,0 --item melee:Katana "
        '--item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
        "npc Zoner --ds moderate",
    ],
    "sims": [
        'init "Bar Fight" --system sims --gm Lotus',
        "session start",
        'scene start "The Rusty Spanner"',
        'character create Kristov --player kim --custom --quality "Dirty Fighter:Combat:Good" '
        "--quality Brawler:Combat:Good --quality Rockstar:Professional:Average",
        "character create Jefferson --npc --quality Biker:Combat:Expert",
    ],
}
SYSTEMS = sorted(SETUPS)
KNOWN = {"alice", "bob", "31415", "21144", "the hawk", "dana", "tanner", "ana", "zoner"}
KNOWN |= {"kristov", "kim", "jefferson"}

# Names no roster holds (every known name starts otherwise).
unknown_names = st.from_regex(r"\Azz[a-z]{0,8}\Z").filter(lambda n: n.lower() not in KNOWN)
# Faces no die of these systems shows (they roll d6 and d10).
bad_faces = st.integers(-5, 0) | st.integers(11, 10_000)


def with_bad_face(good: tuple[int, ...]) -> st.SearchStrategy[tuple[int, ...]]:
    """``good`` faces with one replaced by an impossible face at a drawn position."""
    return st.tuples(st.integers(0, len(good) - 1), bad_faces).map(
        lambda pair: (*good[: pair[0]], pair[1], *good[pair[0] + 1 :])
    )


Case = tuple[Command, tuple[int, ...]]


def no_dice(commands: st.SearchStrategy[Command]) -> st.SearchStrategy[Case]:
    return commands.map(lambda command: (command, ()))


ENGINE_CASES: dict[str, st.SearchStrategy[Case]] = {
    "code-green": st.one_of(
        no_dice(
            st.one_of(
                unknown_names.map(
                    lambda n: cg.DeclareTest(character=n, form="Legs", function="Invulnerable")
                ),
                unknown_names.map(
                    lambda n: cg.PlaceTokens(character=n, squares=("R1C1", "R2C2", "R3C3"))
                ),
                unknown_names.map(lambda n: cg.DisplaceToken(character=n, destination="R1C2")),
                unknown_names.map(lambda n: cg.Recover(character=n)),
                st.sampled_from(
                    [cg.RollTest(), cg.Adapt(character="alice"), cg.SufferStrain(character="alice")]
                ),
                st.builds(
                    lambda n: cg.AssistTest(helper="bob", square="R1C3", justification=n),
                    st.text(max_size=5),
                ),
                st.tuples(st.integers(-3, 9), st.integers(-3, 9))
                .filter(lambda rc: not (1 <= rc[0] <= 3 and 1 <= rc[1] <= 3))
                .map(
                    lambda rc: cg.DisplaceToken(character="alice", destination=f"R{rc[0]}C{rc[1]}")
                ),
                st.sampled_from(["Legs", "Wings", ""]).map(
                    lambda form: cg.DeclareTest(character="alice", form=form, function="Wheels")
                ),
            )
        ),
        st.tuples(
            st.just(cg.CreateCharacter(player="carol", form=S1_FORM, function=S1_FUNCTION)),
            with_bad_face((1, 2, 3, 4, 5)),
        ),
    ),
    "the-code": st.one_of(
        no_dice(
            st.one_of(
                unknown_names.map(lambda n: tc.UseMotivation(hero=n, dice=1)),
                unknown_names.map(lambda n: tc.FollowMo(hero=n, description="phone booth")),
                unknown_names.map(lambda n: tc.LowerExposure(hero=n)),
                unknown_names.map(lambda n: tc.BuyMotivation(hero=n)),
                st.integers(-50, 0).map(lambda d: tc.TakeDaysOff(hero="The Hawk", days=d)),
                (st.integers(-50, 0) | st.integers(4, 50)).map(
                    lambda d: tc.UseMotivation(hero="The Hawk", dice=d)
                ),
            )
        ),
        st.tuples(st.just(tc.UseMotivation(hero="The Hawk", dice=1)), with_bad_face((6,))),
    ),
    "sprawl-goons": st.one_of(
        no_dice(
            st.one_of(
                unknown_names.map(lambda n: sg.ChangeCash(character=n, delta=5, reason="a tip")),
                unknown_names.map(lambda n: sg.Rest(characters=(n,))),
                unknown_names.map(lambda n: sg.ApplyPatch(character=n)),
                st.integers(-10_000, -1_000).map(
                    lambda d: sg.ChangeCash(character="Tanner", delta=d, reason="a bribe")
                ),
                st.just(sg.ChangeCash(character="Tanner", delta=0, reason="nothing")),
                st.tuples(*(st.integers(-3, 5) for _ in range(4)))
                .filter(lambda s: min(s) < 0 or sum(s) != 4)
                .map(
                    lambda s: sg.CreateCharacter(
                        character="Vex",
                        player="cy",
                        morphology=s[0],
                        reaction=s[1],
                        cognition=s[2],
                        equilibrium=s[3],
                        items=("penlight",) * 3,
                    )
                ),
            )
        ),
        st.tuples(
            st.just(
                sg.CreateCharacter(
                    character="Vex",
                    player="cy",
                    morphology=1,
                    reaction=1,
                    cognition=1,
                    equilibrium=1,
                    items=("penlight", "drone", "toolkit"),
                )
            ),
            with_bad_face((3, 4, 5)),
        ),
    ),
    "sims": st.one_of(
        no_dice(
            st.one_of(
                unknown_names.map(
                    lambda n: sims.RollComplicated(
                        character=n, qualities=("Brawler",), difficulty="Good"
                    )
                ),
                unknown_names.map(lambda n: sims.UpgradeQuality(character=n, quality="Brawler")),
                unknown_names.map(
                    lambda n: sims.RollComplicated(
                        character="Kristov", qualities=(n,), difficulty="Good"
                    )
                ),
                st.sampled_from(["Legendary", "", "good-ish"]).map(
                    lambda d: sims.RollComplicated(
                        character="Kristov", qualities=("Brawler",), difficulty=d
                    )
                ),
                st.just(sims.AllocateRanks(character="Kristov", steps=("Brawler",))),
                st.just(sims.EndTurn()),
            )
        ),
        st.tuples(
            st.just(
                sims.RollComplicated(character="Kristov", qualities=("Brawler",), difficulty="Good")
            ),
            with_bad_face((3, 4)),
        ),
    ),
}

CAMPAIGNS = {system: shlex.split(lines[0])[1] for system, lines in SETUPS.items()}


def run_line(db: Path, line: str) -> Any:
    return CliRunner().invoke(campaign, ["--db", str(db), *shlex.split(line)])


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One SQLite store per system, set up through the CLI."""
    stores = {}
    for system, lines in SETUPS.items():
        db = tmp_path_factory.mktemp(system) / "campaign.db"
        for line in lines:
            result = run_line(db, line)
            assert 0 == result.exit_code, (line, result.output)
        stores[system] = db
    return stores


REASON = re.compile(r"\Aerror: [A-Z][A-Z_]+: \S.*\n\Z")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_engine_refuses_every_bad_command(
    tables: dict[str, Path], system: str, data: st.DataObject
) -> None:
    """200 generated bad commands per system: a DomainError with a code and a one-line reason,
    and the store holds the same events."""
    command, faces = data.draw(ENGINE_CASES[system])
    with Engine(str(tables[system])) as engine:
        before = event_count(engine)
        with pytest.raises(DomainError) as refused:
            engine.execute(CAMPAIGNS[system], command, dice=DiceSpec(faces=faces))
        assert before == event_count(engine)
    assert re.fullmatch(r"[A-Z][A-Z_]+", refused.value.code)
    assert refused.value.reason.strip()
    assert "\n" not in refused.value.reason


def faces_text(faces: tuple[int, ...]) -> str:
    return ",".join(str(f) for f in faces)


CLI_CASES: dict[str, st.SearchStrategy[str]] = {
    "code-green": st.one_of(
        unknown_names.map(lambda n: f"test {n} Legs Invulnerable"),
        unknown_names.map(lambda n: f"place {n} R1C1 R2C2 R3C3"),
        st.sampled_from(
            ["roll --dice 2,5", "adapt alice R1C1 R1C2", 'scene start "again"', "session start"]
        ),
        with_bad_face((1, 2, 3, 4, 5)).map(
            lambda f: (
                "character create --player carol --form Legs,Tail,Teeth "
                f"--function Cryptic,Invulnerable,Phasing --dice {faces_text(f)}"
            )
        ),
    ),
    "the-code": st.one_of(
        unknown_names.map(lambda n: f"motivation {n} 1 --dice 6"),
        unknown_names.map(lambda n: f'mo {n} "phone booth"'),
        unknown_names.map(lambda n: f"lower-exposure {n}"),
        with_bad_face((6,)).map(lambda f: f'motivation "The Hawk" 1 --dice {faces_text(f)}'),
        st.just("session start"),
    ),
    "sprawl-goons": st.one_of(
        unknown_names.map(lambda n: f"cash {n} --gain 5 --reason tip"),
        unknown_names.map(lambda n: f"rest {n}"),
        st.integers(1_000, 10**6).map(lambda d: f"cash Tanner --spend {d} --reason bribe"),
        st.sampled_from(["cash Tanner --reason nothing", "session start"]),
        with_bad_face((3, 4, 5)).map(
            lambda f: (
                "character create Vex --player cy --stats 1,1,1,1 --item penlight "
                f"--item drone --item toolkit --dice {faces_text(f)}"
            )
        ),
    ),
    "sims": st.one_of(
        unknown_names.map(lambda n: f"roll {n} Brawler --difficulty Good --dice 3,4"),
        unknown_names.map(lambda n: f"roll Kristov {n} --difficulty Good --dice 3,4"),
        with_bad_face((3, 4)).map(
            lambda f: f"roll Kristov Brawler --difficulty Good --dice {faces_text(f)}"
        ),
        st.sampled_from(
            ["roll Kristov Brawler --difficulty Legendary --dice 3,4", "next", "session start"]
        ),
    ),
}


@settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_cli_refuses_every_bad_command(
    tables: dict[str, Path], system: str, data: st.DataObject
) -> None:
    """75 generated bad command lines per system: exit 2, one `error: CODE: reason` line on
    stderr, no traceback, and the store holds the same events."""
    line = data.draw(CLI_CASES[system])
    with Engine(str(tables[system])) as engine:
        before = event_count(engine)
    result = run_line(tables[system], line)
    with Engine(str(tables[system])) as engine:
        after = event_count(engine)
    assert (2, before) == (result.exit_code, after), (line, result.output)
    assert isinstance(result.exception, SystemExit), line
    assert REASON.match(result.stderr), (line, result.stderr)
    assert "Traceback" not in result.output
