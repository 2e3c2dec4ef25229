"""The time zone each person reads times in: their browser's, which the site's script keeps in
a cookie (static/js/time_zone.js, from ``Intl.DateTimeFormat().resolvedOptions().timeZone``),
else UTC. :func:`reader_time_zone` (a middleware) makes it the current time zone for the
request, so that every page's ``|date`` and ``|time`` write its times in it
(hearts_site/formats/)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "hearts_time_zone"


@cache
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def of_cookie(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The time zone a cookie names ("Europe/Berlin"), or None for a name that is not one of
    the IANA database's: the cookie is the browser's to write, and anyone's to forge."""
    if not name or name not in _known():
        return None
    return zoneinfo.ZoneInfo(name)


def reader_time_zone(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        zone = of_cookie(request.COOKIES.get(COOKIE))
        if zone is None:
            timezone.deactivate()  # the site's own: UTC
        else:
            timezone.activate(zone)
        return get_response(request)

    return middleware
