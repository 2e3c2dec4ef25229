"""The scale-out layout: the four players of one game sit on sockets of two daphne processes
(two Celery workers and beat beside them, one Redis), and every move reaches all four screens.

It runs bench/load.py against ``--layout two`` (scripts/scale_out.py's processes) on an SQLite
file and a Redis of its own, with people who think for no more than 20 ms, and reads the
figures it writes."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.helpers.load_runs import load_run


@pytest.mark.slow
def test_every_move_reaches_all_four_players_sitting_on_two_daphne_processes(tmp_path):
    figures = load_run(tmp_path, "--layout", "two", "--tables", "1")
    (played,) = figures["rounds"]
    for ports in played["screens_ports"].values():
        assert sorted(Counter(ports).values()) == [2, 2], "two players on each daphne"
    assert played["latency_ms"]["count"] >= 20, "the players made their moves"
    assert played["unseen"] == 0, "a move did not reach every screen"
    assert played["closed"] == 0
    assert figures["replays"]["mismatched"] == 0
