"""The staff admin for ratings and each rated game's changes: to look, search and filter.

Only ``ratings.services`` writes a rating (and a void recomputes them all, see
``moderation.voiding``), so these pages are read-only: no add, change or delete.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.admin import ReadOnlyAdmin, public_links

from .models import GameTally, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "display", "mu", "sigma", "games", "is_provisional", "updated_at"]
    list_filter = ["updated_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    ordering = ["-mu"]
    readonly_fields = ("user", "display", "mu", "sigma", "games", "is_provisional", "updated_at")
    fields = readonly_fields

    @admin.display(description=_("Rating"))
    def display(self, rating: Rating) -> int:
        return rating.display

    @admin.display(description=_("Provisional"), boolean=True)
    def is_provisional(self, rating: Rating) -> bool:
        return rating.is_provisional


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["id", "game_link", "user", "place", "before", "after", "change", "links"]
    list_filter = ["place", "game__table__preset"]
    list_select_related = ["game", "user"]
    search_fields = ["=game__id", "user__username"]
    ordering = ["-game__finished_at", "-game_id", "seat"]
    readonly_fields = (
        "game_link",
        "user",
        "seat",
        "place",
        "before",
        "after",
        "change",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "games_after",
        "links",
    )
    fields = readonly_fields

    @admin.display(description=_("Game"), ordering="game_id")
    def game_link(self, change: RatingChange) -> SafeString:
        url = reverse("admin:games_game_change", args=[change.game_id])
        return format_html('<a href="{}">{}</a>', url, change.game)

    @admin.display(description=pgettext_lazy("a rating", "Before"))
    def before(self, change: RatingChange) -> int:
        return change.display_before

    @admin.display(description=pgettext_lazy("a rating", "After"))
    def after(self, change: RatingChange) -> int:
        return change.display_after

    @admin.display(description=pgettext_lazy("a rating", "Change"))
    def change(self, change: RatingChange) -> str:
        return f"{change.display_change:+d}"

    @admin.display(description=_("Public pages"))
    def links(self, change: RatingChange) -> SafeString:
        return public_links(change.game)


@admin.register(GameTally)
class GameTallyAdmin(ReadOnlyAdmin):
    """What each finished game's log adds up to, worked out once from the log: read-only."""

    list_display = ["game", "hands", "points", "moons"]
    list_select_related = ["game"]
    search_fields = ["=game__id"]
