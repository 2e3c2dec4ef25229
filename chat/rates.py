"""How often a person may write in one room: at most ``HEARTS_CHAT_BURST`` messages in
``HEARTS_CHAT_WINDOW`` seconds, and one every ``HEARTS_CHAT_GAP`` seconds.

The messages are counted in Redis, shared by every daphne process, by one script that reads
and adds atomically on Redis's own clock, so two processes taking a person's messages at once
cannot both let a sixth through. Without Redis (none configured, or it does not answer) they
are counted in the database, from the messages saved.
"""

from __future__ import annotations

import logging
import secrets
import threading
from datetime import timedelta

import redis
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import ChatMessage

log = logging.getLogger(__name__)

KEY_PREFIX = "hearts:chat-rate"
PATIENCE = 1.0  # seconds a count waits for Redis before the database counts instead

# KEYS[1]: the person's room's sorted set of sends (scored by milliseconds); ARGV: the window
# and the gap in milliseconds, the burst, and a new member. Returns 0 (taken), 1 (too many in
# the window) or 2 (too soon after the last).
_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window, gap, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] and now - tonumber(last[2]) < gap then return 2 end
if redis.call('ZCARD', KEYS[1]) >= burst then return 1 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""

_lock = threading.Lock()
_client: tuple[str, redis.Redis] | None = None  # (the URL it is for, the client)


def refusal(user_id: int, table_id: int, room: str) -> str | None:
    """Take a send of ``user_id``'s in ``room`` of ``table_id`` if the limits allow it; else
    say why not, in words for them."""
    try:
        answer = _count_in_redis(f"{KEY_PREFIX}:{user_id}:{table_id}:{room}")
    except redis.RedisError as error:
        log.warning("chat rates counted in the database, Redis did not answer: %r", error)
        answer = None
    if answer is None:
        answer = _count_in_database(user_id, table_id, room)
    if answer == 1:
        burst, window = settings.HEARTS_CHAT_BURST, settings.HEARTS_CHAT_WINDOW
        return _(
            "At most %(burst)s messages in %(window)s seconds: wait a moment, then send it again"
        ) % {"burst": burst, "window": f"{window:g}"}
    if answer == 2:
        return _("One message a second: wait a moment, then send it again")
    return None


def _count_in_redis(key: str) -> int | None:
    client = _redis()
    if client is None:
        return None
    window = int(settings.HEARTS_CHAT_WINDOW * 1000)
    gap = int(settings.HEARTS_CHAT_GAP * 1000)
    member = secrets.token_hex(8)
    taken = client.eval(_SCRIPT, 1, key, window, gap, settings.HEARTS_CHAT_BURST, member)
    return int(taken)  # type: ignore[arg-type]


def _count_in_database(user_id: int, table_id: int, room: str) -> int:
    now = timezone.now()
    sent = ChatMessage.objects.filter(author_id=user_id, table_id=table_id, room=room)
    window = sent.filter(at__gt=now - timedelta(seconds=settings.HEARTS_CHAT_WINDOW))
    if window.filter(at__gt=now - timedelta(seconds=settings.HEARTS_CHAT_GAP)).exists():
        return 2
    return 1 if window.count() >= settings.HEARTS_CHAT_BURST else 0


def _redis() -> redis.Redis | None:
    """One client a process (a pool of connections shared by its threads), for the URL set now."""
    global _client
    url = settings.REDIS_URL
    if not url:
        return None
    with _lock:
        if _client is None or _client[0] != url:
            client = redis.Redis.from_url(
                url, socket_timeout=PATIENCE, socket_connect_timeout=PATIENCE
            )
            _client = (url, client)
        return _client[1]
