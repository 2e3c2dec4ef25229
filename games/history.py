"""Finished games: the site-wide list, each game's page with its replay, and the record.

Everything here is public once a game is over (the seed, every hand, every pass). While a game
runs, its page shows only what its table shows a spectator: who plays and the seed's
fingerprint. A private table's games are shown only to those who may see the table or played in
them (``selectors.can_view_game``) and are never listed.

These are the views; the reads and the replay are in ``history_selectors``, the words in
``words`` and the list's filters in ``forms``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from accounts import follows
from games.engine import Rules

from . import review_pages, reviews, selectors
from .errors import ServiceError
from .forms import GameFilterForm
from .history_selectors import (
    Step,
    added_seeds,
    finished_games,
    game_row,
    hand_rows,
    outcome_in_words,
    placements,
    replay_state,
    replay_steps,
)
from .models import Game, GamePlayer
from .records import game_record as build_record
from .words import rules_in_short

GAMES_PER_PAGE = 25


# The list ----------------------------------------------------------------------------------


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    form = GameFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    page = Paginator(finished_games(filters), GAMES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"form": form, "page": page, "rows": [game_row(game) for game in page.object_list]}
    return render(request, "games/game_list.html", context)


# The game's page and its record ------------------------------------------------------------


def _step_index(request: HttpRequest, steps: list[Step]) -> int:
    """The index in ``steps`` of the step asked for: ``?step=N`` is the step shown as "Step N"
    (the first for 0, the last for a number past it); ``?hand=N`` the deal of hand N."""
    hand = _whole_number(request.GET.get("hand", ""))
    if hand is not None:
        for index, step in enumerate(steps):
            if step.hand == hand:
                return index
    wanted = _whole_number(request.GET.get("step", ""))
    if wanted is not None:
        return min(max(wanted - 1, 0), len(steps) - 1)
    return 0


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits, or None. ``str.isdigit`` also
    accepts superscripts ("²"), which ``int`` refuses, and ``int`` refuses thousands of digits
    too; no step or hand of a replay has more than six."""
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return None


def _is_htmx(request: HttpRequest) -> bool:
    # A history restore after a full reload needs the whole page, not the partial.
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def viewable_game(request: HttpRequest, game_id: int) -> tuple[Game, str]:
    """The game, if this visitor may see it, and the invite code to carry on in links ("" when
    none is needed); a private game they may not see is not found, as for a missing id."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    code = request.GET.get("code")
    if not selectors.can_view_game(game, request.user, code):
        raise Http404("No such game")
    return game, selectors.access_code(game.table, code)


@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, code = viewable_game(request, game_id)
    players = list(game.players.select_related("user"))
    table_url = game.table.get_absolute_url() + (f"?code={quote(code)}" if code else "")
    context: dict[str, Any] = {
        "game": game,
        "players": players,
        "table": game.table,
        "code": code,
        "table_url": table_url,  # with the invite code a private table needs
    }
    if not game.is_over:
        return render(request, "games/game_detail.html", context)
    match = game.match()
    steps = replay_steps(match)
    context["replay"] = replay_state(match, players, steps, _step_index(request, steps))
    context.update(_review_context(request, game, players, steps, context["replay"]["step"]))
    if _is_htmx(request):
        context["oob"] = True
        return render(request, "games/game_detail.html#replay", context)
    rules = Rules.from_json(game.rules)
    context.update(
        {
            "rules_words": rules_in_short(rules),
            "placements": placements(game, players, match),
            "outcome": outcome_in_words(game, players),
            "hand_rows": hand_rows(match),
            "totals": list(match.totals),
            "seed_hex": bytes(game.seed).hex(),
            "added_seeds": added_seeds(game, players),
            # Whom of its players the viewer follows: the others get a Follow button.
            "followed": follows.followed_among(request.user, [p.user_id for p in players]),
        }
    )
    return render(request, "games/game_detail.html", context)


def _review_context(
    request: HttpRequest, game: Game, players: list[GamePlayer], steps: list[Step], step: Step
) -> dict[str, Any]:
    """The bot's review on the game's page: its state, and once made, each person's figures,
    the chart, the marked moves and the verdict on the replay's step."""
    if not review_pages.may_review(game, request.user):
        return {}
    review = reviews.review_of(game)
    names = [player.name for player in sorted(players, key=lambda p: p.seat)]
    context: dict[str, Any] = {"may_review": True, "review": review}
    if review is None or not review.is_done:
        return context
    numbers = review_pages.step_numbers(steps)
    rows = reviews.summary(review, names)
    hands = sorted({verdict["hand"] for verdict in review.verdicts})
    shown = None
    if step.moves and not step.resign:
        verdict = review_pages.verdicts_by_move(review).get(step.before - 1)
        shown = verdict and review_pages.shown_verdict(verdict, names)
    context.update(
        review_rows=rows,
        review_hands=hands,
        review_chart=review_pages.chart(rows, hands),
        review_marks=[
            {**review_pages.shown_verdict(verdict, names), "step": numbers.get(verdict["move"])}
            for verdict in reviews.marked(review)
        ],
        verdict=shown,
    )
    return context


@require_http_methods(["GET", "HEAD", "POST"])
def game_review(request: HttpRequest, game_id: int) -> HttpResponse:
    """The review's part of the game's page: asked for (POST), or its state (GET: what the
    page polls while the review is made; once it is, the page reloads to show it all)."""
    game, code = viewable_game(request, game_id)
    if not game.is_over or not review_pages.may_review(game, request.user):
        raise Http404("No review of this game")
    error = ""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            reviews.request_review(game.pk, request.user)  # type: ignore[arg-type]
        except ServiceError as refusal:
            error = str(refusal)
        if not _is_htmx(request):
            if error:
                messages.error(request, error)
            page = reverse("game_detail", args=[game.pk]) + (f"?code={quote(code)}" if code else "")
            return redirect(page + "#review")
    review = reviews.review_of(game)
    response = render(
        request,
        "games/_review.html",
        {"game": game, "code": code, "review": review, "may_review": True, "review_error": error},
        status=400 if error else 200,
    )
    if request.method == "GET" and review is not None and review.is_done and _is_htmx(request):
        response["HX-Refresh"] = "true"  # the whole page, with the marks in its replay
    return response


@require_safe
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _ = viewable_game(request, game_id)
    if not game.is_over:
        raise Http404("The record is published when the game ends")
    body = json.dumps(build_record(game), indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="hearts-game-{game.pk}.json"'
    return response
