"""The tables' pages: the lobby, creating and joining tables, the seating buttons, and the
table's own page, drawn whole as its socket then keeps it (live/consumers.py) from the same
context (live/table_context.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from chat import selectors as chat_selectors
from fairplay import penalties
from games import selectors, services, words
from games.models import Table
from moderation import gates

from . import around, table_context
from .forms import TableForm


def _user(request: HttpRequest) -> User:
    """The signed-in user of a view behind login_required."""
    assert isinstance(request.user, User)
    return request.user


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", _lobby_context(request, TableForm()))


def _lobby_context(request: HttpRequest, form: TableForm) -> dict[str, Any]:
    user = request.user
    around.viewer_here(request)  # counted among those online it reads
    return {
        "tables": selectors.lobby_tables(),
        "form": form,
        "ban": penalties.ban_of(user),
        # The Rated box is offered only to those rated tables would seat.
        "rated_open": isinstance(user, User) and gates.may_play_rated(user),
        **around.for_everyone(),
        "followed_on": around.followed_on(user),
    }


@require_POST
@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    """A new table with its host seated; refused (with the reason, as the sit button gives it)
    to someone who may not sit there: barred from rated tables, say."""
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", _lobby_context(request, form), status=400)
    data = form.cleaned_data
    try:
        table = services.create_table(
            _user(request),
            preset=data["preset"],
            players=data["players"],
            options=data["options"],
            rated=data["rated"],
            private=data["private"],
            bot_level=data["bot_level"],
        )
    except services.ServiceError as refused:
        messages.error(request, str(refused))
        return redirect("lobby")
    return redirect(_table_url(table))


@require_POST
@login_required
def play_now(request: HttpRequest) -> HttpResponse:
    """A new game against the bots, or back to the game the person is playing already. Any
    other refusal (a suspension saved after the request was let in, say) is told on the
    lobby, as the new-table form's are: nothing was made."""
    try:
        game = services.play_now(_user(request))
    except services.AlreadyPlaying as playing:
        messages.info(request, str(playing))
        game = playing.game
    except services.ServiceError as refused:
        messages.error(request, str(refused))
        return redirect("lobby")
    return redirect(_table_url(game.table))


def _table_url(table: Table) -> str:
    url = table.get_absolute_url()
    return f"{url}?code={table.invite_code}" if table.private else url


@require_safe
def invite(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, invite_code=code)
    return redirect(_table_url(table))


@require_POST
@login_required
def seat_action(request: HttpRequest, table_id: int, action: str, index: int = 0) -> HttpResponse:
    """The seating buttons (sit, leave, bot, fill, start, rematch, close, a new invite link):
    one POST each. At a private table they need a seat there or the invite code, posted along
    as ``code``."""
    table, code = _table_for(request, table_id)
    user = _user(request)
    try:
        if action == "sit":
            services.take_seat(table_id, user, index, code)
        elif action == "leave":
            services.leave_seat(table_id, user)
        elif action == "bot":
            services.set_bot(table_id, user, index, request.POST.get("bot") == "on")
        elif action == "fill":
            services.fill_with_bots(table_id, user)
        elif action == "start":
            services.start_game(table_id, user)
        elif action == "rematch":
            services.rematch(table_id, user)
        elif action == "close":
            services.close_table(table_id, user)
            messages.success(request, _("Your table is closed: it has left the lobby."))
            return redirect("lobby")
        elif action == "invite":
            table = services.new_invite_code(table_id, user)
            messages.success(
                request, _("Here is the new invite link: the old one no longer works.")
            )
    except services.ServiceError as error:
        messages.error(request, str(error))
    return redirect(_table_url(table))


def _table_for(request: HttpRequest, table_id: int) -> tuple[Table, str | None]:
    """The table a POST acts on, and the code posted with it; a private table the person may
    not see is not found, as for a missing id."""
    table = get_object_or_404(Table, pk=table_id)
    code = request.POST.get("code")
    if not selectors.can_view(table, request.user, code):
        raise Http404("No such table")
    return table, code


@require_POST
@login_required
def add_seed(request: HttpRequest, table_id: int) -> HttpResponse:
    """A seated person's own seed for the next game's deal."""
    table, _code = _table_for(request, table_id)
    try:
        services.add_seed(table_id, _user(request), request.POST.get("seed", ""))
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your seed is added: it will go into every deal of the game."))
    return redirect(_table_url(table))


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
