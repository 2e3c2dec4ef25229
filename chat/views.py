"""The chat's pages and buttons: muting and unmuting a person, turning chat off and on (each a
POST: from the table's chat, which posts it from its script and wants no page, or from a
profile, which is sent back there), and reporting a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors as game_selectors
from reports import services as reports
from reports.forms import ReportForm
from reports.models import Report

from . import services
from .models import ChatMessage, Room


@require_POST
@login_required
def mute(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    try:
        services.mute(_user(request), person)
    except services.ChatRefused as refused:
        return _answer(request, str(refused), error=True)
    return _answer(
        request, _("You will not see what %(name)s writes in chat.") % {"name": person.username}
    )


@require_POST
@login_required
def unmute(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    services.unmute(_user(request), person)
    return _answer(
        request, _("You see what %(name)s writes in chat again.") % {"name": person.username}
    )


@require_POST
@login_required
def turn(request: HttpRequest) -> HttpResponse:
    on = request.POST.get("on") == "on"
    services.turn_chat(_user(request), on=on)
    return _answer(request, _("Chat is on.") if on else _("Chat is off: you see no messages."))


@require_http_methods(["GET", "POST"])
@login_required
def report(request: HttpRequest, message_id: int) -> HttpResponse:
    """The form to report a chat message, for anyone who could read it."""
    message = get_object_or_404(
        ChatMessage.objects.select_related("author", "table"), pk=message_id
    )
    reporter = _user(request)
    if not _could_read(message, reporter):
        raise Http404("No such message")
    back = reverse("table", args=[message.table_id])
    reason = reports.refusal(reporter, message.author, about_chat=True)
    if reason:
        messages.error(request, reason)
        return HttpResponseRedirect(reverse("profile", args=[reporter.username]))
    form = ReportForm(
        request.POST if request.method == "POST" else None,
        initial={"category": Report.Category.ABUSE},
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            reports.file_report(
                reporter,
                message.author,
                data["category"],
                data["comment"],
                game=message.game,
                chat_message=message,
            )
        except reports.ReportRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(
                request,
                _("Thank you. Staff will read your report of %(name)s.")
                % {"name": message.author.username},
            )
            return redirect("my_reports")
    context = {"form": form, "message": message, "reported": message.author, "back": back}
    return render(request, "chat/report_form.html", context)


def _could_read(message: ChatMessage, user: User) -> bool:
    """Whether ``user`` may have read ``message``: its room is the spectators' of a table
    anyone may watch, or they sit or played there."""
    table = message.table
    game = message.game
    player = game_selectors.is_seated(table, user) or (
        game is not None and game.players.filter(user=user, is_bot=False).exists()
    )
    if message.room == Room.PLAYERS:
        return player or message.author_id == user.pk
    return player or not table.private or message.author_id == user.pk


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _answer(request: HttpRequest, said: str, *, error: bool = False) -> HttpResponse:
    """For the chat's script, no page (204, or 400 with the reason); for a form, back to the
    page it came from, saying what was done."""
    if request.headers.get("X-Requested-With") == "fetch":
        return HttpResponse(said if error else "", status=400 if error else 204)
    (messages.error if error else messages.success)(request, said)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = reverse("profile", args=[_user(request).username])
    return HttpResponseRedirect(back)
