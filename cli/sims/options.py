"""Options several Sims verbs share: the GM's shifts and joining forces."""

from __future__ import annotations

import click

badass_option = click.option("--badass", is_flag=True, help="GM: Being Badass, one upshift.")
penalty_option = click.option(
    "--penalty", "penalties", multiple=True, metavar="WHY", help="A GM downshift (repeatable)."
)
with_option = click.option(
    "--with", "helpers", multiple=True, metavar="WHO:QUALITY", help="Join forces (repeatable)."
)
