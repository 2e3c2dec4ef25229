"""The leaderboard: established players by their displayed rating, a page at a time."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .maths import PROVISIONAL_GAMES
from .selectors import leaderboard as established_players

PLAYERS_PER_PAGE = 50


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    page = Paginator(established_players(), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    ctx = {"page": page, "provisional_games": PROVISIONAL_GAMES}
    return render(request, "ratings/leaderboard.html", ctx)
