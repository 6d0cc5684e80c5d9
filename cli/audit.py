"""Checking the dice: face counts and a chi-square test against fair dice.

The commands import what they compute with when they run, so that registering them costs any
other `campaign` process (say, a `roll`) next to nothing.
"""

from __future__ import annotations

import click

from cli.context import Context, pass_context
from cli.render import emit_json
from domain.dice import Die, Provenance
from domain.events import RulingMade


@click.command("dice-stats")
@click.option("--session", "session", type=int, help="Only this session's rolls.")
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
    from projections.dice_stats import tally

    name = ctx.campaign()
    stream = ctx.engine.campaign(name).find(who).character_id if who else None
    dice: list[tuple[Die, Provenance | None]] = []
    for header in ctx.engine.headers(name):
        made = header.event
        assert isinstance(made, RulingMade)
        if made.command == "amend" or (session is not None and header.session != session):
            continue
        if stream is not None and all(span.stream != stream for span in made.touched):
            continue
        dice.extend((die, made.provenance) for die in made.dice)
    rows = tally(dice)
    if html_out is not None:
        scope = f"session {session}" if session is not None else "all sessions"
        title = f"{name}: dice of {who or 'everyone'}, {scope}"
        with open(html_out, "w", encoding="utf-8") as handle:
            handle.write(page(title, rows))
        click.echo(f"chart written to {html_out}", err=True)
    if ctx.as_json:
        emit_json(
            [
                {
                    "sides": r.sides,
                    "source": r.source,
                    "rolls": r.rolls,
                    "counts": list(r.counts),
                    "chi_square": round(r.chi_square, 4),
                    "p_value": round(r.p_value, 6),
                    "enough_rolls": r.enough,
                }
                for r in rows
            ]
        )
        return
    if not rows:
        click.echo("no dice rolled yet")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("die", "source", "rolls", "faces 1..n", "chi²", "p", "")
    for r in rows:
        note = "" if r.enough else "too few rolls to judge"
        counts = " ".join(str(n) for n in r.counts)
        table.add_row(
            f"d{r.sides}",
            str(r.source),
            str(r.rolls),
            counts,
            f"{r.chi_square:.2f}",
            f"{r.p_value:.3f}",
            note,
        )
    Console().print(table)


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
    from engine.transfer import export_lines

    lines = export_lines(ctx.engine, ctx.campaign())
    if out is None:
        for line in lines:
            click.echo(line)
        return
    with open(out, "w", encoding="utf-8") as handle:
        count = sum(handle.write(line + "\n") > 0 for line in lines) - 1
    click.echo(f"{count} events written to {out}", err=True)


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@pass_context
def import_campaign(ctx: Context, path: str) -> None:
    """Rebuild an exported campaign in this store, after verifying every line, link and seal.

    A malformed or tampered file is refused with the line and field that is wrong, and nothing
    is imported.

    \b
    Example:
      campaign --db club.db import night-shift.jsonl
    """
    from rich.progress import Progress

    from engine.transfer import import_lines

    with open(path, encoding="utf-8") as handle:
        total = sum(1 for _ in handle)
    with open(path, encoding="utf-8") as handle, Progress(transient=True) as bar:
        task = bar.add_task("checking", total=total)
        imported = import_lines(
            ctx.engine, handle, progress=lambda n: bar.update(task, completed=n)
        )
    ctx.remember(imported.name)
    if ctx.as_json:
        emit_json({"name": imported.name, "events": imported.events, "digest": imported.digest})
    else:
        click.echo(
            f"imported {imported.name!r}: {imported.events} events, digest {imported.digest}"
        )


COMMANDS: tuple[click.Command, ...] = (dice_stats, export, import_campaign)
