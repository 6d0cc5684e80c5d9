"""What happens at the table: events, state, rules.

Pure: no I/O, no clock, no randomness of its own.
"""
