"""Where an account is signed in: a :class:`~accounts.models.SignIn` for each of its sessions,
made at sign-in, seen again at most every :data:`SEEN_EVERY` (so that a page costs no write),
and gone with the session.

"Sign out everywhere else" ends every other session of the account and closes their sockets
(a live page then reloads, signed out); a password changed or reset does the same (a reset:
every session). Django would drop those sessions at their next request anyway, as the
password's hash in them no longer matches; ending them at once also takes them off the list
and closes their live pages now.
"""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from ua_parser import parse_os, parse_user_agent

from accounts.lockout import client_address
from accounts.models import SignIn
from live import broadcasts
from moderation.sanctions import account_group

SEEN_EVERY = timedelta(minutes=5)
SESSIONS_ENDED = "sessions.ended"  # the message that closes the sockets of ended sessions
_SEEN_KEY = "_seen"  # when this session was last counted as seen, in the session itself


def browser_name(user_agent: str) -> str:
    """What a person calls the browser a ``User-Agent`` names: "Firefox on Linux".

    >>> browser_name("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")
    'Firefox on Linux'
    >>> browser_name("curl/8.5.0"), browser_name("")
    ('curl', '')
    """
    if not user_agent:
        return ""
    agent = parse_user_agent(user_agent[:1000])
    system = parse_os(user_agent[:1000])
    name = agent.family if agent and agent.family != "Other" else ""
    if system and system.family != "Other":
        name = f"{name} on {system.family}" if name else system.family
    return (name or user_agent.split("/")[0])[:100]


def network_of(address: str | None) -> str:
    """The network an address belongs to, as shown: its /24 (IPv4) or its /48 (IPv6).

    >>> network_of("203.0.113.77"), network_of("2001:db8:1234:5678::1"), network_of(None)
    ('203.0.113.0/24', '2001:db8:1234::/48', '')
    """
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return ""
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def record(request: HttpRequest, user: User) -> None:
    """The session ``request`` just signed ``user`` into, on their list."""
    _note(request, user, signed_in=timezone.now())


def seen(request: HttpRequest) -> None:
    """A signed-in request: its session's entry seen now, if it was not for a while. A session
    whose key changed (a password change gives it a new one) keeps its first sign-in's time."""
    now = timezone.now()
    key = request.session.session_key
    last = request.session.get(_SEEN_KEY)
    if not isinstance(last, dict) or last.get("key") != key:
        if isinstance(last, dict) and isinstance(last.get("at"), float):
            first = datetime.fromtimestamp(last["at"], tz=UTC)
        else:
            first = now
        _note(request, request.user, signed_in=first)  # type: ignore[arg-type]
        return
    if now.timestamp() - last.get("seen", 0.0) < SEEN_EVERY.total_seconds():
        return
    if not SignIn.objects.filter(session_id=key).update(seen_at=now):
        return  # ended elsewhere a moment ago: the session is gone too
    request.session[_SEEN_KEY] = {**last, "seen": now.timestamp()}


def _note(request: HttpRequest, user: User, signed_in: datetime) -> None:
    key = request.session.session_key
    if key is None or not Session.objects.filter(session_key=key).exists():
        return  # a session that is not kept (a test's request factory)
    now = timezone.now()
    SignIn.objects.update_or_create(
        session_id=key,
        defaults={
            "user": user,
            "browser": browser_name(request.headers.get("User-Agent", "")),
            "network": network_of(client_address(request)),
            "signed_in_at": signed_in,
            "seen_at": now,
        },
    )
    request.session[_SEEN_KEY] = {
        "key": key,
        "seen": now.timestamp(),
        "at": signed_in.timestamp(),
    }


def listing(user: User) -> list[SignIn]:
    """Where ``user`` is signed in, the latest seen first (sessions gone stale are left off)."""
    live = SignIn.objects.filter(user=user, session__expire_date__gt=timezone.now())
    return list(live.order_by("-seen_at"))


def sign_out_elsewhere(request: HttpRequest) -> int:
    """End every session of ``request``'s person but this one: how many ended."""
    user = request.user
    assert isinstance(user, User)
    return _end(user, but=request.session.session_key)


def sign_out_everywhere(user: User) -> int:
    return _end(user, but=None)


def _end(user: User, but: str | None) -> int:
    others = SignIn.objects.filter(user=user)
    if but is not None:
        others = others.exclude(session_id=but)
    keys = list(others.values_list("session_id", flat=True))
    if not keys:
        return 0
    with transaction.atomic():
        Session.objects.filter(session_key__in=keys).delete()  # their entries go with them
    ended = {account_group(user.pk): {"type": SESSIONS_ENDED, "sessions": keys}}
    transaction.on_commit(lambda: broadcasts.send(ended))
    return len(keys)
