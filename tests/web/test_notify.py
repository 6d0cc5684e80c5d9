"""Told when the table waits on you (``web.notify``): after each ruling, the member it waits on
is mentioned in the campaign's Discord channel (through a local stand-in of Discord's API) for
what the table reads, sent a direct message for what only they may, and mailed (through a local
SMTP server) a digest at most every few minutes with a link that stops the mail without
signing in; each as they chose on their Notices page; on two processes of one store (SQLite,
PostgreSQL), once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from freezegun import freeze_time
from litestar.testing import TestClient

from domain.links import LinkChannel, LinkMember
from domain.posts import WritePost
from domain.rulesets.sims import commands as sims
from engine import NOTICE_KINDS, DiceSpec, Engine
from tests.conftest import FROZEN_AT
from tests.postgres import fresh_schema
from tests.stores import head_reads
from tests.web.conftest import CAMPAIGN, build_table
from tests.web.discord_standin import StandIn, discord_api
from tests.web.smtp_inbox import Inbox, smtp_server
from web import create_app
from web.discord import voices
from web.notify.notifier import Notifier
from web.notify.settings import MailSettings, NoticeSettings

GM = "Morpheus"
CHANNEL = "1100000000000000001"
ACCOUNTS = {GM: "2200000000000000001", "alice": "2200000000000000002", "bob": "2200000000000000003"}
LINKS = "https://table.example.org"
EVERY = timedelta(minutes=10)
# The SMTP server's event loop keeps the real time (its own timeouts), the product the frozen one.
FROZEN = {"ignore": ["asyncio", "aiosmtpd"]}


def linked(db: str) -> str:
    """The server tests' Zion table (tests.web.conftest), its channel and the GM's, alice's and
    bob's Discord accounts linked (olly, the observer, has none)."""
    build_table(db)
    with Engine(db) as engine:
        engine.execute(CAMPAIGN, LinkChannel(channel=CHANNEL))
        for member, account in ACCOUNTS.items():
            engine.execute(CAMPAIGN, LinkMember(member=member, discord=account))
    return db


@pytest.fixture
def db(tmp_path: Any) -> str:
    return linked(str(tmp_path / "zion.db"))


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as server:
        yield server


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    """Discord's stand-in, and the bot's token."""
    voices.forget()
    with discord_api() as stand_in:
        monkeypatch.setenv("CAMPAIGN_DISCORD_API", stand_in.url)
        monkeypatch.setenv("CAMPAIGN_DISCORD_TOKEN", "the-bot-token")
        yield stand_in
    voices.forget()


def settings(inbox: Inbox | None = None) -> NoticeSettings:
    mail = (
        MailSettings(
            host=inbox.host,
            port=inbox.port,
            sender="table@example.org",
            security="none",
            every=EVERY,
        )
        if inbox is not None
        else None
    )
    return NoticeSettings(mail=mail, links=LINKS)


def address(member: str) -> str:
    return f"{member}@example.org"


def mailed_by(engine: Engine, *members: str, discord: bool = False) -> None:
    """``members`` give their address (and are told in Discord only with ``discord``)."""
    for member in members:
        engine.choose_notices(
            CAMPAIGN, member, kinds=NOTICE_KINDS, discord=discord, email=address(member)
        )


def turn_order(engine: Engine) -> None:
    """A conflict: Neo (alice's) wins the roll-off, his turn."""
    order = sims.SetTurnOrder(entries=("Neo:Kung Fu", "Cypher:Knives"))
    engine.execute(CAMPAIGN, order, dice=DiceSpec(faces=(5, 2)))


def to_bob(engine: Engine, text: str) -> None:
    engine.execute(CAMPAIGN, WritePost(text=text, to=("bob",), by=GM))


# --- Mail ----------------------------------------------------------------------------------------


def test_each_member_is_mailed_what_waits_on_them_and_only_that(db: str, inbox: Inbox) -> None:
    with Engine(db) as engine, freeze_time(FROZEN_AT, **FROZEN) as clock:
        notifier = Notifier(lambda: engine, settings(inbox))
        assert {} == notifier.tell()  # the campaign first seen: its past is not told
        mailed_by(engine, "alice", "bob", "olly")
        to_bob(engine, "Meet me at the pier.")
        turn_order(engine)
        notifier.tell()
        assert [] == notifier.mail()  # the first notice waits a minute for others
        clock.tick(timedelta(seconds=61))
        assert 2 == len(notifier.mail())
    assert {address("alice"), address("bob")} == {to for m in inbox.mails for to in m.to}
    (alice,) = inbox.to(address("alice"))
    (bob,) = inbox.to(address("bob"))
    assert "Neo's turn" in alice.text
    assert "pier" not in alice.text
    assert "Meet me at the pier." in bob.text
    assert "Neo's turn" not in bob.text
    assert "Zion: 1 thing waits on you" == bob.message["Subject"]
    assert "table@example.org" == bob.message["From"]
    assert f"{LINKS}/campaigns/Zion" in bob.text
    stop = re.fullmatch(r"<(.+)>", str(bob.message["List-Unsubscribe"]))
    assert stop is not None
    assert stop.group(1).startswith(f"{LINKS}/unsubscribe/")
    assert f"Stop these mails: {stop.group(1)}" in bob.text
    assert "List-Unsubscribe=One-Click" == bob.message["List-Unsubscribe-Post"]


def test_a_turn_reads_each_campaigns_head_once(db: str, inbox: Inbox) -> None:
    """The turn loads the campaign for each member's choices; it reads its head from the store
    once (``Engine.checked_once``), and still tells what the new rulings leave waiting."""
    with Engine(db) as engine, freeze_time(FROZEN_AT, **FROZEN):
        notifier = Notifier(lambda: engine, settings(inbox))
        notifier.tell()
        mailed_by(engine, "alice", "bob", "olly")
        to_bob(engine, "Meet me at the pier.")
        with head_reads(engine) as read:
            told = notifier.tell()
        assert ["bob"] == list(told[CAMPAIGN].mailed)
        campaign = engine.find_campaign(CAMPAIGN).campaign_id
        assert 1 == read.count(campaign)
        assert len(read) == len(set(read))


def test_many_posts_make_one_mail_every_few_minutes(db: str, inbox: Inbox) -> None:
    """Four private posts to bob in three minutes: two mails, the second ten minutes after
    the first, never a mail per post."""
    with Engine(db) as engine, freeze_time(FROZEN_AT, **FROZEN) as clock:
        notifier = Notifier(lambda: engine, settings(inbox))
        notifier.tell()
        mailed_by(engine, "bob")
        for number, wait in ((1, 30), (2, 31), (3, 60), (4, 60)):
            to_bob(engine, f"Word number {number}.")
            notifier.tell()
            clock.tick(timedelta(seconds=wait))
            notifier.mail()
        clock.tick(timedelta(minutes=5))
        notifier.mail()
        assert 1 == len(inbox.mails)  # three and four wait for the ten minutes
        clock.tick(timedelta(minutes=4))
        notifier.mail()
    assert 2 == len(inbox.mails)
    first, second = (m.text for m in inbox.mails)
    assert "Word number 1." in first
    assert "Word number 2." in first
    assert "Word number 3." in second
    assert "Word number 4." in second
    assert "Word number 1." not in second


def test_a_mail_server_out_of_reach_keeps_the_digest_for_the_next_mail(
    db: str, inbox: Inbox
) -> None:
    with Engine(db) as engine, freeze_time(FROZEN_AT, **FROZEN) as clock:
        away = NoticeSettings(
            mail=MailSettings(
                host="127.0.0.1", port=1, sender="t@example.org", security="none", every=EVERY
            ),
            links=LINKS,
        )
        Notifier(lambda: engine, away).tell()
        mailed_by(engine, "bob")
        to_bob(engine, "Are you there?")
        Notifier(lambda: engine, away).tell()
        clock.tick(timedelta(minutes=2))
        assert [] == Notifier(lambda: engine, away).mail()  # refused: logged, kept
        clock.tick(timedelta(minutes=10))
        assert 1 == len(Notifier(lambda: engine, settings(inbox)).mail())
    assert "Are you there?" in inbox.mails[0].text


def test_the_link_in_a_mail_stops_it_without_signing_in(db: str, inbox: Inbox) -> None:
    with Engine(db) as engine, freeze_time(FROZEN_AT, **FROZEN) as clock:
        notifier = Notifier(lambda: engine, settings(inbox))
        notifier.tell()
        mailed_by(engine, "bob")
        to_bob(engine, "First.")
        notifier.tell()
        clock.tick(timedelta(minutes=2))
        notifier.mail()
    link = str(inbox.mails[0].message["List-Unsubscribe"]).strip("<>")
    path = urlsplit(link).path
    with TestClient(create_app(db)) as client:  # no session, no token
        page = client.get(path)
        assert 200 == page.status_code
        assert address("bob") in page.text
        assert "Stop these mails" in page.text
        with Engine(db) as engine:
            assert address("bob") == engine.notice_choices(CAMPAIGN, "bob").email
        done = client.post(path, data={"List-Unsubscribe": "One-Click"})  # a mail program's
        assert 200 == done.status_code
        assert "No more mail" in done.text
        assert 200 == client.post(path).status_code  # again: nothing more to stop
        forged = client.get(path[:-3] + "AAA")
        assert 404 == forged.status_code
        assert "not one this table" in forged.text
    with Engine(db) as engine, freeze_time(FROZEN_AT + timedelta(hours=1), **FROZEN) as clock:
        choices = engine.notice_choices(CAMPAIGN, "bob")
        assert ("", NOTICE_KINDS) == (choices.email, choices.kinds)
        notifier = Notifier(lambda: engine, settings(inbox))
        to_bob(engine, "Second.")
        notifier.tell()
        clock.tick(timedelta(minutes=20))
        assert [] == notifier.mail()
    assert 1 == len(inbox.mails)


# --- Discord -------------------------------------------------------------------------------------


def heard(api: StandIn) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """What the app sent: the channel's messages (through its webhook), and each account's DMs."""
    channel, opened, direct = [], {}, {}
    for request in api.heard:
        if request.path.endswith("/users/@me/channels"):
            account = request.body["recipient_id"]
            opened[f"88{account}"[:19]] = account
        elif "/channels/" in request.path and request.path.endswith("/messages"):
            dm = request.path.split("/channels/")[1].split("/")[0]
            direct.setdefault(opened[dm], []).append(request.body)
        elif "/webhooks/" in request.path and request.method == "POST":
            channel.append(request.body)
    return channel, direct


def test_a_turn_mentions_its_player_in_the_channel_and_a_private_post_goes_by_dm(
    db: str, api: StandIn
) -> None:
    with Engine(db) as engine:
        notifier = Notifier(lambda: engine, settings())
        notifier.tell()
        turn_order(engine)
        to_bob(engine, "The ledger is under the floor.")
        notifier.tell()
    channel, direct = heard(api)
    (message,) = channel
    assert {"users": [ACCOUNTS["alice"]]} == message["allowed_mentions"]  # nobody else pinged
    assert message["content"].startswith(f"<@{ACCOUNTS['alice']}> Neo's turn: Kung Fu (Good)")
    assert f"<{LINKS}/campaigns/Zion>" in message["content"]
    assert "ledger" not in message["content"]
    assert [ACCOUNTS["bob"]] == list(direct)
    (dm,) = direct[ACCOUNTS["bob"]]
    assert "The ledger is under the floor." in dm["content"]
    assert {"parse": []} == dm["allowed_mentions"]


def test_members_are_told_only_what_and_where_they_chose(db: str, api: StandIn) -> None:
    with Engine(db) as engine:
        notifier = Notifier(lambda: engine, settings())
        notifier.tell()
        engine.choose_notices(CAMPAIGN, "alice", kinds=["private"], discord=True, email="")
        engine.choose_notices(CAMPAIGN, "bob", kinds=NOTICE_KINDS, discord=False, email="")
        turn_order(engine)
        to_bob(engine, "Nobody hears this one.")
        told = notifier.tell()[CAMPAIGN]
    assert ([], {}, {}) == (told.channel, told.direct, told.mailed)
    assert ([], {}) == heard(api)


def post_in_discord(db: str, api: StandIn, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """The GM's private post to bob, made with ``/post`` in the channel (through the app)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from tests.web.test_discord import NOW, command, option, send
    from web.discord import interactions

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    monkeypatch.setattr(interactions, "clock", lambda: float(NOW))
    with TestClient(create_app(db, discord_public_key=public)) as client:
        post = command(
            "post",
            option("text", text),
            option("ooc", True, 5),
            option("to", "bob"),
            account=ACCOUNTS[GM],
            channel=CHANNEL,
        )
        assert 200 == send(client, key, post).status_code
    # (the test client returns once the app is done: the DMs the answer sends after it too)


def test_a_private_post_made_in_discord_is_sent_by_dm_once(
    db: str, api: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interaction's answer sends a private post to its readers (``web.discord.direct``)
    and the notices would too: they claim the same message, so bob gets one."""
    with Engine(db) as engine:
        notifier = Notifier(lambda: engine, settings())
        notifier.tell()
        post_in_discord(db, api, monkeypatch, "Only you, bob.")
        assert 2 == len(api.heard)  # the DM channel, then the message
        told = notifier.tell()[CAMPAIGN]
    assert {} == told.direct
    _, direct = heard(api)
    assert 1 == len(direct[ACCOUNTS["bob"]])


def test_a_member_who_turned_discord_off_gets_no_dm_of_a_post_made_there(
    db: str, api: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Engine(db) as engine:
        engine.choose_notices(CAMPAIGN, "bob", kinds=NOTICE_KINDS, discord=False, email="")
        notifier = Notifier(lambda: engine, settings())
        notifier.tell()
        post_in_discord(db, api, monkeypatch, "Not by DM, bob.")
        notifier.tell()
    _, direct = heard(api)
    assert ACCOUNTS["bob"] not in direct
    assert ACCOUNTS[GM] not in direct  # its author


# --- Two processes -------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    if request.param == "sqlite":
        yield linked(str(tmp_path / "zion.db"))
    else:
        with fresh_schema() as url:
            yield linked(url)


def test_two_processes_of_one_store_tell_each_thing_once(
    shared: str, api: StandIn, inbox: Inbox
) -> None:
    with (
        Engine(shared) as one,
        Engine(shared) as two,
        freeze_time(FROZEN_AT, **FROZEN) as clock,
    ):
        notifiers = [Notifier(lambda: one, settings(inbox)), Notifier(lambda: two, settings(inbox))]
        for notifier in notifiers:
            notifier.tell()
        mailed_by(one, "alice", "bob", discord=True)
        turn_order(one)
        to_bob(two, "Once, not twice.")
        for notifier in (*notifiers, *reversed(notifiers)):
            notifier.tell()
        clock.tick(timedelta(minutes=2))
        for notifier in (*notifiers, *reversed(notifiers)):
            notifier.mail()
    channel, direct = heard(api)
    assert 1 == len(channel)
    assert {ACCOUNTS["bob"]: 1} == {a: len(m) for a, m in direct.items()}
    assert [1, 1] == [len(inbox.to(address(m))) for m in ("alice", "bob")]


def test_the_server_tells_from_its_own_thread(db: str, api: StandIn) -> None:
    """``campaign serve``'s app starts the notifier: a ruling recorded by another process
    (here, an engine of the test) is told without anyone asking."""
    app = create_app(db, notices=settings())
    with TestClient(app):
        notifier: Notifier = app.state["notifier"]
        notifier.tell()  # (its thread may have seen the campaign first: either way, marked)
        with Engine(db) as engine:
            turn_order(engine)
        assert api.until(1, timeout=20)
    channel, _ = heard(api)
    assert 1 == len(channel)
    assert "Neo's turn" in channel[0]["content"]


# --- The Notices page ----------------------------------------------------------------------------


@pytest.fixture
def tokens(db: str) -> dict[str, str]:
    with Engine(db) as engine:
        return {m: engine.token(CAMPAIGN, m) for m in ("alice", "bob")}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_member_chooses_on_the_notices_page(db: str, tokens: dict[str, str]) -> None:
    page = f"/campaigns/{CAMPAIGN}/notices"
    with TestClient(create_app(db)) as client:
        shown = client.get(page, headers=bearer(tokens["bob"]))
        assert 200 == shown.status_code
        assert shown.text.count('type="checkbox" name="kind"') == 3
        assert "sends no mail yet" in shown.text
        chosen = client.post(
            page,
            data={"kind": ["private", "dispute"], "email": "bob@example.org"},
            headers=bearer(tokens["bob"]),
            follow_redirects=False,
        )
        assert 303 == chosen.status_code
        assert f"{page}?saved=true" == chosen.headers["location"]
        again = client.get(chosen.headers["location"], headers=bearer(tokens["bob"]))
        assert "Saved." in again.text
        assert 'value="bob@example.org"' in again.text
        refused = client.post(page, data={"email": "bob at home"}, headers=bearer(tokens["bob"]))
        assert 422 == refused.status_code
        assert "not an email address" in refused.text
        assert "autofocus" in refused.text
        assert 'value="bob at home"' in refused.text  # what they typed, to correct
        assert 401 == client.get(page).status_code
    with Engine(db) as engine:
        kept = engine.notice_choices(CAMPAIGN, "bob")
        assert (("private", "dispute"), False, "bob@example.org") == (
            kept.kinds,
            kept.discord,
            kept.email,
        )
        assert NOTICE_KINDS == engine.notice_choices(CAMPAIGN, "alice").kinds  # hers unchanged


def test_the_notices_page_says_how_often_the_server_mails(
    db: str, tokens: dict[str, str], inbox: Inbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Notifier, "start", lambda self: None)  # the page alone
    with TestClient(create_app(db, notices=settings(inbox))) as client:
        shown = client.get(f"/campaigns/{CAMPAIGN}/notices", headers=bearer(tokens["alice"]))
    assert "at most one every 10 minutes" in shown.text
    assert "Each mail has a link that stops the mail" in shown.text


# --- `campaign serve`'s options -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        (["--smtp-host", "mail.example.org"], "MAIL_NEEDS_SENDER"),
        (["--notice-url", "table.example.org"], "INVALID_NOTICE_URL"),
        (["--notice-url", "https://table.example.org/?x=1"], "INVALID_NOTICE_URL"),
    ],
)
def test_serve_refuses_notice_settings_it_cannot_use(
    db: str, options: list[str], code: str
) -> None:
    from click.testing import CliRunner

    from cli.main import campaign

    result = CliRunner().invoke(campaign, ["--db", db, "serve", *options])
    assert 2 == result.exit_code, result.output
    assert code in result.output


def test_serve_reads_its_notice_settings_and_the_password_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from web import notice_settings

    monkeypatch.setenv("CAMPAIGN_SMTP_PASSWORD", "hunter2")
    found = notice_settings(
        "http://127.0.0.1:8000",
        smtp_host="mail.example.org",
        smtp_from="table@example.org",
        smtp_port=465,
        smtp_user="table",
        smtp_security="tls",
        mail_every=30,
        notice_url="https://table.example.org/",
    )
    assert found.mail is not None
    assert ("mail.example.org", 465, "table", "hunter2", "tls", timedelta(minutes=30)) == (
        found.mail.host,
        found.mail.port,
        found.mail.user,
        found.mail.password,
        found.mail.security,
        found.mail.every,
    )
    assert "https://table.example.org" == found.links
    assert (
        None
        is notice_settings(
            "http://127.0.0.1:8000",
            smtp_host=None,
            smtp_from=None,
            smtp_port=587,
            smtp_user="",
            smtp_security="starttls",
            mail_every=15,
            notice_url=None,
        ).mail
    )


def test_the_gm_gives_and_removes_an_address_from_the_command_line(db: str) -> None:
    from click.testing import CliRunner

    from cli.main import campaign

    def run(*words: str) -> tuple[int, str]:
        result = CliRunner().invoke(campaign, ["--db", db, "--campaign", CAMPAIGN, *words])
        return result.exit_code, result.output

    assert (0, "alice is mailed at alice@example.org when the table waits on them\n") == run(
        "member", "email", "alice", "alice@example.org"
    )
    assert (0, '{\n  "member": "alice",\n  "email": "alice@example.org"\n}\n') == run(
        "--json", "member", "email", "alice"
    )
    code, said = run("--as", "bob", "member", "email", "alice", "bob@example.org")
    assert 2 == code
    assert "NOT_ALLOWED" in said
    assert (0, "bob is mailed at bob@example.org when the table waits on them\n") == run(
        "--as", "bob", "member", "email", "bob", "bob@example.org"
    )
    assert (0, "alice is mailed nothing (no address)\n") == run(
        "member", "email", "alice", "--stop"
    )
    with Engine(db) as engine:
        assert "" == engine.notice_choices(CAMPAIGN, "alice").email
        assert "bob@example.org" == engine.notice_choices(CAMPAIGN, "bob").email


def test_links_open_the_address_given_else_the_servers_public_one_else_where_it_listens(
    db: str,
) -> None:
    with Engine(db) as engine:
        given = Notifier(lambda: engine, NoticeSettings(links="https://table.example.org/"))
        assert "https://table.example.org" == given.base()
        listening = Notifier(lambda: engine, NoticeSettings(listening="http://127.0.0.1:8123"))
        kept = getattr(engine, "keep_server_address", None)  # `campaign serve --public-url`
        if kept is None:
            assert "http://127.0.0.1:8123" == listening.base()
        else:
            kept("https://kept.example.org", public=True)
            assert "https://kept.example.org" == listening.base()
    secret = MailSettings(host="mail.example.org", sender="t@example.org", password="hunter2")
    assert "hunter2" not in repr(secret)  # a settings object logged keeps the password
