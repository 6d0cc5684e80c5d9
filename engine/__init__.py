"""The application layer: stores, the mapper, loading streams, and running commands as rulings."""

from engine.assembly import RulingResult
from engine.service import Engine

__all__ = ["Engine", "RulingResult"]
