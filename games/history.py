"""Finished games: the site-wide list, each game's page with its replay, and the record."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import Game
from .records import game_record as build_record


def game_list(request: HttpRequest) -> HttpResponse:
    games = Game.objects.exclude(status=Game.Status.PLAYING).order_by("-finished_at")[:25]
    return render(request, "games/game_list.html", {"games": games})


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    return render(request, "games/game_detail.html", {"game": game})


def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not game.is_over:
        raise Http404("The record is published when the game ends")
    response = HttpResponse(
        json.dumps(build_record(game), indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="hearts-game-{game.pk}.json"'
    return response
