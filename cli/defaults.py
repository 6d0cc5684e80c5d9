"""What the command line assumes before it opens anything: the store it names when none is given
(the engine's ``DEFAULT_DB``, which tests/unit/test_cli_imports.py holds it to), and the name of
the in-memory store. Here so that `--help` and `--version` need no engine."""

DEFAULT_DB = "campaign.db"
MEMORY = ":memory:"
