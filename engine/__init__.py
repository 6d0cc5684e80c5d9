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
from engine.assembly import RulingResult
from engine.dice_sources import DiceSpec
from engine.mapper import converter
from engine.records import Recorded
from engine.service import Engine
from engine.store import DEFAULT_DB, MEMORY, StoreFault, is_postgres, one_line, store_fault

if TYPE_CHECKING:
    from engine.access import NotSignedIn, SignedIn
    from engine.audit import Finding, Report
    from engine.changes import store_changes
    from engine.player_check import verify_export
    from engine.player_keys import key_path, new_key, public_key_of, sign_entropy
    from engine.readers import as_read_by
    from engine.recaps import MODELS
    from engine.rulings import LoggedRuling
    from engine.timeline import Change, NoSuchPoint, differences
    from engine.transfer import Imported, file_lines

__all__ = [
    "DEFAULT_DB",
    "MEMORY",
    "MODELS",
    "Change",
    "DiceSpec",
    "Engine",
    "Finding",
    "Imported",
    "LoggedRuling",
    "NoSuchPoint",
    "NotSignedIn",
    "Recorded",
    "Report",
    "RulingResult",
    "SignedIn",
    "StoreFault",
    "as_read_by",
    "converter",
    "differences",
    "file_lines",
    "is_postgres",
    "key_path",
    "new_key",
    "one_line",
    "public_key_of",
    "sign_entropy",
    "store_changes",
    "store_fault",
    "verify_export",
]

# submodule -> the names it lends
__getattr__, __dir__ = lent_names(
    __name__,
    "engine",
    {
        "access": ("NotSignedIn", "SignedIn"),
        "audit": ("Finding", "Report"),
        "changes": ("store_changes",),
        "player_check": ("verify_export",),
        "player_keys": ("key_path", "new_key", "public_key_of", "sign_entropy"),
        "readers": ("as_read_by",),
        "recaps": ("MODELS",),
        "rulings": ("LoggedRuling",),
        "timeline": ("Change", "NoSuchPoint", "differences"),
        "transfer": ("Imported", "file_lines"),
    },
)
