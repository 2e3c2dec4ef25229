"""A signed-in person who is now suspended or banned is signed out at their next request and
told why and until when (their sockets were closed when the sanction was saved)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import sanction_in_force


def sign_out_the_sanctioned(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        sanction = sanction_in_force(request.user)
        if sanction is not None:
            logout(request)
            ctx = {"sanction": sanction}
            return render(request, "moderation/sanctioned.html", ctx, status=403)
        return get_response(request)

    return middleware
