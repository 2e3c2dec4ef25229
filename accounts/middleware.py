"""The accounts' middleware: each signed-in session kept on its person's list of sign-ins
(accounts/sign_ins.py), and the staff pages closed to staff who have not passed two-factor
(accounts/two_factor.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import sign_ins, two_factor

# The pages of staff: the admin and the site's own staff pages (the collusion report).
STAFF_PATHS = ("/admin/", "/staff/")


def keep_sign_ins(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            sign_ins.seen(request)
        return get_response(request)

    return middleware


def two_factor_for_staff(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path.startswith(STAFF_PATHS) and not two_factor.cleared(request.user):
            ctx = {"enrolled": two_factor.is_on(request.user)}
            return render(request, "accounts/two_factor_required.html", ctx, status=403)
        return get_response(request)

    return middleware
