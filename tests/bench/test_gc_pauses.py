"""The daphnes' report of their garbage collections (hearts_site/gc_pauses.py), which
bench/load.py reads over its measured seconds: a collection is counted and timed in its
generation, and the report's lines give each process's collections between two moments."""

from __future__ import annotations

import asyncio
import doctest
import gc
import time

from hearts_site import gc_pauses


def test_a_full_collection_is_counted_and_timed_in_the_third_generation() -> None:
    pauses = gc_pauses.Pauses()
    gc.callbacks.append(pauses)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(pauses)
    assert pauses.count[2] == 1
    assert pauses.ms[2] > 0 and pauses.longest[2] == pauses.ms[2]
    line = pauses.line()
    assert gc_pauses.read([line], 0, float("inf"))  # its own line reads back
    assert pauses.longest == [0.0, 0.0, 0.0]  # the next line has the pauses after this one


def test_lines_run_together_or_of_other_processes_are_read_apart() -> None:
    lines = [
        "gc pauses pid=1 at=5.0 count=1,0,0 ms=1.0,0.0,0.0 longest=1.0,0.0,0.0",
        "gc pauses pid=2 at=5.0 count=3,0,0 ms=3.0,0.0,0.0 longest=1.0,0.0,0.0",
        "gc pauses pid=1 at=6.0 count=4,1,0 ms=4.0,2.0,0.0 longest=1.0,2.0,0.0gc pauses pid=2",
        "INFO something else the site said",
        "gc pauses pid=1 at=7.0 count=6,1,0 ms=6.0,2.0,0.0 longest=2.5,0.0,0.0",
        "gc pauses pid=2 at=9.0 count=9,9,9 ms=9.0,9.0,9.0 longest=9.0,9.0,9.0",
    ]
    read = gc_pauses.read(lines, 5.0, 8.0)
    assert read[1] == {"count": [5.0, 1.0, 0.0], "ms": [5.0, 2.0, 0.0], "longest": [2.5, 0.0, 0.0]}
    assert read[2]["count"] == [0.0, 0.0, 0.0]  # one line in the window: nothing between


def test_the_examples_of_the_module_hold() -> None:
    assert doctest.testmod(gc_pauses).failed == 0


def test_a_loop_held_up_leaves_its_probe_waiting_and_the_wait_is_counted() -> None:
    lag = gc_pauses.Lag()

    async def held_up() -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon_threadsafe(lag.probe, time.perf_counter())
        time.sleep(0.12)  # the loop does nothing else for 120 ms
        await asyncio.sleep(0)

    asyncio.run(held_up())

    assert lag.probes == 1 and lag.late == [1, 1, 1] and lag.longest >= 120
    line = lag.line()
    assert gc_pauses.read_lag([line, line], 0, float("inf"))  # its own lines read back
    assert lag.longest == 0.0  # the next line has the waits after this one
