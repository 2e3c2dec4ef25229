from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from games.history import viewable_game
from games.models import Game

from . import selectors, services
from .forms import ReportForm


@require_http_methods(["GET", "POST"])
@login_required
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """The form to report a player, from their profile."""
    reported = get_object_or_404(User, username=username)
    back = reverse("profile", args=[reported.username])
    return _report(request, reported, None, back)


@require_http_methods(["GET", "POST"])
@login_required
def report_game_player(request: HttpRequest, game_id: int, index: int) -> HttpResponse:
    """The form to report the player in seat ``index`` of a game its reporter played in."""
    game, code = viewable_game(request, game_id)
    back = reverse("game_detail", args=[game.pk]) + (f"?code={code}" if code else "")
    player = game.players.select_related("user").filter(seat=index).first()
    if player is None:
        raise Http404("No such seat")
    if player.is_bot:
        messages.error(request, _("A bot cannot be reported: it only plays the cards it is dealt."))
        return HttpResponseRedirect(back)
    if player.user is None:
        raise Http404("That player has left the site")
    return _report(request, player.user, game, back)


def _report(request: HttpRequest, reported: User, game: Game | None, back: str) -> HttpResponse:
    assert isinstance(request.user, User)
    reason = services.refusal(request.user, reported, game)
    if reason:
        messages.error(request, reason)
        return HttpResponseRedirect(back)
    form = ReportForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.file_report(
                request.user, reported, data["category"], data["comment"], game=game
            )
        except services.ReportRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(
                request,
                _("Thank you. Staff will read your report of %(name)s.")
                % {"name": reported.username},
            )
            return redirect("my_reports")
    ctx = {"form": form, "reported": reported, "game": game, "back": back}
    return render(request, "reports/report_form.html", ctx)


@require_safe
@login_required
def my_reports(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own reports and whether staff have handled each one."""
    assert isinstance(request.user, User)
    return render(request, "reports/mine.html", {"reports": selectors.reports_by(request.user)})
