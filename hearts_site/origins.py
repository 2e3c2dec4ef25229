"""Which pages may open a websocket: only this site's own, compared as Django's CSRF check does.

Channels' ``AllowedHostsOriginValidator`` compares host names only, so a page served from
another port of an allowed host (``http://127.0.0.1:9999``) could open a table socket with the
player's cookies and play for them. Here the whole origin must match: scheme, host and port. The
site's own origin is the Host the socket was opened with (which must be one of ALLOWED_HOSTS),
with ``https`` for ``wss`` or when the proxy says so through SECURE_PROXY_SSL_HEADER, and
``http`` otherwise; CSRF_TRUSTED_ORIGINS are accepted too. Browsers always send an Origin
with a websocket handshake, so a handshake without one (or with two) is refused.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.utils.http import is_same_domain

log = logging.getLogger(__name__)

Scope = dict[str, Any]


class SameOriginValidator:
    """ASGI middleware: a websocket from any other origin is refused before it is accepted."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not is_own_origin(scope):
            # The client's error, as a 4xx answer is (hearts_site/logs.py): one line at INFO.
            log.info("websocket to %s refused: its origin is not this site", scope.get("path"))
            return await _refuse(receive, send)
        return await self.application(scope, receive, send)


async def _refuse(receive: Any, send: Any) -> None:
    """Answer the handshake with a refusal (HTTP 403). Unlike channels' WebsocketDenier this
    starts no consumer, so a refused socket takes nothing from the channel layer."""
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 4403})


def is_own_origin(scope: Scope) -> bool:
    """Whether the handshake's Origin is this site's (or a trusted) origin."""
    headers = _headers(scope)
    origins = headers.get("origin", [])
    if len(origins) != 1 or len(headers.get("host", [])) != 1:
        return False
    handshake = _Handshake(headers, secure=scope.get("scheme") == "wss")
    try:
        own = f"{handshake.scheme}://{handshake.get_host()}"
    except DisallowedHost:
        own = None
    return origins[0] == own or is_trusted_origin(origins[0])


def is_trusted_origin(origin: str) -> bool:
    """Whether ``origin`` is one of CSRF_TRUSTED_ORIGINS, read as Django's CSRF check reads
    them (``https://*.example.com`` takes every subdomain)."""
    if origin in {trusted for trusted in settings.CSRF_TRUSTED_ORIGINS if "*" not in trusted}:
        return True
    subdomains: dict[str, list[str]] = defaultdict(list)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            parsed = urlsplit(trusted)
            subdomains[parsed.scheme].append(parsed.netloc.lstrip("*"))
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(is_same_domain(parsed.netloc, host) for host in subdomains.get(parsed.scheme, ()))


def _headers(scope: Scope) -> dict[str, list[str]]:
    """Each header's values by its name."""
    headers: dict[str, list[str]] = defaultdict(list)
    for name, value in scope.get("headers", []):
        headers[name.decode("latin1").lower()].append(value.decode("latin1"))
    return dict(headers)


class _Handshake(HttpRequest):
    """The handshake as Django sees a request, so that Django itself finds the host (checked
    against ALLOWED_HOSTS, X-Forwarded-Host if USE_X_FORWARDED_HOST) and the scheme (the
    proxy's header if SECURE_PROXY_SSL_HEADER is set)."""

    def __init__(self, headers: dict[str, list[str]], *, secure: bool) -> None:
        super().__init__()
        self.secure_socket = secure
        for name, values in headers.items():
            # A name with an underscore would pass for one with a dash: such headers are
            # dropped, as WSGI servers do, so that none can pose as the proxy's.
            if "_" not in name:
                self.META["HTTP_" + name.upper().replace("-", "_")] = ",".join(values)

    def _get_scheme(self) -> str:
        return "https" if self.secure_socket else "http"
