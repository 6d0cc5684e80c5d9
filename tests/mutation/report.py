"""The report of a `make mutation` run: per module killed/survived/score, each survivor with its
diff, the equivalent ones (``tests/mutation/equivalent.toml``) marked with their reason.

Writes ``build/mutation/<selection>/REPORT.md`` and updates the rows of the mutated modules in the
committed ``tests/mutation/RESULTS.md``. Imported by ``run.py`` from inside the selection's copy
of the tree (mutmut reads its setup.cfg and ``mutants/`` from the working directory).
"""

from __future__ import annotations

import fcntl
import json
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
from mutmut.utils.format_utils import orig_function_and_class_names_from_key

HERE = Path(__file__).resolve().parent
EQUIVALENT = HERE / "equivalent.toml"
RESULTS = HERE / "RESULTS.md"
DETECTED = {"killed", "timeout", "segfault", "caught by type check"}


@dataclass
class Mutant:
    name: str
    status: str
    function: str = ""
    original: str = ""
    mutated: str = ""
    diff: str = ""
    reason: str = ""  # set when judged equivalent


@dataclass
class Module:
    path: str
    mutants: list[Mutant] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(m.status in statuses for m in self.mutants)

    @property
    def checked(self) -> int:
        return len(self.mutants) - self.count("not checked")

    @property
    def killed(self) -> int:
        return self.count(*DETECTED)

    @property
    def equivalent(self) -> list[Mutant]:
        return [m for m in self.mutants if m.reason]

    @property
    def undetected(self) -> list[Mutant]:
        undetected = DETECTED | {"not checked"}
        return [m for m in self.mutants if m.status not in undetected and not m.reason]

    def score(self, *, without_equivalent: bool) -> float:
        """Killed out of the mutants checked (an interrupted run leaves some unchecked)."""
        total = len(self.mutants) - self.count("not checked")
        total -= len(self.equivalent) if without_equivalent else 0
        return 100.0 * self.killed / total if total else 100.0


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def describe(m: Mutant, path: str) -> None:
    """Fill in the function, the diff and the changed lines of a survivor (stable keys)."""
    function, cls = orig_function_and_class_names_from_key(m.name)
    m.function = f"{cls}.{function}" if cls else function
    m.diff = get_diff_for_mutant(m.name, path=path)
    body = [line for line in m.diff.splitlines() if not line.startswith(("---", "+++", "@@"))]
    m.original = _norm(" / ".join(line[1:] for line in body if line.startswith("-")))
    m.mutated = _norm(" / ".join(line[1:] for line in body if line.startswith("+")))


def load(path: str) -> Module:
    meta = Path("mutants") / (path + ".meta")
    module = Module(path)
    if not meta.exists():
        return module
    verdicts = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    for name, code in sorted(verdicts.items(), key=lambda kv: _natural(kv[0])):
        m = Mutant(name, status_by_exit_code[code])
        if m.status not in DETECTED and m.status != "not checked":
            describe(m, path)
        module.mutants.append(m)
    return module


def _natural(name: str) -> tuple[str, int]:
    head, _, number = name.rpartition("__mutmut_")
    return head, int(number) if number.isdigit() else 0


def mark_equivalent(modules: list[Module]) -> list[dict[str, str]]:
    """Give each listed survivor its reason; return the entries that matched none."""
    entries = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("equivalent", [])
    paths = {m.path for m in modules}
    used: set[int] = set()
    for module in modules:
        for mutant in module.mutants:
            if mutant.status in DETECTED or mutant.status == "not checked":
                continue
            for i, e in enumerate(entries):
                if (
                    e["module"] == module.path
                    and e["function"] == mutant.function
                    and _norm(e["original"]) == mutant.original
                    and _norm(e["mutated"]) == mutant.mutated
                ):
                    mutant.reason = e["reason"]
                    used.add(i)
                    break
    return [e for i, e in enumerate(entries) if i not in used and e["module"] in paths]


def _row(m: Module, today: str) -> str:
    unchecked = m.count("not checked")
    when = f"{today}, {unchecked} not checked yet" if unchecked else today
    raw, net = "-", "-"
    if m.checked:
        raw = f"{m.score(without_equivalent=False):.1f}%"
        net = f"**{m.score(without_equivalent=True):.1f}%**"
    return (
        f"| `{m.path}` | {len(m.mutants)} | {m.killed} | {m.count('survived')} | "
        f"{m.count('no tests')} | {len(m.equivalent)} | {raw} | {net} | {when} |"
    )


HEADER = (
    "| module | mutants | killed | survived | no test | equivalent | score | "
    "score without equivalents | run |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---|"
)


def rule_module_note(not_rules: dict[str, str]) -> str:
    lines = [
        "Rule modules: every module of `domain/rulesets/<system>/` (code_green, sims, "
        "sprawl_goons, the_code), and `domain/dice.py`, except those that only declare:",
        "",
        *(f"- `{name}`: {why}" for name, why in not_rules.items()),
        "",
        "Killed counts timeouts and crashes too. Score = killed / mutants checked; the second "
        "score leaves out the survivors listed as equivalent in `tests/mutation/equivalent.toml` "
        "(no input can tell them apart). mutmut does not mutate decorated functions (the "
        "`@evolve.register` handlers) or module-level tables.",
    ]
    return "\n".join(lines)


def write_reports(work: Path, chosen: list[str], not_rules: dict[str, str], minimum: float) -> int:
    modules = [load(p) for p in chosen]
    stale = mark_equivalent(modules)
    today = date.today().isoformat()
    out = [f"# Mutation report: {work.name}", "", rule_module_note(not_rules), "", HEADER]
    out += [_row(m, today) for m in modules]
    low = [m for m in modules if m.score(without_equivalent=True) < minimum]
    unchecked = [m.path for m in modules if m.count("not checked") or not m.mutants]
    for m in modules:
        if not (m.undetected or m.equivalent):
            continue
        out += ["", f"## `{m.path}`"]
        for title, group in (("Surviving", m.undetected), ("Equivalent", m.equivalent)):
            if group:
                out += ["", f"### {title} ({len(group)})"]
            for mutant in group:
                out += ["", f"`{mutant.name}` ({mutant.status}) in `{mutant.function}`"]
                if mutant.reason:
                    out += ["", f"> {mutant.reason}"]
                out += ["", "```diff", mutant.diff, "```"]
    if stale:
        out += ["", "## Entries of equivalent.toml that matched no survivor", ""]
        out += [
            f"- `{e['module']}` `{e['function']}`: `{e['original']}` -> `{e['mutated']}`"
            for e in stale
        ]
    report = work / "REPORT.md"
    report.write_text("\n".join(out) + "\n", encoding="utf-8")
    update_results(modules, not_rules, today)

    print("\n" + HEADER)
    for m in modules:
        print(_row(m, today))
    print(f"\nreport: {report}\nscores: {RESULTS}")
    if stale:
        print(f"{len(stale)} equivalent.toml entries matched no survivor (see the report)")
    if unchecked:
        print(f"not fully checked (interrupted run?): {', '.join(unchecked)}")
    if low:
        print(f"below {minimum:.0f}%: {', '.join(m.path for m in low)}")
        return 1
    return 0


def update_results(modules: list[Module], not_rules: dict[str, str], today: str) -> None:
    """Rewrite the rows of these modules in RESULTS.md, keep the others (locked: runs overlap)."""
    lock_path = HERE.parents[1] / "build" / "mutation" / ".results.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        rows: dict[str, str] = {}
        if RESULTS.exists():
            for line in RESULTS.read_text(encoding="utf-8").splitlines():
                found = re.match(r"\| `([^`]+)` \|", line)
                if found:
                    rows[found.group(1)] = line
        # A module none of whose mutants was checked yet (an interrupted run) keeps its old row.
        rows.update({m.path: _row(m, today) for m in modules if m.checked})
        text = [
            "# Mutation scores",
            "",
            "Written by `make mutation` (`tests/mutation/run.py`): each run rewrites the rows of "
            "the modules it mutated. The surviving mutants are listed in the run's report, "
            "`build/mutation/<selection>/REPORT.md`.",
            "",
            rule_module_note(not_rules),
            "",
            HEADER,
            *(rows[k] for k in sorted(rows)),
        ]
        RESULTS.write_text("\n".join(text) + "\n", encoding="utf-8")
