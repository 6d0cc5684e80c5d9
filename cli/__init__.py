"""The `campaign` command: parse, call the engine, render."""
