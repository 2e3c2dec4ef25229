"""Who is online: a key a person in Redis (the "presence" cache), set when they open the lobby
(live/around.py viewer_here) or one of their sockets opens, and every :data:`REFRESH` seconds
by each web process for the people whose sockets it holds (one pipeline a process, whatever
the number of people or tabs), expiring :data:`TTL` seconds after: a person with several tabs
is one presence, and is offline within a minute of their last tab closing. Nothing is written
to the database, and nothing per move; of pages, only the lobby writes (one pipeline). "Last
seen" is a second key, kept for :data:`LAST_SEEN_DAYS` days. How many people are online (the
lobby says it) is one sorted set beside the keys, of everyone noted in the last :data:`TTL`
seconds: counting them is one command, however many there are. Visitors (not signed in) with a
live page open are in it too, each browser once (:func:`visitors_here`), with no key of their
own.

Who may see it is the person's choice (:class:`accounts.models.PresenceChoice`): everyone,
the people they follow (the default), or nobody; never the API.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable

from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from redis import Redis

TTL = 60
REFRESH = 30.0  # the web processes' look at their sockets' people (live/sockets.py)
LAST_SEEN_DAYS = 30
ONLINE = "online"  # everyone online: each person once, scored with when they were last noted


def _cache():  # type: ignore[no-untyped-def]
    return caches["presence"]


def _redis(cache: BaseCache, *, write: bool = False) -> Redis | None:
    """The Redis client under the presence cache, or None where the cache is the process's own
    memory (no Redis: a management command, a test of its own)."""
    if isinstance(cache, RedisCache):
        client: Redis = cache._cache.get_client(write=write)  # type: ignore[attr-defined]
        return client
    return None


def here(user_ids: Iterable[int]) -> None:
    """These people are online now (one of their sockets is open in this process)."""
    ids = set(user_ids)
    if not ids:
        return
    now = time.time()
    cache = _cache()
    cache.set_many({f"on:{user_id}": 1 for user_id in ids}, timeout=TTL)
    cache.set_many({f"seen:{user_id}": now for user_id in ids}, timeout=LAST_SEEN_DAYS * 86400)
    _note_online(cache, ids, now)


def browser(csrf_cookie: str) -> str:
    """What tells a visitor's browser apart in the count of everyone online: a digest of its
    CSRF cookie (every page sets it, for the language menu's form), never the cookie itself."""
    return hashlib.blake2b(csrf_cookie.encode(), digest_size=12).hexdigest()


def visitors_here(visitors: Iterable[str]) -> None:
    """These visitors are online now (a live page of theirs is open in this process): each
    once in the count of everyone online, by what tells their browser apart (live/sockets.py
    visitor), for :data:`TTL` seconds."""
    keys = {f"v:{visitor}" for visitor in visitors}
    if keys:
        _note_online(_cache(), keys, time.time())


def _note_online(cache: BaseCache, ids: set[int] | set[str], now: float) -> None:
    """Each of ``ids`` (people's, or visitors') once in the set of everyone online, and those
    not noted for :data:`TTL` seconds out of it: one pipeline of three commands, however many."""
    client = _redis(cache, write=True)
    if client is None:
        noted = {i: when for i, when in cache.get(ONLINE, {}).items() if when > now - TTL}
        cache.set(ONLINE, noted | dict.fromkeys(ids, now), timeout=TTL)
        return
    key = cache.make_and_validate_key(ONLINE)
    pipeline = client.pipeline()
    pipeline.zadd(key, {str(member): now for member in ids})
    pipeline.zremrangebyscore(key, "-inf", now - TTL)
    pipeline.expire(key, TTL)  # gone with the last person, as their own keys are
    pipeline.execute()


def online_count() -> int:
    """How many people are online now: each once, however many tabs and processes hold their
    sockets. One command."""
    cache = _cache()
    since = time.time() - TTL
    client = _redis(cache)
    if client is None:
        return sum(1 for when in cache.get(ONLINE, {}).values() if when > since)
    counted = client.zcount(cache.make_and_validate_key(ONLINE), f"({since}", "+inf")
    return int(counted)  # type: ignore[arg-type]


def online(user_ids: Iterable[int]) -> dict[int, bool]:
    ids = list(user_ids)
    found = _cache().get_many([f"on:{user_id}" for user_id in ids])
    return {user_id: f"on:{user_id}" in found for user_id in ids}


def last_seen(user_ids: Iterable[int]) -> dict[int, float]:
    ids = list(user_ids)
    found = _cache().get_many([f"seen:{user_id}" for user_id in ids])
    return {user_id: found[f"seen:{user_id}"] for user_id in ids if f"seen:{user_id}" in found}
