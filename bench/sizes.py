"""How much work each figure does: `make bench`'s sizes, and the smallest that still runs every
figure's code (``--size smoke``: for the test suite, which checks that the bench runs and writes
every row; its figures mean nothing)."""

from __future__ import annotations

from attrs import frozen


@frozen
class Sizes:
    """Every count a figure is measured over (each figure's module says what it does with it)."""

    repeat: int  # repetitions of a figure (each reports a median)
    events: int  # the bulk, replay, verify and projection stores; rulings of the scale and undo
    memory_events: int  # the large side of the peak-RSS figures
    memory_small: int  # their small side
    small: int  # the short side of the figures measured at two scales
    later: int  # rulings of the session played after a long one (scale, streaming)
    session: int  # rulings of the session `campaign replay` narrates
    back: int  # how far back the far undo reaches: past the rulings the undo and amend figures
    # add to the short campaign before it (20 each a repetition), within that campaign
    writers: int  # processes writing to one campaign at once
    per_writer: int  # rolls each of them records
    clients: int  # API clients of the server's load figure
    per_client: int  # rolls each of them sends
    turns: int  # latency samples of each side, in turns
    live: int  # rolls followed to an SSE client
    players: tuple[int, ...]  # levels of players rolling at once on one server
    rolls: int  # rolls of one level, shared among its players (at least 5 each)
    processes: int  # `campaign serve` processes sharing one PostgreSQL database
    streams: tuple[int, ...]  # event streams open on one server at once
    fanout_rolls: int  # rolls fanned out to those streams
    requests: int  # `GET /api/me` samples of each side
    members: tuple[int, ...]  # levels of Discord members acting at once
    interactions: int  # Discord interactions of one level, shared among its members


DEFAULT = Sizes(
    repeat=3,
    events=100_000,
    memory_events=1_000_000,
    memory_small=10_000,
    small=1_000,
    later=100,
    session=10_000,
    back=1_000,
    writers=8,
    per_writer=200,
    clients=8,
    per_client=200,
    turns=400,
    live=60,
    players=(1, 8, 32, 64),
    rolls=320,
    processes=3,
    streams=(50, 500),
    fanout_rolls=20,
    requests=600,  # a p99 of 600 is the sixth slowest (of 200, the second: one hiccup moved it)
    members=(1, 8, 32),
    interactions=240,
)

SMOKE = Sizes(
    repeat=1,
    events=200,
    memory_events=400,
    memory_small=200,
    small=100,
    later=5,
    session=20,
    back=50,
    writers=2,
    per_writer=5,
    clients=1,
    per_client=5,
    turns=10,
    live=3,
    players=(2,),
    rolls=10,
    processes=1,
    streams=(2, 4),
    fanout_rolls=2,
    requests=10,
    members=(2,),
    interactions=10,
)

BY_NAME = {"default": DEFAULT, "smoke": SMOKE}
