"""The staff admin for abandonments: a read-only list, to see who left which rated game, the ban
it earned and whether it is forgiven. Penalties are written only by ``fairplay.penalties``, as
rated games end, so nothing here adds, changes or deletes one."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import Abandonment


@admin.register(Abandonment)
class AbandonmentAdmin(ReadOnlyAdmin):
    list_display = ["at", "user", "game", "reason", "level", "until", "forgiven_at"]
    list_filter = ["reason", "at"]
    search_fields = ["user__username"]
    date_hierarchy = "at"
    list_select_related = ["user", "game"]
