"""How sign-in lockouts work here, for django-axes (see docs/deploy.md, "Sign-in lockouts").

Ten wrong passwords lock a name from one address. The lock is short and grows: the first lasts
``HEARTS_LOCKOUT_MINUTES`` (1), each further one of the same name from the same address within a
day twice the one before, up to ``HEARTS_LOCKOUT_MAX_MINUTES`` (60); signing in from that address
starts over. The address is the client's, read from the trusted proxies' header when the site
runs behind them, so that one attacker's guesses do not lock the owner out from elsewhere. The
right password of a suspended or banned person is refused, but it is not a wrong one: it never
counts (``moderation.backends``).

>>> lockout_length(0, first=timedelta(minutes=1), longest=timedelta(minutes=60))
datetime.timedelta(seconds=60)
>>> [lockout_length(n, timedelta(minutes=1), timedelta(minutes=10)).seconds // 60 for n in range(6)]
[1, 2, 4, 8, 10, 10]
"""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta

from axes.helpers import get_client_username
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

# Lockouts further back than this are forgotten: tomorrow's first lockout is short again.
MEMORY = timedelta(days=1)


def client_address(request: HttpRequest) -> str | None:
    """The client's address (``AXES_CLIENT_IP_CALLABLE``).

    Behind ``HEARTS_TRUSTED_PROXIES`` proxies, each of which appends the address it was called
    from to ``HEARTS_CLIENT_IP_HEADER``, the client is that many entries from the header's end:
    anything before it was written by the client and proves nothing. A request that did not come
    through them all (the header is missing or too short) has only ``REMOTE_ADDR`` to go by.
    """
    remote: str | None = request.META.get("REMOTE_ADDR")
    proxies: int = settings.HEARTS_TRUSTED_PROXIES
    if proxies == 0:
        return remote
    meta_key = "HTTP_" + settings.HEARTS_CLIENT_IP_HEADER.upper().replace("-", "_")
    hops = [hop.strip() for hop in request.META.get(meta_key, "").split(",") if hop.strip()]
    if len(hops) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(hops[-proxies]))
    except ValueError:
        return remote


def lockout_length(earlier: int, first: timedelta, longest: timedelta) -> timedelta:
    """How long a lockout lasts after ``earlier`` lockouts of the same name from the same place."""
    return min(first * 2 ** min(earlier, 32), longest)


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """How long the lockout of this request's name and address lasts (``AXES_COOLOFF_TIME``).

    Axes asks it while a lockout runs and also just before it records the failure that begins
    one, so the lockout in force must not count among the earlier ones. The earlier ones are
    those logged before the last failure of the attempt row: a locked-out request is not
    recorded, so that row keeps the time of the failure that locked it, which is logged after.
    """
    first = timedelta(minutes=settings.HEARTS_LOCKOUT_MINUTES)
    longest = timedelta(minutes=settings.HEARTS_LOCKOUT_MAX_MINUTES)
    if request is None:
        return first
    return lockout_length(_earlier_lockouts(request), first, longest)


def wait_left(request: HttpRequest) -> timedelta:
    """How much longer the lockout in force for this request lasts, at least a second."""
    started = _attempt_time(request) or timezone.now()
    left = started + cool_off(request) - timezone.now()
    return max(left, timedelta(seconds=1))


def _name_and_address(request: HttpRequest) -> tuple[str | None, str | None]:
    name = get_client_username(request)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    return name, address


def _attempt_time(request: HttpRequest) -> datetime | None:
    name, address = _name_and_address(request)
    attempts = AccessAttempt.objects.filter(username=name, ip_address=address)
    return attempts.order_by("-attempt_time").values_list("attempt_time", flat=True).first()


def _earlier_lockouts(request: HttpRequest) -> int:
    name, address = _name_and_address(request)
    since = timezone.now() - MEMORY
    last_sign_in = (
        AccessLog.objects.filter(username=name, ip_address=address, attempt_time__gt=since)
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    lockouts = AccessFailureLog.objects.filter(
        username=name, ip_address=address, locked_out=True, attempt_time__gt=last_sign_in or since
    )
    last_failure = _attempt_time(request)
    if last_failure is not None:
        lockouts = lockouts.filter(attempt_time__lt=last_failure)
    return lockouts.count()
