"""Checking the dice: face counts and a chi-square test against fair dice.

The commands import what they compute with when they run, so that registering them costs any
other `campaign` process (say, a `roll`) next to nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.render import emit_json, print_table, say
from cli.witness import (
    WITNESS,
    check_json,
    check_lines,
    own_key,
    read_files,
    remember,
    statements_of,
    witnessed_line,
)

if TYPE_CHECKING:  # imported when verify runs
    from engine import ExportChecked, FindingView, VerifyReport, WitnessCheck


@click.command("dice-stats")
@click.option("--session", "session", type=WHOLE_NUMBER, help="Only this session's rolls.")
@click.option("--character", "who", help="Only rulings that touched this character.")
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, writable=True),
    help="Also write a page with a bar chart per die to this file.",
)
@pass_context
def dice_stats(ctx: Context, session: int | None, who: str | None, html_out: str | None) -> None:
    """Face counts per die size and source, with a chi-square test against fair dice.

    A p-value below 0.01 on many rolls is worth a look; with fewer than five rolls per face the
    test says little.

    \b
    Example:
      campaign dice-stats --session 3 --html dice.html
    """
    from projections.dice_chart import page

    name = ctx.campaign()
    rows = ctx.engine.dice_stats(name, session=session, character=who, audience=ctx.audience)
    if html_out is not None:
        scope = f"session {session}" if session is not None else "all sessions"
        title = f"{name}: dice of {who or 'everyone'}, {scope}"
        with open(html_out, "w", encoding="utf-8") as handle:
            handle.write(page(title, rows))
        click.echo(f"chart written to {html_out}", err=True)
    if ctx.as_json:
        from engine import converter, dice_rows

        emit_json(converter.unstructure(dice_rows(rows)))
        return
    if not rows:
        say("no dice rolled yet")
        return
    from rich.table import Column, Table

    table = Table(
        Column("die", no_wrap=True),
        Column("source", no_wrap=True),
        Column("rolls", no_wrap=True, justify="right"),
        Column("faces 1..n", min_width=10),  # wraps between faces
        Column("chi²", no_wrap=True, justify="right"),
        Column("p", no_wrap=True, justify="right"),
    )
    for r in rows:
        counts = " ".join(str(n) for n in r.counts)
        p = f"{r.p_value:.3f}{'' if r.enough else '*'}"
        table.add_row(f"d{r.sides}", str(r.source), str(r.rolls), counts, f"{r.chi_square:.2f}", p)
    print_table(table)
    if not all(r.enough for r in rows):
        say("* too few rolls to judge")


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option(
    "--out", type=click.Path(dir_okay=False, writable=True), help="File (default: stdout)."
)
@pass_context
def export(ctx: Context, fmt: str, out: str | None) -> None:
    """Write the whole campaign (every event in order, with its hash link) as JSON lines.

    Export after `session end`: a running session's secret dice seed stays behind.

    \b
    Example:
      campaign export --out night-shift.jsonl
    """
    lines = ctx.engine.export(ctx.campaign(), audience=ctx.audience)
    if out is None:
        for line in lines:
            click.echo(line)
        return
    count = _write_whole(out, lines) - 1
    click.echo(f"{count} events written to {out}", err=True)


def _write_whole(out: str, lines: Iterable[str]) -> int:
    """Write ``lines`` to the file ``out``, beside it first and moved over it once whole: an
    export stopped by a damaged row leaves no part of a file, and an older export at ``out`` as
    it was. (A path that is not a plain file, ``/dev/stdout`` say, is written directly.)"""
    import os
    import tempfile

    target = Path(out).absolute()
    if target.is_symlink() or (target.exists() and not target.is_file()):
        with target.open("w", encoding="utf-8") as handle:
            return sum(handle.write(line + "\n") > 0 for line in lines)
    fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(partial, 0o666 & ~mask)  # as open() makes a file, not mkstemp's 0600
        with open(fd, "w", encoding="utf-8") as handle:
            count = sum(handle.write(line + "\n") > 0 for line in lines)
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink()
        raise
    return count


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@pass_context
def import_campaign(ctx: Context, path: str) -> None:
    """Rebuild an exported campaign in this store, after verifying every line, link and seal.

    A malformed or tampered file is refused with the line and field that is wrong, and nothing
    is imported; so is one holding a ruling its member could not have made (the table's policy
    as it stood then: IMPORT_ACTOR_NOT_ALLOWED).

    \b
    Example:
      campaign --db club.db import night-shift.jsonl
    """
    from rich.progress import Progress

    from engine import file_lines

    # Read as bytes, a line at a time up to the longest a line may be: a binary file, or one
    # huge line, is refused by the import naming the line (never a decoding traceback here).
    with open(path, "rb") as handle:
        total = sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    with open(path, "rb") as handle, Progress(transient=True) as bar:
        task = bar.add_task("checking", total=total)
        ctx.creates = True
        imported = ctx.engine.import_campaign(
            file_lines(handle), progress=lambda n: bar.update(task, completed=n)
        )
    ctx.remember(imported.name)
    if ctx.as_json:
        emit_json({"name": imported.name, "events": imported.events, "digest": imported.digest})
    else:
        say(f"imported {imported.name!r}: {imported.events} events, digest {imported.digest}")


@click.command("verify-dice")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--session", "session", type=WHOLE_NUMBER, help="Only this session (default: every one)."
)
@click.option(
    "--key",
    "key_file",
    help="Your own key file (`campaign key new`): say whether your entropy was counted.",
)
@WITNESS
@pass_context
def verify_dice(
    ctx: Context, path: str, session: int | None, key_file: str | None, witnesses: tuple[str, ...]
) -> None:
    """A player's own check, from an export alone (no store is opened): the file's hash chains
    and seals, and every committed roll recomputed from the revealed seed and the players'
    entropy. Compare the commitment and the seal printed with those the GM posted, and the
    entropy with what each player gave, and read every WARNING: dice set aside (undone, hidden
    and never revealed) and dice not drawn from the commitment are listed there, and which rolls
    their players sealed and which the GM's machine could foresee. With --key, says whether
    your own signed entropy was counted and lists every roll your key sealed that the log lacks.
    With --witness, and with your key, holds the log to every head a witness saw and names the
    first it no longer holds (a fork); your machine keeps, beside your key, the head it saw.
    Exits 1 when anything does not check out.

    \b
    Example:
      campaign verify-dice night-shift.jsonl --session 2
    """
    from engine import file_lines, key_path, public_key_of, sealed_by, verify_witnessed

    mine = public_key_of(key_path(key_file)) if key_file else None
    journal = sealed_by(key_path(key_file)) if key_file else []
    own = own_key(key_file)
    # Read as bytes, as import reads a file: a line that is not UTF-8 or too long is refused
    # naming the line, by the same checks.
    with open(path, "rb") as handle:
        checked = verify_witnessed(file_lines(handle), statements_of(witnesses, own))
    name, report, forked = checked.name, checked.report, checked.witnesses.fork is not None
    dice = [d for d in report.dice if session is None or d.session == session]
    seals = [s for s in report.seals if session is None or s.session == session]
    broken = bool(report.breaks) or any(not s.intact for s in seals)
    problems = broken or any(d.problems for d in dice) or forked
    whole = not (report.breaks or forked or any(not s.intact for s in report.seals))
    seen_by = _seated(checked, own, ctx.actor)
    kept = remember(own, checked.head, seen_by, "campaign verify-dice") if whole else None
    if ctx.as_json:
        emit_json(
            {
                "campaign": name,
                "intact": not problems,
                "breaks": [
                    f"stream {b.stream} version {b.version}: {b.problem}" for b in report.breaks
                ],
                "seals": [
                    {"session": s.session, "digest": s.digest, "intact": s.intact} for s in seals
                ],
                "dice": [
                    {
                        "session": d.session,
                        "commitment": d.seed_hash,
                        "entropy": [{"by": who, "words": words} for who, words in d.entropy],
                        "counted": [
                            {"by": who, "words": words, "key": key} for who, words, key in d.counted
                        ],
                        **({"yours": _yours(d, mine)} if mine else {}),
                        **({"key_on_a_seat": any(k == mine for _, k in d.seats)} if mine else {}),
                        "sealed": [
                            {"ruling": n, "by": who, "seal": seal} for n, who, seal in d.sealed
                        ],
                        "foreseeable": [
                            {"ruling": n, "lane": lane, "by": who} for n, lane, who in d.foreseeable
                        ],
                        **({"dropped": _dropped(d, journal)} if journal else {}),
                        "rulings": d.rulings,
                        "revealed": d.revealed,
                        "problems": list(d.problems),
                        "warnings": list(d.warnings),
                    }
                    for d in dice
                ],
                "witnesses": check_json(checked.witnesses),
                "witnessed": kept.line() if kept is not None else None,
            }
        )
    else:
        say(f"{name}: {report.events} events, chains {'BROKEN' if report.breaks else 'intact'}")
        for b in report.breaks:
            say(f"BROKEN: stream {b.stream} version {b.version}: {b.problem}")
        for d in dice:
            say(f"session {d.session}: commitment {d.seed_hash}")
            counted = {(who, words) for who, words, _ in d.counted}
            for who, words in d.entropy:
                signed = " (signed, counted)" if (who, words) in counted else ""
                say(f"  entropy from {who}: {words!r}{signed}")
            if mine:
                yours = _yours(d, mine)
                shown = "; ".join(map(repr, yours)) + " counted" if yours else "NOT included"
                say(f"  your entropy: {shown}")
                if not any(key == mine for _, key in d.seats if key):
                    say(
                        "  WARNING: the key in your key file is on no seat of this log: the key "
                        "on your seat is not yours (or give the file you made it with)"
                    )
            for line in _who_could_foresee(d):
                say(f"  {line}")
            for text in _dropped(d, journal):
                say(f"  WARNING: your sealed roll is not in the log: {text}")
            verified = "verified" if d.revealed else "seed not revealed yet: nothing to check"
            state = "; ".join(d.problems) or verified
            say(f"  {d.rulings} committed rulings: {state}")
            for warning in d.warnings:
                say(f"  WARNING: {warning}")
        for s in seals:
            say(f"session {s.session} seal {s.digest}: {'intact' if s.intact else 'BROKEN'}")
        for line in check_lines(checked.witnesses):
            say(line)
        if kept is not None and own is not None:
            say(witnessed_line(kept, own))
        say("the dice check out" if not problems else "the dice do NOT check out")
    if problems:
        click.get_current_context().exit(1)


def _who_could_foresee(check: Any) -> list[str]:
    """Per session, the committed rolls their players sealed (nobody could foresee them) and
    those nobody sealed (the GM's machine, which knows the seed, could), by member."""
    lines = []
    if check.sealed:
        lines.append(
            f"sealed by their players (nobody could foresee them): {_counts(check.sealed, 1)}"
        )
    if check.foreseeable:
        lines.append(
            "foreseeable by the GM's machine (nobody sealed them; one in a player's name may "
            f"have been entered at the GM's keyboard): {_counts(check.foreseeable, 1)}"
        )
    return lines


def _counts(rolls: Any, at: int) -> str:
    counted: dict[str, int] = {}
    for roll in rolls:
        whose = roll[at] or "the one counter"
        counted[whose] = counted.get(whose, 0) + 1
    return ", ".join(f"{who} {n}" for who, n in counted.items())


def _dropped(check: Any, journal: list[tuple[str, str]]) -> list[str]:
    """The rolls your key sealed for this session's commitment that the log does not hold:
    dropped after the GM's machine saw them (and could compute their dice), or never sent."""
    recorded = {seal for _, _, seal in check.sealed}
    found = []
    for text, seal in journal:
        lines = text.split("\n")
        if len(lines) == 6 and lines[1] == check.seed_hash and seal not in recorded:
            found.append(f"sealed roll {lines[3]} of {lines[2]}: {lines[4]} {lines[5]}")
    return found


def _seated(checked: ExportChecked, key: Path | None, actor: str | None) -> str:
    """Who saw the export: the member the log put ``key`` on the seat of, else ``--as``."""
    if key is None:
        return actor or ""
    from engine import public_key_of

    public = public_key_of(key)
    return next((m for m, k in sorted(checked.seats) if k == public), actor or "")


def _yours(check: Any, public_key: str) -> list[str]:
    """The words signed by ``public_key`` that the session's dice counted."""
    return [words for _, words, key in check.counted if key == public_key]


@click.command("verify")
@WITNESS
@pass_context
def verify(ctx: Context, witnesses: tuple[str, ...]) -> None:
    """Check that the log was not edited: every hash chain, ruling and session seal, every row
    belonging to a ruling, the committed dice, the store's directory entry; then replay every
    stream with the rules and compare every stored snapshot with it, and hold every ruling to
    the table's policy as it stood then (a ruling its member could not have made is named);
    then read every row of the store as the read models read it, and compare each read model
    the store keeps (recaps, timelines, the ruling index, dice counts) with the same computed
    again from the log.

    Exits 1 if anything does not hold, one line per finding naming its place (stream, version,
    ruling, session). Compare each session's seal with the one the GM posted; with --witness,
    the log must still hold every head the witnesses saw, and the first it no longer holds is
    named as a fork, with who saw it and when.

    \b
    Example:
      campaign verify
    """
    from engine import converter, verify_report

    statements = read_files(witnesses)  # a file that holds no statements: refused first
    report = verify_report(ctx.engine.verify(ctx.campaign()))
    check = ctx.engine.check_witnesses(ctx.campaign(), statements) if witnesses else None
    if ctx.as_json:
        shown = converter.unstructure(report)
        emit_json({**shown, "witnesses": check_json(check)} if check is not None else shown)
    else:
        _show_verified(report, check)
    if not report.intact or (check is not None and check.fork is not None):
        click.get_current_context().exit(1)


def _show_verified(report: VerifyReport, check: WitnessCheck | None) -> None:
    """``verify``'s report as text, a line per seal, session's dice, break and finding, then
    the witnesses' check (``check``, None without --witness) and the verdict."""
    models = ", ".join(report.models) or "none kept"
    click.echo(
        f"{report.events} events in {report.streams} streams ({report.replayed} replayed, "
        f"{report.snapshots} snapshots compared; read models compared: {models}); "
        f"digest {report.digest}"
    )
    for s in report.seals:
        state = "intact" if s.intact else f"BROKEN: {s.problem}"
        say(f"session {s.session} seal {s.digest}: {state}")
    for d in report.dice:
        verified = "verified" if d.revealed else "not revealed yet"
        click.echo(
            f"session {d.session} committed dice ({d.rulings} rulings): "
            f"{'; '.join(d.problems) or verified}"
        )
        for warning in d.warnings:
            say(f"WARNING: {warning}")
    for b in report.breaks:
        ruling = f" (ruling {b.ruling})" if b.ruling else ""
        say(f"BROKEN: stream {b.stream} version {b.version}{ruling}: {b.problem}")
    for f in report.findings:
        say(f"{f.kind.upper()}: {_place(f)}: {f.problem}")
    for line in check_lines(check) if check is not None else ():
        say(line)
    forked = check is not None and check.fork is not None
    say("the log is intact" if report.intact and not forked else "the log was tampered with")


def _place(finding: FindingView) -> str:
    """Where a finding is: its stream and version, ruling and session, as far as known."""
    parts = []
    if finding.stream is not None:
        version = f" version {finding.version}" if finding.version is not None else ""
        parts.append(f"stream {finding.stream}{version}")
    if finding.ruling is not None:
        parts.append(f"ruling {finding.ruling}")
    if finding.session is not None:
        parts.append(f"session {finding.session}")
    return ", ".join(parts) or "the campaign"


COMMANDS: tuple[click.Command, ...] = (dice_stats, export, import_campaign, verify_dice, verify)
