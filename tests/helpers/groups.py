"""The suite in groups that run side by side (``./dev test``): ``--groups N --group I`` keeps
group I's modules of N, each module whole, so that the tests of one module still share its
fixtures and its order. The modules are dealt out by how long each took, as
``tests/durations.json`` last had it (``--store-durations`` writes the times of the modules a
run ran; ``./dev durations``): the longest first, each to the group with the least time so far.
A module the file does not know counts as the average.

A plugin of the root conftest. pytest-django's order (plain, then transactional, then the
tests without a database) and the browser tests' place last hold within each group, as they
do in a run of the whole suite: a group is only a selection.
"""

from __future__ import annotations

import heapq
import json
from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parents[1] / "durations.json"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("groups", "the suite in groups run side by side (./dev test)")
    group.addoption("--groups", type=int, default=0, help="how many groups the modules form")
    group.addoption("--group", type=int, default=0, help="the group to run, from 1")
    group.addoption(
        "--store-durations",
        action="store_true",
        help=f"write each module's time in this run to {DURATIONS.name}",
    )


def module_of(nodeid: str) -> str:
    """The module of a test's id: ``tests/test_a.py`` of ``tests/test_a.py::test_b[1]``."""
    return nodeid.split("::", 1)[0]


def deal(modules: list[str], durations: dict[str, float], groups: int) -> list[list[str]]:
    """``modules`` in ``groups`` groups of about equal time, the longest dealt first ("d",
    unknown, counts as the average of the others: 3⅓).

    >>> deal(["a", "b", "c", "d"], {"a": 5, "b": 3, "c": 2}, 2)
    [['a', 'c'], ['d', 'b']]
    """
    known = [durations[m] for m in modules if m in durations]
    average = sum(known) / len(known) if known else 1.0
    dealt: list[list[str]] = [[] for _ in range(groups)]
    heap = [(0.0, index) for index in range(groups)]
    by_time = sorted(modules, key=lambda m: (-durations.get(m, average), m))
    for module in by_time:
        total, index = heapq.heappop(heap)
        dealt[index].append(module)
        heapq.heappush(heap, (total + durations.get(module, average), index))
    return dealt


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups, group = config.getoption("groups"), config.getoption("group")
    if not groups:
        return
    if not 1 <= group <= groups:
        raise pytest.UsageError(f"--group must be from 1 to {groups}")
    durations = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    modules = list(dict.fromkeys(module_of(item.nodeid) for item in items))
    mine = set(deal(modules, durations, groups)[group - 1])
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        (kept if module_of(item.nodeid) in mine else left).append(item)
    config.hook.pytest_deselected(items=left)
    items[:] = kept


class _Timer:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[module_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """The modules of this run with their new times, the others' as they were."""
        durations = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
        durations.update({module: round(s, 2) for module, s in self.seconds.items()})
        DURATIONS.write_text(json.dumps(dict(sorted(durations.items())), indent=1) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("store_durations"):
        config.pluginmanager.register(_Timer(), "hearts-durations")
