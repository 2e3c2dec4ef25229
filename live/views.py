"""The table's page: drawn whole as its socket then keeps it (live/consumers.py), from the same
context (live/table_context.py)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from chat import selectors as chat_selectors
from games import selectors, words
from games.models import Table

from . import table_context


@require_safe
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    code = request.GET.get("code")
    if not selectors.can_view(table, request.user, code):
        raise Http404("No such table")
    rules = table.engine_rules
    context = {
        "table": table,
        "code": selectors.access_code(table, code),
        "user": request.user,
        "seated": selectors.is_seated(table, request.user),  # offered turn notifications
        "site": f"{request.scheme}://{request.get_host()}",  # for the links given whole
        "rules_summary": words.summary(rules),
        "rules_lines": words.describe(rules),
    }
    game = table.current_game()
    if game is not None:
        context.update(table_context.table_view(game, request.user))
    player = chat_selectors.is_player(table, game, request.user)
    rooms = chat_selectors.rooms(player=player, game_running=game is not None and not game.is_over)
    choices = chat_selectors.choices_of(request.user)
    context.update(chat_selectors.box_context(table.pk, request.user, rooms, choices))
    return render(request, "games/table.html", context)
