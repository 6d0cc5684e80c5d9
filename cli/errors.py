"""How a `campaign` run ends when it does not succeed: one line on stderr (under --json the one
error body, ``{"error": {"code", "message", "data"}}``, with the deprecated ``reason``) naming the
refusal or the fault, and its exit code, which its kind says; and the checks made before a verb
runs."""

from __future__ import annotations

import os
from collections.abc import Sequence

import click

from cli.defaults import DEFAULT_DB
from domain.errors import FAULTS, CodedError, DomainError, ErrorKind, Fault, HistoryConflict

INTERRUPTED = 130  # the exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells give it
REFUSED, FAILED = 2, 1  # a refusal (bad input, a rule, the policy) exits 2; a fault or a bug 1


def exit_code_of(error: CodedError) -> int:
    return FAILED if error.kind in FAULTS else REFUSED


class NotAVerbOf(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "`{verb}` is not a verb of {system}, the current campaign's system"


class Usage(DomainError):
    """The command line itself is wrong (click's usage errors), as one line."""

    kind = ErrorKind.BAD_INPUT
    template = "{problem} (see `{command} --help`)"


class UnreadableArgument(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = "{which} is not UTF-8 text ({text}): type it again, or set the terminal to UTF-8"


class FileFault(Fault):
    template = "{path!r}: {problem}"


class UnexpectedError(Fault):
    kind = ErrorKind.UNEXPECTED
    template = (
        "the command stopped on an unexpected {kind}: {problem} (CAMPAIGN_DEBUG=1 shows where; "
        "please report it)"
    )


def report(error: BaseException, *, as_json: bool, db: str, exit_code: int | None = None) -> int:
    """Say on stderr, in one line, why the command stopped, and return its exit code: 2 for a
    refusal, 1 for a fault. A refusal keeps its own code; a store error becomes the fault it is
    (``engine.store.campaign_store.store_fault``); anything else, one line that names it."""
    from cli.render import clean, json_line

    ending = _ending(error, db)
    if as_json:
        click.echo(json_line({"error": ending.as_dict()}), err=True)
    else:
        click.echo(f"error: {ending.code}: {clean(ending.message)}", err=True)
    if exit_code is not None:
        return exit_code
    return exit_code_of(ending)


def _ending(error: BaseException, db: str) -> CodedError:
    if isinstance(error, CodedError):
        return error
    from cli.history_fault import HistoryDoesNotReplay
    from engine import one_line, store_fault

    if isinstance(error, HistoryConflict):
        return HistoryDoesNotReplay(problem=one_line(error))
    fault = store_fault(error, db)
    if fault is not None:
        return fault
    if os.environ.get("CAMPAIGN_DEBUG"):
        raise error
    if isinstance(error, OSError):
        path = error.filename if isinstance(error.filename, str) else ""
        return FileFault(path=path, problem=error.strerror or one_line(error))
    return UnexpectedError(kind=type(error).__name__, problem=one_line(error))


def one_line_text(text: str) -> str:
    return " ".join(text.split())


def global_options(argv: Sequence[str]) -> tuple[bool, str]:
    """--json and the store as the group reads them (before the verb), for the endings that
    come before it has: a usage error, an argument that is not text."""
    found = leading_options(argv)
    return bool(found.get("--json")), str(found["--db"])


def leading_options(argv: Sequence[str]) -> dict[str, str | bool]:
    """The group's own options as given before the verb (``--db`` from CAMPAIGN_DB or the
    default, ``--campaign`` from CAMPAIGN when not given; ``verb``, whether one follows), read
    without click: `--help` is printed before click has read the others."""
    found: dict[str, str | bool] = {"--db": os.environ.get("CAMPAIGN_DB") or DEFAULT_DB}
    if os.environ.get("CAMPAIGN"):
        found["--campaign"] = os.environ["CAMPAIGN"]
    items = iter(argv)
    for item in items:
        name, sep, value = item.partition("=")
        if item in ("--json", "--all"):
            found[item] = True
        elif name in ("--db", "--campaign", "--as", "--actor"):
            given = value if sep else next(items, None)
            if given is not None:
                found[name] = given
        elif item == "--" or not item.startswith("-"):
            found["verb"] = item != "--"
            break
    return found


def check_text(argv: Sequence[str]) -> None:
    """Refuse an argument (or CAMPAIGN_DB, CAMPAIGN) that is not UTF-8: undecodable bytes reach
    Python as lone surrogates, which no store, file or terminal can take."""
    named = [(f"argument {n}", item) for n, item in enumerate(argv, 1)]
    named += [(key, os.environ[key]) for key in ("CAMPAIGN_DB", "CAMPAIGN") if key in os.environ]
    for which, item in named:
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            raise UnreadableArgument(which=which, text=_as_bytes(item)) from None


def _as_bytes(item: str) -> str:
    """What was typed, as the bytes it was (``'bad \\xff'``), cut short if long."""
    try:
        shown = repr(item.encode("utf-8", "surrogateescape"))[1:]
    except UnicodeEncodeError:
        shown = ascii(item)
    return shown if len(shown) <= 60 else shown[:57] + "..."
