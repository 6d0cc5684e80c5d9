"""A system's verbs never share a name with a verb every campaign has: the shared verb is looked up
first, so a system verb of the same name could never run (issue 18: Sprawl Goons' `use`)."""

from __future__ import annotations

import json

import pytest

from cli.main import campaign
from cli.systems import verbs
from domain.rulesets import SYSTEMS
from tests.e2e.conftest import Run

SHARED = set(campaign.commands)  # the group's own commands; system verbs are resolved later


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_no_system_verb_is_shadowed_by_a_shared_verb(system: str) -> None:
    """Every top-level verb of the system (its groups' subcommands sit under them) has a name no
    shared verb of `campaign` has."""
    assert set() == set(verbs(system).commands) & SHARED


def test_a_goon_uses_a_consumable_through_the_cli(run: Run) -> None:
    """`use-item` spends a dose of Hyperdex (+1 Morphology for the scene); the log shows it, and
    `use` still chooses the current campaign."""
    for line in (
        'init "Docklands" --system sprawl-goons --gm Rosa',
        "session start",
        'scene start "A capsule hotel"',
        "character create Rex --player eve --stats 1,1,1,1 --item hyperdex --item penlight "
        "--item toolkit --dice 1,1,1",
        "use-item Rex hyperdex",
    ):
        result = run(line)
        assert 0 == result.exit_code, (line, result.output)
    log = run("log").output
    assert "Rex: uses Brazilian Hyperdex: 3 -> 2 left" in log
    assert "Rex: Brazilian Hyperdex: +1 morphology for the scene" in log
    sheet = json.loads(run("--json character show Rex").stdout)
    assert (2, "morphology") == (sheet["items"][0]["uses"], sheet["boosts"][0]["stat"])
    assert "current campaign: Docklands" in run("use Docklands").output
