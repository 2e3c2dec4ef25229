"""Table chat on the scale-out layout: two daphne processes, a Celery worker and beat (bench/
load.py's site, on an SQLite file and a Redis of its own). Alice's socket is on the first daphne,
bob's, carol's and dave's on the second: what alice says reaches bob and carol there, what bob
says reaches alice back on the first, and dave, who watches, hears neither but his own room.
Alice and carol write at the same moment on the two daphnes: both messages are kept and reach
everyone in the room, and a sixth quick message of bob's, sent half to each daphne, is refused.

As in tests/test_queue_scale_out.py, the drill runs in a process of its own (``python -m
tests.test_chat_scale_out FINDINGS.json``), which sets Django up on the site's database.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.drills import run_drill, write_findings
from tests.helpers.scale_out import page_socket, session_cookie, two_daphnes

SAID = re.compile(r'<span class="chat-text">(.*?)</span>', re.S)
REFUSED = re.compile(r'<p id="chat-error"[^>]*>(.+?)</p>', re.S)


@pytest.mark.slow
def test_chat_crosses_two_daphne_processes_and_its_limits_hold_across_them(tmp_path):
    findings = tmp_path / "findings.json"
    done = run_drill("tests.test_chat_scale_out", findings, timeout=180)
    assert done.returncode == 0, f"{done.stderr[-4000:]}\nthe site's log: {tmp_path}/site.log"
    found = json.loads(findings.read_text())
    heard = found["heard"]
    assert heard["bob"][:1] == ["hello from the first daphne"]
    assert heard["carol"][:1] == ["hello from the first daphne"]
    assert heard["alice"][:2] == ["hello from the first daphne", "and back from the second"]
    assert heard["dave"] == ["only the watchers"]
    at_once = {"alice at once", "carol at once"}
    for name in ("alice", "bob", "carol"):
        assert at_once <= set(heard[name]), name
    # Bob's "and back" and four quick ones are five in ten seconds: the fifth and sixth quick
    # ones are refused, whichever daphne they were sent to.
    assert found["kept"].count("quick") == 4
    assert any("At most 5 messages" in refusal for refusal in found["refused"])


# The drill, in a process of its own ---------------------------------------------------------


def drill(var_dir: Path, log: Path) -> dict[str, Any]:
    with two_daphnes(var_dir, log) as site:
        web1, web2 = site.layout.ports
        table_id, cookies = _table()
        found = asyncio.run(_talk(table_id, cookies, web1, web2))
        from chat.models import ChatMessage

        found["kept"] = list(ChatMessage.objects.order_by("pk").values_list("text", flat=True))
    return found


def _table() -> tuple[int, dict[str, str]]:
    from django.contrib.auth.models import User

    from games import services

    people = [User.objects.create_user(n) for n in ("alice", "bob", "carol", "dave")]
    alice, bob, carol, _ = people
    table = services.create_table(alice, preset="custom", players=3)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.start_game(table.pk, alice)
    cookies = {person.username: session_cookie(person) for person in people}
    return table.pk, cookies


def _socket(table_id: int, cookie: str, port: int) -> Any:
    return page_socket(f"/ws/table/{table_id}/", cookie, port)


def _say(text: str, room: str = "players") -> str:
    return json.dumps({"chat": text, "room": room})


async def _talk(table_id: int, cookies: dict[str, str], web1: int, web2: int) -> dict[str, Any]:
    ports = {"alice": web1, "bob": web2, "carol": web2, "dave": web2}
    sockets = {name: await _socket(table_id, cookies[name], port) for name, port in ports.items()}
    heard: dict[str, list[str]] = {name: [] for name in sockets}
    refused: list[str] = []
    await _listen(sockets, heard, refused, 2.0)  # the whole tables on connecting
    heard = {name: [] for name in sockets}
    await sockets["alice"].send(_say("hello from the first daphne"))
    await _listen(sockets, heard, refused, 1.5)
    await sockets["bob"].send(_say("and back from the second"))
    await sockets["dave"].send(_say("only the watchers", "spectators"))
    await _listen(sockets, heard, refused, 1.5)
    await asyncio.gather(
        sockets["alice"].send(_say("alice at once")), sockets["carol"].send(_say("carol at once"))
    )
    await _listen(sockets, heard, refused, 1.5)
    # Bob's quick messages, every other one on another socket of his on the first daphne.
    other = await _socket(table_id, cookies["bob"], web1)
    await asyncio.sleep(1.1)
    for n in range(6):
        await (sockets["bob"] if n % 2 else other).send(_say("quick"))
        await asyncio.sleep(1.15)
    await _listen({**sockets, "bob-on-first": other}, {**heard, "bob-on-first": []}, refused, 1.5)
    for socket in [*sockets.values(), other]:
        await socket.close()
    return {"heard": heard, "refused": refused}


async def _listen(
    sockets: dict[str, Any], heard: dict[str, list[str]], refused: list[str], seconds: float
) -> None:
    async def one(name: str) -> None:
        try:
            async with asyncio.timeout(seconds):
                while True:
                    frame = await sockets[name].recv()
                    heard[name] += [unescape(t) for t in SAID.findall(frame)]
                    refused.extend(unescape(t) for t in REFUSED.findall(frame))
        except TimeoutError:
            pass

    await asyncio.gather(*(one(name) for name in sockets))


def main() -> int:
    write_findings(drill, "hearts-chat-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
