"""Classes renamed or moved since a store may have recorded them, by their old topic.

A ruling header records its command's topic (``module:Class``) and a stored row its event's;
both outlive any rename. Each entry maps the old topic to the class's topic now, so that old
stores still load, amend, undo, verify and import. Add one whenever a recorded class is renamed
or moved to another module; never remove one.
"""

from __future__ import annotations

RENAMED: dict[str, str] = {
    # "domain.rulesets.<system>.<module>:<OldName>": "domain.rulesets.<system>.<module>:<NewName>",
}
