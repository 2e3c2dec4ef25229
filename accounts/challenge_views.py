"""The pages of challenges (accounts/challenges.py): the form that invites someone to a game,
the notice's Accept, Decline and Withdraw, and the notices themselves, on every page as it is
drawn and pushed to its socket as they change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import challenges
from live.forms import TableForm
from moderation import gates


class ChallengeForm(TableForm):
    """The create-table form without "private": a challenge's table is always private, open to
    its invite link."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["private"]


def settings_of(data: dict[str, Any]) -> dict[str, Any]:
    """The table's settings a challenge keeps, from the form's cleaned data."""
    return {
        "preset": data["preset"],
        "players": data["players"],
        "options": data["options"],
        "rated": bool(data.get("rated")),
        "bot_level": data["bot_level"],
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def challenge_page(request: HttpRequest, username: str) -> HttpResponse:
    """Invite this person to a game: the table's settings, then the invitation sent (they see
    it at once, on whatever page they are) and back to their profile."""
    user = request.user
    assert isinstance(user, User)
    other = get_object_or_404(User, username=username)
    form = ChallengeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            challenges.send(user, other, settings_of(form.cleaned_data))
        except challenges.ChallengeRefused as refused:
            messages.error(request, str(refused))
        else:
            minutes = int(challenges.LASTS.total_seconds() // 60)
            messages.success(
                request,
                _("%(name)s is invited: the invitation is open for %(minutes)s minutes.")
                % {"name": other.username, "minutes": minutes},
            )
            return redirect("profile", username=other.username)
    status = 400 if form.is_bound and not form.is_valid() else 200
    context = {"person": other, "form": form, "rated_open": gates.may_play_rated(user)}
    return render(request, "accounts/challenge.html", context, status=status)


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the notice was on (this site's), else the lobby."""
    came_from = request.META.get("HTTP_REFERER", "")
    if came_from and url_has_allowed_host_and_scheme(
        came_from, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(came_from)
    return redirect("lobby")


@require_http_methods(["POST"])
@login_required
def accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    try:
        table = challenges.accept(user, challenge_id)
    except challenges.ChallengeRefused as refused:
        messages.error(request, str(refused))
        return _back(request)
    return redirect(table.get_absolute_url())


def _answer(
    request: HttpRequest, challenge_id: int, answer: Callable[[User, int], object]
) -> HttpResponse:
    """Decline or withdraw (``answer``) the invitation, saying why not if refused, then back."""
    user = request.user
    assert isinstance(user, User)
    try:
        answer(user, challenge_id)
    except challenges.ChallengeRefused as refused:
        messages.error(request, str(refused))
    return _back(request)


@require_http_methods(["POST"])
@login_required
def decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenge_id, challenges.decline)


@require_http_methods(["POST"])
@login_required
def withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _answer(request, challenge_id, challenges.withdraw)


def notices_context(request: HttpRequest) -> dict[str, Any]:
    """``challenge_notices`` for every page's notices (templates/_base.html): looked up only
    when a page shows them, for a signed-in person."""
    user = getattr(request, "user", None)
    if not isinstance(user, User):
        return {}
    return {"challenge_notices": SimpleLazyObject(lambda: challenges.notices(user))}


def pushed_notices(
    user: User | AnonymousUser, csrf: str, language: str, event: dict[str, Any]
) -> str:
    """The notices of ``user`` as a socket pushes them after ``event`` (the account group's
    message), in ``language``, their forms carrying the socket's CSRF token."""
    if not isinstance(user, User):
        return ""
    with translation.override(language or settings.LANGUAGE_CODE):
        return render_to_string(
            "accounts/_challenges.html",
            {
                "challenge_notices": challenges.notices(user, event),
                "csrf_token": csrf,
                "oob": True,
                "user": user,
            },
        )
