"""The leaderboard: everyone rated, by their displayed rating, a page at a time."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .selectors import leaderboard as rated_players
from .selectors import ranked

PLAYERS_PER_PAGE = 50


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    rows = rated_players()
    page = Paginator(rows, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    offset = (page.number - 1) * PLAYERS_PER_PAGE
    context = {"page": page, "ranked": ranked(rows, offset, PLAYERS_PER_PAGE)}
    return render(request, "ratings/leaderboard.html", context)
