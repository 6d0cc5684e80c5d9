"""Run one `campaign` command in this process, then print its peak RSS in KiB (``VmHWM``).

Run as ``python -m bench.command_probe ARGS...`` by the streaming memory figure, one fresh process
per command; the command's own output is discarded."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    from cli.main import campaign

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = campaign.main(argv, prog_name="campaign", standalone_mode=False)
    if code:
        raise SystemExit(f"campaign {' '.join(argv)} exited {code}")
    status = Path("/proc/self/status").read_text().splitlines()
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))


if __name__ == "__main__":
    main(sys.argv[1:])
