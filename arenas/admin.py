"""Arenas in the staff's admin: whoever holds "Can create and change arenas" makes one (its
rule set and size, start and length), and changes it until it starts; everyone on staff reads
them, with who joined and the games played. Standings are the arena's page's (worked out from
the games), never kept here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin import ReadOnlyAdmin
from games.errors import ServiceError
from ratings.selectors import ratings_of

from . import services
from .models import Arena, ArenaGame, Entrant

PERMISSION = "arenas.run_arenas"


class ArenaForm(forms.ModelForm):
    class Meta:
        model = Arena
        fields = ("name", "preset", "players", "starts_at", "minutes")
        help_texts = {
            "starts_at": gettext_lazy("In UTC."),
            "minutes": gettext_lazy(
                "How long it runs; a game still on at the end counts when it ends."
            ),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "preset" in data and "players" in data:
            try:
                services.check_rules(data["preset"], data["players"])
            except ServiceError as error:
                raise forms.ValidationError(str(error)) from error
        return data


class _Ratings:
    """An entrant's two numbers apart: the site's rating (the 300 scale of the profile and the
    leaderboard) and the seating's own skill (Entrant.rating, on the rating maths' 1500 scale),
    which only decides who sits together and would read as a wrong rating if named one."""

    @admin.display(description=gettext_lazy("Rating"))
    def site_rating(self, entrant: Entrant) -> str:
        rating = ratings_of([entrant.user_id])[entrant.user_id]
        if rating.is_provisional:
            return f"{rating.display} ({_('provisional')})"
        return str(rating.display)

    @admin.display(description=gettext_lazy("seating skill (internal, not the rating)"))
    def seating_skill(self, entrant: Entrant) -> str:
        return f"{entrant.rating:.0f}"


class EntrantInline(_Ratings, admin.TabularInline):
    model = Entrant
    fields = ("user", "joined_at", "paused", "site_rating", "seating_skill", "game")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    form = ArenaForm
    list_display = ("name", "preset", "players", "starts_at", "minutes", "ended", "page")
    list_filter = ("preset", "ended")
    search_fields = ("name",)
    inlines = [EntrantInline]

    @admin.display(description=gettext_lazy("Page"))
    def page(self, arena: Arena) -> SafeString:
        return format_html('<a href="{}">{}</a>', arena.get_absolute_url(), _("the arena"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(PERMISSION)

    def has_change_permission(self, request: HttpRequest, obj: Arena | None = None) -> bool:
        if obj is not None and (obj.started or obj.starts_at <= timezone.now()):
            return False  # what people joined stays what it was
        return request.user.has_perm(PERMISSION)

    def has_delete_permission(self, request: HttpRequest, obj: Arena | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Arena | None = None) -> bool:
        return bool(request.user.is_staff)

    def save_model(self, request: HttpRequest, obj: Arena, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.register(ArenaGame)
class ArenaGameAdmin(admin.ModelAdmin):
    list_display = ("arena", "game", "table")
    list_select_related = ("arena", "game", "table")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)


@admin.register(Entrant)
class EntrantAdmin(_Ratings, ReadOnlyAdmin):
    """Who joined which arena (each arena's page lists its own): read-only, as the seating
    writes them."""

    list_display = ("arena", "user", "joined_at", "paused", "game", "free_since", "seen_at")
    fields = (
        "arena",
        "user",
        "joined_at",
        "paused",
        "site_rating",
        "seating_skill",
        "game",
        "free_since",
        "sockets",
        "seen_at",
    )
    readonly_fields = fields
    list_filter = ("paused",)
    list_select_related = ("arena", "user", "game")
    search_fields = ("user__username", "arena__name")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff)
