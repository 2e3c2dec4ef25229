"""The rated queue's pages: join it, wait in it (the page's socket keeps the place), leave it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games import selectors
from games.errors import ServiceError

from . import services


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@require_safe
@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """Waiting: how many wait with them, for how long; else the choice of queue to join."""
    user = _user(request)
    seeker = services.seeker_of(user)
    if seeker is None and (game := selectors.running_game(user)) is not None:
        messages.info(request, _("You are playing a game: here it is."))
        return redirect(game.table.get_absolute_url())
    context: dict[str, object] = {"seeker": seeker}
    if seeker is not None:
        queue = services.Queue.of(seeker)
        context.update(queue=queue, waiting=services.waiting_in(queue))
    else:
        context["chosen"] = request.GET.get("queue", services.DEFAULT_QUEUE.key)
    return render(request, "pairing/queue.html", context)


@require_POST
@login_required
def join(request: HttpRequest) -> HttpResponse:
    try:
        queue = services.Queue.from_key(request.POST.get("queue", ""))
        services.join(_user(request), queue)
    except ServiceError as error:
        messages.error(request, str(error))
    return redirect("queue")


@require_POST
@login_required
def leave(request: HttpRequest) -> HttpResponse:
    if services.leave(_user(request)):
        messages.success(request, _("You have left the rated queue."))
    return redirect("lobby")
