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
from engine.store.write_lock import WouldWait, not_waiting
from engine.write.assembly import RulingResult

if TYPE_CHECKING:
    from engine.application.access import (
        InvalidServerAddress,
        NotSignedIn,
        ServerAddress,
        SignedIn,
        server_address_of,
    )
    from engine.application.actions import ActionsView, ActionView
    from engine.application.notices import Digest, NoticeChoices
    from engine.application.store_changes import store_changes
    from engine.application.waits import NOTICE_KINDS, Notice
    from engine.audit.idle import idle_lines
    from engine.audit.verify import Finding, Report
    from engine.audit.witness import APP, Head, Statement, read_statements
    from engine.audit.witness_file import keep, kept, witness, witness_file, witness_stamp
    from engine.audit.witnessed import FORGED, HOLDS, UNSIGNED, WitnessCheck, Witnessed
    from engine.corrections.redraws import redrawn_ruling
    from engine.corrections.undo import NOT_UNDOABLE, LoggedRuling
    from engine.dice.interactions import author_of, built, chat_params, seals_through
    from engine.dice.player_keys import (
        key_path,
        new_key,
        public_key_of,
        sealed_by,
        sign_entropy,
        sign_roll,
    )
    from engine.dice.seals import can_seal, sealed_in
    from engine.reads.readers import as_read_by
    from engine.reads.recaps import MODELS
    from engine.reads.search import FoundText, SearchResult
    from engine.reads.timeline import Change, NoSuchPoint, differences
    from engine.reads.unread import Unread, new_to
    from engine.results.log_lines import dispute_line, event_lines, names, where
    from engine.results.ruling import (
        AmendedView,
        DieView,
        DisputeView,
        EventView,
        LogEntry,
        RulingView,
        UndoneView,
        dispute_view,
        dispute_views,
        log_entry,
        ruling_view,
    )
    from engine.results.text import (
        dice_source,
        entry_brief,
        entry_lines,
        faces,
        history_lines,
        place,
        redrawn,
        replay_lines,
        result_lines,
        stamp,
    )
    from engine.results.views import (
        BreakView,
        CharacterView,
        DiceCheckView,
        DiceRow,
        FieldChange,
        FindingView,
        HistoryEntry,
        MemberView,
        ReplayStep,
        SealView,
        VerifyReport,
        character_view,
        dice_rows,
        field_changes,
        history_entries,
        member_views,
        replay_step,
        verify_report,
    )
    from engine.transfer.export_import import Imported, file_lines
    from engine.transfer.player_check import verify_export
    from engine.transfer.witnessed_export import ExportChecked, verify_witnessed

__all__ = [
    "APP",
    "DEFAULT_DB",
    "FORGED",
    "HOLDS",
    "MEMORY",
    "MODELS",
    "NOTICE_KINDS",
    "NOT_UNDOABLE",
    "UNSIGNED",
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
    "Digest",
    "DisputeView",
    "Engine",
    "EventView",
    "ExportChecked",
    "FieldChange",
    "Finding",
    "FindingView",
    "FoundText",
    "Head",
    "HistoryEntry",
    "Imported",
    "InvalidServerAddress",
    "LogEntry",
    "LoggedRuling",
    "MemberView",
    "NoSuchPoint",
    "NotSignedIn",
    "Notice",
    "NoticeChoices",
    "Recorded",
    "ReplayStep",
    "Report",
    "RulingResult",
    "RulingView",
    "SealView",
    "SearchResult",
    "ServerAddress",
    "SignedIn",
    "Statement",
    "StoreFault",
    "UndoneView",
    "Unread",
    "VerifyReport",
    "WitnessCheck",
    "Witnessed",
    "WouldWait",
    "as_read_by",
    "author_of",
    "built",
    "can_seal",
    "character_view",
    "chat_params",
    "converter",
    "dice_rows",
    "dice_source",
    "differences",
    "dispute_line",
    "dispute_view",
    "dispute_views",
    "entry_brief",
    "entry_lines",
    "event_lines",
    "faces",
    "field_changes",
    "file_lines",
    "history_entries",
    "history_lines",
    "idle_lines",
    "is_postgres",
    "keep",
    "kept",
    "key_path",
    "log_entry",
    "member_views",
    "names",
    "new_key",
    "new_to",
    "not_waiting",
    "one_line",
    "place",
    "public_key_of",
    "read_statements",
    "redrawn",
    "redrawn_ruling",
    "replay_lines",
    "replay_step",
    "result_lines",
    "ruling_view",
    "sealed_by",
    "sealed_in",
    "seals_through",
    "server_address_of",
    "sign_entropy",
    "sign_roll",
    "stamp",
    "store_changes",
    "store_fault",
    "verify_export",
    "verify_report",
    "verify_witnessed",
    "where",
    "witness",
    "witness_file",
    "witness_stamp",
]

# submodule -> the names it lends
__getattr__, __dir__ = lent_names(
    __name__,
    "engine",
    {
        "application.access": (
            "InvalidServerAddress",
            "NotSignedIn",
            "ServerAddress",
            "SignedIn",
            "server_address_of",
        ),
        "application.actions": ("ActionView", "ActionsView"),
        "application.notices": ("Digest", "NoticeChoices"),
        "application.waits": ("NOTICE_KINDS", "Notice"),
        "audit.verify": ("Finding", "Report"),
        "audit.idle": ("idle_lines",),
        "application.store_changes": ("store_changes",),
        "transfer.player_check": ("verify_export",),
        "dice.seals": ("can_seal", "sealed_in"),
        "dice.interactions": ("author_of", "built", "chat_params", "seals_through"),
        "dice.player_keys": (
            "key_path",
            "new_key",
            "public_key_of",
            "sealed_by",
            "sign_entropy",
            "sign_roll",
        ),
        "reads.readers": ("as_read_by",),
        "reads.recaps": ("MODELS",),
        "results.log_lines": ("dispute_line", "event_lines", "names", "where"),
        "results.ruling": (
            "AmendedView",
            "DieView",
            "DisputeView",
            "EventView",
            "LogEntry",
            "RulingView",
            "UndoneView",
            "dispute_view",
            "dispute_views",
            "log_entry",
            "ruling_view",
        ),
        "results.text": (
            "dice_source",
            "redrawn",
            "entry_brief",
            "entry_lines",
            "faces",
            "history_lines",
            "place",
            "replay_lines",
            "result_lines",
            "stamp",
        ),
        "results.views": (
            "ReplayStep",
            "replay_step",
            "BreakView",
            "CharacterView",
            "DiceCheckView",
            "DiceRow",
            "FieldChange",
            "FindingView",
            "HistoryEntry",
            "MemberView",
            "SealView",
            "VerifyReport",
            "character_view",
            "dice_rows",
            "field_changes",
            "history_entries",
            "member_views",
            "verify_report",
        ),
        "corrections.redraws": ("redrawn_ruling",),
        "corrections.undo": ("LoggedRuling", "NOT_UNDOABLE"),
        "reads.search": ("FoundText", "SearchResult"),
        "reads.timeline": ("Change", "NoSuchPoint", "differences"),
        "reads.unread": ("Unread", "new_to"),
        "transfer.export_import": ("Imported", "file_lines"),
        "transfer.witnessed_export": ("ExportChecked", "verify_witnessed"),
        "audit.witness": ("APP", "Head", "Statement", "read_statements"),
        "audit.witness_file": ("keep", "kept", "witness", "witness_file", "witness_stamp"),
        "audit.witnessed": ("FORGED", "HOLDS", "UNSIGNED", "WitnessCheck", "Witnessed"),
    },
)
