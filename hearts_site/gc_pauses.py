"""How long Python's cyclic garbage collector stops the process, generation by generation.

A collection stops every table the process serves while it walks the objects it tracks, so its
pauses land on the moves' latency whole. With ``HEARTS_GC_REPORT`` set to a number of seconds,
a daemon thread writes a line to standard error (the site's log) at that interval: the count and
the total milliseconds of each generation's collections since the process started, and the
longest pause of each since the line before. bench/load.py sets it for the daphnes and reads
the lines of its measured seconds. The collector's callback only counts: the thread writes, so
that no collection, which may come at any allocation, waits on the log's lock. Given the
process's event loop, the report says how late the loop answers too (:class:`Lag`).
"""

from __future__ import annotations

import asyncio
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


class Lag:
    """How late the event loop runs what it is given: a probe is posted to it every
    :data:`PROBE_SECONDS` from another thread, and the time it waited is counted. A loop
    stopped 200 ms (by a collection, a long piece of work, the lock held by a pool thread) keeps
    some 20 probes waiting, so the share of late probes is the share of the time the loop was
    that late in answering anything."""

    def __init__(self) -> None:
        self.probes = 0
        self.late = [0, 0, 0]  # probes that waited over each of LATE_MS
        self.longest = 0.0

    def probe(self, sent: float) -> None:
        waited = 1000 * (time.perf_counter() - sent)
        self.probes += 1
        for i, limit in enumerate(LATE_MS):
            if waited > limit:
                self.late[i] += 1
        self.longest = max(self.longest, waited)

    def line(self) -> str:
        longest, self.longest = self.longest, 0.0
        return (
            f"{LAG_PREFIX} pid={os.getpid()} at={time.time():.3f} probes={self.probes} "
            f"late={','.join(map(str, self.late))} longest={longest:.1f}"
        )


LAG_PREFIX = "loop lag"
PROBE_SECONDS = 0.01
LATE_MS = (20, 50, 100)
_LAG_LINE = re.compile(
    rf"{LAG_PREFIX} pid=(?P<pid>[0-9]+) at=(?P<at>[0-9.]+) probes=(?P<probes>[0-9]+) "
    rf"late=(?P<late>[0-9]+,[0-9]+,[0-9]+) longest=(?P<longest>[0-9.]+)"
)


def report_from_environment(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Start the report if ``HEARTS_GC_REPORT`` asks for one; with ``loop`` (the daphne's), its
    lag too (:class:`Lag`), on a line of its own."""
    every = float(os.environ.get("HEARTS_GC_REPORT") or 0)
    if every <= 0:
        return
    pauses = Pauses()
    gc.callbacks.append(pauses)
    lag = Lag() if loop is not None else None

    def report() -> None:
        while True:
            time.sleep(every)
            print(pauses.line(), file=sys.stderr, flush=True)
            if lag is not None:
                print(lag.line(), file=sys.stderr, flush=True)

    def probe() -> None:
        assert loop is not None and lag is not None
        while True:
            time.sleep(PROBE_SECONDS)
            try:
                loop.call_soon_threadsafe(lag.probe, time.perf_counter())
            except RuntimeError:  # the loop closed: the process is stopping
                return

    threading.Thread(target=report, name="gc-pauses", daemon=True).start()
    if loop is not None:
        threading.Thread(target=probe, name="loop-lag", daemon=True).start()


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
    figures = {}
    for pid, reports in _reports(_LINE, lines, since, until).items():
        numbers = [
            {name: [float(value) for value in found[name].split(",")] for name in _GC_FIELDS}
            for found in reports
        ]
        first, last = numbers[0], numbers[-1]
        figures[pid] = {
            "count": [b - a for a, b in zip(first["count"], last["count"], strict=True)],
            "ms": [round(b - a, 1) for a, b in zip(first["ms"], last["ms"], strict=True)],
            "longest": [max(r["longest"][g] for r in numbers[1:] or numbers) for g in range(3)],
        }
    return figures


_GC_FIELDS = ("count", "ms", "longest")


def _reports(
    pattern: re.Pattern[str], lines: list[str], since: float, until: float
) -> dict[int, list[re.Match[str]]]:
    """Each process's report lines of one kind between ``since`` and ``until``, in order."""
    seen: dict[int, list[re.Match[str]]] = {}
    for line in lines:
        found = pattern.fullmatch(line.strip())
        if found is None:  # another line, or two processes' lines run together
            continue
        if since <= float(found["at"]) <= until:
            seen.setdefault(int(found["pid"]), []).append(found)
    return seen


def read_lag(lines: list[str], since: float, until: float) -> dict[int, dict[str, Any]]:
    """Each process's loop lag between ``since`` and ``until`` from the report's ``lines``: the
    probes, how many waited over each of :data:`LATE_MS`, and the longest wait.

    >>> text = [
    ...     "loop lag pid=7 at=10.0 probes=100 late=2,1,0 longest=60.0",
    ...     "loop lag pid=7 at=11.0 probes=198 late=9,4,1 longest=130.5",
    ...     "loop lag pid=7 at=12.0 probes=297 late=9,4,1 longest=8.0",
    ... ]
    >>> read_lag(text, 10.0, 12.0)[7]
    {'probes': 197, 'late': [7, 3, 1], 'longest': 130.5}
    """
    figures = {}
    for pid, reports in _reports(_LAG_LINE, lines, since, until).items():
        first, last = reports[0], reports[-1]
        late = [[int(n) for n in found["late"].split(",")] for found in (first, last)]
        figures[pid] = {
            "probes": int(last["probes"]) - int(first["probes"]),
            "late": [b - a for a, b in zip(*late, strict=True)],
            "longest": max(float(found["longest"]) for found in reports[1:] or reports),
        }
    return figures
