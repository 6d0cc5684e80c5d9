"""Players with keys of their own (the GM never sees the private half), seated on a table and
adding signed entropy, for the tests of committed dice."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.events import Role
from domain.lifecycle import AddEntropy, CloseEntropy
from domain.signatures import entropy_message
from domain.table import AddMember, RegisterKey
from engine import Engine, RulingResult


class Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self._private = Ed25519PrivateKey.generate()
        raw = self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = raw.hex()

    def sign(self, commitment: str, words: str) -> str:
        return self._private.sign(entropy_message(commitment, self.name, words)).hex()

    def seated(self, engine: Engine, campaign: str = "Lab") -> Player:
        """Seated as a player, with this key on the seat, put there from their own signed-in
        client (as the table page and Discord register it): their signed entropy counts."""
        engine.execute(campaign, AddMember(member=self.name, role=Role.PLAYER))
        register = RegisterKey(member=self.name, key=self.public)
        engine.execute(campaign, register, actor=self.name, signed_in=True)
        return self

    def adds(self, engine: Engine, words: str, campaign: str = "Lab") -> int:
        """Signed entropy for the running session; the ruling's number."""
        commitment = engine.campaign(campaign).commitment or ""
        command = AddEntropy(words=words, by=self.name, signature=self.sign(commitment, words))
        return engine.execute(campaign, command, actor=self.name).number

    def seal(self, text: str) -> str:
        """The signature of a sealed roll's text, as the player's own client makes it."""
        return self._private.sign(text.encode()).hex()

    def rolls(self, engine: Engine, command: Any, campaign: str = "Lab") -> RulingResult:
        """``command`` sealed by this player (protocol 3): the text the engine gives, signed
        here, and the roll asked for with the signature."""
        text = engine.seal_text(campaign, command, actor=self.name)
        return engine.execute(campaign, command, actor=self.name, seal=self.seal(text))

    def counted(self, engine: Engine, words: str, campaign: str = "Lab") -> tuple[str, str, str]:
        """The contribution as the running session's dice count it."""
        commitment = engine.campaign(campaign).commitment or ""
        return (self.name, words, self.sign(commitment, words))


def close_entropy(engine: Engine, campaign: str = "Lab") -> int:
    """The GM closes the running session's entropy window (protocol 3): the first committed
    roll no longer waits for every player with a key (words may still come before it)."""
    command = CloseEntropy(reason="the table plays on without waiting for every player's words")
    return engine.execute(campaign, command).number
