"""Checking the deals: a game's public verification page, the paste-a-seed form and the
standard-library checker script, offered for download.

A running game shows only its fingerprint and the added seeds; once the game is over the page
publishes the seed and the whole record, and ``static/js/verify.js`` re-deals every hand in the
browser (see docs/fairness.md for the algorithm).

These are the views; the form is in ``forms`` and the deals it shows in ``deals``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from games.engine import PRESETS

from .deals import dealt_hands
from .forms import MAX_HANDS, VerifyForm
from .history import viewable_game
from .models import Game
from .records import game_record
from .words import empty_seat

CHECKER = Path(settings.BASE_DIR) / "scripts" / "check_record.py"


@require_safe
def game_verify(request: HttpRequest, game_id: int) -> HttpResponse:
    game, code = viewable_game(request, game_id)  # a private game needs a place or the code
    players = list(game.players.select_related("user"))
    context: dict[str, Any] = {
        "game": game,
        "added_seeds": _added_seed_rows(game, players),
        "code": code,
    }
    if game.is_over:
        record = game_record(game)
        code_query = f"?code={quote(code)}" if code else ""  # as the page's other links carry it
        context.update(
            record=record,
            seed=record["seed"],
            hands=len(record["hands"]),
            form_url=reverse("verify_form") + "?" + urlencode(_form_query(record)),
            record_url=reverse("game_record", args=[game.pk]) + code_query,
        )
    return render(request, "games/verify.html", context)


def _added_seed_rows(game: Game, players: list[Any]) -> list[tuple[str, str]]:
    names = {player.seat: player.name for player in players}
    return [(names.get(seat, empty_seat(seat)), text) for seat, text in enumerate(game.added_seeds)]


def _form_query(record: dict[str, Any]) -> dict[str, Any]:
    """The paste-a-seed form, filled in with this game's inputs."""
    rules = record["rules"]
    return {
        "seed": record["seed"],
        "uses_added": "on" if record["added_seeds"] else "",
        "added": "\n".join(record["added_seeds"]),
        "players": rules["players"],
        "short_pack": rules["short_pack"],
        "hands": max(1, min(len(record["hands"]), MAX_HANDS)),
    }


@require_safe
def checker_script(request: HttpRequest) -> FileResponse:
    """``scripts/check_record.py``, to run at home on a downloaded record."""
    response = FileResponse(CHECKER.open("rb"), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="check_record.py"'
    return response


@require_safe
def verify_form(request: HttpRequest) -> HttpResponse:
    form = VerifyForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "presets": PRESETS.values()}
    status = 200
    if form.is_bound:
        if form.is_valid():
            context.update(dealt_hands(form.cleaned_data))
        else:
            status = 400
    return render(request, "games/verify_form.html", context, status=status)
