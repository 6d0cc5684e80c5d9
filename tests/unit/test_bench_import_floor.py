"""The bench's spread floor deals the read models to processes of near-equal cost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bench.import_floor import shares


def test_the_dearest_model_goes_alone_when_it_outweighs_the_rest() -> None:
    costs = {"recaps": 2.4, "index": 0.9, "dice": 0.9, "exposure": 0.5, "search": 0.4}
    assert shares(costs, 2) == [["recaps"], ["dice", "index", "exposure", "search"]]


def test_one_process_takes_every_model() -> None:
    assert shares({"a": 1.0, "b": 2.0}, 1) == [["b", "a"]]


def test_no_process_is_left_without_a_model() -> None:
    assert shares({"a": 1.0}, 4) == [["a"]]


@given(
    st.dictionaries(st.text(min_size=1, max_size=5), st.floats(0, 10), min_size=1, max_size=8),
    st.integers(1, 4),
)
def test_every_model_is_dealt_once_and_no_share_outweighs_the_mean_by_more_than_the_dearest(
    costs: dict[str, float], processes: int
) -> None:
    dealt = shares(costs, processes)
    names = [name for share in dealt for name in share]
    assert sorted(names) == sorted(costs)
    totals = [sum(costs[name] for name in share) for share in dealt]
    assert len(dealt) <= processes
    assert max(totals) <= sum(costs.values()) / processes + max(costs.values()) + 1e-9
