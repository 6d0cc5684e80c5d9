"""The OpenAPI schema of each verb's body: its own typed ``params`` object, made from the kinds
of its parameters in the registry (``domain.kinds``), so that a tester driven by the schema
builds bodies the server reads. A verb several systems share (``roll``) takes any of their
objects, each titled with its system: the campaign in the path says which one applies.

Litestar describes a body from its Python type, and ``CommandIn.params`` is any mapping; each
verb's route describes its operation with ``operation_for``, which puts this schema in place of
the one Litestar made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from litestar.openapi.spec import Operation

from domain.limits import MAX_SIDES
from domain.registry import Verb

SEED = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
"""A seed: a whole number the JSON decoder reads (a signed 64-bit one)."""


def params_schema(system: str, verb: Verb) -> dict[str, Any]:
    """The ``params`` object of ``verb`` in a ``system`` campaign: every parameter by its kind,
    the required ones (but ``by``, the signed-in member when left out), and no other key."""
    return {
        "type": "object",
        "title": system,
        "description": f"`{verb.name}` in a {system} campaign: {verb.help}",
        "properties": {p.name: p.schema() for p in verb.parameters},
        "required": [p.name for p in verb.parameters if p.required and p.name != "by"],
        "additionalProperties": False,
    }


def body_schema(systems: Mapping[str, Verb]) -> dict[str, Any]:
    """The body of a verb's route: its ``params`` (one system's object), and its dice: faces
    rolled at the table or a seed, not both."""
    shapes: list[dict[str, Any]] = []
    for system, verb in sorted(systems.items()):
        shape = params_schema(system, verb)
        same = next((s for s in shapes if _untitled(s) == _untitled(shape)), None)
        if same is None:
            shapes.append(shape)
        else:  # the shared verbs: one object, every system's
            same["title"] = f"{same['title']}, {system}"
            same["description"] = f"`{verb.name}`: {verb.help}"
    params = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    face = {"type": "integer", "minimum": 1, "maximum": MAX_SIDES}
    return {
        "type": "object",
        "properties": {
            "params": params,
            "dice": {"anyOf": [{"type": "array", "items": face}, {"type": "null"}]},
            "seed": {"anyOf": [SEED, {"type": "null"}]},
            "hidden": {"type": "boolean", "default": False},
        },
        "required": ["params"],
        "not": {
            "required": ["dice", "seed"],
            "properties": {"dice": {"type": "array"}, "seed": {"type": "integer"}},
        },
    }


def _untitled(shape: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in shape.items() if k not in ("title", "description")}


def operation_for(systems: Mapping[str, Verb]) -> type[Operation]:
    """The operation class of a verb's route: Litestar's, with the verb's own body."""
    body = body_schema(systems)

    @dataclass
    class VerbOperation(Operation):
        schema_of_body: ClassVar[dict[str, Any]] = body

        def to_schema(self) -> dict[str, Any]:
            described = super().to_schema()
            described["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": self.schema_of_body}},
            }
            return described

    return VerbOperation
