"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

SITE_METHODS = ("GET", "HEAD", "POST")


def refuse_other_methods(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """No page of the site takes PUT, PATCH, DELETE, TRACE or OPTIONS: refuse them with 405
    before the CSRF check, which would otherwise answer a browser's PUT with 403. Each view
    still says which of GET, HEAD and POST it takes (a read-only page refuses a POST)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.method not in SITE_METHODS:
            return HttpResponseNotAllowed(SITE_METHODS)
        return get_response(request)

    return middleware
