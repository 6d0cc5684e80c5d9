"""Corrections: undo, amend, re-deciding the rulings after a correction, the tail of the
log they read, and the changes a correction records."""
