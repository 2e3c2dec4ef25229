"""The rated queue in the staff's admin: who waits, for which rule set and size, since when.
Read-only: only ``pairing.services`` writes it, as people join, leave and are seated."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import Seeker


@admin.register(Seeker)
class SeekerAdmin(ReadOnlyAdmin):
    list_display = ["user", "preset", "players", "rating", "joined_at", "sockets", "seen_at"]
    list_filter = ["preset", "players"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
