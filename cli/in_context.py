"""The verbs a run can use where it runs: the current campaign's system (read from the file that
remembers it when that says, so `campaign --help` imports no engine), and the verb closest to a
mistyped one among those verbs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import click

from cli import manifest
from cli.context import Context, remembered
from cli.defaults import MEMORY

ALIKE = 0.6  # how alike (difflib's ratio) a verb must be to a mistyped word to be suggested


def system_here(options: Mapping[str, str | bool]) -> str | None:
    """The system of the campaign a run is in (``options``: the group's, as
    ``cli.errors.leading_options`` reads them), or None outside any campaign: no store, or one
    with no current campaign and not exactly one. The store is opened only when the file that
    remembers the current campaign does not say its system (or ``--campaign`` names another)."""
    db = str(options["--db"])
    chosen = options.get("--campaign")
    if db == MEMORY or (_a_file(db) and not Path(db).exists()):
        return None  # nothing is stored there: no campaign to be in
    found = remembered(db)
    if found is not None and found[1] in manifest.SYSTEM_VERBS and chosen in (None, found[0]):
        return found[1]
    return _opened(db, str(chosen) if isinstance(chosen, str) else None)


def _a_file(db: str) -> bool:
    return "://" not in db and not db.startswith("file:")


def _opened(db: str, chosen: str | None) -> str | None:
    """The current campaign's system, from the store (never made here)."""
    context = Context(db=db, campaign_option=chosen, as_json=False, actor=None)
    try:
        return context.engine.find_campaign(context.campaign()).system
    except Exception:  # no campaign chosen, or a store that does not open: every system's
        return None
    finally:
        context.close()


def verbs_here(shared: Iterable[str], system: str | None) -> list[str]:
    """The shared verbs and those of ``system`` (every system's when None)."""
    systems = manifest.SYSTEM_VERBS if system is None else {system: manifest.SYSTEM_VERBS[system]}
    own = {name for _, verbs in systems.values() for name in verbs}
    return sorted({*shared, *own})


def closest(typed: str, verbs: Iterable[str]) -> list[str]:
    """The verbs most like ``typed`` (``rol``: ``roll``; ``charcter``: ``character``): difflib's
    ratio of matching characters, at least ``ALIKE``; of those, the best, and any as good. The
    verbs that ``typed`` begins (three letters or more: ``hist``, ``history``) come first."""
    from difflib import SequenceMatcher  # only for a mistyped verb

    word = typed.casefold()
    verbs = list(verbs)
    begun = [verb for verb in verbs if len(word) >= 3 and verb.startswith(word)]
    scored = [(SequenceMatcher(None, word, verb).ratio(), verb) for verb in begun or verbs]
    best = max((score for score, _ in scored), default=0.0)
    if best < ALIKE:
        return []
    return sorted(verb for score, verb in scored if score == best)


class MistypedVerb(click.exceptions.NoSuchCommand):
    """A word that is no verb here, with the verbs closest to it (``closest``)."""

    def __init__(self, typed: str, suggested: list[str], ctx: click.Context) -> None:
        super().__init__(typed, ctx=ctx)
        self.suggested = suggested

    def format_message(self) -> str:
        if not self.suggested:
            return self.message
        said = " or ".join(repr(verb) for verb in self.suggested)
        return f"{self.message} Did you mean {said}?"
