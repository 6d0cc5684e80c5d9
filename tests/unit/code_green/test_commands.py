"""Code Green's command names (commands.py): rulings recorded under an older topic still resolve."""

from __future__ import annotations

from domain.rulesets.renamed import RENAMED
from engine.store.topics import resolve


def test_a_command_recorded_under_its_old_topic_resolves_to_its_class_now() -> None:
    """Rulings recorded before play.py was split (and placing tokens left creation.py) still
    name their command: each old topic resolves to the class that has the new one."""
    renamed = {old: new for old, new in RENAMED.items() if ".code_green." in old}
    assert renamed
    for old, new in renamed.items():
        cls = resolve(old)
        assert new == f"{cls.__module__}:{cls.__qualname__}"
