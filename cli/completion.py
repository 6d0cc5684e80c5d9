"""Shell completion: `campaign completion bash|zsh|fish` prints the script to source, and the
campaign, character and member names complete from the store (never made by completing).

What a verb's argument or option completes with is its parameter's kind in the registry
(``domain.kinds``): a character's (or an NPC's) name, a member's, one of a choice's values
(``completer_of``, which the generated verbs take theirs from: ``cli.generated``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from cli.defaults import DEFAULT_DB

if TYPE_CHECKING:  # imported when a completion is asked for: printing the script needs none
    from click.shell_completion import CompletionItem

    from domain.campaign import CampaignState
    from domain.kinds import Kind
    from engine import Engine

    Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]

SHELLS = ("bash", "zsh", "fish")
COMPLETING = "_CAMPAIGN_COMPLETE"  # set by the shell's script while it asks for completions


def _engine(ctx: click.Context) -> Engine | None:
    """The store the command line names, if it is there (completion never makes one)."""
    from engine import Engine

    root = ctx.find_root()
    db = root.params.get("db") or os.environ.get("CAMPAIGN_DB") or DEFAULT_DB
    try:
        return Engine(str(db), create=False)
    except Exception:  # no store yet, or one that does not open: nothing to offer
        return None


def campaign_names(ctx: click.Context, _: click.Parameter, typed: str) -> list[CompletionItem]:
    engine = _engine(ctx)
    if engine is None:
        return []
    with engine:
        names = [c.name for c in engine.directory().campaigns]
    return _starting(names, typed)


def _campaign(ctx: click.Context) -> CampaignState | None:
    """The campaign the command line names (or the store's only one), if there is one."""
    from domain.errors import CodedError

    engine = _engine(ctx)
    if engine is None:
        return None
    root = ctx.find_root().params
    with engine:
        try:
            chosen = root.get("campaign") or os.environ.get("CAMPAIGN")
            campaigns = engine.directory().campaigns
            name = chosen or (campaigns[0].name if len(campaigns) == 1 else None)
            return engine.campaign(name) if name else None
        except CodedError:
            return None


def _starting(names: Any, typed: str) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem  # only while completing

    return [CompletionItem(n) for n in names if n.casefold().startswith(typed.casefold())]


def character_names(ctx: click.Context, _: click.Parameter, typed: str) -> list[CompletionItem]:
    campaign = _campaign(ctx)
    return _starting([e.name for e in campaign.roster] if campaign else [], typed)


def member_names(ctx: click.Context, _: click.Parameter, typed: str) -> list[CompletionItem]:
    campaign = _campaign(ctx)
    return _starting([m.name for m in campaign.seats] if campaign else [], typed)


def completer_of(kind: Kind) -> Completer | None:
    """What a parameter of ``kind`` completes with (None: nothing to offer)."""
    from domain.kinds import Choice, ListOf, Reference, Refers

    if isinstance(kind, ListOf):
        return completer_of(kind.item)
    if isinstance(kind, Reference):
        if kind.refers in (Refers.CHARACTER, Refers.NPC):
            return character_names
        if kind.refers is Refers.MEMBER:
            return member_names
    if isinstance(kind, Choice):
        values = kind.values
        return lambda _ctx, _param, typed: _starting(values, typed)
    return None


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script: verbs, options, campaign and character names. Source
    it from your shell's start-up file (bash: `eval "$(campaign completion bash)"`).

    \b
    Example:
      campaign completion zsh > ~/.campaign-completion.zsh
    """
    from click.shell_completion import get_completion_class

    from cli.main import campaign

    script = get_completion_class(shell)
    assert script is not None  # the choices are click's own shells
    click.echo(script(campaign, {}, "campaign", COMPLETING).source())


COMMANDS = (completion,)
