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
@click.option(
    "--for",
    "member",
    help="A member's own copy: what they may read whole, the rest as its digest and link.",
)
@pass_context
def export(ctx: Context, fmt: str, out: str | None, member: str | None) -> None:
    """Write the whole campaign (every event in order, with its hash link) as JSON lines.

    Export after `session end`: a running session's secret dice seed stays behind. With --for
    MEMBER, that member's own copy (the GM's, or the member's own with --as): every ruling they
    may read whole, every other row as its body's digest and its link, so that `verify-dice`
    checks it link by link and seal by seal, with the whole export's digest.

    \b
    Example:
      campaign export --out night-shift.jsonl
      campaign export --for dana --out dana.jsonl
    """
    lines = (
        ctx.engine.member_copy(ctx.campaign(), member, audience=ctx.audience)
        if member is not None
        else ctx.engine.export(ctx.campaign(), audience=ctx.audience)
    )
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
    found = _Checked(checked, session)
    kept = (
        remember(own, checked.head, _seated(checked, own, ctx.actor), "campaign verify-dice")
        if found.whole
        else None
    )
    yours = _Yours(mine, journal, ctx.actor)
    if ctx.as_json:
        emit_json(_verify_dice_json(found, yours, kept))
    else:
        _say_verify_dice(found, yours)
        if kept is not None and own is not None:
            say(witnessed_line(kept, own))
        say("the dice check out" if not found.problems else "the dice do NOT check out")
    if found.problems:
        click.get_current_context().exit(1)


class _Checked:
    """What `verify-dice` found in an export: its sessions' dice and seals (those of
    ``session``, else all), and whether anything does not check out."""

    def __init__(self, checked: ExportChecked, session: int | None) -> None:
        report = checked.report
        self.checked, self.report = checked, report
        self.dice = [d for d in report.dice if session is None or d.session == session]
        self.seals = [s for s in report.seals if session is None or s.session == session]
        forked = checked.witnesses.fork is not None
        broken = bool(report.breaks) or any(not s.intact for s in self.seals)
        self.problems = broken or any(d.problems for d in self.dice) or forked
        self.whole = not (report.breaks or forked or any(not s.intact for s in report.seals))


class _Yours:
    """The player's own: the public half of their key file (None: no --key), the rolls it
    sealed, and the member they say they are (``--as``)."""

    def __init__(self, mine: str | None, journal: list[tuple[str, str]], member: str | None):
        self.mine, self.journal, self.member = mine, journal, member


def _verify_dice_json(found: _Checked, yours: _Yours, kept: Any) -> dict[str, Any]:
    report = found.report
    return {
        "campaign": found.checked.name,
        "intact": not found.problems,
        "breaks": [f"stream {b.stream} version {b.version}: {b.problem}" for b in report.breaks],
        "seals": [
            {"session": s.session, "digest": s.digest, "intact": s.intact} for s in found.seals
        ],
        "dice": [_dice_json(d, yours) for d in found.dice],
        "witnesses": check_json(found.checked.witnesses),
        "witnessed": kept.line() if kept is not None else None,
        **_copy_json(found.checked),
    }


def _copy_json(checked: ExportChecked) -> dict[str, Any]:
    """Of a member's copy: whose, its digest, its rows withheld and taken as given."""
    if checked.copy_for is None:
        return {}
    copy = {"for": checked.copy_for, "withheld": checked.withheld, "given": checked.given}
    return {"copy": {**copy, "digest": checked.report.digest}}


def _dice_json(d: Any, yours: _Yours) -> dict[str, Any]:
    """One session's committed dice, as `verify-dice --json` gives them."""
    mine, journal = yours.mine, yours.journal
    return {
        "session": d.session,
        "commitment": d.seed_hash,
        "entropy": [{"by": who, "words": words} for who, words in d.entropy],
        "counted": [{"by": who, "words": words, "key": key} for who, words, key in d.counted],
        **({"yours": _yours(d, mine)} if mine else {}),
        **({"key_on_a_seat": any(k == mine for _, k in d.seats)} if mine else {}),
        "keys": _keys_json(d),
        "sealed": [{"ruling": n, "by": who, "seal": seal} for n, who, seal in d.sealed],
        "foreseeable": [{"ruling": n, "lane": lane, "by": who} for n, lane, who in d.foreseeable],
        "changed_nothing": _idle_json(d.idle),
        **({"dropped": _dropped(d, journal)} if journal else {}),
        "rulings": d.rulings,
        "revealed": d.revealed,
        "problems": list(d.problems),
        "warnings": list(d.warnings),
    }


def _say_verify_dice(found: _Checked, yours: _Yours) -> None:
    """`verify-dice`'s text, but the witness a player's machine keeps and the last line."""
    report = found.report
    say(
        f"{found.checked.name}: {report.events} events, chains "
        f"{'BROKEN' if report.breaks else 'intact'}"
    )
    for line in _copy_lines(found.checked):
        say(line)
    for b in report.breaks:
        say(f"BROKEN: stream {b.stream} version {b.version}: {b.problem}")
    for d in found.dice:
        for line in _session_lines(d, yours):
            say(line)
    for s in found.seals:
        say(f"session {s.session} seal {s.digest}: {'intact' if s.intact else 'BROKEN'}")
    for line in check_lines(found.checked.witnesses):
        say(line)


def _copy_lines(checked: ExportChecked) -> list[str]:
    """Of a member's copy: whose it is, and how many of its rows were checked by their digest
    alone (and of those, taken as given: linked over their bodies, before 2026-12-06)."""
    if checked.copy_for is None:
        return []
    lines = [
        f"{checked.copy_for}'s copy: {checked.withheld} events withheld (not theirs to read), "
        "each checked by its digest; digest " + checked.report.digest
    ]
    if checked.given:
        lines.append(
            f"  {checked.given} of them linked over their bodies (written before 2026-12-06): "
            "taken as given, pinned by the next link"
        )
    return lines


def _session_lines(d: Any, yours: _Yours) -> list[str]:
    """One session's committed dice, as `verify-dice` prints them."""
    lines = [f"session {d.session}: commitment {d.seed_hash}"]
    counted = {(who, words) for who, words, _ in d.counted}
    for who, words in d.entropy:
        signed = " (signed, counted)" if (who, words) in counted else ""
        lines.append(f"  entropy from {who}: {words!r}{signed}")
    lines += [f"  {line}" for line in _key_lines(d)]
    lines += _your_lines(d, yours)
    lines += [f"  {line}" for line in (*_who_could_foresee(d), *_changed_nothing(d.idle))]
    lines += [
        f"  WARNING: your sealed roll is not in the log: {text}"
        for text in _dropped(d, yours.journal)
    ]
    verified = "verified" if d.revealed else "seed not revealed yet: nothing to check"
    lines.append(f"  {d.rulings} committed rulings: {'; '.join(d.problems) or verified}")
    lines += [f"  WARNING: {warning}" for warning in d.warnings]
    return lines


def _your_lines(d: Any, yours: _Yours) -> list[str]:
    """With --key: whether your entropy was counted, and whether your key is on your seat."""
    if not yours.mine:
        return []
    counted = _yours(d, yours.mine)
    shown = "; ".join(map(repr, counted)) + " counted" if counted else "NOT included"
    warned = _your_key(d, yours.mine, yours.member)
    return [f"  your entropy: {shown}", *(f"  WARNING: {line}" for line in warned)]


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


def _keys_json(check: Any) -> list[dict[str, str]]:
    """``keys`` of `verify-dice --json`: each seat's key and where it was put there from."""
    return [
        {"member": who, "key": key, "from": _key_from(check, who)}
        for who, key in check.seats
        if key
    ]


def _key_from(check: Any, who: str) -> str:
    return "the GM's keyboard" if who in check.keyboard else "their own signed-in client"


def _key_lines(check: Any) -> list[str]:
    """Each key put on a seat at the GM's keyboard (the CLI, ``--as`` included), listed where
    players look: from protocol 4 the entropy it signs is not counted."""
    counted = "its entropy is not counted" if check.protocol >= 3 else "its entropy counts"
    return [
        f"the key on {who}'s seat was put there at the GM's keyboard, not from {who}'s own "
        f"signed-in client ({counted})"
        for who, key in check.seats
        if key and who in check.keyboard
    ]


def _your_key(check: Any, mine: str, member: str | None) -> list[str]:
    """What a player must be told of their key file against the seats: on no seat, not on
    their own (``--as``), or on it but put there at the GM's keyboard."""
    held = dict(check.seats)
    if member is not None and member in held and held[member] != mine:
        on = held[member] or "no key"
        return [
            f"the key in your key file is not the key on {member}'s seat ({member}'s seat holds "
            f"{on}): the key on your seat is not yours (or give the file you made it with)"
        ]
    if not any(key == mine for key in held.values() if key):
        return [
            "the key in your key file is on no seat of this log: the key on your seat is not "
            "yours (or give the file you made it with)"
        ]
    return []


def _changed_nothing(idle: Any) -> list[str]:
    """The committed rolls nobody sealed that changed nothing, counted per lane (none: no
    line)."""
    from engine import idle_lines

    if not idle:
        return []
    head = (
        f"committed rolls nobody sealed that changed nothing (each spent a counter the GM's "
        f"machine could foresee): {len(idle)}"
    )
    return [head, *(f"  {line}" for line in idle_lines(idle))]


def _idle_json(idle: Any) -> dict[str, Any]:
    """``changed_nothing`` of `verify-dice --json`: the count per lane and each roll."""
    lanes: dict[str, int] = {}
    for roll in idle:
        lanes[roll.lane] = lanes.get(roll.lane, 0) + 1
    rolls = [{"ruling": r.ruling, "lane": r.lane, "by": r.by, "why": r.why} for r in idle]
    return {"count": len(rolls), "lanes": lanes, "rolls": rolls}


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
        _say_verify(report, check)
    if not report.intact or (check is not None and check.fork is not None):
        click.get_current_context().exit(1)


def _say_verify(report: VerifyReport, check: WitnessCheck | None) -> None:
    """`verify`'s text: what was checked, each seal and session's dice, each break and
    finding, the witnesses, and whether the log is intact."""
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
        for line in _changed_nothing(d.changed_nothing):
            say(line)
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
