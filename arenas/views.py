"""The arenas' pages: the list, an arena (its countdown, standings and games, live over its
socket), and joining and pausing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.errors import ServiceError

from . import selectors, services
from .models import Arena


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@require_safe
def arena_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arenas/arena_list.html", selectors.listed())


@require_safe
def arena_detail(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = get_object_or_404(Arena, pk=arena_id)
    user = request.user if isinstance(request.user, User) else None
    context = {
        **selectors.live_context(arena),
        "entry": selectors.entry_of(arena, user),
    }
    return render(request, "arenas/arena.html", context)


@require_POST
@login_required
def join(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = get_object_or_404(Arena, pk=arena_id)
    try:
        services.join(_user(request), arena.pk)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You are in: keep this page open to be seated."))
    return redirect(arena.get_absolute_url())


@require_POST
@login_required
def pause(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = get_object_or_404(Arena, pk=arena_id)
    if services.pause(_user(request), arena.pk):
        messages.success(request, _("Paused: you are not seated again until you press Join."))
    return redirect(arena.get_absolute_url())
