"""The application layer: stores, the mapper, loading streams, and running commands as rulings."""

from engine.service import Engine, RulingResult

__all__ = ["Engine", "RulingResult"]
