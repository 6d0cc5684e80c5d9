"""A scene of each system played at the table page by the GM and two players (the browser
plays of ``test_play_browser``): posts typed in the composer, the actions beside it used
through their forms, the expected step checked first where the state waits for one, a
refusal by the rules, and a private post that only its reader (and the GM) reads.

Fields name the form's inputs (``f-{verb}-{field}``); ``{alice}`` and ``{bob}`` stand for the
players' characters (Code Green names them by their rolled numbers)."""

from __future__ import annotations

from typing import Any

from attrs import field, frozen


@frozen
class Step:
    """One thing a member does on their page. ``verb`` "post" is the composer (``to``: a
    member it is private to); ``first``: the verb's form must be the first the page offers
    (marked as expected); ``refused``: the code the rules refuse it with (shown in place,
    nothing recorded); ``character``: the GM's actions asked for that character."""

    who: str
    verb: str
    fields: dict[str, Any] = field(factory=dict)
    to: str = ""
    first: bool = False
    refused: str = ""
    character: str = ""


PLAYS: dict[str, tuple[Step, ...]] = {
    "code-green": (
        Step("alice", "post", {"text": "{alice} creeps toward the *cold room*"}),
        Step("alice", "test", {"form": "Legs", "function": "Cryptic"}, first=True),
        Step(
            "bob",
            "assist",
            {"square": "R1C2", "justification": "a hunch"},
            first=True,
            refused="NO_TOKEN_ON_SQUARE",
        ),
        Step("bob", "assist", {"square": "R1C1", "justification": "his blood jams the radio"}),
        Step("alice", "roll", first=True),
        Step("gm", "post", {"text": "The radio crackles *your* name"}, to="alice"),
    ),
    "sprawl-goons": (
        Step("alice", "post", {"text": "Tanner kicks the door in"}),
        Step("alice", "roll", {"stat": "reaction", "ds": "10"}, first=True),
        Step("bob", "roll", {"stat": "cognition", "ds": "sideways"}, refused="INVALID_DS"),
        Step("gm", "npc", {"character": "Zone Boss ganger", "ds": "moderate"}),
        Step("gm", "initiative", {"combatants": "Tanner, Vex, Zone Boss ganger"}),
        Step(
            "alice",
            "attack",
            {"targets": "Zone Boss ganger", "stat": "morphology", "items": "Katana"},
            first=True,
        ),
        Step("gm", "post", {"text": "The ganger's radio calls for backup"}, to="bob"),
    ),
    "sims": (
        Step("alice", "post", {"text": "Neo *breathes*, and the wall is just a wall"}),
        Step(
            "alice",
            "roll",
            {"qualities": "Kung Fu", "difficulty": "Good", "task": "the wall"},
            first=True,
        ),
        Step(
            "bob",
            "roll",
            {"qualities": "Hacking", "difficulty": "Good"},
            refused="QUALITY_NOT_OWNED",
        ),
        Step("gm", "turns", {"entries": "Neo:Kung Fu, Cypher:Knives", "ties": "as-listed"}),
        Step("alice", "attack", {"qualities": "Kung Fu", "targets": "Cypher"}, first=True),
        Step("gm", "post", {"text": "Cypher, the Agents want a word"}, to="bob"),
    ),
    "the-code": (
        Step("alice", "post", {"text": "The Hawk drops from the fire escape"}),
        Step("gm", "step", {"character": "The Hawk", "task": "the alley", "profession": True}),
        Step(
            "gm",
            "contest",
            {"task": "the alley", "hero": "The Hawk", "opponent": "Lady Volt", "opponent_step": 4},
            first=True,
            character="The Hawk",
        ),
        Step("bob", "lower-exposure", refused="EXPOSURE_ZERO"),
        Step("alice", "dice", {"expression": "1d10", "why": "spot the crook"}),
        Step("gm", "post", {"text": "A reporter saw the Hawk's face"}, to="alice"),
    ),
}
