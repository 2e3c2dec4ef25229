"""The staff admin for tables, seats, games, their players and move logs: to look, search and
filter, and to void a finished game.

Nothing here edits a game's record: every change of a table or a game goes through
``games.services`` (under the game's lock), and a void through ``moderation.voiding``. So every
page here is read-only, no row can be added or deleted, and the one thing staff may do is the
"void" action, which asks for a reason on a page of its own before it acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from hearts_site.admin_actions import CheckedSelection
from moderation.voiding import void_game

from .errors import ServiceError
from .history_selectors import outcome_in_words
from .models import Game, GamePlayer, GameReview, MoveRecord, Seat, Table

# The admin's classes are generic only to the type checker (django-stubs).
if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline


class NoWrites:
    """No add, change or delete for anyone: what the read-only pages and inlines share."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(NoWrites, ModelAdmin):
    """Shows rows and never writes one: no add, change or delete form."""


class ReadOnlyInline(NoWrites, TabularInline):
    extra = 0
    can_delete = False


def public_links(game: Game) -> SafeString:
    """Links to the game's public page (with its replay) and to its verification page."""
    return format_html(
        '<a href="{}">Page and replay</a> · <a href="{}">Verify</a>',
        reverse("game_detail", args=[game.pk]),
        reverse("game_verify", args=[game.pk]),
    )


# Tables and seats --------------------------------------------------------------------------


class SeatInline(ReadOnlyInline):
    model = Seat
    readonly_fields = ("index", "user", "is_bot", "added_seed")
    fields = readonly_fields


class GameInline(ReadOnlyInline):
    model = Game
    readonly_fields = ("number", "status", "rated", "void", "started_at", "finished_at")
    fields = readonly_fields
    show_change_link = True


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["id", "host", "preset", "players", "rated", "private", "status", "created_at"]
    list_filter = ["status", "preset", "rated", "private", "bot_level", "created_at"]
    list_select_related = ["host"]
    search_fields = ["=id", "host__username", "seats__user__username", "=invite_code"]
    date_hierarchy = "created_at"
    fields = ["host", "preset", "rules", "rated", "private", "invite_code", "bot_level", "status"]
    inlines = [SeatInline, GameInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "index", "user", "is_bot"]
    list_filter = ["is_bot", "table__status"]
    list_select_related = ["table", "user"]
    search_fields = ["=table__id", "user__username"]


# Games, their players and move logs --------------------------------------------------------


class GamePlayerInline(ReadOnlyInline):
    model = GamePlayer
    readonly_fields = ("seat", "user", "is_bot", "timeouts_in_a_row")
    fields = readonly_fields


class VoidForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Why these games are void; kept in the audit log with your name.",
    )


@admin.register(Game)
class GameAdmin(CheckedSelection, ReadOnlyAdmin):
    list_display = [
        "id",
        "table",
        "number",
        "player_names",
        "status",
        "rated",
        "void",
        "outcome",
        "finished_at",
        "links",
    ]
    list_filter = ["status", "rated", "void", "table__preset", "table__private", "finished_at"]
    list_select_related = ["table"]
    search_fields = ["=id", "=table__id", "players__user__username", "fingerprint"]
    date_hierarchy = "started_at"
    # The seed and the snapshot stay off: while a game runs they are as secret as its cards,
    # and once it ends its public page shows the seed.
    readonly_fields = (
        "table",
        "number",
        "status",
        "rated",
        "void",
        "voided_at",
        "outcome",
        "fingerprint",
        "added_seeds",
        "version",
        "move_log",
        "chat",
        "deadline",
        "started_at",
        "finished_at",
        "links",
    )
    fields = readonly_fields
    inlines = [GamePlayerInline]
    actions = ["void_games"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("players__user")

    @admin.display(description="Players")
    def player_names(self, game: Game) -> str:
        return ", ".join(player.name for player in game.players.all())

    @admin.display(description="Result")
    def outcome(self, game: Game) -> str:
        return outcome_in_words(game, list(game.players.all()))

    @admin.display(description="Public pages")
    def links(self, game: Game) -> SafeString:
        return public_links(game)

    @admin.display(description="Move log")
    def move_log(self, game: Game) -> SafeString:
        url = reverse("admin:games_moverecord_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">{} moves</a>', url, game.version)

    @admin.display(description="Chat")
    def chat(self, game: Game) -> SafeString:
        """The messages written at the table during the game, in both rooms: for staff only
        (the game's pages, its record and its replay never show them)."""
        url = reverse("admin:chat_chatmessage_changelist") + f"?game__id__exact={game.pk}"
        return format_html('<a href="{}">The chat during this game</a>', url)

    def has_void_permission(self, request: HttpRequest) -> bool:
        """Staff who may change games may void one: the only change this admin makes."""
        return request.user.is_staff and request.user.has_perm("games.change_game")

    @admin.action(
        description="Void the selected games (not rated; ratings recomputed)",
        permissions=["void"],
    )
    def void_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> TemplateResponse | None:
        """First a page that lists the games and asks why; its form, sent, voids each one."""
        form = VoidForm(request.POST if request.POST.get("post") == "yes" else None)
        if form.is_valid():
            self._void_each(request, queryset, form.cleaned_data["reason"])
            return None  # back to the list, with a message for each game
        context = {
            **self.admin_site.each_context(request),
            "title": "Void games",
            "opts": self.opts,
            "games": queryset.order_by("pk"),
            "form": form,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "media": self.media,
        }
        return TemplateResponse(request, "admin/games/game/void.html", context)

    def _void_each(self, request: HttpRequest, games: QuerySet[Game], reason: str) -> None:
        assert request.user.is_authenticated
        for game_id in games.order_by("pk").values_list("pk", flat=True):
            try:
                game = void_game(game_id, request.user, reason)
            except ServiceError as error:
                self.message_user(request, str(error), messages.ERROR)
            else:
                self.message_user(request, f"{game} is void; the ratings are recomputed.")


@admin.register(GamePlayer)
class GamePlayerAdmin(ReadOnlyAdmin):
    list_display = ["id", "game", "seat", "name", "user", "is_bot", "timeouts_in_a_row"]
    list_filter = ["is_bot", "game__status", "game__void"]
    list_select_related = ["game", "user"]
    search_fields = ["=game__id", "user__username"]


@admin.register(MoveRecord)
class MoveRecordAdmin(ReadOnlyAdmin):
    """The append-only move log: shown, never written."""

    list_display = ["id", "game", "number", "kind", "seat", "cards", "choice", "timeout"]
    list_filter = ["kind", "timeout", "game__status"]
    list_select_related = ["game"]
    search_fields = ["=game__id"]
    ordering = ["game", "number"]


@admin.register(GameReview)
class GameReviewAdmin(ReadOnlyAdmin):
    """The bot's reviews of games (games/reviews.py): made by the reviews' worker, never
    written here."""

    list_display = ["id", "game", "bot_version", "status", "hands_done", "hands_total"]
    list_display += ["requested_by", "requested_at", "finished_at", "cpu_seconds"]
    list_filter = ["status", "bot_version"]
    list_select_related = ["game", "requested_by"]
    search_fields = ["=game__id", "requested_by__username"]
    exclude = ["verdicts"]
