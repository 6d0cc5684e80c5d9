"""A local stand-in for Discord's HTTP API (127.0.0.1, a free port), for the calls the program
makes: it records each request and answers as Discord does, after checking the bodies against
the limits Discord documents for application commands (a 400 naming the first one broken)."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from attrs import define, field

from web.discord.answers import embed_size

NAME = re.compile(r"^[-_'\w]{1,32}$")


@define
class Heard:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@define
class StandIn:
    url: str = ""
    heard: list[Heard] = field(factory=list)
    arrived: threading.Event = field(factory=threading.Event)  # set at each request heard
    webhooks: list[dict[str, Any]] = field(factory=list)  # the channel webhooks made
    _heard_more: threading.Condition = field(factory=threading.Condition)

    def until(self, count: int, timeout: float = 10) -> bool:
        """Whether ``count`` requests were heard within ``timeout`` seconds."""
        with self._heard_more:
            return self._heard_more.wait_for(lambda: len(self.heard) >= count, timeout)


def problems_of_commands(commands: Any) -> list[str]:
    """What Discord would refuse in a bulk overwrite of chat commands."""
    found: list[str] = []
    if not isinstance(commands, list) or len(commands) > 100:
        return ["not a list of at most 100 commands"]
    names = [c.get("name") for c in commands]
    if len(set(names)) != len(names):
        found.append("two commands of one name")
    for command in commands:
        found += _problems(command, f"/{command.get('name')}")
    return found


def _problems(item: dict[str, Any], where: str) -> list[str]:
    found = []
    name, description = item.get("name", ""), item.get("description", "")
    if not isinstance(name, str) or NAME.match(name) is None or name != name.lower():
        found.append(f"{where}: name {name!r}")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        found.append(f"{where}: description of {len(description)} characters")
    options = item.get("options", [])
    if len(options) > 25:
        found.append(f"{where}: {len(options)} options")
    required = [o.get("required", False) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        found.append(f"{where}: a required option after an optional one")
    if len({o.get("name") for o in options}) != len(options):
        found.append(f"{where}: two options of one name")
    for option in options:
        kind = option.get("type")
        if kind not in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11):
            found.append(f"{where}: option type {kind}")
        choices = option.get("choices", [])
        if len(choices) > 25 or (choices and option.get("autocomplete")):
            found.append(f"{where} {option.get('name')}: choices")
        found += _problems(option, f"{where} {option.get('name')}")
    return found


@contextmanager
def discord_api() -> Iterator[StandIn]:
    """The stand-in, serving until the block ends."""
    stand_in = StandIn()

    class Handler(BaseHTTPRequestHandler):
        def do_PUT(self) -> None:
            body = self._heard("PUT")
            problems = problems_of_commands(body) if self.path.endswith("/commands") else []
            if not self.headers.get("Authorization", "").startswith("Bot "):
                problems.append("no bot token")
            self._answer(problems, body)

        def do_PATCH(self) -> None:
            body = self._heard("PATCH")
            problems = [] if self.path.endswith("/messages/@original") else ["not a message"]
            if "Authorization" in self.headers:
                problems.append("a webhook takes no bot token")
            embeds = body.get("embeds", []) if isinstance(body, dict) else []
            if len(embeds) > 10 or any(embed_size(e) > 6000 for e in embeds):
                problems.append("embeds over Discord's limits")
            self._answer(problems, body)

        def do_GET(self) -> None:
            self._heard("GET")
            if not self.path.endswith("/webhooks") or "Authorization" not in self.headers:
                self._answer(["not a channel's webhooks, or no bot token"], None)
                return
            self._answer([], stand_in.webhooks)

        def do_POST(self) -> None:
            body = self._heard("POST")
            bot = "Authorization" in self.headers
            if self.path == "/api/v10/users/@me/channels":  # Create DM: a DM channel (type 1)
                recipient = body.get("recipient_id") if isinstance(body, dict) else None
                dm = f"88{recipient}"[:19]
                channel = {"id": dm, "type": 1, "recipients": [{"id": recipient}]}
                ok = bot and isinstance(recipient, str)
                self._answer([] if ok else ["no bot token, or no recipient_id"], channel)
                return
            if self.path.startswith("/api/v10/channels/") and self.path.endswith("/messages"):
                problems = [] if bot else ["no bot token"]
                embeds = body.get("embeds", []) if isinstance(body, dict) else []
                if "components" in (body or {}) or any(embed_size(e) > 6000 for e in embeds):
                    problems.append("a message this app does not send in a DM")
                self._answer(problems, {"id": "9900000000000000001", **(body or {})})
                return
            if self.path.startswith("/api/v10/channels/") and self.path.endswith("/webhooks"):
                made = {"id": "7700000000000000001", "token": "the-hook-token", **(body or {})}
                stand_in.webhooks.append(made)
                self._answer([] if "Authorization" in self.headers else ["no bot token"], made)
                return
            problems = [] if "/webhooks/" in self.path else ["not a webhook"]
            content = body.get("content", "") if isinstance(body, dict) else ""
            if len(content) > 2000:
                problems.append("content over 2,000 characters")
            if len(body.get("username", "")) > 80 if isinstance(body, dict) else False:
                problems.append("a username over 80 characters")
            self._answer(problems, body)

        def _heard(self, method: str) -> Any:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"null")
            stand_in.heard.append(Heard(method, self.path, dict(self.headers.items()), body))
            return body

        def _answer(self, problems: list[str], body: Any) -> None:
            status, answer = (400, {"message": "; ".join(problems)}) if problems else (200, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            stand_in.arrived.set()
            with stand_in._heard_more:
                stand_in._heard_more.notify_all()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stand_in.url = f"http://127.0.0.1:{server.server_port}/api/v10"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
