"""The open API's limits: so many requests a client, counted by address when not signed in
(the address as the sign-in lockout reads it, behind ``HEARTS_TRUSTED_PROXIES`` proxies) and
by account when signed in, in the cache every process shares (``CACHES["api"]``: Redis, or the
process's memory without it). Over a limit: 429 with Retry-After (Django Ninja's throttling,
which answers so)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from ninja.throttling import BaseThrottle, SimpleRateThrottle

from accounts.lockout import client_address

log = logging.getLogger(__name__)


class _Counted(SimpleRateThrottle):
    """A limit whose rate is the setting's as it is now, counted in the shared cache."""

    setting = ""

    def __init__(self) -> None:
        super().__init__(getattr(settings, self.setting))

    def allow_request(self, request: HttpRequest) -> bool:
        self.cache = caches["api"]
        self.rate = getattr(settings, self.setting)
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request)
        except Exception as error:  # Redis away: answer rather than fail, and say so
            log.warning("the API's limits could not be counted: %r", error)
            return True


class ByAddress(_Counted):
    """Requests of people not signed in, by address."""

    scope = "address"
    setting = "HEARTS_API_RATE"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if request.user.is_authenticated:
            return None  # counted by account
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class ByAccount(_Counted):
    """Requests of people signed in, by account, from whatever address."""

    scope = "account"
    setting = "HEARTS_API_SIGNED_IN_RATE"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


def throttles() -> list[BaseThrottle]:
    return [ByAddress(), ByAccount()]
