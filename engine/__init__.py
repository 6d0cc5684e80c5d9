"""The application layer: stores, the mapper, loading streams, and running commands as rulings."""

from engine.assembly import RulingResult
from engine.dice_sources import DiceSpec
from engine.mapper import converter
from engine.service import Engine

__all__ = ["DiceSpec", "Engine", "RulingResult", "converter"]
