"""`make mutation`: mutmut over the rule modules, from a copy of the tree, then a report.

Run by the mutation venv's Python (``build/mutation/.venv``, which has mutmut; ``make test``
never installs it). Each selection (``--system sims``, ``--modules domain/dice.py``) works in its
own copy of the tree, ``build/mutation/<selection>/``, so two runs of different selections do
not share mutmut's ``mutants/`` folder. The copy is refreshed on every run (rsync keeps the
modification times, so mutmut re-mutates only what changed and keeps its earlier verdicts);
survivors are always tried again, since the tests may have changed (``--fresh`` starts over).

Not a pytest module: it is named ``run.py`` and needs mutmut, which the test venv lacks.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "mutation"
SYSTEMS = ("code_green", "sims", "sprawl_goons", "the_code")

# What a rule module is not: files that declare (facts, refusals, names, permissions, the
# house-rule keys) and decide nothing. Every other module of a system, and domain/dice.py, is one.
NOT_RULE_MODULES = {
    "events.py": "event declarations: frozen facts, no decisions",
    "errors.py": "refusal declarations: message templates and codes",
    "commands.py": "the lazy list of the system's command names",
    "policy.py": "the table of what a player may issue (held by tests/unit/test_policy.py)",
    "settings.py": "the house-rule keys, their defaults and parsers (a declaration)",
}

# The trees the tests import (all copied; only the selection is mutated), and what they read.
SOURCE_PATHS = ("domain", "engine", "projections", "cli")
ALSO_COPY = ("README.md", "docs", "examples")

# Fast tests that exercise the domain: unit and golden, without the CLI ones (a subprocess, the
# click runner, the public-names and import-layer checks), integration, e2e or PostgreSQL. Tests
# are chosen by folder, not by name: a system's rule tests are tests/unit/<system>/test_<module>.py,
# and mutmut runs against each mutant the tests its stats run saw calling the mutated function.
TEST_SELECTION = (
    "tests/unit",
    "tests/golden",
    "--ignore=tests/unit/test_output_hygiene.py",
    "--ignore=tests/unit/test_lazy_commands.py",
    "--ignore=tests/unit/test_layers.py",
    "--ignore=tests/golden/test_public_names.py",
)
PYTEST_ARGS = ("-p", "no:cacheprovider", "--hypothesis-seed=0")


def rule_modules(root: Path = ROOT) -> list[str]:
    """Every rule module of the four systems, and domain/dice.py (paths from the root)."""
    found = ["domain/dice.py"]
    for system in SYSTEMS:
        for path in sorted((root / "domain" / "rulesets" / system).glob("*.py")):
            if path.name not in NOT_RULE_MODULES:
                found.append(path.relative_to(root).as_posix())
    return found


def select(systems: list[str], modules: list[str]) -> list[str]:
    """The rule modules named by systems (or 'dice', 'all') and by paths (files or folders)."""
    every = rule_modules()
    if not systems and not modules:
        return every
    chosen: list[str] = []
    for name in systems:
        key = name.strip().replace("-", "_").lower()
        if key == "all":
            chosen += every
        elif key == "dice":
            chosen.append("domain/dice.py")
        elif key in SYSTEMS:
            chosen += [m for m in every if m.startswith(f"domain/rulesets/{key}/")]
        else:
            sys.exit(f"unknown system {name!r}: one of {', '.join((*SYSTEMS, 'dice', 'all'))}")
    for given in modules:
        path = given.strip().rstrip("/")
        if path.endswith(".py"):
            if not (ROOT / path).is_file():
                sys.exit(f"no such module: {path}")
            chosen.append(path)
        else:
            inside = [m for m in every if m.startswith(path + "/")]
            if not inside:
                sys.exit(f"no rule module under {path}")
            chosen += inside
    return sorted(set(chosen))


def slug(systems: list[str], modules: list[str]) -> str:
    """The folder name of a selection under build/mutation/."""
    words = [s.replace("-", "_").lower() for s in systems] + [
        re.sub(r"^domain/(rulesets/)?", "", m.rstrip("/")).removesuffix(".py") for m in modules
    ]
    text = re.sub(r"[^A-Za-z0-9_+]+", "-", "+".join(sorted(set(words))) or "all")
    if len(text) > 240:  # a folder name has at most 255 bytes: many modules get a digest
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        text = f"{text[:200]}+{len(words)}-modules-{digest}"
    return text


def sync(work: Path) -> None:
    """Refresh the copy of the tree in ``work`` (mutmut's own folder ``mutants/`` stays)."""
    work.mkdir(parents=True, exist_ok=True)
    for tree in (*SOURCE_PATHS, "tests", "docs", "examples"):
        excluded = ("--exclude=__pycache__", "--exclude=.hypothesis")
        source, copy = f"{ROOT / tree}/", f"{work / tree}/"
        subprocess.run(["rsync", "-a", "--delete", *excluded, source, copy], check=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, work / name)


def write_config(work: Path, chosen: list[str]) -> None:
    """mutmut reads [mutmut] in setup.cfg when pyproject.toml has no [tool.mutmut]."""

    def listing(values: tuple[str, ...] | list[str]) -> str:
        return "".join(f"\n    {v}" for v in values)

    (work / "setup.cfg").write_text(
        "[mutmut]\n"
        f"source_paths ={listing(SOURCE_PATHS)}\n"
        f"only_mutate ={listing(chosen)}\n"
        f"also_copy ={listing(ALSO_COPY)}\n"
        f"pytest_add_cli_args_test_selection ={listing(TEST_SELECTION)}\n"
        f"pytest_add_cli_args ={listing(PYTEST_ARGS)}\n"
        "use_git_change_detection = false\n"
        "on_dependency_change = ignore\n",
        encoding="utf-8",
    )


def mutmut(work: Path, *args: str) -> int:
    """Run mutmut in the copy; its spinner goes to mutmut.log there unless on a terminal."""
    exe = Path(sys.executable).parent / "mutmut"
    if sys.stdout.isatty():
        return subprocess.run([str(exe), *args], cwd=work, check=False).returncode
    log = work / "mutmut.log"
    print(f"mutmut {args[0]}: its output goes to {log}", flush=True)
    with open(log, "a", encoding="utf-8") as out:
        code = subprocess.run([str(exe), *args], cwd=work, stdout=out, stderr=out, check=False)
    if code.returncode:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]
        print("\n".join(line.rsplit("\r", 1)[-1] for line in tail), file=sys.stderr)
    return code.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", nargs="*", default=[], help="code_green sims ... dice all")
    parser.add_argument("--modules", nargs="*", default=[], help="rule module files or folders")
    parser.add_argument("--max-children", type=int, default=1)
    parser.add_argument("--min-score", type=float, default=90.0)
    parser.add_argument("--fresh", action="store_true", help="forget earlier verdicts")
    parser.add_argument("--report-only", action="store_true", help="no run: report the last one")
    args = parser.parse_args(argv)
    systems = [s for given in args.system for s in re.split(r"[,\s]+", given) if s]
    modules = [m for given in args.modules for m in re.split(r"[,\s]+", given) if m]

    chosen = select(systems, modules)
    work = BUILD / slug(systems, modules)
    work.mkdir(parents=True, exist_ok=True)
    with open(work / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.exit(f"another `make mutation` is running in {work}")
        if not args.report_only:
            code = run(work, chosen, args.max_children, fresh=args.fresh)
            if code:
                return code
        os.chdir(work)  # mutmut's own modules read setup.cfg and mutants/ from here
        sys.path.insert(0, str(Path(__file__).parent))
        from report import write_reports  # beside this file; needs mutmut

        return write_reports(work, chosen, NOT_RULE_MODULES, args.min_score)


def run(work: Path, chosen: list[str], children: int, *, fresh: bool) -> int:
    if fresh and (work / "mutants").exists():
        shutil.rmtree(work / "mutants")
    (work / "mutmut.log").unlink(missing_ok=True)
    had_results = (work / "mutants").exists()
    sync(work)
    write_config(work, chosen)
    print(f"mutmut over {len(chosen)} module(s) in {work.relative_to(ROOT)}", flush=True)
    code = mutmut(work, "run", "--max-children", str(children))
    if code:
        print(f"mutmut run failed (exit {code}); see its output above", file=sys.stderr)
        return code
    if had_results:  # earlier survivors stand in mutmut's cache: the tests may kill them now
        again = survivors(work)
        if again:
            print(f"trying the {len(again)} earlier survivor(s) again", flush=True)
            code = mutmut(work, "run", "--max-children", str(children), *again)
    return code


def survivors(work: Path) -> list[str]:
    """The mutants that survived or found no test, from mutmut's .meta files."""
    import json

    names: list[str] = []
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        verdicts = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        names += [k for k, v in verdicts.items() if v in (0, 5, 33)]
    return names


if __name__ == "__main__":
    sys.exit(main())
