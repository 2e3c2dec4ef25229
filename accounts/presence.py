"""Who is online: a key a person in Redis (the "presence" cache), set when one of their sockets
opens and every :data:`REFRESH` seconds by each web process for the people whose sockets it
holds (one pipeline a process, whatever the number of people or tabs), expiring
:data:`TTL` seconds after: a person with several tabs is one presence, and is offline within a
minute of their last tab closing. Nothing is written to the database, and nothing per move or
per page. "Last seen" is a second key, kept for :data:`LAST_SEEN_DAYS` days.

Who may see it is the person's choice (:class:`accounts.models.PresenceChoice`): everyone,
the people they follow (the default), or nobody; never the API.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import caches

TTL = 60
REFRESH = 30.0  # the web processes' look at their sockets' people (live/sockets.py)
LAST_SEEN_DAYS = 30


def _cache():  # type: ignore[no-untyped-def]
    return caches["presence"]


def here(user_ids: Iterable[int]) -> None:
    """These people are online now (one of their sockets is open in this process)."""
    ids = set(user_ids)
    if not ids:
        return
    now = time.time()
    cache = _cache()
    cache.set_many({f"on:{user_id}": 1 for user_id in ids}, timeout=TTL)
    cache.set_many({f"seen:{user_id}": now for user_id in ids}, timeout=LAST_SEEN_DAYS * 86400)


def online(user_ids: Iterable[int]) -> dict[int, bool]:
    ids = list(user_ids)
    found = _cache().get_many([f"on:{user_id}" for user_id in ids])
    return {user_id: f"on:{user_id}" in found for user_id in ids}


def last_seen(user_ids: Iterable[int]) -> dict[int, float]:
    ids = list(user_ids)
    found = _cache().get_many([f"seen:{user_id}" for user_id in ids])
    return {user_id: found[f"seen:{user_id}"] for user_id in ids if f"seen:{user_id}" in found}
