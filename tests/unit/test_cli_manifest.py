"""`campaign --help` lists every verb from ``cli.manifest``, and the group finds a shared verb's
module there, importing none of them (issue 32): the manifest says what the commands say. When
this fails, run ``python -m cli.manifest_build`` (it rewrites cli/manifest.py)."""

from __future__ import annotations

import click
import pytest

from cli import manifest, manifest_build, systems
from cli.main import _listed, campaign
from domain.rulesets import SYSTEMS


def test_the_manifest_is_what_the_commands_say() -> None:
    assert manifest_build.shared() == manifest.SHARED
    assert manifest_build.shared_help() == manifest.SHARED_HELP
    assert manifest_build.system_verbs() == manifest.SYSTEM_VERBS


def test_every_system_is_in_the_manifest_in_order() -> None:
    assert list(SYSTEMS) == list(manifest.SYSTEM_VERBS)


def _every_listed() -> list[tuple[click.Command, dict[str, object]]]:
    found = [(campaign.commands[name], shown) for name, shown in manifest.SHARED_HELP.items()]
    for system, (_, verbs) in manifest.SYSTEM_VERBS.items():
        group = systems.verbs(system)
        found += [(group.commands[name], shown) for name, shown in verbs.items()]
    return found


@pytest.mark.parametrize("limit", range(25, 110, 7))
def test_a_listed_verb_s_short_help_is_its_own(limit: int) -> None:
    """At any terminal width (click cuts the short help to fit), as the command would say it."""
    for command, shown in _every_listed():
        listed = _listed(str(command.name), shown)
        assert command.get_short_help_str(limit) == listed.get_short_help_str(limit), command.name
        assert command.hidden == listed.hidden


def test_the_group_lists_every_verb_without_importing_one() -> None:
    every = {name for _, verbs in manifest.SYSTEM_VERBS.values() for name in verbs}
    assert set(campaign.list_commands(click.Context(campaign))) == set(manifest.SHARED) | every
