"""The staff's queue of reports: open ones first, newest first. A report's page shows what
staff need to judge it (the game, both players' recent games, the other reports of the same
player) and closes it as acted on or dismissed, with a note, through ``reports.services``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Case, QuerySet, Value, When
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.models import Game

from . import selectors, services
from .models import Report

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Report]
else:  # the class is generic to the type checker only
    ModelAdmin = admin.ModelAdmin

# The submit buttons of a report's page, and what each one does.
DECISIONS = {"_act_on": services.act_on, "_dismiss": services.dismiss}

SHOWN = (
    "created_at",
    "status",
    "category",
    "reporter_link",
    "reported_link",
    "game_link",
    "chat_message_shown",
    "comment",
    "reported_games",
    "reporter_games",
    "other_reports",
    "handled_by",
    "handled_at",
)


@admin.register(Report)
class ReportAdmin(ModelAdmin):
    list_display = ("created_at", "status", "category", "reported", "reporter", "game_link")
    list_filter = ("status", "category")
    search_fields = ("reported__username", "reporter__username")
    # The open reports first, newest first. The admin takes an expression here; django-stubs
    # types the attribute as field names only.
    ordering = (  # type: ignore[assignment]
        Case(When(status=Report.Status.OPEN, then=Value(0)), default=Value(1)).asc(),
        "-created_at",
        "-pk",
    )
    list_select_related = ("reporter", "reported")
    fields = (*SHOWN, "staff_note")
    change_form_template = "reports/admin_change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players file reports; staff only handle them

    def has_delete_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False  # a handled report is the record of why staff acted

    def get_readonly_fields(self, request: HttpRequest, obj: Report | None = None) -> list[str]:
        # The note is written once, with the decision; after it the report stays as it was.
        return [*SHOWN] if obj is not None and obj.is_open else [*SHOWN, "staff_note"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        return super().get_queryset(request).select_related("game__table", "chat_message")

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        decision = next((name for name in DECISIONS if name in request.POST), None)
        if request.method == "POST" and decision:
            return self._decide(request, object_id, decision)
        # The two decisions are the only ways to change a report.
        context = {
            **(extra_context or {}),
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            "show_delete": False,
        }
        return super().change_view(request, object_id, form_url, context)

    def _decide(self, request: HttpRequest, object_id: str, decision: str) -> HttpResponse:
        # The permission first, so that staff who may not decide learn nothing of which
        # reports exist; then an id that is no report's (not even a number) is not found.
        if not self.has_change_permission(request):
            raise PermissionDenied("You may not handle reports.")
        report = self.get_object(request, unquote(object_id))
        if report is None:
            raise Http404("No such report.")
        here = reverse("admin:reports_report_change", args=[report.pk])
        note = request.POST.get("staff_note", "").strip()
        if not note:
            messages.error(
                request, _("Say in the note what you did or why there is nothing to do.")
            )
            return HttpResponseRedirect(here)
        assert isinstance(request.user, User)
        try:
            DECISIONS[decision](report, request.user, note)
        except services.ReportAlreadyHandled:
            messages.error(request, _("Someone else handled this report first."))
            return HttpResponseRedirect(here)
        except services.NotCleared as why:
            messages.error(request, str(why))
            return HttpResponseRedirect(here)
        status = report.get_status_display().lower()
        messages.success(
            request, _("Report %(number)s: %(status)s.") % {"number": report.pk, "status": status}
        )
        return HttpResponseRedirect(reverse("admin:reports_report_changelist"))

    @admin.display(description=gettext_lazy("reporter"))
    def reporter_link(self, report: Report) -> SafeString:
        return _profile_link(report.reporter)

    @admin.display(description=gettext_lazy("reported player"))
    def reported_link(self, report: Report) -> SafeString:
        return _profile_link(report.reported)

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, report: Report) -> SafeString | str:
        return _game_link(report.game) if report.game else pgettext("nothing", "none")

    @admin.display(description=gettext_lazy("chat message reported"))
    def chat_message_shown(self, report: Report) -> SafeString | str:
        """The message as it was written (as text: nothing in it is a link or markup), its
        room and its table, with the room's messages around it in the chat's admin."""
        message = report.chat_message
        if message is None:
            return pgettext("nothing", "none")
        around = reverse("admin:chat_chatmessage_changelist")
        query = urlencode({"table__id__exact": message.table_id, "room": message.room})
        written = _(
            "Written {at} UTC in the {room} room of table {table}. "
            '<a href="{url}">The room\'s other messages</a>'
        )
        return format_html(
            '<blockquote class="chat-reported">{}</blockquote><p>{}</p>',
            message.text,
            format_html(
                written,
                at=f"{message.at:%Y-%m-%d %H:%M:%S}",
                room=message.get_room_display().lower(),
                table=message.table_id,
                url=f"{around}?{query}",
            ),
        )

    @admin.display(description=gettext_lazy("the reported player's recent games"))
    def reported_games(self, report: Report) -> SafeString | str:
        return _game_links(selectors.recent_games(report.reported))

    @admin.display(description=gettext_lazy("the reporter's recent games"))
    def reporter_games(self, report: Report) -> SafeString | str:
        return _game_links(selectors.recent_games(report.reporter))

    @admin.display(description=gettext_lazy("other reports of the same player"))
    def other_reports(self, report: Report) -> SafeString | str:
        others = selectors.other_reports_against(report)
        if not others:
            return pgettext("nothing", "none")
        rows = (
            (
                reverse("admin:reports_report_change", args=[other.pk]),
                other.pk,
                f"{other.created_at:%Y-%m-%d}",
                other.get_category_display(),
                other.reporter.username,
                other.get_status_display(),
            )
            for other in others
        )
        line = _('<a href="{url}">Report {number}</a> ({date}): {category} by {reporter}, {status}')
        items = format_html_join(
            "",
            "<li>{}</li>",
            (
                (format_html(line, url=url, number=n, date=d, category=c, reporter=r, status=s),)
                for url, n, d, c, r, s in rows
            ),
        )
        return format_html("<ul>{}</ul>", items)


def _profile_link(user: User) -> SafeString:
    return format_html('<a href="{}">{}</a>', reverse("profile", args=[user.username]), user)


def _game_url(game: Game) -> str:
    """The game's page; a private table's game only opens with its invite code."""
    url = reverse("game_detail", args=[game.pk])
    return f"{url}?{urlencode({'code': game.table.invite_code})}" if game.table.private else url


def _game_link(game: Game) -> SafeString:
    return format_html(_('<a href="{url}">Game {number}</a>'), url=_game_url(game), number=game.pk)


def _game_links(games: QuerySet[Game]) -> SafeString | str:
    rows = ((_game_url(game), game.pk, f"{game.started_at:%Y-%m-%d %H:%M}") for game in games)
    line = _('<a href="{url}">Game {number}</a> ({started})')
    items = format_html_join(
        "",
        "<li>{}</li>",
        ((format_html(line, url=url, number=n, started=at),) for url, n, at in rows),
    )
    return format_html("<ul>{}</ul>", items) if items else pgettext("nothing", "none")
