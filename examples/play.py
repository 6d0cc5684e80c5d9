"""Play a campaign script (default: examples/night-shift.campaign) through the real `campaign`
command on a fresh SQLite file.

Usage: python examples/play.py [SCRIPT] [--db PATH]
Each line of the script is what you would type after `campaign`; `#` starts a comment, and a
line starting with `!` is expected to be refused (exit 2).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.main import campaign

HERE = Path(__file__).parent


def play(script: Path, db: Path) -> int:
    for stale in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.current")):
        stale.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    runner = CliRunner()
    for raw in script.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        refusal_expected = line.startswith("!")
        line = line.lstrip("! ")
        print(f"\n$ campaign {line}")
        result = runner.invoke(campaign, ["--db", str(db), *shlex.split(line)])
        print(result.output, end="")
        expected = 2 if refusal_expected else 0
        if result.exit_code != expected:
            print(f"unexpected exit {result.exit_code} (expected {expected})", file=sys.stderr)
            return 1
        if refusal_expected:
            print("(refused as expected: exit 2, nothing recorded)")
    print(f"\nThe campaign is in {db}; try: campaign --db {db} log")
    write_recaps(runner, db)
    return 0


def write_recaps(runner: CliRunner, db: Path) -> None:
    """The recap of the latest session, as Markdown and as an HTML page, beside the store."""
    for fmt in ("md", "html"):
        out = db.with_name(f"{db.stem}-recap.{fmt}")
        result = runner.invoke(
            campaign, ["--db", str(db), "recap", "--format", fmt, "--out", str(out)]
        )
        if result.exit_code == 0:
            print(f"The latest session's recap ({fmt}): {out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("script", nargs="?", default=str(HERE / "night-shift.campaign"))
    parser.add_argument("--db", help="default: build/demo/<script name>.db")
    args = parser.parse_args()
    script = Path(args.script)
    return play(script, Path(args.db or f"build/demo/{script.stem}.db"))


if __name__ == "__main__":
    sys.exit(main())
