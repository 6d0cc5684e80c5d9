"""Showing and listing characters, the same way in every system: each system gives its renderer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from attrs import frozen

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.render import emit_json, say, say_lines
from domain.campaign import CampaignState
from domain.errors import NotYetCreated
from domain.plain import Plain


@frozen
class Sheets(Plain):
    """How a system shows a character: full text, JSON, and a one-line status."""

    text: Callable[[Any, CampaignState], str]
    json: Callable[[Any], dict[str, Any]]
    status: Callable[[Any], str]


def add_sheet_commands(group: click.Group, sheets: Sheets, example: str) -> None:
    """Give a system's `character` group its `show` and `list` commands."""

    @group.command("show")
    @click.argument("who")
    @click.option("--at", "at_ruling", type=WHOLE_NUMBER, help="As it stood after this ruling.")
    @click.option(
        "--corrected", is_flag=True, help="With --at: apply the undos and amendments made since."
    )
    @pass_context
    def show(ctx: Context, who: str, at_ruling: int | None, corrected: bool) -> None:
        name = ctx.campaign()
        if at_ruling is None:
            sheet = ctx.engine.character(name, who, reader=ctx.actor)
        else:
            sheet = ctx.engine.character_at(
                name, who, ruling=at_ruling, corrected=corrected, reader=ctx.actor
            )
        if sheet is None:
            raise NotYetCreated(who=who, ruling=at_ruling)
        if ctx.as_json:
            emit_json(sheets.json(sheet))
        else:
            say_lines(sheets.text(sheet, ctx.engine.campaign(name)))

    show.help = (
        "Show a character's sheet, now or as it stood after a ruling.\n\n"
        f"\b\nExample:\n  campaign character show {example} --at 12"
    )

    @group.command("list")
    @pass_context
    def list_characters(ctx: Context) -> None:
        found = ctx.engine.characters(ctx.campaign(), reader=ctx.actor)
        if ctx.as_json:
            emit_json([sheets.json(s) for s in found])
            return
        for s in found:
            say(f"{s.name} ({s.player}): {sheets.status(s)}")

    list_characters.help = (
        "List the campaign's characters and what each is waiting for.\n\n"
        "\b\nExample:\n  campaign character list"
    )
