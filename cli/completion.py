"""Shell completion: `campaign completion bash|zsh|fish` prints the script to source, and the
campaign and character names complete from the store (never made by completing)."""

from __future__ import annotations

import os

import click
from click.shell_completion import CompletionItem, get_completion_class

from domain.errors import DomainError
from engine import DEFAULT_DB, Engine

SHELLS = ("bash", "zsh", "fish")


def _engine(ctx: click.Context) -> Engine | None:
    """The store the command line names, if it is there (completion never makes one)."""
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
    return [CompletionItem(n) for n in names if n.casefold().startswith(typed.casefold())]


def character_names(ctx: click.Context, _: click.Parameter, typed: str) -> list[CompletionItem]:
    engine = _engine(ctx)
    if engine is None:
        return []
    root = ctx.find_root().params
    with engine:
        try:
            chosen = root.get("campaign") or os.environ.get("CAMPAIGN")
            campaigns = engine.directory().campaigns
            name = chosen or (campaigns[0].name if len(campaigns) == 1 else None)
            roster = engine.campaign(name).roster if name else ()
        except DomainError:
            return []
    return [
        CompletionItem(e.name) for e in roster if e.name.casefold().startswith(typed.casefold())
    ]


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell: str) -> None:
    """Print the shell completion script: verbs, options, campaign and character names. Source
    it from your shell's start-up file (bash: `eval "$(campaign completion bash)"`).

    \b
    Example:
      campaign completion zsh > ~/.campaign-completion.zsh
    """
    from cli.main import campaign

    script = get_completion_class(shell)
    assert script is not None  # the choices are click's own shells
    click.echo(script(campaign, {}, "campaign", "_CAMPAIGN_COMPLETE").source())
