"""A signature's one canonical text (``domain.signatures.signature_text_problem``): what keeps a
text from being it is said, for the refusal to name."""

from __future__ import annotations

import pytest

from domain.signatures import signature_text_problem

CANONICAL = "0123456789abcdef" * 8


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (CANONICAL, None),
        (CANONICAL.upper(), "upper case hex"),
        ("A" + CANONICAL[1:], "upper case hex"),
        (f" {CANONICAL}", "129 characters, not 128"),
        (CANONICAL[:-1], "127 characters, not 128"),
        (CANONICAL[:-1] + "g", "holds 'g'"),
        (CANONICAL[:-2] + " \n", "holds '\\n', ' '"),
    ],
)
def test_a_signature_is_128_lowercase_hex_digits(text: str, problem: str | None) -> None:
    assert problem == signature_text_problem(text)
