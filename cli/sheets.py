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
from engine import converter


@frozen(kw_only=True)
class Sheets(Plain):
    """How a system shows a character: full text and a one-line status. (Its JSON is the
    engine's ``CharacterView``, the state with its sheet's extras, as the API gives it;
    ``json`` is not read.)"""

    text: Callable[[Any, CampaignState], str]
    status: Callable[[Any], str]
    json: Callable[[Any], dict[str, Any]] | None = None


def _as_json(system: str, sheet: Any) -> Any:
    """A character as `--json` shows it: the engine's ``CharacterView`` (the result types are
    imported here, for JSON only: a system's verbs load with this module)."""
    from engine import character_view

    return converter.unstructure(character_view(system, sheet))


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
            sheet = ctx.engine.character(name, who, audience=ctx.audience)
        else:
            sheet = ctx.engine.character_at(
                name, who, ruling=at_ruling, corrected=corrected, audience=ctx.audience
            )
        if sheet is None:
            raise NotYetCreated(who=who, ruling=at_ruling)
        campaign = ctx.engine.campaign(name)
        if ctx.as_json:
            emit_json(_as_json(campaign.system, sheet))
        else:
            say_lines(sheets.text(sheet, campaign))

    show.help = (
        "Show a character's sheet, now or as it stood after a ruling.\n\n"
        f"\b\nExample:\n  campaign character show {example} --at 12"
    )

    @group.command("list")
    @pass_context
    def list_characters(ctx: Context) -> None:
        name = ctx.campaign()
        found = ctx.engine.characters(name, audience=ctx.audience)
        if ctx.as_json:
            system = ctx.engine.campaign(name).system
            emit_json([_as_json(system, s) for s in found])
            return
        for s in found:
            say(f"{s.name} ({s.player}): {sheets.status(s)}")

    list_characters.help = (
        "List the campaign's characters and what each is waiting for.\n\n"
        "\b\nExample:\n  campaign character list"
    )
