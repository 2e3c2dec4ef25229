"""The scale-out layout: the four players of one game sit on sockets of two daphne processes
(two Celery workers and beat beside them, one Redis), and every move reaches all four screens.

It runs bench/load.py against ``--layout two`` (scripts/scale_out.py's processes) on an SQLite
file and a Redis of its own, with people who think for no more than 20 ms, and reads the
figures it writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_every_move_reaches_all_four_players_sitting_on_two_daphne_processes(tmp_path):
    figures_file = tmp_path / "figures.json"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--layout",
            "two",
            "--database",
            "sqlite",
            "--tables",
            "1",
            "--seconds",
            "6",
            "--think",
            "0,0.02",
            "--json",
            str(figures_file),
        ],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=240,
        stdout=subprocess.DEVNULL,
    )
    figures = json.loads(figures_file.read_text())
    (played,) = figures["rounds"]
    for ports in played["screens_ports"].values():
        assert sorted(Counter(ports).values()) == [2, 2], "two players on each daphne"
    assert played["latency_ms"]["count"] >= 20, "the players made their moves"
    assert played["unseen"] == 0, "a move did not reach every screen"
    assert played["closed"] == 0
    assert figures["replays"]["mismatched"] == 0
