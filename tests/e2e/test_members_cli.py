"""Members, roles and disputes from the command line: `init --member`, `member add|remove|list`,
`--as MEMBER`, `dispute`, `disputes` and `resolve`, driven through click's runner on a SQLite
file. Every refusal exits 2, names its code on stderr and appends nothing."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import campaign
from engine import Engine
from tests.conftest import FROZEN_AT
from tests.e2e.conftest import Run

AT = FROZEN_AT.isoformat()
ALICE, BOB = "31415", "21144"  # the characters alice and bob play (their name dice)

SEATED = [
    'init "Night Shift" --system code-green --gm Rosa --member alice:player '
    "--member bob:player --member Vic:observer",
    "session start",
    'scene start "The cold room"',
    "character create --player alice --form Legs,Tail,Teeth "
    "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",  # ruling 4
    "character create --player bob --form Guts,Lungs,Blood "
    "--function Phasing,Invasive,Auxiliary --dice 2,1,1,4,4",  # ruling 5
]

DOCKLANDS = [
    'init "Docklands" --system sprawl-goons --gm Rosa --member ana:player --member ben:player',
    "session start",
    'scene start "Container stacks"',
    "character create Tanner --player ana --stats 2,1,1,0 --item melee:Katana "
    '--item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
    'character create Katya --player ben --stats 0,2,1,1 --item "ranged:Shard pistol" '
    "--item console --item credit-card --dice 6,2,3,3,4",
]


def played(run: Run, lines: list[str]) -> Run:
    for line in lines:
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    return run


@pytest.fixture
def seated(run: Run) -> Run:
    """Code Green: GM Rosa; alice and bob play 31415 and 21144; Vic watches. A running scene."""
    return played(run, SEATED)


@pytest.fixture
def docklands(run: Run) -> Run:
    """Sprawl Goons: GM Rosa; ana plays Tanner, ben plays Katya. A running scene."""
    return played(run, DOCKLANDS)


def ok(run: Run, line: str) -> str:
    result = run(line)
    assert 0 == result.exit_code, (line, result.output)
    return result.stdout


def data(run: Run, line: str) -> Any:
    """The JSON a successful command printed."""
    return json.loads(ok(run, line))


def refused(run: Run, count: Callable[[], int], line: str, code: str) -> str:
    """Run ``line``: exit 2, one stderr line naming ``code``, nothing appended. The reason."""
    before = count()
    result = run(line)
    assert 2 == result.exit_code, (line, result.output)
    (said,) = result.stderr.splitlines()
    assert said.startswith(f"error: {code}: "), said
    assert before == count()
    return said.removeprefix(f"error: {code}: ")


def events(ruling: dict[str, Any]) -> list[tuple[str, Any]]:
    """A ruling's events (from its JSON) as (type, data), in the order it wrote them."""
    return [(e["type"], e["data"]) for e in ruling["events"]]


# --- Members -----------------------------------------------------------------------------------


def test_init_seats_the_members_beside_the_gm(run: Run) -> None:
    """`init --member NAME:ROLE` records each member in the campaign's first ruling."""
    created = data(
        run,
        '--json init "Night Shift" --system code-green --gm Rosa --member alice:player '
        "--member Vic:observer",
    )
    assert (1, "init", "Rosa", AT) == (
        created["ruling"],
        created["command"],
        created["actor"],
        created["at"],
    )
    added = [d for t, d in events(created) if t == "MemberAdded"]
    assert [
        {"name": "alice", "role": "player", "characters": [], "names": []},
        {"name": "Vic", "role": "observer", "characters": [], "names": []},
    ] == added


@pytest.mark.parametrize("member", ["alice", "alice:wizard", ":player"])
def test_a_member_without_a_known_role_is_refused(
    run: Run, count: Callable[[], int], member: str
) -> None:
    """NAME:ROLE, the role one of gm, player, observer: else MEMBER_FORMAT and no campaign."""
    refused(run, count, f"init X --system code-green --gm Rosa --member {member}", "MEMBER_FORMAT")
    assert 0 == count()


def test_member_list_shows_roles_and_the_characters_each_plays(seated: Run) -> None:
    """The GM first, then the members as seated; a player plays the characters created for
    them."""
    assert [
        "Rosa (gm)",
        f"alice (player, plays {ALICE})",
        f"bob (player, plays {BOB})",
        "Vic (observer)",
    ] == ok(seated, "member list").splitlines()
    assert [
        {"name": "Rosa", "role": "gm", "characters": []},
        {"name": "alice", "role": "player", "characters": [ALICE]},
        {"name": "bob", "role": "player", "characters": [BOB]},
        {"name": "Vic", "role": "observer", "characters": []},
    ] == data(seated, "--json member list")


def test_the_gm_adds_and_removes_members(seated: Run, count: Callable[[], int]) -> None:
    """A player added with --character plays it (and may act for it); an observer added then
    removed is gone from the table and may no longer act."""
    added = data(seated, f"--json member add carol --role player --character {BOB}")
    assert (6, "member add", "Rosa") == (added["ruling"], added["command"], added["actor"])
    ((kind, member),) = events(added)
    assert ("MemberAdded", "carol", "player", [BOB]) == (
        kind,
        member["name"],
        member["role"],
        member["names"],
    )
    assert ["ruling 7: member add", "  dana joins the table as observer"] == ok(
        seated, "member add dana --role observer"
    ).splitlines()
    assert ["ruling 8: member remove", "  dana leaves the table"] == ok(
        seated, "member remove dana"
    ).splitlines()
    assert [
        ("Rosa", "gm", []),
        ("alice", "player", [ALICE]),
        ("bob", "player", [BOB]),
        ("Vic", "observer", []),
        ("carol", "player", [BOB]),
    ] == [(m["name"], m["role"], m["characters"]) for m in data(seated, "--json member list")]

    ok(seated, "--as carol place bob R1C3 R3C1 R2C2")
    reason = refused(seated, count, "--as dana dispute 4 --reason late", "NOT_A_MEMBER")
    assert reason.startswith("'dana' is not a member of this campaign's table")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param("member add alice --role observer", "MEMBER_EXISTS", id="seated-already"),
        pytest.param("member remove Rosa", "CANNOT_REMOVE_GM", id="the-gm"),
        pytest.param("member remove zed", "UNKNOWN_MEMBER", id="nobody"),
        pytest.param("--as alice member add eve --role player", "NOT_ALLOWED", id="player-adds"),
        pytest.param("--as alice member remove bob", "NOT_ALLOWED", id="player-removes"),
        pytest.param("--as Vic member remove bob", "NOT_ALLOWED", id="observer-removes"),
    ],
)
def test_member_changes_that_are_refused(
    seated: Run, count: Callable[[], int], line: str, code: str
) -> None:
    """Seating is the GM's, once per name; the creator stays GM; only members leave."""
    refused(seated, count, line, code)


# --- A character's player, seated by its creation -----------------------------------------------

CREATE = {
    "code-green": "character create --player {p} --form Legs,Tail,Teeth "
    "--function Cryptic,Invulnerable,Phasing --dice 3,1,4,1,5",
    "sims": "character create Neo --player {p} --quality Outdoorsman:Physical:Good "
    '--quality "Kung Fu:Combat:Good" --quality Gunplay:Combat:Average '
    "--quality Hiding:Physical:Average --quality Memory:Mental:Average "
    "--quality Hacking:Mental:Average --quality Charisma:Social:Average "
    "--quality Bluffing:Social:Poor --quality Hacker:Professional:Average "
    "--quality Courier:Professional:Average",
    "sprawl-goons": "character create Tanner --player {p} --stats 2,1,1,0 --item melee:Katana "
    '--item "armour:Kevlar jacket" --item lazarus --dice 3,4,5,2',
    "the-code": 'character create "The Hawk" --player {p} --identity "Mitch Mason" '
    '--description "tall" --profession "private eye" --advantage "keen eyes" '
    '--weakness "bum leg" --objective "catch criminals" --score 6 --mo "handcuffs"',
}


@pytest.mark.parametrize("system", sorted(CREATE))
def test_the_gm_creating_a_character_for_someone_without_a_seat_seats_them(
    run: Run, count: Callable[[], int], system: str
) -> None:
    """One ruling: the character, and carol seated as a player, said in its lines; carol then
    acts as a player, and the log verifies (its rulings decided again seat her the same)."""
    assert 0 == run(f"init Lab --system {system} --gm Rosa").exit_code
    result = data(run, "--json " + CREATE[system].format(p="carol"))
    added = [d for t, d in events(result) if t == "MemberAdded"]
    assert [{"name": "carol", "role": "player", "characters": [], "names": []}] == added
    assert "carol joins the table as player" in result["events"][-1]["text"]
    assert 2 == result["ruling"]
    assert ["Rosa (gm)", "carol (player, plays "] == [
        line[:21] for line in ok(run, "member list").splitlines()
    ]
    assert 0 == run("--as carol note 'here'").exit_code
    assert 0 == run("verify").exit_code  # the creation, decided again, seats her again


def test_a_seated_member_keeps_their_seat_and_a_refusal_seats_nobody(
    seated: Run, count: Callable[[], int]
) -> None:
    """Vic (an observer) is not made a player by a character created for him; a creation that
    is refused records no seat either; undoing the creation undoes the seat."""
    vics = data(seated, "--json " + CREATE["code-green"].format(p="Vic").replace("3,1,4", "6,1,4"))
    assert "MemberAdded" not in [t for t, _ in events(vics)]
    taken = CREATE["code-green"].format(p="dora")  # the name dice of alice's 31415 again
    refused(seated, count, taken, "NAME_TAKEN")
    assert "dora" not in ok(seated, "member list")
    assert 0 == seated(CREATE["code-green"].format(p="dora").replace("3,1,4", "5,1,4")).exit_code
    assert "dora (player" in ok(seated, "member list")
    assert 0 == seated('undo --reason "dora is not coming"').exit_code
    assert "dora" not in ok(seated, "member list")


# --- Acting as a member ------------------------------------------------------------------------


def test_a_player_acts_for_their_own_character(seated: Run) -> None:
    """`--as alice`: her calls for 31415 are recorded as hers (place, test and roll, a note)."""
    assert "ruling 6: place" == ok(seated, "--as alice place alice R1C1 R2C2 R3C3").splitlines()[0]
    ok(seated, "--as alice test alice Legs Invulnerable --roll")
    ok(seated, '--as alice note "the radio crackles"')
    ok(seated, '--as Vic dispute 7 --reason "that was lucky"')
    log = data(seated, "--json log")
    assert [
        (6, "place", "alice"),
        (7, "test", "alice"),
        (8, "note", "alice"),
        (9, "dispute", "Vic"),
    ] == [(r["ruling"], r["command"], r["actor"]) for r in log[5:]]


@pytest.mark.parametrize(
    ("line", "code", "rule"),
    [
        pytest.param(
            "--as alice place bob R1C3 R3C1 R2C2",
            "NOT_ALLOWED",
            "alice (player) may not place: bob is not one of alice's characters",
            id="another-players-character",
        ),
        pytest.param(
            f"--as alice test {BOB} Guts Phasing --roll --dice 2,5",
            "NOT_ALLOWED",
            f"alice (player) may not test: {BOB} is not one of alice's characters",
            id="another-players-test",
        ),
        pytest.param(
            "--as alice character create --player bob --form Legs,Tail,Teeth "
            "--function Cryptic,Invulnerable,Phasing --dice 6,6,6,6,6",
            "NOT_ALLOWED",
            "alice (player) may not character create: a player character creates as themself",
            id="a-character-for-another",
        ),
        pytest.param(
            "--as alice strain alice --to R1C2 --dice 1,3",
            "NOT_ALLOWED",
            "alice (player) may not strain: only the GM does that",
            id="gm-only-verb-strain",
        ),
        pytest.param(
            "--as alice scene end",
            "NOT_ALLOWED",
            "alice (player) may not scene end: only the GM does that",
            id="gm-only-verb-scene-end",
        ),
        pytest.param(
            '--as alice note "the guard is asleep" --gm-only',
            "NOT_ALLOWED",
            "alice (player) may not note: --gm-only is the GM's call",
            id="gm-call-option",
        ),
        pytest.param(
            '--as alice entropy "cold coffee" --by bob',
            "NOT_ALLOWED",
            "alice (player) may not entropy: a player entropys as themself",
            id="entropy-in-anothers-name",
        ),
        pytest.param(
            '--as alice undo --reason "I did not mean it"',
            "NOT_ALLOWED",
            "alice (player) may not undo: only the GM does that",
            id="player-undoes",
        ),
        pytest.param(
            '--as alice amend 4 --set player=alice --reason "mine"',
            "NOT_ALLOWED",
            "alice (player) may not amend: only the GM does that",
            id="player-amends",
        ),
        pytest.param(
            "--as Vic place alice R1C1 R2C2 R3C3",
            "NOT_ALLOWED",
            "Vic (observer) may not place: observers read the log and dispute rulings",
            id="observer-places",
        ),
        pytest.param(
            "--as Vic test alice Legs Invulnerable",
            "NOT_ALLOWED",
            "Vic (observer) may not test: observers read the log and dispute rulings",
            id="observer-tests",
        ),
        pytest.param(
            '--as Vic note "popcorn"',
            "NOT_ALLOWED",
            "Vic (observer) may not note: observers read the log and dispute rulings",
            id="observer-notes",
        ),
        pytest.param(
            '--as Vic entropy "static" --by Vic',
            "NOT_ALLOWED",
            "Vic (observer) may not entropy: observers read the log and dispute rulings",
            id="observer-adds-entropy",
        ),
        pytest.param(
            '--as Vic undo --reason "boring"',
            "NOT_ALLOWED",
            "Vic (observer) may not undo: only the GM does that",
            id="observer-undoes",
        ),
        pytest.param(
            "--as Mallory place alice R1C1 R2C2 R3C3",
            "NOT_A_MEMBER",
            "'Mallory' is not a member of this campaign's table",
            id="not-a-member-places",
        ),
        pytest.param(
            '--as Mallory dispute 4 --reason "rigged"',
            "NOT_A_MEMBER",
            "'Mallory' is not a member of this campaign's table",
            id="not-a-member-disputes",
        ),
    ],
)
def test_calls_outside_a_members_role_are_refused(
    seated: Run, count: Callable[[], int], line: str, code: str, rule: str
) -> None:
    """Another's character, a GM-only verb or option, an observer doing anything but dispute,
    a stranger: exit 2, the code and the rule on stderr, nothing appended."""
    assert refused(seated, count, line, code).startswith(rule)


def test_a_refusal_under_json_is_one_json_line_on_stderr(
    seated: Run, count: Callable[[], int]
) -> None:
    """The refusal's data names who, in which role, what and the rule; ``reason`` (deprecated)
    repeats the message for the scripts that read it."""
    before = count()
    result = seated('--json --as alice undo --reason "mine"')
    assert 2 == result.exit_code
    line = "alice (player) may not undo: only the GM does that (Members and roles)"
    assert {
        "code": "NOT_ALLOWED",
        "message": line,
        "reason": line,
        "data": {"who": "alice", "role": "player", "what": "undo", "rule": "only the GM does that"},
    } == json.loads(result.stderr)["error"]
    assert before == count()


def test_the_referees_calls_on_a_goons_roll_stay_the_referees(
    docklands: Run, count: Callable[[], int]
) -> None:
    """Sprawl Goons: ana rolls for Tanner, not for Katya; --glitch and --upgrade are the
    referee's calls (who may make that very roll)."""
    first = data(docklands, "--as ana --json roll Tanner reaction --ds 8")
    assert ("roll", "ana") == (first["command"], first["actor"])
    for option in ("glitch", "upgrade"):
        line = f"--as ana roll Tanner reaction --ds 8 --{option} --dice 3,4,5"
        reason = refused(docklands, count, line, "NOT_ALLOWED")
        assert f"ana (player) may not roll: --{option} is the GM's call" in reason
    reason = refused(
        docklands, count, "--as ana roll Katya reaction --ds 8 --dice 3,4", "NOT_ALLOWED"
    )
    assert "Katya is not one of ana's characters" in reason
    called = data(docklands, "--json roll Tanner reaction --ds 8 --glitch --dice 3,4,5")
    assert ("Rosa", [3, 4, 5]) == (called["actor"], [d["face"] for d in called["dice"]])


# --- Disputes ----------------------------------------------------------------------------------

TOKENS = "my tokens were on other squares"
NOT_INVULNERABLE = "Legs do not make a lock invulnerable"
NO_TEST = "the guard was asleep: no test at all"
STANDS = "the grid says so"
A_PUZZLE = "the lock is a puzzle, not a wall"
NOTHING = "nothing to test"


@pytest.fixture
def disputed(seated: Run) -> Run:
    """Alice places her tokens (6) and tests (7); she disputes 6 (dispute 1), Vic disputes 7
    (dispute 2)."""
    ok(seated, "--as alice place alice R1C1 R2C2 R3C3")
    ok(seated, "--as alice test alice Legs Invulnerable --roll")
    ok(seated, f'--as alice dispute 6 --reason "{TOKENS}"')
    ok(seated, f'--as Vic dispute 7 --reason "{NOT_INVULNERABLE}"')
    return seated


def test_a_dispute_is_a_ruling_of_its_own_and_stays_open(seated: Run) -> None:
    """`dispute` records who disputes which ruling and why; `disputes` lists it open."""
    ok(seated, "--as alice place alice R1C1 R2C2 R3C3")
    raised = data(seated, f'--as alice --json dispute 6 --reason "{TOKENS}"')
    assert (7, "dispute", "alice", AT, 1, 1) == (
        raised["ruling"],
        raised["command"],
        raised["actor"],
        raised["at"],
        raised["session"],
        raised["scene"],
    )
    assert [("RulingDisputed", {"dispute": 1, "ruling": 6, "by": "alice", "reason": TOKENS})] == (
        events(raised)
    )
    assert f"dispute 1: alice disputes ruling 6: {TOKENS}" == raised["events"][0]["text"]
    assert [
        {
            "dispute": 1,
            "ruling": 6,
            "by": "alice",
            "reason": TOKENS,
            "outcome": None,
            "resolution": "",
        }
    ] == data(seated, "--json disputes")
    assert [f"dispute 1: ruling 6, by alice: {TOKENS} (open)"] == ok(
        seated, "disputes"
    ).splitlines()


@pytest.mark.parametrize(
    ("line", "code"),
    [
        pytest.param('--as alice dispute 6 --reason "again"', "ALREADY_DISPUTED", id="twice"),
        pytest.param('--as alice dispute 99 --reason "what?"', "UNKNOWN_RULING", id="no-ruling"),
        pytest.param('--as bob dispute 6 --reason " "', "EMPTY_TEXT", id="no-reason"),
        pytest.param('--as alice resolve 1 upheld --reason "mine"', "NOT_ALLOWED", id="player"),
        pytest.param('--as Vic resolve 2 undone --reason "mine"', "NOT_ALLOWED", id="observer"),
        pytest.param(
            '--as alice resolve 2 amended --set function=Cryptic --reason "mine"',
            "NOT_ALLOWED",
            id="player-amends",
        ),
        pytest.param('resolve 3 upheld --reason "?"', "UNKNOWN_DISPUTE", id="unknown-upheld"),
        pytest.param('resolve 3 undone --reason "?"', "UNKNOWN_DISPUTE", id="unknown-undone"),
        pytest.param('resolve 3 amended --reason "?"', "UNKNOWN_DISPUTE", id="unknown-amended"),
        pytest.param('resolve 1 upheld --reason " "', "EMPTY_TEXT", id="no-resolution"),
        pytest.param(
            'resolve 2 amended --set colour=red --reason "?"',
            "UNKNOWN_PARAMETER",
            id="bad-correction",
        ),
    ],
)
def test_dispute_and_resolve_refusals(
    disputed: Run, count: Callable[[], int], line: str, code: str
) -> None:
    """A second open dispute of the same ruling by the same member, a ruling not in the log, a
    member other than the GM resolving, a dispute never raised: refused, nothing appended,
    both disputes still open."""
    refused(disputed, count, line, code)
    assert [1, 2] == [d["dispute"] for d in data(disputed, "--json disputes")]


def test_the_gm_resolves_disputes_upheld_amended_and_undone(
    disputed: Run, count: Callable[[], int]
) -> None:
    """Upheld: a `resolve` ruling. Amended: the amendment of ruling 7 (Legs x Cryptic, the same
    dice) resolves dispute 2. Alice disputes 7 again; undone: the undo of 7 resolves dispute 3.
    A resolved dispute is no longer open; `disputes --all`, the log (text and JSON) and the
    recap (JSON and Markdown) say how each ended."""
    upheld = data(disputed, f'--json resolve 1 upheld --reason "{STANDS}"')
    assert (10, "resolve", "Rosa") == (upheld["ruling"], upheld["command"], upheld["actor"])
    resolved = {"dispute": 1, "ruling": 6, "outcome": "upheld", "reason": STANDS}
    assert [("DisputeResolved", resolved)] == events(upheld)
    refused(disputed, count, f'resolve 1 undone --reason "{STANDS}"', "UNKNOWN_DISPUTE")

    tested = next(r for r in data(disputed, "--json log") if r["ruling"] == 7)
    amended = data(
        disputed, f'--json resolve 2 amended --set function=Cryptic --reason "{A_PUZZLE}"'
    )
    assert (11, "amend", "Rosa", tested["dice"][:1]) == (
        amended["ruling"],
        amended["command"],
        amended["actor"],
        amended["dice"],
    )
    resolved = {"dispute": 2, "ruling": 7, "outcome": "amended", "reason": A_PUZZLE}
    assert [("DisputeResolved", resolved)] == [
        (t, d) for t, d in events(amended) if t == "DisputeResolved"
    ]
    assert {7} == {d["ruling"] for t, d in events(amended) if t == "RulingAmended"}

    ok(disputed, f'--as alice dispute 7 --reason "{NO_TEST}"')  # 12
    undone = data(disputed, f'--json resolve 3 undone --reason "{NOTHING}"')
    assert (13, "undo", "Rosa") == (undone["ruling"], undone["command"], undone["actor"])
    resolved = {"dispute": 3, "ruling": 7, "outcome": "undone", "reason": NOTHING}
    assert [("DisputeResolved", resolved)] == [
        (t, d) for t, d in events(undone) if t == "DisputeResolved"
    ]
    assert {7} == {d["ruling"] for t, d in events(undone) if t == "RulingRetracted"}

    # The disputes.
    assert [] == data(disputed, "--json disputes")
    assert ["no open disputes"] == ok(disputed, "disputes").splitlines()
    assert [
        {"dispute": 1, "ruling": 6, "by": "alice", "reason": TOKENS},
        {"dispute": 2, "ruling": 7, "by": "Vic", "reason": NOT_INVULNERABLE},
        {"dispute": 3, "ruling": 7, "by": "alice", "reason": NO_TEST},
    ] == [
        {k: d[k] for k in ("dispute", "ruling", "by", "reason")}
        for d in data(disputed, "--json disputes --all")
    ]
    assert [
        f"dispute 1: ruling 6, by alice: {TOKENS} (upheld: {STANDS})",
        f"dispute 2: ruling 7, by Vic: {NOT_INVULNERABLE} (amended: {A_PUZZLE})",
        f"dispute 3: ruling 7, by alice: {NO_TEST} (undone: {NOTHING})",
    ] == ok(disputed, "disputes --all").splitlines()

    # The log, as JSON: each ruling's disputes (as `disputes` gives them) and corrections.
    log = {r["ruling"]: r for r in data(disputed, "--json log")}
    assert [
        {
            "dispute": 1,
            "ruling": 6,
            "by": "alice",
            "reason": TOKENS,
            "outcome": "upheld",
            "resolution": STANDS,
        }
    ] == log[6]["disputes"]
    assert (None, []) == (log[6]["undone"], log[6]["amended"])
    assert [
        {
            "dispute": 2,
            "ruling": 7,
            "by": "Vic",
            "reason": NOT_INVULNERABLE,
            "outcome": "amended",
            "resolution": A_PUZZLE,
        },
        {
            "dispute": 3,
            "ruling": 7,
            "by": "alice",
            "reason": NO_TEST,
            "outcome": "undone",
            "resolution": NOTHING,
        },
    ] == log[7]["disputes"]
    assert {"by": 13, "actor": "Rosa", "reason": NOTHING} == log[7]["undone"]
    assert [(11, "amended", "Rosa", A_PUZZLE)] == [
        (a["by"], a["kind"], a["actor"], a["reason"]) for a in log[7]["amended"]
    ]
    assert ({"ruling": 7, "dispute": 2}, {"ruling": 7, "dispute": 3}) == (
        {k: log[11]["params"][k] for k in ("ruling", "dispute")},
        {k: log[13]["params"][k] for k in ("ruling", "dispute")},
    )
    assert [] == log[10]["disputes"]

    # The log, as text: under each ruling, its disputes and how they ended.
    text = ok(disputed, "log").splitlines()
    under_6 = text[text.index("#6 2026-11-29 19:30 alice: place [session 1, scene 1]") + 1]
    assert f"  DISPUTED (dispute 1) by alice: {TOKENS}; upheld: {STANDS}" == under_6
    at_7 = text.index("#7 2026-11-29 19:30 alice: test [session 1, scene 1]")
    assert [
        f"  UNDONE by #13 (Rosa): {NOTHING}",
        f"  DISPUTED (dispute 2) by Vic: {NOT_INVULNERABLE}; amended: {A_PUZZLE}",
        f"  DISPUTED (dispute 3) by alice: {NO_TEST}; undone: {NOTHING}",
    ] == text[at_7 + 1 : at_7 + 4]

    # The recap, as JSON and as Markdown.
    recap = data(disputed, "recap --format json")
    assert [
        (1, 6, "alice", "upheld", STANDS, 10, "Rosa"),
        (2, 7, "Vic", "amended", A_PUZZLE, 11, "Rosa"),
        (3, 7, "alice", "undone", NOTHING, 13, "Rosa"),
    ] == [
        (
            d["dispute"],
            d["ruling"],
            d["by"],
            d["outcome"],
            d["resolution"],
            d["resolved_by"],
            d["actor"],
        )
        for d in recap["disputes"]
    ]
    assert [(7, "amended", 11), (7, "undone", 13)] == [
        (c["ruling"], c["kind"], c["by"]) for c in recap["corrections"]
    ]
    markdown = ok(disputed, "recap").split("\n## Disputes\n\n")[1]
    assert [
        f"- Dispute 1: alice disputes ruling #6: {TOKENS}. Upheld by #10 (Rosa): {STANDS}.",
        f"- Dispute 2: Vic disputes ruling #7: {NOT_INVULNERABLE}. "
        f"Amended by #11 (Rosa): {A_PUZZLE}.",
        f"- Dispute 3: alice disputes ruling #7: {NO_TEST}. Undone by #13 (Rosa): {NOTHING}.",
    ] == markdown.splitlines()


# --- Invites -----------------------------------------------------------------------------------

ZION = "init Zion --system sims --gm Morpheus --member alice:player"
NEON = 'init "Neon Alley" --system sprawl-goons --gm Rosa --member ana:player'


def grants(db: Path) -> int:
    """How many sign-in secrets (and server settings) the store keeps beside its log."""
    with sqlite3.connect(db) as connection:
        made = connection.execute("SELECT count(*) FROM sqlite_master WHERE name='access_secrets'")
        if not made.fetchone()[0]:
            return 0
        return int(connection.execute("SELECT count(*) FROM access_secrets").fetchone()[0])


def signs_in(db: str, link: str) -> tuple[str, str]:
    """The campaign and the member an invite link signs in (spending it)."""
    with Engine(db) as engine:
        signed = engine.sign_in(link.strip().rsplit("/", 1)[1])
    return signed.campaign, signed.member


def test_member_invite_names_its_campaign_and_needs_it_named_among_several(
    run: Run, db: Path, count: Callable[[], int]
) -> None:
    """The link is printed alone (stdout, to copy), the campaign and member it is for on stderr.
    With two campaigns in the store, an invite without --campaign is refused
    CAMPAIGN_NOT_NAMED (exit 2), whichever is current, and makes no link; named, it is that
    campaign's."""
    played(run, [ZION])
    one = run("member invite alice --url https://table.example.org/")
    assert 0 == one.exit_code, one.output
    assert one.stdout.startswith("https://table.example.org/join/")
    assert "alice's sign-in link to Zion (once, for a week):\n" == one.stderr
    assert ("Zion", "alice") == signs_in(str(db), one.stdout)
    played(run, [NEON])  # the current campaign now
    before = grants(db)
    said = refused(run, count, "member invite ana --url https://t.example", "CAMPAIGN_NOT_NAMED")
    assert "this store holds 2 campaigns ('Neon Alley', 'Zion')" in said
    assert "`campaign --campaign NAME member invite ...`" in said
    refused(run, count, "member invite ana --discord", "CAMPAIGN_NOT_NAMED")
    assert before == grants(db)
    named = run('--campaign "Neon Alley" member invite ana --url https://t.example')
    assert 0 == named.exit_code, named.output
    assert "ana's sign-in link to Neon Alley (once, for a week):\n" == named.stderr
    assert ("Neon Alley", "ana") == signs_in(str(db), named.stdout)
    printed = data(run, "--json --campaign Zion member invite alice --url https://t.example")
    assert ["campaign", "link", "member"] == sorted(printed)
    assert ("Zion", "alice") == (printed["campaign"], printed["member"])
    code = run("--campaign Zion member invite alice --discord")
    assert "alice's /join code for Zion (once, for a week):\n" == code.stderr
    assert code.stdout.startswith("/join code:")


def test_invite_links_use_the_address_the_server_is_reached_at(
    run: Run, db: Path, count: Callable[[], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No address known: NO_SERVER_ADDRESS, no link made. `serve --port 8123` remembers where it
    listens, and links follow it (with a note: that is not a public address); `serve
    --public-url` remembers the public address, which then stands whatever port a later server
    takes; `--url` overrides both; an address no browser opens is refused before serving."""
    started: list[object] = []
    monkeypatch.setattr("web.serve", lambda app, host, port: started.append(port))
    monkeypatch.delenv("CAMPAIGN_PUBLIC_URL", raising=False)
    played(run, [ZION])
    refused(run, count, "member invite alice", "NO_SERVER_ADDRESS")
    assert 0 == grants(db)
    served = run("serve --port 8123")
    assert 0 == served.exit_code, served.output
    assert "invite links (`campaign member invite`) open http://127.0.0.1:8123\n" in served.stderr
    local = run("member invite alice")
    assert local.stdout.startswith("http://127.0.0.1:8123/join/")
    assert (
        "note: http://127.0.0.1:8123 is where `campaign serve` last listened; for players on "
        "other machines, run it with --public-url URL"
    ) in local.stderr
    assert 0 == run("serve --port 8000 --public-url https://table.example.org/").exit_code
    assert 0 == run("serve --port 9000").exit_code
    public = run("member invite alice")
    assert public.stdout.startswith("https://table.example.org/join/")
    assert "note" not in public.stderr
    assert run("member invite alice --url http://10.0.0.5:8000").stdout.startswith(
        "http://10.0.0.5:8000/join/"
    )
    refused(run, count, "serve --public-url table.example.org", "INVALID_SERVER_ADDRESS")
    refused(run, count, "member invite alice --url ftp://t.example", "INVALID_SERVER_ADDRESS")
    assert [8123, 8000, 9000] == started


@pytest.mark.postgres
def test_the_public_address_is_remembered_on_postgresql_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`serve --public-url` on a PostgreSQL store, then `member invite` from another process's
    command line: the link is at the public address."""
    from tests.postgres import fresh_schema

    monkeypatch.setattr("web.serve", lambda app, host, port: None)
    monkeypatch.delenv("CAMPAIGN_PUBLIC_URL", raising=False)
    runner = CliRunner()
    with fresh_schema() as url:

        def line(words: str) -> Any:
            return runner.invoke(campaign, ["--db", url, *shlex.split(words)])

        assert 0 == line(ZION).exit_code
        assert 0 == line("serve --pool 3 --public-url https://table.example.org").exit_code
        link = line("member invite alice")
        assert 0 == link.exit_code, link.output
        assert link.stdout.startswith("https://table.example.org/join/")
        assert ("Zion", "alice") == signs_in(url, link.stdout)
