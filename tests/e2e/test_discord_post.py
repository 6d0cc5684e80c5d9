"""`recap --format discord` and `recap --post URL`, against a local HTTP server standing in for a
Discord webhook: the parts arrive in order, a rate limit is waited out, and a failure stops the
post at the part that failed."""

from __future__ import annotations

import contextlib
import io
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from attrs import define, field
from click.testing import CliRunner, Result
from freezegun import freeze_time

import cli.post
from cli.main import campaign
from cli.post import PostFailed, post_parts
from domain.audience import GMS
from engine import Engine
from engine.reads.recaps import NotAHero
from projections.render_discord import (
    MAX_CHARS,
    campaign_timeline_discord,
    recap_discord,
    split,
    timeline_discord,
)
from tests.conftest import FROZEN_AT
from tests.examples import player as example_player
from tests.golden.test_recap_golden import SCRIPTS

Answer = tuple[int, dict[str, str], bytes]
ACCEPTED: Answer = (204, {}, b"")


@define
class Webhook:
    """What the stand-in webhook received, and what it answers next (then 204s)."""

    url: str
    answers: list[Answer] = field(factory=list)
    received: list[str] = field(factory=list)  # each message's content, in arrival order
    requests: list[dict[str, Any]] = field(factory=list)  # path, headers and body of each

    def answer(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Answer:
        self.requests.append({"path": path, "headers": headers, "body": body})
        self.received.append(body["content"])
        return self.answers.pop(0) if self.answers else ACCEPTED


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        hook: Webhook = self.server.hook  # type: ignore[attr-defined]
        status, headers, text = hook.answer(self.path, dict(self.headers), body)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *args: Any) -> None:  # no request lines in the test output
        pass


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-ins are on this machine: no proxy from the environment in between."""
    for key in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(key, "127.0.0.1,localhost")


@pytest.fixture
def webhook() -> Iterator[Webhook]:
    """A webhook on 127.0.0.1 (a free port) in a thread, stopped when the test ends."""
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    hook = Webhook(url=f"http://127.0.0.1:{server.server_port}/api/webhooks/1/sEcReT")
    server.hook = hook  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield hook
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every pause the poster takes, recorded instead of slept."""
    taken: list[float] = []
    monkeypatch.setattr(cli.post, "pause", taken.append)
    return taken


def _play(script: Path, folder: Path) -> Path:
    db = folder / f"{script.stem}.db"
    with freeze_time(FROZEN_AT), contextlib.redirect_stdout(io.StringIO()):
        assert 0 == example_player()(script, db)
    return db


@pytest.fixture(scope="module")
def goons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Sprawl Goons example's first session played (its last session is the mission's, a
    7 KB recap, four messages; the session after it is played as a thread)."""
    script = next(s for s in SCRIPTS if s.stem == "sprawl-goons")
    folder = tmp_path_factory.mktemp("goons")
    first = folder / script.name
    first.write_text(script.read_text(encoding="utf-8").split(THREAD_SESSION)[0], "utf-8")
    return _play(first, folder)


THREAD_SESSION = "\n# Session 2 is played as a thread"


def cli_run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(campaign, ["--db", str(db), *args])


def _recap_parts(db: Path) -> list[str]:
    with Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        return split(recap_discord(engine.recap(entry.name, None, audience=GMS)))


# --- The example campaigns as Discord messages -----------------------------------------------


def _discord_texts(db: Path) -> dict[str, str]:
    """Every recap of a played example and, for The Code, every timeline, as Discord text."""
    texts: dict[str, str] = {}
    with Engine(str(db)) as engine:
        (entry,) = engine.directory().campaigns
        state = engine.campaign(entry.name)
        for number in range(1, state.sessions + 1):
            texts[f"session {number}"] = recap_discord(
                engine.recap(entry.name, number, audience=GMS)
            )
        if state.system == "the-code":
            for hero in state.roster:
                with contextlib.suppress(NotAHero):  # an NPC has no Exposure timeline
                    line = engine.hero_timeline(entry.name, hero.name, audience=GMS)
                    texts[hero.name] = timeline_discord(line)
            texts["campaign"] = campaign_timeline_discord(
                engine.campaign_timelines(entry.name, audience=GMS)
            )
    return texts


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_example_recaps_become_messages_of_2000_without_tables(
    script: Path, tmp_path: Path
) -> None:
    """Each example's recaps and timelines are messages of at most 2,000 characters, with no
    table, that together hold the whole text in order."""
    for name, text in _discord_texts(_play(script, tmp_path)).items():
        parts = split(text, MAX_CHARS)
        assert all(len(part) <= MAX_CHARS for part in parts), name
        assert not any("|---" in part or "\n| " in part for part in parts), name
        rejoined = [part.rsplit("\n\n(", 1)[0] if len(parts) > 1 else part for part in parts]
        assert text.split() == "\n".join(rejoined).split(), name


def test_the_discord_format_prints_the_numbered_messages(goons: Path) -> None:
    """`recap --format discord` prints the messages one after another, each numbered."""
    result = cli_run(goons, "recap", "--format", "discord")
    parts = _recap_parts(goons)
    assert (0, "\n\n".join(parts) + "\n") == (result.exit_code, result.output)
    assert [f"({n}/4)" for n in range(1, 5)] == [p.rsplit("\n", 1)[1] for p in parts]


def test_max_chars_makes_smaller_messages(goons: Path) -> None:
    """--max-chars 500 (alone, it means Discord) cuts the recap into messages of 500 at most."""
    result = cli_run(goons, "recap", "--max-chars", "500")
    labels = [line for line in result.output.splitlines() if line.startswith("(")]
    assert 0 == result.exit_code
    assert len(labels) > 10
    assert labels[-1] == f"({len(labels)}/{len(labels)})"


# --- Posting ------------------------------------------------------------------------------------


def test_the_parts_arrive_in_order(goons: Path, webhook: Webhook, waits: list[float]) -> None:
    """`recap --post URL` sends each part once, in order, as Discord's JSON with no mention
    allowed, waiting for Discord to save each; it says how many and never prints the URL."""
    result = cli_run(goons, "recap", "--post", webhook.url)
    assert (0, "posted 4 messages to the webhook\n") == (result.exit_code, result.output)
    assert _recap_parts(goons) == webhook.received
    first = webhook.requests[0]
    assert "/api/webhooks/1/sEcReT?wait=true" == first["path"]
    assert {"parse": []} == first["body"]["allowed_mentions"]
    assert "application/json" == first["headers"]["Content-Type"]
    assert not first["headers"]["User-Agent"].startswith("Python-urllib")
    assert [] == waits


def test_post_alone_reads_the_url_from_the_environment(
    goons: Path, webhook: Webhook, monkeypatch: pytest.MonkeyPatch, waits: list[float]
) -> None:
    """`--post` with no URL posts to $CAMPAIGN_WEBHOOK; under --json it reports as JSON."""
    monkeypatch.setenv("CAMPAIGN_WEBHOOK", webhook.url)
    result = cli_run(goons, "--json", "recap", "--post", "--max-chars", "1000")
    assert (0, {"posted": len(webhook.received)}) == (result.exit_code, json.loads(result.output))
    assert len(webhook.received) > 4


def test_a_rate_limit_is_waited_out_and_the_part_sent_again(webhook: Webhook) -> None:
    """A 429 waits as long as its JSON `retry_after` (else its Retry-After header) says, then
    sends the same part again; nothing is sent twice or out of order."""
    webhook.answers += [
        ACCEPTED,
        (429, {"Content-Type": "application/json"}, b'{"retry_after": 1.5, "global": false}'),
        ACCEPTED,
        (429, {"Retry-After": "2"}, b"slow down"),
    ]
    slept: list[float] = []
    assert 3 == post_parts(webhook.url, ["one", "two", "three"], sleep=slept.append)
    assert ["one", "two", "two", "three", "three"] == webhook.received
    assert [1.5, 2.0] == slept


def test_an_empty_bucket_is_waited_out_before_the_next_part(webhook: Webhook) -> None:
    """An answer that says no request is left in the rate-limit bucket waits for it to refill
    before the next part (not after the last)."""
    bucket = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.75"}
    webhook.answers += [(204, bucket, b""), (204, bucket, b"")]
    slept: list[float] = []
    post_parts(webhook.url, ["one", "two"], sleep=slept.append)
    assert ([0.75], ["one", "two"]) == (slept, webhook.received)


def test_a_server_error_stops_the_post_and_no_later_part_is_sent(
    goons: Path, webhook: Webhook, waits: list[float]
) -> None:
    """A part answered 500 every time is tried five times, with growing pauses, then the post
    stops: one line says which part and how many were posted, exit 1, and no later part is
    ever sent."""
    webhook.answers += [ACCEPTED] + [(500, {}, b"oops")] * 5
    result = cli_run(goons, "recap", "--post", webhook.url)
    expected = (
        "error: POST_FAILED: part 2 of 4 failed: the webhook still answered 500 after "
        "5 tries; 1 of 4 posted before it, none after\n"
    )
    assert (1, expected) == (result.exit_code, result.output)
    parts = _recap_parts(goons)
    assert [parts[0]] + [parts[1]] * 5 == webhook.received
    assert [1.0, 2.0, 4.0, 8.0] == waits


def test_a_refusal_stops_at_once_without_naming_the_url(
    goons: Path, webhook: Webhook, waits: list[float]
) -> None:
    """A 4xx (a deleted webhook) is not tried again; the line says what the webhook said and
    never the URL, which holds its token."""
    webhook.answers += [(404, {}, b'{"message": "Unknown Webhook", "code": 10015}')]
    result = cli_run(goons, "recap", "--post", webhook.url)
    expected = (
        "error: POST_FAILED: part 1 of 4 failed: the webhook answered 404 Unknown "
        "Webhook; 0 of 4 posted before it, none after\n"
    )
    assert (1, expected, 1, []) == (
        result.exit_code,
        result.output,
        len(webhook.received),
        waits,
    )


def test_a_webhook_that_does_not_answer_stops_the_post() -> None:
    """Nothing listening at the address: the first part is not posted, said in one line."""
    with socket.socket() as probe:  # a port that was free a moment ago and is closed now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(PostFailed) as failed:
        post_parts(f"http://127.0.0.1:{port}/hook", ["one", "two"], sleep=[].append)
    assert failed.value.reason.startswith("part 1 of 2 failed: the webhook did not answer")
    assert failed.value.reason.endswith("; 0 of 2 posted before it, none after")


def test_no_answer_in_time_stops_the_post_without_sending_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A webhook that takes the message and never answers may have posted it: the post stops
    there (sending it again could post it twice) and says so."""
    monkeypatch.setattr(cli.post, "TIMEOUT", 0.2)
    with socket.socket() as quiet:  # accepts connections (the kernel does), reads nothing
        quiet.bind(("127.0.0.1", 0))
        quiet.listen()
        url = f"http://127.0.0.1:{quiet.getsockname()[1]}/hook"
        with pytest.raises(PostFailed) as failed:
            post_parts(url, ["one", "two"], sleep=[].append)
    expected = "part 1 of 2 failed: no answer in 0.2 seconds (it may be posted); 0 of 2 posted"
    assert failed.value.reason.startswith(expected)


def test_a_long_rate_limit_stops_the_post_rather_than_hang(webhook: Webhook) -> None:
    """A wait longer than a minute is not taken: the post stops at that part."""
    webhook.answers += [(429, {}, b'{"retry_after": 3600}')]
    with pytest.raises(PostFailed, match="rate limited for 3600 seconds"):
        post_parts(webhook.url, ["one"], sleep=[].append)


# --- Options that cannot go together ----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["recap", "--post", "http://127.0.0.1:9/x", "--format", "html"],
            "OPTIONS_CONTRADICT: --post sends Discord messages and --format html asks for HTML: "
            "give one of them",
        ),
        (
            ["recap", "--post", "http://127.0.0.1:9/x", "--out", "r.md"],
            "OPTIONS_CONTRADICT: --post sends it and --out writes it to a file: give one of them",
        ),
        (
            ["recap", "--max-chars", "500", "--format", "md"],
            "OPTIONS_CONTRADICT: --max-chars cuts Discord messages and --format md asks for "
            "Markdown: give one of them",
        ),
        (
            ["--json", "recap", "--format", "discord"],
            "FORMAT_CONTRADICTS: --json asks for JSON and --format discord for Discord messages: "
            "give one of them",
        ),
        (
            ["recap", "--max-chars", "99"],
            "TOO_FEW_CHARS: a part of 99 characters cannot hold its number and a line of text: "
            "give at least 100",
        ),
        (
            ["recap", "--post", "file:///etc/passwd"],
            "INVALID_WEBHOOK_URL: --post needs the webhook's http:// or https:// URL: got a file "
            "address",
        ),
        (
            ["recap", "--post"],
            "INVALID_WEBHOOK_URL: --post needs the webhook's http:// or https:// URL: none given, "
            "and CAMPAIGN_WEBHOOK is not set",
        ),
    ],
)
def test_contradicting_options_are_refused(
    goons: Path, args: list[str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Options that ask for two things, or a limit or URL that cannot work, exit 2 in one
    line, and nothing is posted."""
    monkeypatch.delenv("CAMPAIGN_WEBHOOK", raising=False)
    result = cli_run(goons, *args)
    said = result.output
    if said.startswith("{"):  # under --json, the same line as JSON
        error = json.loads(said)["error"]
        said = f"error: {error['code']}: {error['reason']}\n"
    assert (2, f"error: {expected}\n") == (result.exit_code, said)


def test_a_timeline_posts_as_lists(tmp_path: Path, webhook: Webhook, waits: list[float]) -> None:
    """`timeline --post` sends every hero's timeline as lists, no table, in order."""
    script = next(s for s in SCRIPTS if s.stem == "rain-city")
    result = cli_run(_play(script, tmp_path), "timeline", "--post", webhook.url)
    assert (0, "posted 3 messages to the webhook\n") == (result.exit_code, result.output)
    assert ["(1/3)", "(2/3)", "(3/3)"] == [text.rsplit("\n", 1)[1] for text in webhook.received]
    assert not any("|" in text for text in webhook.received)
