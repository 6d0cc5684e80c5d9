"""The Sims ``message`` verb became ``post --to``; a campaign played with it still reads. The
export in ``tests/fixtures/sims-messages/`` was written by the last version that had the verb
(``tests/fixtures/make_sims_messages.py``), with what each read showed then: imported by the
newest code, it verifies, replays, and every read (log, thread, recap, search, history, sheet,
replay; as the GM, the recipient, another player and an observer) shows exactly what it showed.
Its messages are still decided again when a correction needs it (R-PDQ-15)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import campaign
from domain.audience import GMS
from domain.registry import verbs
from engine import Engine
from engine.store.event_classes import command_classes, event_classes
from tests.fixtures.make_sims_messages import NAME
from tests.stores import no_wait, replays_from_scratch

FIXTURE = Path(__file__).parents[1] / "fixtures" / "sims-messages"
READS: list[dict[str, Any]] = json.loads((FIXTURE / "reads.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store holding the imported campaign (read only by the tests that share it)."""
    db = str(tmp_path_factory.mktemp("retired") / "campaign.db")
    result = CliRunner().invoke(campaign, ["--db", db, "import", str(FIXTURE / "campaign.jsonl")])
    assert 0 == result.exit_code, result.output
    return db


def cli(db: str, words: str, reader: str | None = None) -> str:
    who = ["--as", reader] if reader else []
    result = CliRunner().invoke(
        campaign, ["--db", db, "--campaign", NAME, *who, *shlex.split(words)]
    )
    assert 0 == result.exit_code, result.output
    return result.output


def test_message_is_no_verb_any_more_but_its_topics_still_import() -> None:
    """No front end offers ``message``: the registry they are built from has ``post`` only. Its
    event and its command stay on the import's allow-lists (``engine.store.event_classes``)."""
    sims = verbs("sims")
    assert ("message" in sims, "post" in sims) == (False, True)
    assert "domain.rulesets.sims.events:PrivateMessageSent" in event_classes("sims")
    assert "domain.rulesets.sims.behind_the_scenes:SendPrivateMessage" in command_classes("sims")


def test_an_old_campaign_with_messages_verifies_and_replays(imported: str) -> None:
    """The chains, seals and headers hold; every stream replays to the state it loads to."""
    with Engine(imported, backoff=no_wait) as engine:
        report = engine.verify(NAME)
        replayed = replays_from_scratch(engine, NAME)
    assert (True, True) == (report.intact, replayed)


@pytest.mark.parametrize(
    "read", READS, ids=[f"{r['reader'] or 'gm'}-{r['read'].split()[0]}" for r in READS]
)
def test_every_read_shows_what_it_showed(imported: str, read: dict[str, Any]) -> None:
    """The messages read as they did for every reader: private to their sender, recipient and
    the GMs in the log, the thread (as private posts), the recap, search and history."""
    assert read["output"] == cli(imported, read["read"], read["reader"])


def test_an_old_message_is_decided_again(tmp_path: Path) -> None:
    """Amending a message re-decides it with the command it recorded (R-PDQ-15); undoing the
    character a reply was written for takes the reply with it, as it no longer stands."""
    db = str(tmp_path / "campaign.db")
    CliRunner().invoke(campaign, ["--db", db, "import", str(FIXTURE / "campaign.jsonl")])
    cli(db, 'amend 8 --set "body=Deal." --reason "shorter"')
    assert "> Deal.\n" in cli(db, "thread --session 1 --format md", "bob")
    cli(db, 'undo 5 --with-dependents --reason "no Cypher after all"')
    with Engine(db, backoff=no_wait) as engine:
        (entry,) = engine.log(NAME, rulings=(8,), audience=GMS)
        assert (entry.status, engine.verify(NAME).intact) == ("undone", True)
