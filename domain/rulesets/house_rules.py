"""House rules, the same way for every system: a table of keys, parsed into a Settings value.

A system lists its keys (DIGEST §7 names) with the Settings attribute each sets, a parser and
what a valid value looks like; the campaign records every key with its value (defaults filled
in), so it replays under the rules it was played with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from attrs import frozen

from domain.errors import InvalidHouseRule, UnknownHouseRule
from domain.events import HouseRule
from domain.plain import Plain

S = TypeVar("S")
Parser = Callable[[str], object]


def boolean(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on", "1"):
        return True
    if lowered in ("false", "no", "off", "0"):
        return False
    raise ValueError("true or false")


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@frozen
class HouseRules(Plain, Generic[S]):
    """A system's house rules: key -> (Settings attribute, parser, what a valid value is)."""

    system: str
    settings: Callable[..., S]
    keys: Mapping[str, tuple[str, Parser, str]]

    def check(self, given: Mapping[str, str]) -> tuple[HouseRule, ...]:
        """Check the given house rules and return every rule with its value (defaults filled)."""
        values: dict[str, Any] = {}
        for key, text in given.items():
            if key not in self.keys:
                known = ", ".join(self.keys)
                raise UnknownHouseRule(system=self.system, key=key, known=known)
            attribute, parse, expected = self.keys[key]
            try:
                values[attribute] = parse(text)
            except ValueError:
                raise InvalidHouseRule(key=key, value=text, expected=expected) from None
        settings = self.settings(**values)
        return tuple(
            HouseRule(key=key, value=_text(getattr(settings, attribute)))
            for key, (attribute, _, _) in self.keys.items()
        )

    def read(self, rules: tuple[HouseRule, ...]) -> S:
        """The Settings a campaign recorded."""
        values: dict[str, Any] = {}
        for rule in rules:
            attribute, parse, _ = self.keys[rule.key]
            values[attribute] = parse(rule.value)
        return self.settings(**values)
