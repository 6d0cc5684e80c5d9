"""Every fenced block of the README and of each page in docs/ runs as printed, or the page says
why it does not.

Each page is read alone: its blocks run in its own temporary folders, needing nothing another page
ran. docs/rules-digest.md and docs/architecture.md are not read: their blocks are pseudo-code and
listings, none of them a command. How a block is read, from the README itself:

- ```text: an output sample or a listing; not run.
- `<!-- not run: REASON -->` on the line just before a fence: not run, for the reason written
  (it needs PostgreSQL, a network, `make`...).
- ```sh: `campaign ...` commands, run in order in a fresh temporary folder (the store is the
  default `campaign.db` there), each expected to succeed. A command's comment (after two spaces
  and `#`) may say more:
  - `# refused CODE: why` expects the refusal: exit 2 with `error: CODE`;
  - `# -> TEXT` is what the command prints: each piece of TEXT between `...` must appear in the
    output, in order (spaces collapsed).
- `<!-- readme-test: tour NAME -->` before several ```sh blocks runs them in one folder, in order
  (one system's tour in several parts, prose between them).
- ```python: executed in a fresh temporary folder.
- Anything else fails `test_every_block_is_run_or_marked` until it is marked.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from cli.main import campaign

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
# The pages whose blocks are run: the README, then every page in docs/ but those of pseudo-code.
NOT_EXAMPLES = ("README.md", "rules-digest.md", "architecture.md")
PAGES = (README, *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name not in NOT_EXAMPLES))
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>\S.*?)\s*-->")
TOUR = re.compile(r"<!--\s*readme-test:\s*tour\s+(?P<name>[\w-]+)\s*-->")
REFUSED = re.compile(r"^refused (?P<code>[A-Z][A-Z_]+)\b")


@attrs.frozen(kw_only=True)
class Block:
    """One fenced block: where it starts, under which heading, its info string, its text, the
    marker above it."""

    line: int
    heading: str
    info: str
    text: str
    marker: str


@attrs.frozen(kw_only=True)
class Command:
    """One `campaign` command of a shell block, with what its comment expects."""

    words: tuple[str, ...]
    refusal: str | None
    sample: str | None


def blocks(text: str) -> list[Block]:
    """A page's fenced blocks, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    index, heading = 0, ""
    while index < len(lines):
        fence = lines[index].strip()
        if not fence.startswith("```"):
            if fence.startswith("#"):
                heading = fence.lstrip("#").strip()
            index += 1
            continue
        above = next((line.strip() for line in reversed(lines[:index]) if line.strip()), "")
        end = next(j for j in range(index + 1, len(lines)) if lines[j].strip() == "```")
        found.append(
            Block(
                line=index + 1,
                heading=heading,
                info=fence.removeprefix("```").strip(),
                text="\n".join(lines[index + 1 : end]),
                marker=above if above.startswith("<!--") else "",
            )
        )
        index = end + 1
    return found


def how(block: Block) -> str:
    """'text', 'not run', 'sh', 'python', or 'unmarked'."""
    if block.info == "text":
        return "text"
    if NOT_RUN.fullmatch(block.marker):
        return "not run"
    if block.info in ("sh", "python"):
        return block.info
    return "unmarked"


def commands(block: Block) -> list[Command]:
    """The commands of a shell block: comment lines dropped, continued lines joined."""
    found: list[Command] = []
    current, comments = "", []
    for raw in block.text.splitlines():
        text, _, comment = raw.partition("  #")
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        comments.append(comment.strip())
        current = f"{current} {text}".strip()
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        note = " ".join(c for c in comments if c)
        refused = REFUSED.match(note)
        found.append(
            Command(
                words=tuple(shlex.split(current)),
                refusal=refused["code"] if refused else None,
                sample=note.removeprefix("->").strip() if note.startswith("->") else None,
            )
        )
        current, comments = "", []
    return found


def runnable(text: str) -> dict[str, list[Block]]:
    """The blocks to run, grouped: a tour's blocks together, every other block on its own."""
    groups: dict[str, list[Block]] = {}
    for block in blocks(text):
        if how(block) not in ("sh", "python"):
            continue
        tour = TOUR.fullmatch(block.marker)
        if tour:
            groups.setdefault(f"tour {tour['name']}", []).append(block)
        else:  # named by its section (a second block of a section: and its line)
            name = block.heading if block.heading not in groups else f"{block.heading} {block.line}"
            groups[name] = [block]
    return groups


def collapsed(text: str) -> str:
    return " ".join(text.split())


def check_sample(sample: str, output: str) -> None:
    """Each piece of the sample between `...` is in the output, in order."""
    rest = collapsed(output)
    for piece in (collapsed(p) for p in sample.split("...")):
        if not piece:
            continue
        assert piece in rest, (piece, output)
        rest = rest.split(piece, 1)[1]


@pytest.fixture
def folder(tmp_path: Path, frozen: None, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh temporary folder as the current one, with no store named in the environment."""
    for name in ("CAMPAIGN_DB", "CAMPAIGN", "CAMPAIGN_ACTOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_shell(runner: CliRunner, block: Block) -> None:
    """Each command in order: it succeeds (or is refused as its comment says) and prints what
    its comment shows."""
    for command in commands(block):
        assert "campaign" == command.words[0], (block.line, command.words)
        result = runner.invoke(campaign, list(command.words[1:]))
        where = (block.line, shlex.join(command.words), result.output)
        if command.refusal is None:
            assert 0 == result.exit_code, where
        else:
            assert 2 == result.exit_code, where
            assert f"error: {command.refusal}:" in result.output, where
        if command.sample is not None:
            check_sample(command.sample, result.output)


def run_python(block: Block, page: str = "README.md") -> None:
    """The block runs, and prints what it says it prints (when it prints)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.text, f"{page}:{block.line}", "exec"), {"__name__": "readme"})
    assert "print(" not in block.text or printed.getvalue().strip(), block.line


def page_name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=page_name)
def test_every_block_is_run_or_marked(page: Path) -> None:
    """A fenced block is ```text, marked `<!-- not run: why -->`, or a ```sh/```python block
    this test runs."""
    everything = blocks(page.read_text(encoding="utf-8"))
    unmarked = [(b.line, b.info) for b in everything if how(b) == "unmarked"]
    assert [] == unmarked
    misread = [
        (b.line, b.marker)
        for b in everything
        if re.search("not run|readme-test", b.marker)
        and not (NOT_RUN.fullmatch(b.marker) or TOUR.fullmatch(b.marker))
    ]
    assert [] == misread, "a marker that says neither `not run: why` nor `readme-test: tour NAME`"


RUNNABLE = {
    (page_name(page), name): group
    for page in PAGES
    for name, group in runnable(page.read_text(encoding="utf-8")).items()
}


def test_the_pages_hold_the_examples() -> None:
    """The README and the docs pages together hold the examples (a page moved or renamed still
    has its blocks read), and the README keeps one to run: the tour."""
    assert 10 <= sum(len(blocks(page.read_text(encoding="utf-8"))) for page in PAGES)
    assert {"README.md", "docs/table-and-members.md", "docs/api.md"} <= {p for p, _ in RUNNABLE}
    assert 12 <= len(PAGES)


@pytest.mark.parametrize(("page", "name"), sorted(RUNNABLE))
def test_the_block_runs_as_printed(page: str, name: str, folder: Path) -> None:
    """Each runnable block (or tour of blocks) runs in order in a fresh folder: every command
    succeeds, or is refused where its page says so, and prints what the page shows."""
    runner = CliRunner(env={"COLUMNS": "100"})
    for block in RUNNABLE[page, name]:
        if how(block) == "python":
            run_python(block, page)
        else:
            run_shell(runner, block)


def test_the_tours_say_what_they_print() -> None:
    """The tours check some of their output against their pages, not only their exit codes."""
    samples = [
        c
        for group in RUNNABLE.values()
        for b in group
        if how(b) == "sh"
        for c in commands(b)
        if c.sample is not None
    ]
    assert 5 <= len(samples)


def test_the_parser_reads_the_conventions() -> None:
    """A refusal, an output sample and a continued line are read from a block's comments."""
    block = Block(
        line=1,
        heading="",
        info="sh",
        text="campaign roll \\\n    --dice 2,5   # -> test 1: ... mostly human\n"
        "# a comment line\ncampaign solve X  # refused NOT_ENOUGH: 24 of 25",
        marker="",
    )
    expected = [
        Command(
            words=("campaign", "roll", "--dice", "2,5"),
            refusal=None,
            sample="test 1: ... mostly human",
        ),
        Command(words=("campaign", "solve", "X"), refusal="NOT_ENOUGH", sample=None),
    ]
    assert expected == commands(block)


def test_a_tour_runs_its_blocks_together() -> None:
    """Blocks marked with one tour's name form one group, in order; the rest run alone or not
    at all."""
    text = (
        "# One\n<!-- readme-test: tour sims -->\n```sh\ncampaign init\n```\n"
        "<!-- not run: a server -->\n```sh\nserve\n```\n```text\nout\n```\n"
        "## Two\n```python\nprint()\n```\n"
        "<!-- readme-test: tour sims -->\n```sh\ncampaign log\n```\n"
    )
    groups = runnable(text)
    assert ["Two", "tour sims"] == sorted(groups)
    assert ["campaign init", "campaign log"] == [b.text for b in groups["tour sims"]]
    assert ["not run", "text"] == [how(b) for b in blocks(text)[1:3]]
