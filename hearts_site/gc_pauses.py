"""How long Python's cyclic garbage collector stops the process, generation by generation.

A collection stops every table the process serves while it walks the objects it tracks, so its
pauses land on the moves' latency whole. With ``HEARTS_GC_REPORT`` set to a number of seconds,
a daemon thread writes a line to standard error (the site's log) at that interval: the count and
the total milliseconds of each generation's collections since the process started, and the
longest pause of each since the line before. bench/load.py sets it for the daphnes and reads
the lines of its measured seconds. The collector's callback only counts: the thread writes, so
that no collection, which may come at any allocation, waits on the log's lock.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import threading
import time
from typing import Any

PREFIX = "gc pauses"
_NUMBERS = r"[0-9.]+,[0-9.]+,[0-9.]+"
_LINE = re.compile(
    rf"{PREFIX} pid=(?P<pid>[0-9]+) at=(?P<at>[0-9.]+) count=(?P<count>{_NUMBERS}) "
    rf"ms=(?P<ms>{_NUMBERS}) longest=(?P<longest>{_NUMBERS})"
)


class Pauses:
    """The collector's callback: each generation's collections counted and timed."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.ms = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        generation = info["generation"]
        pause = 1000 * (time.perf_counter() - self._began)
        self.count[generation] += 1
        self.ms[generation] += pause
        self.longest[generation] = max(self.longest[generation], pause)

    def line(self) -> str:
        """The report's line, the longest pauses taken (the next line has those after it)."""
        longest, self.longest = self.longest, [0.0, 0.0, 0.0]
        return (
            f"{PREFIX} pid={os.getpid()} at={time.time():.3f} "
            f"count={','.join(map(str, self.count))} "
            f"ms={','.join(f'{ms:.1f}' for ms in self.ms)} "
            f"longest={','.join(f'{ms:.1f}' for ms in longest)}"
        )


def report_from_environment() -> None:
    """Start the report if ``HEARTS_GC_REPORT`` asks for one."""
    every = float(os.environ.get("HEARTS_GC_REPORT") or 0)
    if every <= 0:
        return
    pauses = Pauses()
    gc.callbacks.append(pauses)

    def report() -> None:
        while True:
            time.sleep(every)
            print(pauses.line(), file=sys.stderr, flush=True)

    threading.Thread(target=report, name="gc-pauses", daemon=True).start()


def read(lines: list[str], since: float, until: float) -> dict[int, dict[str, list[float]]]:
    """Each process's collections between ``since`` and ``until`` (Unix times) from the report's
    ``lines``: counts and milliseconds by generation, and the longest pause of each.

    >>> text = [
    ...     "gc pauses pid=7 at=10.0 count=5,1,0 ms=5.0,2.0,0.0 longest=1.0,2.0,0.0",
    ...     "gc pauses pid=7 at=11.0 count=9,2,1 ms=9.0,6.0,40.0 longest=1.5,4.0,40.0",
    ...     "gc pauses pid=7 at=12.0 count=12,2,1 ms=12.0,6.0,40.0 longest=1.2,0.0,0.0",
    ... ]
    >>> read(text, 10.0, 12.0)[7]
    {'count': [7.0, 1.0, 1.0], 'ms': [7.0, 4.0, 40.0], 'longest': [1.5, 4.0, 40.0]}
    """
    seen: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        found = _LINE.fullmatch(line.strip())
        if found is None:  # another line, or two processes' lines run together
            continue
        if since <= float(found["at"]) <= until:
            seen.setdefault(int(found["pid"]), []).append(
                {
                    name: [float(value) for value in found[name].split(",")]
                    for name in ("count", "ms", "longest")
                }
            )
    figures = {}
    for pid, reports in seen.items():
        first, last = reports[0], reports[-1]
        figures[pid] = {
            "count": [b - a for a, b in zip(first["count"], last["count"], strict=True)],
            "ms": [round(b - a, 1) for a, b in zip(first["ms"], last["ms"], strict=True)],
            "longest": [max(r["longest"][g] for r in reports[1:] or reports) for g in range(3)],
        }
    return figures
