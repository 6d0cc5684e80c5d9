"""What the endpoint answers, as Discord shows it: a ruling as an embed (its number and verb,
who made it, the dice with their faces, each line of what changed, the character as its
author), a refusal as a one-line message only its sender sees (flag 64, EPHEMERAL), ``CODE:
message``, with the error body's data as an embed's fields under it, all inside the limits
Discord puts on a message. Interaction callback types: 1 PONG, 4 a message."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from attrs import frozen

from domain.errors import CodedError
from domain.events import Visibility
from engine import RulingResult, RulingView, dice_source, faces

PONG = 1
MESSAGE = 4
DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: the answer follows
AUTOCOMPLETE_RESULT = 8
MODAL = 9
ACTION_ROW, BUTTON, TEXT_INPUT, LABEL = 1, 2, 4, 18
SECONDARY, DANGER = 2, 4  # button styles
PARAGRAPH = 2  # text input style
EPHEMERAL = 1 << 6
# An embed's limits (Discord's "Embed Limits"), and a message's content.
TITLE, DESCRIPTION, FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR = 256, 4096, 256, 1024, 2048, 256
EMBED_TOTAL, CONTENT, FIELDS = 6000, 2000, 25


@frozen
class Answer:
    """An answer, and the messages that follow it through the interaction's webhook."""

    first: dict[str, Any]
    then: tuple[dict[str, Any], ...] = ()
    speak: tuple[str, str, str] | None = None  # (channel, speaker, text) to show as the speaker
    tell: tuple[RulingResult, str] | None = None  # (a ruling, its author): DM its other readers
    first_told: Callable[[str], bool] | None = None  # (a member) whether no DM told them yet


def cut(text: str, limit: int) -> str:
    """``text`` at most ``limit`` characters, ending in an ellipsis when shortened."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def said(text: str, *, private: bool = True) -> dict[str, Any]:
    """A message of one line (only its sender sees it, unless ``private`` is False)."""
    data: dict[str, Any] = {"content": cut(text, CONTENT), "allowed_mentions": {"parse": []}}
    if private:
        data["flags"] = EPHEMERAL
    return {"type": MESSAGE, "data": data}


def refused(error: CodedError) -> dict[str, Any]:
    """A refusal (or a fault) as the error body every front end gives: its line, ``CODE:
    message``, and its data as the inline fields of an embed, each value as JSON (a field per key
    as far as Discord's limits allow: 25 fields, 6000 characters in all)."""
    answer = said(f"{error.code}: {error.message}")
    fields: list[dict[str, Any]] = []
    room = EMBED_TOTAL
    for key, value in error.body()["data"].items():
        name = cut(key, FIELD_NAME)
        shown = cut(json.dumps(value, ensure_ascii=False), FIELD_VALUE)
        if len(fields) == FIELDS or len(name) + len(shown) > room:
            break
        fields.append({"name": name, "value": shown, "inline": True})
        room -= len(name) + len(shown)
    if fields:
        answer["data"]["embeds"] = [{"fields": fields}]
    return answer


def ruling(view: RulingView) -> dict[str, Any]:
    """The ruling as an embed; only its readers see it when it is hidden or private. It is
    "by" whom the log names as its actor (a ``/join`` is the GM's ruling, by the code given),
    and its author is who speaks in it."""
    embed: dict[str, Any] = {
        "title": cut(f"Ruling {view.ruling}: {view.command}", TITLE),
        "description": cut("\n".join(view.lines or ["(nothing changed)"]), DESCRIPTION),
        "footer": {"text": cut(_footer(view), FOOTER)},
    }
    if view.speaker is not None:
        embed["author"] = {"name": cut(view.speaker, AUTHOR)}
    data: dict[str, Any] = {"embeds": [embed], "allowed_mentions": {"parse": []}}
    if view.visibility != str(Visibility.PUBLIC):
        data["flags"] = EPHEMERAL
    if view.correctable:
        data["components"] = [{"type": ACTION_ROW, "components": _buttons(view.ruling)}]
    return {"type": MESSAGE, "data": data}


def _buttons(number: int) -> list[dict[str, Any]]:
    """Under a ruling that may be corrected: Dispute (a player's or an observer's objection)
    and Undo (the GM's); who presses is checked against the policy when they do."""
    return [
        {"type": BUTTON, "style": SECONDARY, "label": "Dispute", "custom_id": f"dispute:{number}"},
        {"type": BUTTON, "style": DANGER, "label": "Undo", "custom_id": f"undo:{number}"},
    ]


def reason_form(custom_id: str, title: str) -> dict[str, Any]:
    """The form a button opens: one paragraph, the reason (a Label around a Text Input)."""
    field = {
        "type": TEXT_INPUT,
        "custom_id": "reason",
        "style": PARAGRAPH,
        "min_length": 1,
        "max_length": 1000,
        "required": True,
    }
    return {
        "type": MODAL,
        "data": {
            "custom_id": custom_id,
            "title": cut(title, 45),
            "components": [{"type": LABEL, "label": "Why?", "component": field}],
        },
    }


def _footer(view: RulingView) -> str:
    parts = [f"by {view.actor}"]
    if view.dice:
        parts.append(f"dice {faces(view)} ({dice_source(view)})")
    return " · ".join(parts)


def embed_size(embed: dict[str, Any]) -> int:
    """The characters of an embed Discord counts toward its 6,000."""
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += len(embed.get("footer", {}).get("text", "")) + len(
        embed.get("author", {}).get("name", "")
    )
    for field in embed.get("fields", []):
        total += len(field.get("name", "")) + len(field.get("value", ""))
    return total
