"""Each error type says what it is (``kind``), and the HTTP status and the exit code follow from
it; a store's fault is a ``Fault``, never a ``DomainError``; the error body's data holds no more
than the message says, and no secret."""

from __future__ import annotations

import ast
import json
import sqlite3
import string
from pathlib import Path
from typing import Any

from cli.errors import exit_code_of
from domain.errors import FAULTS, CodedError, DomainError, ErrorKind, Fault
from engine import StoreFault
from engine.store.campaign_store import StoreFull, StoreUnreachable, store_fault
from tests.golden.test_public_names import _error_classes, _import_everything
from web.discord.answers import CONTENT, EMBED_TOTAL, FIELDS, refused
from web.errors import STATUS, status_of

ROOT = Path(__file__).resolve().parents[2]


def every_error() -> list[type[CodedError]]:
    _import_everything()
    return sorted(_error_classes(), key=lambda cls: cls.code)


def bare(cls: type[CodedError]) -> CodedError:
    """An instance for what its class says (its data does not matter here)."""
    return cls.__new__(cls)


def test_every_error_has_a_kind_and_refusals_are_never_faults() -> None:
    """Every class of the codebase has a kind; a DomainError is a refusal of some kind, a
    Fault a fault or a bug, and nothing is both."""
    found = every_error()
    assert len(found) > 300
    for cls in found:
        assert isinstance(cls.kind, ErrorKind), cls
        assert issubclass(cls, DomainError) != issubclass(cls, Fault), cls
        assert (cls.kind in FAULTS) == issubclass(cls, Fault), (cls, cls.kind)


# The statuses the codes had when a table of classes and codes in web/errors.py chose them (and
# every other refusal 409); the CLI's own errors and the store's, which never reached the API's
# handler as refusals, are faults now (503) or bad input (422).
STATUS_BEFORE = {
    "NOT_SIGNED_IN": 401,
    **dict.fromkeys(
        ("NOT_ALLOWED", "NOT_A_MEMBER", "DICE_NOT_FROM_COMMITMENT", "SIGNED_IN_ELSEWHERE"), 403
    ),
    "CSRF_FAILED": 403,
    "UNKNOWN_CAMPAIGN": 404,
    "NOT_FOUND": 404,
    "BODY_TOO_LARGE": 413,
    **dict.fromkeys(
        [
            "UNKNOWN_VERB",
            "UNKNOWN_PARAMETER",
            "INVALID_PARAMETER",
            "INVALID_REQUEST",
            "BODY_NESTED_TOO_DEEP",
            "UNREADABLE_DICE",
            "INVALID_DIE_FACE",
            "NOT_ENOUGH_DICE",
            "TOO_MANY_DICE",
            "UNKNOWN_CHARACTER",
            "AMBIGUOUS_CHARACTER",
            "EMPTY_TEXT",
            "TEXT_TOO_LONG",
            "COMMAND_TEXT_TOO_LONG",
            "INVALID_MEMBER_NAME",
            "INVALID_HOUSE_RULE",
            "UNREADABLE_DICE_NOTATION",
            "UNSUPPORTED_DICE_NOTATION",
            "NO_SUCH_POINT",
            "CONFLICTING_DICE_OPTIONS",
            "NOT_THE_CODE",
            "NOT_A_HERO",
            "SEARCH_QUERY_EMPTY",
            "SEARCH_QUERY_TOO_LONG",
            "SEARCH_LIMIT_OUT_OF_BOUNDS",
            "NOT_A_ROLL_TO_SEAL",  # new with protocol 3: bad input, as its kind says
            "SEAL_NOT_CANONICAL",
            "NO_READ_POSITION",
            "CAMPAIGN_NOT_NAMED",
            "NO_SERVER_ADDRESS",
            "INVALID_SERVER_ADDRESS",
            "WITNESS_UNREADABLE",
        ],
        422,
    ),
    "UNEXPECTED": 500,
}
CHANGED = {  # code -> (status before, now): none of them reached the API's handler before
    "BAD_DISCORD_SIGNATURE": (401, 401),  # answered 401 by hand before, in another body
    "DISCORD_NOT_SET_UP": (404, 404),  # new: was {"error": "Discord is not set up ..."}
    **dict.fromkeys(("USAGE", "NOT_A_VERB_OF", "UNREADABLE_ARGUMENT"), (409, 422)),
    **dict.fromkeys(("NO_SUCH_STORE", "UNSUPPORTED_STORE"), (409, 422)),
    **dict.fromkeys(("FILE_FAULT", "POST_FAILED", "DISCORD_REFUSED"), (409, 503)),
    "UNEXPECTED_ERROR": (409, 500),
    # new with the notices (issue 44): a bad choice or setting is bad input, a forged link 404
    **dict.fromkeys(
        ("INVALID_EMAIL", "UNKNOWN_NOTICE_KIND", "MAIL_NEEDS_SENDER", "INVALID_NOTICE_URL"),
        (422, 422),
    ),
    "UNSUBSCRIBE_LINK_INVALID": (404, 404),
}


def test_the_status_and_the_exit_code_are_the_kinds() -> None:
    """Every code answers its kind's status (the one mapping), which is the status it had
    before kinds (the table of codes) but for the codes listed; it exits 1 when its kind is a
    fault and 2 otherwise."""
    for cls in every_error():
        error = bare(cls)
        assert STATUS[cls.kind] == status_of(error), cls
        assert (1 if cls.kind in FAULTS else 2) == exit_code_of(error), cls
        if issubclass(cls, StoreFault):
            assert 503 == status_of(error), cls
        elif cls.code in CHANGED:
            assert CHANGED[cls.code][1] == status_of(error), cls
        else:
            assert STATUS_BEFORE.get(cls.code, 409) == status_of(error), cls


def test_a_full_disk_is_a_fault_not_a_refusal() -> None:
    """``except DomainError`` does not catch a full disk; it answers 503 and exits 1."""
    fault = store_fault(sqlite3.OperationalError("database or disk is full"), "table.db")
    assert isinstance(fault, StoreFull)
    assert not isinstance(fault, DomainError)
    caught = []
    try:
        raise fault
    except DomainError:  # pragma: no cover - the point: it is not one
        caught.append("as a refusal")
    except Fault:
        caught.append("as a fault")
    assert ["as a fault"] == caught
    assert (503, 1) == (status_of(fault), exit_code_of(fault))
    assert {"code": "STORE_FULL", "spec": "table.db"} == {
        "code": fault.body()["code"],
        "spec": fault.body()["data"]["spec"],
    }


def test_the_body_is_code_message_and_plain_data() -> None:
    """``message`` is the reason in one line; data is plain JSON; the CLI's body adds the
    deprecated ``reason``."""
    fault = StoreUnreachable(spec="postgresql://gm:***@db/t", problem="timeout\n  after 2 s")
    body = fault.body()
    assert ["code", "data", "message"] == sorted(body)
    assert "\n" not in body["message"]
    assert "timeout after 2 s" in body["message"]
    assert json.loads(json.dumps(body)) == body
    assert {**body, "reason": fault.reason} == fault.as_dict()


# Keyword data given at a raise that its message does not show: ruling numbers and dice counts.
NOT_IN_THE_MESSAGE = {
    ("CannotRedecide", "dependents"),
    ("InsufficientMotivation", "dice"),
    ("InsufficientMotivation", "multiplier"),
}
SECRET_WORDS = ("token", "secret", "password", "webhook", "url", "seed", "cookie", "credential")


def _fields(template: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    }


def test_the_data_says_no_more_than_the_message_and_names_no_secret() -> None:
    """Every raise in the product gives an error only the data its message is made from (but
    the few listed, which hold numbers), and no message is made from a field named for a
    secret: what a front end shows in ``data`` is what the line already says."""
    by_name = {cls.__name__: cls for cls in every_error()}
    for cls in by_name.values():
        assert not {f for f in _fields(cls.template) if any(w in f for w in SECRET_WORDS)}, cls
    extra: set[tuple[str, str]] = set()
    for path in [*ROOT.glob("[a-z]*/**/*.py")]:
        if path.parts[len(ROOT.parts)] in ("tests", "bench", "build", "examples"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in by_name:
                continue
            assert all(k.arg for k in node.keywords), (path, node.lineno)  # no **data
            given = {str(k.arg) for k in node.keywords}
            extra |= {(name, key) for key in given - _fields(by_name[name].template)}
    assert NOT_IN_THE_MESSAGE == extra


def test_a_store_fault_never_shows_a_password() -> None:
    """A database's words may quote the URL they were given: the password is masked in the
    message and the data (however short)."""
    for password in ("hunter2", "x"):
        spec = f"postgresql://gm:{password}@db.example.org/tables"
        said = sqlite3.OperationalError(f'invalid connection string "{spec}" for user gm')
        fault = store_fault(said, spec)
        assert fault is not None
        shown: Any = fault.body()
        assert f":{password}@" not in json.dumps(shown) + fault.reason, shown
        assert "postgresql://gm:***@db.example.org/tables" in shown["message"]


def test_discord_shows_the_line_and_the_data_within_its_limits() -> None:
    """An ephemeral ``CODE: message`` with the data as inline fields; a body past Discord's
    limits keeps the line and as many fields as fit."""
    error = StoreUnreachable(spec="x" * 3000, problem="gone")
    answer = refused(error)["data"]
    assert answer["flags"] == 64
    assert len(answer["content"]) <= CONTENT
    assert answer["content"].startswith("STORE_UNREACHABLE: the server of")
    many = Fault(problem="many", **{f"key{n}": "v" * 1000 for n in range(40)})
    fields = refused(many)["data"]["embeds"][0]["fields"]
    assert len(fields) <= FIELDS
    assert sum(len(f["name"]) + len(f["value"]) for f in fields) <= EMBED_TOTAL
    assert all(json.loads(f["value"]) == many.body()["data"][f["name"]] for f in fields)
