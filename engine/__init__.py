"""The application API: one ``Engine`` per store, with a method for every use, and the values
its methods take and give. Front ends (the CLI, the server, a bot) import from here only.

    from engine import DiceSpec, Engine
    from domain.rulesets.sprawl_goons import commands as sg

    with Engine("table.db") as engine:
        engine.create_campaign("Neon", "sprawl-goons", gm="Rosa")
        engine.execute("Neon", sg.CreateCharacter(...), dice=DiceSpec(seed=7))

The names used by one command only (verify's findings, export and import, history) are loaded
the first time they are looked up, so a `roll` does not pay for them.
"""

from typing import TYPE_CHECKING

from domain.rulesets.lazy import lent_names
from engine.application.engine import Engine
from engine.dice.sources import DiceSpec
from engine.store.campaign_store import (
    DEFAULT_DB,
    MEMORY,
    StoreFault,
    is_postgres,
    one_line,
    store_fault,
)
from engine.store.mapper import converter
from engine.store.records import Recorded
from engine.write.assembly import RulingResult

if TYPE_CHECKING:
    from engine.application.access import NotSignedIn, SignedIn
    from engine.application.actions import ActionsView, ActionView
    from engine.application.store_changes import store_changes
    from engine.audit.verify import Finding, Report
    from engine.corrections.redraws import redrawn_ruling
    from engine.corrections.undo import NOT_UNDOABLE, LoggedRuling
    from engine.dice.player_keys import key_path, new_key, public_key_of, sign_entropy
    from engine.reads.readers import as_read_by
    from engine.reads.recaps import MODELS
    from engine.reads.search import FoundText, SearchResult
    from engine.reads.timeline import Change, NoSuchPoint, differences
    from engine.results.log_lines import dispute_line, event_lines, names, where
    from engine.results.views import (
        AmendedView,
        BreakView,
        CharacterView,
        DiceCheckView,
        DiceRow,
        DieView,
        DisputeView,
        EventView,
        FieldChange,
        FindingView,
        HistoryEntry,
        LogEntry,
        MemberView,
        RulingView,
        SealView,
        UndoneView,
        VerifyReport,
        character_view,
        dice_rows,
        dispute_view,
        dispute_views,
        field_changes,
        history_entries,
        log_entry,
        member_views,
        ruling_view,
        verify_report,
    )
    from engine.transfer.export_import import Imported, file_lines
    from engine.transfer.player_check import verify_export

__all__ = [
    "DEFAULT_DB",
    "MEMORY",
    "MODELS",
    "NOT_UNDOABLE",
    "ActionView",
    "ActionsView",
    "AmendedView",
    "BreakView",
    "Change",
    "CharacterView",
    "DiceCheckView",
    "DiceRow",
    "DiceSpec",
    "DieView",
    "DisputeView",
    "Engine",
    "EventView",
    "FieldChange",
    "Finding",
    "FindingView",
    "FoundText",
    "HistoryEntry",
    "Imported",
    "LogEntry",
    "LoggedRuling",
    "MemberView",
    "NoSuchPoint",
    "NotSignedIn",
    "Recorded",
    "Report",
    "RulingResult",
    "RulingView",
    "SealView",
    "SearchResult",
    "SignedIn",
    "StoreFault",
    "UndoneView",
    "VerifyReport",
    "as_read_by",
    "character_view",
    "converter",
    "dice_rows",
    "differences",
    "dispute_line",
    "dispute_view",
    "dispute_views",
    "event_lines",
    "field_changes",
    "file_lines",
    "history_entries",
    "is_postgres",
    "key_path",
    "log_entry",
    "member_views",
    "names",
    "new_key",
    "one_line",
    "public_key_of",
    "redrawn_ruling",
    "ruling_view",
    "sign_entropy",
    "store_changes",
    "store_fault",
    "verify_export",
    "verify_report",
    "where",
]

# submodule -> the names it lends
__getattr__, __dir__ = lent_names(
    __name__,
    "engine",
    {
        "application.access": ("NotSignedIn", "SignedIn"),
        "application.actions": ("ActionView", "ActionsView"),
        "audit.verify": ("Finding", "Report"),
        "application.store_changes": ("store_changes",),
        "transfer.player_check": ("verify_export",),
        "dice.player_keys": ("key_path", "new_key", "public_key_of", "sign_entropy"),
        "reads.readers": ("as_read_by",),
        "reads.recaps": ("MODELS",),
        "results.log_lines": ("dispute_line", "event_lines", "names", "where"),
        "results.views": (
            "AmendedView",
            "BreakView",
            "CharacterView",
            "DiceCheckView",
            "DiceRow",
            "DieView",
            "DisputeView",
            "EventView",
            "FieldChange",
            "FindingView",
            "HistoryEntry",
            "LogEntry",
            "MemberView",
            "RulingView",
            "SealView",
            "UndoneView",
            "VerifyReport",
            "character_view",
            "dice_rows",
            "dispute_view",
            "dispute_views",
            "field_changes",
            "history_entries",
            "log_entry",
            "member_views",
            "ruling_view",
            "verify_report",
        ),
        "corrections.redraws": ("redrawn_ruling",),
        "corrections.undo": ("LoggedRuling", "NOT_UNDOABLE"),
        "reads.search": ("FoundText", "SearchResult"),
        "reads.timeline": ("Change", "NoSuchPoint", "differences"),
        "transfer.export_import": ("Imported", "file_lines"),
    },
)
