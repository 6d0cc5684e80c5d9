"""A player's own signing key, on the player's own machine: made once (``new_key``), its public
half registered on their seat, then used to sign the entropy they add to a session's committed
dice (``sign_entropy``). The private key never leaves the file; the GM never sees it.

The file is PKCS#8 PEM, unencrypted, readable by its owner only (mode 0600), written by the
``cryptography`` package."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.errors import DomainError, ErrorKind
from domain.signatures import entropy_message

DEFAULT_KEY = "~/.config/campaign-log/player-key.pem"


class KeyFileExists(DomainError):
    template = (
        "{path} holds a key already: a new one would orphan the key on your seat; give "
        "another --file, or register this one (`campaign key show`)"
    )


class KeyFileUnreadable(DomainError):
    template = "{path} is not a key `campaign key new` wrote ({why})"


def key_path(given: str | None) -> Path:
    """The key file: ``given``, else ``$CAMPAIGN_KEY``, else ``DEFAULT_KEY``."""
    return Path(given or os.environ.get("CAMPAIGN_KEY") or DEFAULT_KEY).expanduser()


def new_key(path: Path) -> str:
    """Write a new private key to ``path`` (never over an existing file) and give its public
    half (hex)."""
    if path.exists():
        raise KeyFileExists(path=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(pem)
    return public_hex(private)


def _private(path: Path) -> Ed25519PrivateKey:
    try:
        loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as error:
        raise KeyFileUnreadable(path=str(path), why=error.strerror or "cannot be read") from None
    except (ValueError, TypeError):
        raise KeyFileUnreadable(path=str(path), why="not an unencrypted PEM key") from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise KeyFileUnreadable(path=str(path), why="not an Ed25519 key")
    return loaded


def public_hex(private: Ed25519PrivateKey) -> str:
    raw = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return raw.hex()


def public_key_of(path: Path) -> str:
    return public_hex(_private(path))


def sign_message(path: Path, message: bytes) -> tuple[str, str]:
    """The public half (hex) of the key in ``path`` and its signature (hex) of ``message``:
    a witness statement (``engine.audit.witness_file``)."""
    private = _private(path)
    return public_hex(private), private.sign(message).hex()


def sign_entropy(path: Path, commitment: str, member: str, words: str) -> str:
    """The signature (hex) of ``member``'s ``words`` for the session committed to
    ``commitment``: what `campaign entropy --signature` records."""
    message = entropy_message(commitment.strip().lower(), member, words.strip())
    return _private(path).sign(message).hex()


class NotARollToSeal(DomainError):
    kind = ErrorKind.BAD_INPUT
    template = (
        "the text is not a roll to seal ({why}): seal only the text `--seal-text` or the table "
        "page gives, six lines from 'campaign-log roll 3'"
    )


SEAL_LINES = 6


def sealed_journal(path: Path) -> Path:
    """Where a player's machine keeps what its key sealed, beside the key: so that a sealed
    roll the log lacks (one the GM's machine dropped after seeing it) is found later."""
    return path.with_name(path.name + ".sealed.jsonl")


def sign_roll(path: Path, text: str) -> str:
    """The seal (hex) of a roll: the signature of ``text`` (``domain.signatures.seal_message``)
    by the key in ``path``, kept in the key's journal of sealed rolls."""
    lines = text.split("\n")
    if len(lines) != SEAL_LINES or lines[0] != "campaign-log roll 3":
        why = f"{len(lines)} lines" if lines[0] == "campaign-log roll 3" else "another first line"
        raise NotARollToSeal(why=why)
    signature = _private(path).sign(text.encode()).hex()
    journal = sealed_journal(path)
    line = json.dumps({"text": text, "seal": signature}, ensure_ascii=False)
    descriptor = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    return signature


def sealed_by(path: Path) -> list[tuple[str, str]]:
    """What the key in ``path`` sealed, as its journal kept it: (text, seal), oldest first."""
    journal = sealed_journal(path)
    if not journal.exists():
        return []
    found = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        try:
            kept = json.loads(line)
            found.append((str(kept["text"]), str(kept["seal"])))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a crash: what it held was never sent
    return found
