"""An arena on the scale-out layout: two daphne processes, a Celery worker and beat (bench/
load.py's site, on an SQLite file and a Redis of its own), and a daphne killed while people wait.

Three people join a running arena and open its page, spread over both daphnes: nobody is seated
(three are not a table), whatever beat's sweeps do. The first daphne is then killed (SIGKILL: it
never counts its sockets out) and the pages reconnect to the second, as a browser's socket does;
five more people open theirs there. Each of the eight must be sent to a table, the one they sit
at: two rated tables of four. Then one table's game ends (its last move made here, as a
daphne makes a person's): the worker hears of it, and its four, their arena pages still open,
are sent to a new table together, while the other four play on.

As in tests/test_queue_scale_out.py, the drill runs in a process of its own (``python -m
tests.test_arena_scale_out FINDINGS.json``), which sets Django up on the site's database.
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
SEATED = re.compile(r'id="arena-table" href="(/t/\d+/)"')


@pytest.mark.slow
def test_an_arena_seats_everyone_across_two_daphnes_one_killed_and_again_after_a_game(tmp_path):
    findings = tmp_path / "findings.json"
    done = run_drill("tests.test_arena_scale_out", findings, timeout=240)
    assert done.returncode == 0, f"{done.stderr[-4000:]}\nthe site's log: {tmp_path}/site.log"
    found = json.loads(findings.read_text())
    assert found["seated_before_the_kill"] == []
    assert len(found["told"]) == PEOPLE  # every page was sent to a table
    assert sorted(found["tables"].values()) == [4, 4]
    assert all(found["rated"].values())
    again = found["again"]
    assert sorted(again) == sorted(found["first_table"])  # the four of the game that ended
    assert len(set(again.values())) == 1  # at one new table
    assert set(again.values()).isdisjoint(found["told"].values())
    assert found["others_told_again"] == []


# The drill, in a process of its own ---------------------------------------------------------


def drill(var_dir: Path, log: Path) -> dict[str, Any]:
    with two_daphnes(var_dir, log) as site:
        web1, web2 = site.layout.ports
        arena_id = _arena()
        people = [_person(f"arena{n}", arena_id) for n in range(PEOPLE)]
        found = asyncio.run(_play(arena_id, people, web1, web2, site))
    return found


def _arena() -> int:
    from datetime import timedelta

    from django.utils import timezone

    from arenas import services

    arena = services.create_arena(
        "Scale-out arena",
        preset="standard",
        players=4,
        starts_at=timezone.now() - timedelta(minutes=1),
        minutes=60,
    )
    return arena.pk


def _person(name: str, arena_id: int) -> tuple[str, str]:
    """A new person who joined the arena: their name and their session's cookie."""
    from django.contrib.auth.models import User

    from arenas import services

    user = User.objects.create_user(name)
    services.join(user, arena_id)
    return name, session_cookie(user)


def _socket(arena_id: int, cookie: str, port: int) -> Any:
    return page_socket(f"/ws/arena/{arena_id}/", cookie, port)


async def _play(
    arena_id: int, people: list[tuple[str, str]], web1: int, web2: int, site: Any
) -> dict[str, Any]:
    first = [
        await _socket(arena_id, cookie, (web1, web2)[n % 2])
        for n, (_, cookie) in enumerate(people[:FIRST])
    ]
    await asyncio.sleep(3)  # beat's sweeps come and go: three are not a table
    early = [name for (name, _), ws in zip(people, first, strict=False) if await _seated(ws, 0.5)]
    os.kill(site.layout.processes["web1"].pid, signal.SIGKILL)
    for ws in first:
        await ws.close()
    # The pages reconnect, each now to the second daphne; the others open theirs there.
    sockets = [await _socket(arena_id, cookie, web2) for _, cookie in people]
    told = await _told(people, sockets, PATIENCE)
    found: dict[str, Any] = {"seated_before_the_kill": early, "told": told}
    found.update(await asyncio.to_thread(_where_they_sit, people))
    first_url = next(iter(found["tables"]))
    first_table = [name for name, url in told.items() if url == first_url]
    found["first_table"] = first_table
    await asyncio.to_thread(_end_the_game_at, first_url)
    again = await _told(people, sockets, PATIENCE, only=first_table)
    others = [name for name, _ in people if name not in first_table]
    found["again"] = again
    found["others_told_again"] = list(await _told(people, sockets, 1.0, only=others))
    for ws in sockets:
        await ws.close()
    return found


async def _told(
    people: list[tuple[str, str]], sockets: list[Any], seconds: float, only: Any = None
) -> dict[str, str]:
    """The table each page (of ``only``, else all) is sent to within ``seconds``."""
    deadline = time.monotonic() + seconds
    told = {}
    for (name, _), ws in zip(people, sockets, strict=True):
        if only is not None and name not in only:
            continue
        url = await _seated(ws, max(0.1, deadline - time.monotonic()))
        if url:
            told[name] = url
    return told


async def _seated(ws: Any, seconds: float) -> str | None:
    """The table an arena page is sent to within ``seconds``, if any."""
    return await sent_to(ws, SEATED, seconds)


def _end_the_game_at(url: str) -> None:
    """The game at ``url`` played out, its last move made through the site's write path here."""
    from games.models import Table
    from tests.helpers.finishing import play_out

    table_id = int(url.strip("/").split("/")[-1])
    game = Table.objects.get(pk=table_id).current_game()
    assert game is not None
    play_out(game, 1)


def _where_they_sit(people: list[tuple[str, str]]) -> dict[str, Any]:
    from games.models import Seat, Table

    seats = Seat.objects.filter(user__username__in=[n for n, _ in people]).select_related("table")
    counts: dict[str, int] = {}
    for seat in seats:
        url = seat.table.get_absolute_url()
        counts[url] = counts.get(url, 0) + 1
    tables = Table.objects.filter(seats__user__username__in=[n for n, _ in people]).distinct()
    rated = {t.get_absolute_url(): plays_rated(t) for t in tables}
    return {"tables": counts, "rated": rated}


def main() -> int:
    write_findings(drill, "hearts-arena-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
