"""The rated queue on the scale-out layout: two daphne processes, a Celery worker and beat (bench/
load.py's site, on an SQLite file and a Redis of its own), and a daphne killed while people wait.

Three people join and open their queue pages, spread over both daphnes: nobody is seated (three
are not a table), whatever beat's sweeps do. The first daphne is then killed (SIGKILL: it never
counts its sockets out) and the pages reconnect to the second, as a browser's socket does; five
more people open theirs there. Each of the eight must be sent to a table, the one they sit at,
and there must be two rated tables of four.

As in tests/test_kill.py, the drill runs in a process of its own (``python -m
tests.test_queue_scale_out FINDINGS.json``), which sets Django up on the site's database.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.drills import run_drill, write_findings
from tests.helpers.scale_out import (
    page_socket,
    plays_rated,
    sent_to,
    session_cookie,
    two_daphnes,
)

FIRST = 3  # people who wait before the kill
PEOPLE = 8
PATIENCE = 30.0  # seconds to wait for a table
SEATED = re.compile(r'id="queue-table" href="(/t/\d+/)"')


@pytest.mark.slow
def test_the_queue_seats_everyone_across_two_daphnes_one_of_them_killed(tmp_path):
    findings = tmp_path / "findings.json"
    done = run_drill("tests.test_queue_scale_out", findings, timeout=180)
    assert done.returncode == 0, f"{done.stderr[-4000:]}\nthe site's log: {tmp_path}/site.log"
    found = json.loads(findings.read_text())
    assert found["seated_before_the_kill"] == []
    assert len(found["told"]) == PEOPLE  # every page was sent to a table
    assert found["told"] == found["seats"]  # the table each was told is the one they sit at
    assert sorted(found["tables"].values()) == [4, 4]
    assert all(found["rated"].values())


# The drill, in a process of its own ---------------------------------------------------------


def drill(var_dir: Path, log: Path) -> dict[str, Any]:
    with two_daphnes(var_dir, log) as site:
        web1, web2 = site.layout.ports
        people = [_person(f"queuer{n}") for n in range(PEOPLE)]
        found = asyncio.run(_wait_in_the_queue(people, web1, web2, site))
        found.update(_where_they_sit(people))
    return found


def _person(name: str) -> tuple[str, str]:
    """A new person in the Standard queue: their name and their session's cookie."""
    from django.contrib.auth.models import User

    from pairing import services

    user = User.objects.create_user(name)
    services.join(user, services.DEFAULT_QUEUE)
    return name, session_cookie(user)


def _socket(cookie: str, port: int) -> Any:
    return page_socket("/ws/queue/", cookie, port)


async def _wait_in_the_queue(
    people: list[tuple[str, str]], web1: int, web2: int, site: Any
) -> dict[str, Any]:
    told: dict[str, str] = {}
    first = [
        await _socket(cookie, (web1, web2)[n % 2]) for n, (_, cookie) in enumerate(people[:FIRST])
    ]
    await asyncio.sleep(3)  # beat's sweeps come and go: three are not a table
    early = [name for (name, _), ws in zip(people, first, strict=False) if await _seated(ws, 0.5)]
    os.kill(site.layout.processes["web1"].pid, signal.SIGKILL)
    for ws in first:
        await ws.close()
    # The pages reconnect, each now to the second daphne; the others open theirs on both.
    sockets = [await _socket(cookie, web2) for _, cookie in people[:FIRST]]
    sockets += [await _socket(cookie, web2) for _, cookie in people[FIRST:]]
    deadline = time.monotonic() + PATIENCE
    for (name, _), ws in zip(people, sockets, strict=True):
        url = await _seated(ws, max(0.1, deadline - time.monotonic()))
        if url:
            told[name] = url
        await ws.close()
    return {"seated_before_the_kill": early, "told": told}


async def _seated(ws: Any, seconds: float) -> str | None:
    """The table a queue page is sent to within ``seconds``, if any."""
    return await sent_to(ws, SEATED, seconds)


def _where_they_sit(people: list[tuple[str, str]]) -> dict[str, Any]:
    from games.models import Seat, Table

    seats: dict[str, str] = {}
    for seat in Seat.objects.filter(user__username__in=[n for n, _ in people]).select_related(
        "user", "table"
    ):
        assert seat.user is not None  # found by its player's name
        seats[seat.user.username] = seat.table.get_absolute_url()
    tables = Table.objects.filter(seats__user__username__in=seats)
    counts: dict[str, int] = {}
    for url in seats.values():
        counts[url] = counts.get(url, 0) + 1
    rated = {t.get_absolute_url(): plays_rated(t) for t in tables.distinct()}
    return {"seats": seats, "tables": counts, "rated": rated}


def main() -> int:
    write_findings(drill, "hearts-queue-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
