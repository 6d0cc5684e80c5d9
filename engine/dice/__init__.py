"""Dice: commit-reveal dice derived from a session's committed secrets, where the GM's
machine keeps those secrets, the dice sources (seeded or the operating system's), and a
player's own signing key."""
