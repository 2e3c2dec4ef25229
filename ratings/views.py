"""The leaderboard: everyone rated, by their displayed rating, a page at a time."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .selectors import leaderboard as rated_players

PLAYERS_PER_PAGE = 50


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    page = Paginator(rated_players(), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/leaderboard.html", {"page": page})
