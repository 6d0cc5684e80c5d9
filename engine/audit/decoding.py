"""What ``verify`` decodes besides its walks of a store: the rows of an export held in memory,
as an import decodes them (``undecoded``), and the campaign a name registers, from the
directory's stored bytes (``registered``: for a directory a read cannot decode); and ``Named``,
findings of one kind named one by one up to a bound."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from engine.audit import rows as audit_rows
from engine.audit.chain import Withheld, stored_body, why
from engine.audit.report import Finding
from engine.store.event_classes import event_classes
from engine.store.mapper import admitting, decoded
from engine.store.records import DIRECTORY_ID as DIRECTORY

if TYPE_CHECKING:
    from engine.store.campaign_store import CampaignStore

REGISTERED = "domain.events:CampaignRegistered"
NAMED = 50  # rows named one by one, of each kind; past that, how many more


class Named:
    """Findings of one kind, the first ``NAMED`` of them one by one, then how many more."""

    def __init__(self) -> None:
        self.found: list[Finding] = []
        self.more = 0

    def add(self, finding: Finding) -> None:
        if len(self.found) < NAMED:
            self.found.append(finding)
        else:
            self.more += 1

    def all(self, kind: str, what: str) -> list[Finding]:
        if not self.more:
            return self.found
        return [*self.found, Finding(kind, f"and {self.more} more rows {what}")]


def registered(store: CampaignStore, name: str) -> UUID | None:
    """The campaign the store's directory registers under ``name``, read from the directory's
    stored bytes (for ``verify`` when a row of the directory does not decode)."""
    rows = audit_rows.StoreRows(store.recorder)
    for page in rows.pages(DIRECTORY):
        for row in page:
            event = (stored_body(row) or {}).get("event")
            if row.topic == REGISTERED and isinstance(event, dict) and event.get("name") == name:
                try:
                    return UUID(str(event.get("campaign_id")))
                except ValueError:
                    continue
    return None


def undecoded(campaign_id: UUID, rows: Mapping[UUID, Sequence[StoredEvent]]) -> list[Finding]:
    """The rows held in memory (an export's) that do not decode as an import decodes them: as
    one of the event types of the campaign's system or the shared ones (a topic is never
    resolved: resolving imports the module it names), each with its stream and version."""
    first = next(iter(rows.get(campaign_id, ())), None)
    system = (stored_body(first) or {}).get("event", {}).get("system") if first else None
    try:
        classes = event_classes(str(system))
    except (KeyError, ModuleNotFoundError):
        problem = f"the campaign's system {system!r} is not one this program knows"
        return [Finding("unreadable", problem, campaign_id, 1)]
    found = Named()
    with admitting(classes):
        for stream, held in rows.items():
            for row in held:
                if isinstance(row, Withheld):  # a member's copy: checked by its digest alone
                    continue
                cls, body = classes.get(row.topic), stored_body(row)
                try:
                    if cls is None:
                        raise TypeError(f"{row.topic!r} is not an event of this program")
                    if not isinstance(body, dict):
                        raise TypeError("the stored bytes are not a JSON object")
                    decoded(stream, row.originator_version, cls, body)
                except Exception as error:  # whatever a forged row makes the decoder raise
                    version = row.originator_version
                    problem = f"version {version} does not decode ({why(error)})"
                    found.add(Finding("unreadable", problem, stream, version))
    return found.all("unreadable", "do not decode")
