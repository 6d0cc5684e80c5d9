"""The table server (`campaign serve`): an HTTP JSON API on the engine's application API, with
sign-in by one-time invite links (a browser's session cookie) and bearer tokens (bots)."""

from web.app import create_app

__all__ = ["create_app"]
