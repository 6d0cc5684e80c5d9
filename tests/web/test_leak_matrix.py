"""The leak matrix: one secret of each kind planted in a campaign (a hidden roll, a hidden post,
a hidden ruling's ``--say``, a GM-only note, the GM's private post to one player, a player's
private post to the GM only), then the campaign read through every read there is (the
engine's reads, the CLI's reads and formats, the HTTP API, the Discord answers and the
webhook bodies) as every audience (the GMs, the GM's seat, each player, the observer, the
table). Each secret reaches exactly its readers, asserted both ways: what a read shows the GMs
of the secrets, it shows each audience that may read them, and nothing more.

A read added to the engine, the CLI or the API without a line here fails
``test_every_read_is_in_the_matrix``."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import re
import shlex
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar.testing import TestClient

from cli.main import campaign as campaign_cli
from domain.audience import GMS, TABLE, Audience, Member
from domain.errors import DomainError
from domain.events import Role
from domain.free_rolls import RollFreely
from domain.links import LinkChannel, LinkMember
from domain.posts import WritePost
from domain.rulesets.the_code.commands import RollExposure
from domain.table import AddMember
from engine import DiceSpec, Engine, converter
from projections.format_list import DISCORD, FORMATS, JSON
from projections.formats import messages, render
from tests.conftest import event_count
from tests.e2e.test_discord_post import Webhook, webhook  # noqa: F401 (a fixture)
from tests.golden.test_the_code import HAWK
from tests.golden.test_the_code import table as the_code_table
from tests.web.conftest import (
    CAMPAIGN,
    FROM_BOB,
    GM_NOTE,
    HIDDEN_WHY,
    MEMBER,
    TO_BOB,
    Table,
    build_table,
)
from tests.web.discord_standin import discord_api
from web import create_app
from web.discord import interactions

HIDDEN_POST = "The squids gather below the rooftop."
HIDDEN_SAY = "Smith counts the exits twice."
GM = MEMBER["gm"]  # Morpheus
LAB, LAB_GM = "Lab", "Sam"  # The Code's campaign, for the Exposure timelines
# Each secret by the words that give it away, and who may read it besides the GMs.
SECRETS: dict[str, tuple[str, frozenset[str]]] = {
    "private post to bob": (TO_BOB, frozenset({"bob"})),
    "bob's post to the GM only": (FROM_BOB, frozenset({"bob"})),
    "GM-only note": (GM_NOTE, frozenset()),
    "hidden roll": (HIDDEN_WHY, frozenset()),
    "hidden post": (HIDDEN_POST, frozenset()),
    "hidden --say": (HIDDEN_SAY, frozenset()),
    "hidden Exposure roll": ("the detail it revealed", frozenset()),  # in The Code's 'Lab'
}
# Each secret's searchable word (search asks for words, not sentences).
WORDS = {
    "private post to bob": "steak",
    "bob's post to the GM only": "Agent",
    "GM-only note": "twin",
    "hidden roll": "sentinels",
    "hidden post": "squids",
    "hidden --say": "exits",
    "hidden Exposure roll": "trench coat",  # the Hawk's detail the hidden roll revealed
}
ZION = set(SECRETS) - {"hidden Exposure roll"}  # those planted in the Sims campaign
AUDIENCES: dict[str, Audience] = {
    "the GMs": GMS,
    "GM's seat": Member(GM),
    "alice": Member("alice"),
    "bob": Member("bob"),
    "olly (observer)": Member("olly"),
    "the table": TABLE,
}
ROLE_OF = {"GM's seat": "gm", "alice": "player", "bob": "other", "olly (observer)": "observer"}
CHANNEL, GM_ACCOUNT, BOB_ACCOUNT = (
    "1100000000000000001",
    "2200000000000000001",
    "2200000000000000003",
)
NOW = 1_796_000_000
SENT = itertools.count()  # the interactions' ids, new for each one sent in this module


def readers(secret: str, audience: Audience) -> bool:
    """Whether ``audience`` may read ``secret``."""
    if audience in (GMS, Member(GM), Member(LAB_GM)):
        return True
    return isinstance(audience, Member) and audience.name in SECRETS[secret][1]


def shown(text: str) -> set[str]:
    """The secrets ``text`` gives away (by a word of each: HTML escapes the rest's quotes), the
    words a search was asked for not counted where it says them back."""
    text = re.sub(r'"query":\s*"[^"]*"|nothing written holds \'[^\']*\'', "", text)
    return {name for name, word in WORDS.items() if word in text}


def plant(db: str) -> Table:
    """The server tests' table (the GM's private post to bob, bob's reply to the GM only, a
    GM-only note, a hidden roll), with a hidden post and a hidden ruling's narration, and the
    Discord channel and the GM's and bob's accounts linked."""
    table = build_table(db)
    with Engine(db) as engine:
        post = WritePost(text=HIDDEN_POST, by=GM)
        engine.execute(CAMPAIGN, post, hidden=True)
        roll = RollFreely(expression="1d20", why="")
        engine.execute(CAMPAIGN, roll, dice=DiceSpec(faces=(17,)), hidden=True, say=HIDDEN_SAY)
        engine.execute(CAMPAIGN, LinkChannel(channel=CHANNEL))
        engine.execute(CAMPAIGN, LinkMember(member=GM, discord=GM_ACCOUNT))
        engine.execute(CAMPAIGN, LinkMember(member="bob", discord=BOB_ACCOUNT))
        the_code_table(engine, exposure=1)  # 'Lab': the GM's seat is Sam's
        engine.execute(LAB, AddMember(member="dana", role=Role.PLAYER))  # the Hawk's player
        exposure = RollExposure(hero=HAWK)
        engine.execute(LAB, exposure, dice=DiceSpec(faces=(4,)), hidden=True)  # reveals a detail
        lab = {role: engine.token(LAB, name) for role, name in (("gm", LAB_GM), ("player", "dana"))}
    return Table(db=table.db, tokens={**table.tokens, **{f"lab {r}": t for r, t in lab.items()}})


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Table:
    return plant(str(tmp_path_factory.mktemp("leaks") / "zion.db"))


# --- The engine's reads --------------------------------------------------------------------


def _json(value: Any) -> str:
    return json.dumps(converter.unstructure(value), default=str, ensure_ascii=False)


def _searched(engine: Engine, audience: Audience) -> str:
    return "".join(_json(engine.search(CAMPAIGN, w, audience=audience)) for w in WORDS.values())


def _every_format(kind: str, view: Any) -> str:
    """The view in every registered format (projections.formats), and as Discord messages."""
    rendered = [render(kind, fmt, view) for fmt in FORMATS]
    return json.dumps([*rendered, *messages(kind, view)], default=str, ensure_ascii=False)


def _thread(engine: Engine, audience: Audience) -> str:
    return _every_format("thread", engine.thread(CAMPAIGN, audience=audience))


def _recap(engine: Engine, audience: Audience) -> str:
    return _every_format("recap", engine.recap(CAMPAIGN, audience=audience, gm=True))


Read = Callable[[Engine, Audience], str]
ENGINE_READS: dict[str, Read] = {
    "log": lambda e, a: _json(e.log(CAMPAIGN, audience=a)),
    "iter_log": lambda e, a: _json(list(e.iter_log(CAMPAIGN, audience=a))),
    "headers": lambda e, a: _json(e.headers(CAMPAIGN, audience=a)),
    "session_rulings": lambda e, a: _json(e.session_rulings(CAMPAIGN, 1, audience=a)),
    "history": lambda e, a: "".join(
        _json(e.history(CAMPAIGN, who, audience=a)) for who in ("Neo", "Cypher", "Smith")
    ),
    "replay": lambda e, a: _json(list(e.replay(CAMPAIGN, 1, audience=a))),
    "thread": _thread,
    "recap": _recap,
    "search": _searched,
    "dice_stats": lambda e, a: _json(e.dice_stats(CAMPAIGN, audience=a)),
    "character": lambda e, a: _json(e.character(CAMPAIGN, "Smith", audience=a)),
    "characters": lambda e, a: _json(e.characters(CAMPAIGN, audience=a)),
    "character_at": lambda e, a: _json(e.character_at(CAMPAIGN, "Neo", ruling=9, audience=a)),
    "export": lambda e, a: "".join(e.export(CAMPAIGN, audience=a)),
    # the reader's own copy (the GMs': a GM's), withheld rows as digests
    "member_copy": lambda e, a: "".join(
        e.member_copy(CAMPAIGN, a.name if isinstance(a, Member) else GM, audience=a)
    ),
    "notices": lambda e, a: _json(e.notices(CAMPAIGN, after=0, audience=a)),
    # the rulings counted new to a member, as the GMs read them: a secret there was counted
    "unread": lambda e, a: _json(
        e.log(CAMPAIGN, rulings=e.unread(CAMPAIGN, audience=a).rulings, audience=GMS)
    ),
    # hashes of the log, at the latest ruling the reader may read (web/witness.py)
    "witness_head": lambda e, a: _json(e.witness_head(CAMPAIGN, audience=a)),
    "heads_at": lambda e, a: _json(e.heads_at(CAMPAIGN, range(1, 40), audience=a)),
}
COPIES = {"member_copy"}  # a member's own copy: refused to the table
GM_ONLY = {"export"}  # the whole log, refused to anyone but the GMs
# A member's own: refused to the GMs and the table; what it counts leaves out what the member
# wrote, so it shows each member at most the secrets they may read.
MEMBERS_ONLY = {"unread"}


def engine_reads() -> set[str]:
    """Every method of the engine that takes an audience."""
    return {
        name
        for name, method in inspect.getmembers(Engine, inspect.isfunction)
        if "audience" in inspect.signature(method).parameters and not name.startswith("_")
    }


def as_read(read: Callable[[], str]) -> str | None:
    """What a read gives, or None when it is refused."""
    try:
        return read()
    except DomainError:
        return None


@pytest.mark.parametrize("name", sorted(ENGINE_READS))
def test_each_engine_read_shows_each_secret_to_its_readers_alone(planted: Table, name: str) -> None:
    with Engine(planted.db) as engine:
        read = ENGINE_READS[name]
        everything = shown(read(engine, Member(GM) if name in MEMBERS_ONLY else GMS))
        for label, audience in AUDIENCES.items():
            text = as_read(lambda audience=audience: read(engine, audience))
            if name in GM_ONLY and not (audience == GMS or audience == Member(GM)):
                assert text is None, (name, label)
                continue
            if name in COPIES and audience == TABLE:  # a copy is a member's, never the table's
                assert text is None, (name, label)
                continue
            if name in MEMBERS_ONLY:
                assert (text is None) == (not isinstance(audience, Member)), (name, label)
                allowed = {s for s in SECRETS if readers(s, audience)}
                assert shown(text or "") <= allowed, (name, label)
                continue
            assert text is not None, (name, label)
            expected = {s for s in everything if readers(s, audience)}
            assert expected == shown(text), (name, label)


def test_the_reads_of_the_story_show_the_gms_every_secret(planted: Table) -> None:
    with Engine(planted.db) as engine:
        for name in ("log", "thread", "recap", "search", "session_rulings", "export"):
            assert ZION == shown(ENGINE_READS[name](engine, GMS)), name
        assert not shown(_recap(engine, TABLE))
        assert not shown(_thread(engine, TABLE))


# --- The command line --------------------------------------------------------------------


def cli(db: str, line: str, campaign: str = CAMPAIGN) -> tuple[int, str]:
    result = CliRunner().invoke(
        campaign_cli, ["--db", db, "--campaign", campaign, *shlex.split(line)]
    )
    return result.exit_code, result.output


# Each read of the command line, as one command line: ``{as}`` is where ``--as MEMBER`` goes.
CLI_READS = {
    "log": "{as} log",
    "thread": "{as} thread",
    "thread md": "{as} thread --format md",
    "thread html": "{as} thread --format html",
    "thread json": "{as} thread --format json",
    "thread text": "{as} thread --format text",
    "recap": "{as} recap --gm",
    "recap html": "{as} recap --gm --format html",
    "recap json": "{as} recap --gm --format json",
    "recap text": "{as} recap --gm --format text",
    "search": "{as} search steak",
    "search agent": "{as} search Agent",
    "search twin": "{as} search twin",
    "search sentinels": "{as} search sentinels",
    "search squids": "{as} search squids",
    "search exits": "{as} search exits",
    "replay": "{as} replay --session 1",
    "history": "{as} history Cypher",
    "history Smith": "{as} history Smith",
    "show": "{as} show Smith",
    "dice-stats": "{as} dice-stats",
    "diff": "{as} diff Smith 1",
    "disputes": "{as} disputes --all",
    "export": "{as} export",
}
# The shared verbs that read nothing of the story, or write.
CLI_NOT_READS = {
    "amend", "completion", "dice", "discord", "dispute", "entropy", "import", "init", "key",
    "list", "member", "note", "post", "projections", "rebuild", "resolve", "reveal", "scene",
    "serve", "session", "undo", "use", "verify", "verify-dice", "witness",
}  # fmt: skip
# verify names places, never what a ruling holds; timeline is The Code's (TIMELINE_CLI below).


@pytest.mark.parametrize("name", sorted(CLI_READS))
def test_each_cli_read_shows_each_secret_to_its_readers_alone(planted: Table, name: str) -> None:
    line = CLI_READS[name]
    code, gm_text = cli(planted.db, line.format(**{"as": ""}))
    assert 0 == code, gm_text
    everything = shown(gm_text)
    if name.startswith(("thread", "recap", "export")):  # the GM reads every secret there
        assert ZION == everything, name
    for label, audience in AUDIENCES.items():
        if audience in (GMS, TABLE):
            continue
        assert isinstance(audience, Member)
        code, text = cli(planted.db, line.format(**{"as": f"--as {audience.name}"}))
        if name in GM_ONLY and audience.name != GM:
            assert 2 == code, (name, label, text)
            continue
        assert 0 == code, (name, label, text)
        assert {s for s in everything if readers(s, audience)} == shown(text), (name, label)


@pytest.mark.parametrize(
    "line",
    [
        "recap --format discord",
        "recap --max-chars 500",
        "thread --format discord",
        "recap --for table",
        "recap --for table --format html",
        "thread --for table",
        "thread --for table --format md",
        "--as bob recap --for table --format discord",
    ],
)
def test_what_goes_to_a_public_place_reads_as_the_table(planted: Table, line: str) -> None:
    """Discord messages are the table's, even the GM's (who asked for no other audience)."""
    code, text = cli(planted.db, line)
    assert 0 == code, text
    assert set() == shown(text)
    assert "(1/" in text or "Rooftop" in text or "rooftop" in text  # something was said


def test_the_gm_may_name_another_audience_for_discord_messages(planted: Table) -> None:
    code, text = cli(planted.db, "recap --for bob --format discord")
    assert 0 == code, text
    assert {"private post to bob", "bob's post to the GM only"} <= shown(text)
    code, text = cli(planted.db, "recap --gm --format discord")  # the GMs' copy, by name
    assert 0 == code, text
    assert {"GM-only note", "hidden roll"} <= shown(text)


NOWHERE = "http://127.0.0.1:9/x"  # never reached: the refusal comes first


@pytest.mark.parametrize("asked", ["--gm", "--for bob", "--for gms", "--for Morpheus"])
def test_a_webhook_is_never_sent_another_audiences_copy(planted: Table, asked: str) -> None:
    before = event_count_of(planted.db)
    code, text = cli(planted.db, f"recap --post {NOWHERE} {asked}")
    assert 2 == code
    assert "POSTED_READS_AS_TABLE" in text
    assert before == event_count_of(planted.db)


def test_a_player_may_not_read_as_the_gms_or_another_player(planted: Table) -> None:
    for line in (
        "--as bob recap --for gms",
        "--as bob thread --for alice",
        "--as alice recap --gm --for Morpheus",
    ):
        code, text = cli(planted.db, line)
        assert 2 == code, (line, text)
        assert "NOT_ALLOWED" in text, line


def event_count_of(db: str) -> int:
    with Engine(db) as engine:
        return event_count(engine)


def test_a_recap_posted_to_a_webhook_is_the_tables(
    planted: Table,
    webhook: Webhook,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    code, text = cli(planted.db, f"recap --post {webhook.url}")
    assert 0 == code, text
    bodies = [request["body"] for request in webhook.requests]
    assert bodies
    assert set() == shown(json.dumps(bodies, ensure_ascii=False))


# --- The HTTP API and the pages ----------------------------------------------------------

API = f"/api/campaigns/{CAMPAIGN}"
PAGE = f"/campaigns/{CAMPAIGN}"
# Each GET route that reads the campaign, with the requests that read it whole.
API_READS: dict[str, list[str]] = {
    "/api/campaigns/{campaign:str}": [API],
    "/api/campaigns/{campaign:str}/log": [API + "/log"],
    "/api/campaigns/{campaign:str}/thread": [API + "/thread"],
    "/api/campaigns/{campaign:str}/recap": [API + "/recap?gm=true"],
    **{  # every registered format (web.formats); Discord messages read as the table
        f"/api/campaigns/{{campaign:str}}/{view}.{fmt.suffix}": [
            f"{API}/{view}.{fmt.suffix}{'' if fmt is DISCORD else q}"
        ]
        for view, q in (("thread", ""), ("recap", "?gm=true"))
        for fmt in FORMATS.values()
        if fmt is not JSON
    },
    "/api/campaigns/{campaign:str}/search": [f"{API}/search?q={w}" for w in WORDS.values()],
    "/api/campaigns/{campaign:str}/characters": [API + "/characters"],
    "/api/campaigns/{campaign:str}/characters/{ref:str}": [API + "/characters/Smith"],
    "/api/campaigns/{campaign:str}/characters/{ref:str}/history": [
        API + "/characters/Cypher/history",
        API + "/characters/Smith/history",
    ],
    "/api/campaigns/{campaign:str}/show": [API + "/show?at=9"],
    "/api/campaigns/{campaign:str}/diff": [API + "/diff?who=Smith&first=1"],
    "/api/campaigns/{campaign:str}/disputes": [API + "/disputes?every=true"],
    "/api/campaigns/{campaign:str}/dice-stats": [API + "/dice-stats"],
    "/api/campaigns/{campaign:str}/actions": [API + "/actions"],
    "/api/campaigns/{campaign:str}/verify": [API + "/verify"],
    "/api/campaigns/{campaign:str}/export": [API + "/export"],
    "/api/campaigns/{campaign:str}/copy": [API + "/copy"],
    "/campaigns/{campaign:str}": [PAGE, PAGE + "?session=1"],
    "/campaigns/{campaign:str}/characters/{name:str}": [PAGE + "/characters/Cypher"],
    "/campaigns/{campaign:str}/recap": [PAGE + "/recap?gm=true"],
    "/campaigns/{campaign:str}/dice": [PAGE + "/dice"],
    "/campaigns/{campaign:str}/dice-check": [PAGE + "/dice-check"],
    "/campaigns/{campaign:str}/heads": [PAGE + "/heads?at=" + ",".join(map(str, range(1, 40)))],
}
STORY_ROUTES = {
    route
    for route in API_READS
    if route.rsplit("/", 1)[-1].split(".")[0] in ("thread", "recap", "search", "export")
} | {"/campaigns/{campaign:str}", "/campaigns/{campaign:str}/recap"}
# GET routes that read no campaign's story, and why.
API_NOT_READS = {
    "/": "the list of the browser's campaigns",
    "/api/me": "who is signed in",
    "/api/campaigns/{campaign:str}/verbs": "the verbs of the system",
    "/campaigns/{campaign:str}/notices": "the member's own choices of notices",
    "/unsubscribe/{token:str}": "the address a mail's link stops mailing",
    "/join/{secret:str}": "an invitation",
    "/static/dice_check.js": "a script",
    "/static/chain_check.js": "a script",
    "/static/table.js": "a script",
    "/static/follow.js": "a script",
    "/static/witness.js": "a script",
    "/favicon.ico": "an icon",
    "/schema": "the OpenAPI document",
    "/schema/openapi.json": "the OpenAPI document",
    "/schema/{path:str}": "the OpenAPI document",
}


@pytest.fixture(scope="module")
def client(planted: Table) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(planted.db)) as test_client:
        yield test_client


def fetched(client: TestClient[Any], planted: Table, role: str, paths: list[str]) -> str | None:
    """What ``role`` reads of ``paths``, or None when refused (4xx)."""
    texts = []
    for path in paths:
        answer = client.get(path, headers=planted.headers(role))
        assert answer.status_code < 500, (path, role, answer.text)
        if answer.status_code >= 400:
            return None
        texts.append(answer.text)
    return "".join(texts)


@pytest.mark.parametrize("route", sorted(API_READS))
def test_each_http_read_shows_each_secret_to_its_readers_alone(
    client: TestClient[Any], planted: Table, route: str
) -> None:
    paths = API_READS[route]
    gm_text = fetched(client, planted, "gm", paths)
    assert gm_text is not None, route
    everything = shown(gm_text)
    public = route.endswith(f".{DISCORD.suffix}")  # for a channel: the table's copy, to anyone
    if public:
        assert {s for s in ZION if readers(s, TABLE)} == everything, route
    elif route in STORY_ROUTES:  # the matrix is not empty: the GM reads every secret there
        assert ZION == everything, route
    for label, role in ROLE_OF.items():
        text = fetched(client, planted, role, paths)
        if route.endswith("/export") and role != "gm":
            assert text is None, (route, label)
            continue
        assert text is not None, (route, label)
        audience = TABLE if public else AUDIENCES[label]
        assert {s for s in everything if readers(s, audience)} == shown(text), (route, label)
    assert fetched(client, planted, "nobody", paths) is None


# --- Discord -----------------------------------------------------------------------------


@pytest.fixture
def discord(planted: Table, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))

    def send(name: str, account: str, *options: dict[str, Any]) -> Any:
        payload = {
            "id": f"33000000000{next(SENT):08d}",  # each its own: a replay is answered once
            "application_id": "4400000000000000001",
            "type": 2,
            "token": "interaction-token",
            "version": 1,
            "guild_id": "5500000000000000001",
            "channel_id": CHANNEL,
            "member": {"user": {"id": account, "username": "someone"}, "roles": []},
            "data": {"id": "6600000000000000001", "name": name, "type": 1, "options": [*options]},
        }
        body = json.dumps(payload).encode()
        stamp = str(NOW)
        headers = {
            "X-Signature-Ed25519": key.sign(stamp.encode() + body).hex(),
            "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json",
        }
        return client.post("/discord/interactions", content=body, headers=headers)

    with (
        discord_api() as api,
        TestClient(create_app(planted.db, discord_public_key=public)) as client,
    ):
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        send.api = api  # type: ignore[attr-defined]
        yield send


def test_the_discord_recap_is_the_tables_whoever_asks(discord: Callable[..., Any]) -> None:
    for account in (GM_ACCOUNT, BOB_ACCOUNT):
        answer = discord("recap", account)
        assert 200 == answer.status_code
        data = answer.json()["data"]
        assert "flags" not in data  # the whole channel reads it
        assert set() == shown(json.dumps(data, ensure_ascii=False))
    follow_ups = [h.body for h in discord.api.heard]  # type: ignore[attr-defined]
    assert set() == shown(json.dumps(follow_ups, ensure_ascii=False))


def test_the_discord_log_is_the_members_own_and_only_theirs(discord: Callable[..., Any]) -> None:
    count = {"name": "count", "type": 4, "value": 25}
    for account, audience in ((GM_ACCOUNT, Member(GM)), (BOB_ACCOUNT, Member("bob"))):
        data = discord("log", account, count).json()["data"]
        assert data.get("flags") == 64  # ephemeral: its asker alone reads it
        text = json.dumps(data, ensure_ascii=False)
        # the log's lines name what changed, not the posts' words: no secret beyond its readers
        assert all(readers(s, audience) for s in shown(text))


# Each kind of secret written in the channel: (who writes it, its options, its word, who else
# is sent it by DM). The channel's answer is its author's alone; no other account hears of it.
MADE_IN_DISCORD = {
    "private post to bob": (GM_ACCOUNT, {"text": "lantern one", "ooc": True, "to": "bob"}, "post"),
    "bob's post to the GM only": (
        BOB_ACCOUNT,
        {"text": "lantern two", "to": GM, "ooc": True},
        "post",
    ),
    "GM-only note": (GM_ACCOUNT, {"text": "lantern three", "gm_only": True}, "note"),
    "hidden roll": (
        GM_ACCOUNT,
        {"expression": "1d6", "why": "lantern four", "hidden": True},
        "dice",
    ),
    "hidden post": (GM_ACCOUNT, {"text": "lantern five", "hidden": True}, "post"),
}
DM_TO = {"private post to bob": {BOB_ACCOUNT}, "bob's post to the GM only": {GM_ACCOUNT}}


def test_what_the_table_may_not_read_goes_by_dm_to_its_readers_alone(
    discord: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
    api = discord.api  # type: ignore[attr-defined]
    for secret, (account, options, verb) in MADE_IN_DISCORD.items():
        api.heard.clear()
        kinds = {bool: 5, str: 3}
        given = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
        answer = discord(verb, account, *given).json()
        assert answer["data"].get("flags") == 64, secret  # its author's alone in the channel
        opened = [h.body["recipient_id"] for h in api.heard if h.path.endswith("/@me/channels")]
        assert DM_TO.get(secret, set()) == set(opened), secret
        word = str(options.get("text") or options.get("why"))
        told = [h for h in api.heard if h.path.endswith("/messages") and word in json.dumps(h.body)]
        assert len(opened) == len(told), secret


def test_the_notices_tell_each_member_only_what_they_may_read(
    planted: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the rulings leave waiting, told by the server (``web.notify``): the channel's
    mentions read as the table, each direct message and each mail as its member."""
    from datetime import timedelta

    from freezegun import freeze_time

    from engine import NOTICE_KINDS
    from tests.conftest import FROZEN_AT
    from tests.web.smtp_inbox import smtp_server
    from web.discord import voices
    from web.notify.notifier import Notifier
    from web.notify.settings import MailSettings, NoticeSettings

    members = {GM: GM_ACCOUNT, "alice": None, "bob": BOB_ACCOUNT, "olly": None}
    voices.forget()
    with (
        discord_api() as api,
        smtp_server() as inbox,
        Engine(planted.db) as engine,
        freeze_time(FROZEN_AT, ignore=["asyncio", "aiosmtpd"]) as clock,
    ):
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", api.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        for member in members:
            email = f"{member}@example.org"
            engine.choose_notices(CAMPAIGN, member, kinds=NOTICE_KINDS, discord=True, email=email)
        mail = MailSettings(
            host=inbox.host, port=inbox.port, sender="t@example.org", security="none"
        )
        notifier = Notifier(lambda: engine, NoticeSettings(mail=mail, links="https://t.example"))
        notifier.tell_campaign(CAMPAIGN, 0)
        clock.tick(timedelta(minutes=2))
        assert notifier.mail()
    voices.forget()
    channel = [h.body for h in api.heard if "/webhooks/" in h.path and h.method == "POST"]
    assert set() == shown(json.dumps(channel, ensure_ascii=False))
    opened = {
        f"88{h.body['recipient_id']}"[:19]: h.body["recipient_id"]
        for h in api.heard
        if h.path.endswith("/@me/channels")
    }
    by_account = {account: member for member, account in members.items() if account}
    for h in api.heard:
        if "/channels/" in h.path and h.path.endswith("/messages"):
            member = by_account[opened[h.path.split("/channels/")[1].split("/")[0]]]
            text = json.dumps(h.body, ensure_ascii=False)
            assert all(readers(s, Member(member)) for s in shown(text)), member
    mails = {m.to[0].split("@")[0]: m.text for m in inbox.mails}
    for member, text in mails.items():
        assert all(readers(s, Member(member)) for s in shown(text)), member
    assert "private post to bob" in shown(mails["bob"])  # the matrix is not empty
    assert "bob's post to the GM only" in shown(mails[GM])


# --- The Code's Exposure timelines --------------------------------------------------------

TIMELINE_AUDIENCES: dict[str, Audience] = {
    "the GMs": GMS,
    "GM's seat": Member(LAB_GM),
    "dana": Member("dana"),
    "the table": TABLE,
}


def _timelines(engine: Engine, audience: Audience, hero: bool) -> str:
    if hero:
        found: Any = engine.hero_timeline(LAB, HAWK, audience=audience)
        return _every_format("timeline", found)
    return _every_format("campaign", engine.campaign_timelines(LAB, audience=audience))


TIMELINE_READS: dict[str, Read] = {
    "hero_timeline": lambda e, a: _timelines(e, a, hero=True),
    "campaign_timelines": lambda e, a: _timelines(e, a, hero=False),
}
TIMELINE_CLI = ['{as} timeline "The Hawk"', "{as} timeline", "{as} timeline --format discord"]
TIMELINE_ROUTES = {
    "/api/campaigns/{campaign:str}/timeline": ["timeline", f"timeline?hero={HAWK}"],
    **{  # every registered format (web.formats)
        f"/api/campaigns/{{campaign:str}}/timeline.{f.suffix}": [
            f"timeline.{f.suffix}",
            f"timeline.{f.suffix}?hero={HAWK}",
        ]
        for f in FORMATS.values()
        if f is not JSON
    },
    "/campaigns/{campaign:str}/timeline": ["page timeline"],
}


def test_the_timelines_show_a_hidden_exposure_roll_to_the_gms_alone(planted: Table) -> None:
    secret = {"hidden Exposure roll"}
    with Engine(planted.db) as engine:
        for name, read in TIMELINE_READS.items():
            for label, audience in TIMELINE_AUDIENCES.items():
                expected = secret if readers("hidden Exposure roll", audience) else set()
                assert expected == shown(read(engine, audience)), (name, label)
    for line in TIMELINE_CLI:
        for who, expected in (("", secret), (f"--as {LAB_GM}", secret), ("--as dana", set())):
            code, text = cli(planted.db, line.format(**{"as": who}), campaign=LAB)
            assert 0 == code, text
            public = "discord" in line  # Discord messages are the table's, the GM's too
            assert (set() if public else expected) == shown(text), (line, who)


def test_the_timeline_routes_show_a_hidden_exposure_roll_to_the_gms_alone(
    client: TestClient[Any], planted: Table
) -> None:
    for route, asked in TIMELINE_ROUTES.items():
        paths = [
            f"/campaigns/{LAB}/timeline" if a == "page timeline" else f"/api/campaigns/{LAB}/{a}"
            for a in asked
        ]
        public = route.endswith(f".{DISCORD.suffix}")  # Discord messages: the table's copy
        gm_reads = set() if public else {"hidden Exposure roll"}
        assert gm_reads == shown(fetched(client, planted, "lab gm", paths) or ""), route
        assert set() == shown(fetched(client, planted, "lab player", paths) or "-"), route


# --- Live pages ----------------------------------------------------------------------------

LIVE = "/campaigns/{campaign:str}/events"


def test_the_live_stream_sends_each_member_what_they_may_read(planted: Table) -> None:
    """Every ruling of the campaign, as the live stream renders it for each member's view."""
    from web.live import Stream

    app = create_app(planted.db)
    feed = app.state.feed
    feed.template = app.template_engine.get_template("_ruling.html")
    members = {label: a for label, a in AUDIENCES.items() if isinstance(a, Member)}

    async def deliver() -> dict[str, str]:
        loop = asyncio.get_running_loop()
        streams = {label: Stream(CAMPAIGN, a.name, 0, loop) for label, a in members.items()}
        sent = dict(feed.deliveries(CAMPAIGN, list(streams.values())))
        texts = {}
        for label, stream in streams.items():
            delivery = sent[stream]
            assert delivery is not None, label
            texts[label] = delivery.payload.decode()
        return texts

    texts = asyncio.run(deliver())
    everything = shown(texts["GM's seat"])
    assert ZION - {"hidden --say"} <= everything  # (the ruling element shows no narration)
    for label, text in texts.items():
        assert {s for s in everything if readers(s, members[label])} == shown(text), label


# --- Every read is in the matrix ---------------------------------------------------------


def test_every_read_is_in_the_matrix(planted: Table) -> None:
    assert engine_reads() == set(ENGINE_READS) | set(TIMELINE_READS)
    from cli.manifest import SHARED

    shared = set(SHARED)
    read_verbs = {line.split()[1] for line in CLI_READS.values()} | {"timeline"}
    assert shared == read_verbs | CLI_NOT_READS, shared ^ (read_verbs | CLI_NOT_READS)
    app = create_app(planted.db)
    gets = {r.path for r in app.routes if "GET" in getattr(r, "methods", ())}
    listed = set(API_READS) | set(API_NOT_READS) | set(TIMELINE_ROUTES) | {LIVE}
    assert gets == listed, gets ^ listed


def test_the_dice_page_offers_the_members_own_copy(client: TestClient[Any], planted: Table) -> None:
    """The dice page links the signed-in member's copy, which verifies with the whole export's
    digest and is named as theirs."""
    from engine import verify_export

    page = client.get(PAGE + "/dice-check", headers=planted.headers("player"))
    assert 'href="' + API + '/copy"' in page.text
    answer = client.get(API + "/copy", headers=planted.headers("player"))
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    lines = answer.text.splitlines()
    whole = client.get(API + "/export", headers=planted.headers("gm")).text.splitlines()
    _, report = verify_export(lines)
    assert report.intact
    assert report.digest == json.loads(whole[0])["digest"]
    assert json.loads(lines[0])["copy_for"]
