"""The language each person reads the site in: the one a signed-in person chose (kept in their
account), else the one their browser's cookie remembers, else the first of the browser's
Accept-Language the site speaks, else English. Pages ask it through Django's LocaleMiddleware
and :func:`chosen_language` (a middleware after it); a table's socket asks :func:`of_scope`,
so that each screen's pushed fragments come in its own language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import trans_real

from .models import SpokenLanguage

SESSION_KEY = "spoken_language"  # the account's choice, read once a session


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (``de-AT`` is German), else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def of_user(user: User | AnonymousUser | None) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    stored = SpokenLanguage.objects.filter(user_id=user.pk).values_list("code", flat=True).first()
    return supported(stored)


def remember(request: HttpRequest, code: str) -> None:
    """Keep a signed-in person's choice in their account (and their session)."""
    if request.user.is_authenticated:
        SpokenLanguage.objects.update_or_create(user_id=request.user.pk, defaults={"code": code})
        request.session[SESSION_KEY] = code


def chosen_language(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """After LocaleMiddleware and the sign-in: a signed-in person's own choice wins over the
    cookie and the browser."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        code = None
        if user is not None and user.is_authenticated:
            # Read from the account once a session, not at every request.
            if SESSION_KEY not in request.session:
                request.session[SESSION_KEY] = of_user(user) or ""
            code = request.session[SESSION_KEY]
        if code and code != request.LANGUAGE_CODE:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return get_response(request)

    return middleware


def of_scope(scope: dict[str, Any]) -> str:
    """A socket's language, from what its handshake carries: the account, the cookie, the
    browser's Accept-Language (as the page that opened it was chosen)."""
    code = of_user(scope.get("user"))
    if code:
        return code
    code = supported(scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME))
    if code:
        return code
    accepted = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    for wanted, _ in trans_real.parse_accept_lang_header(accepted):
        if wanted == "*":
            break
        code = supported(wanted)
        if code:
            return code
    return settings.LANGUAGE_CODE
