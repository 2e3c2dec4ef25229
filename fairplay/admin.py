"""The staff admin for abandonments: a read-only list, to see who left which rated game, the ban
it earned and whether it is forgiven. Penalties are written only by ``fairplay.penalties``, as
rated games end, so nothing here adds, changes or deletes one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Abandonment

if TYPE_CHECKING:
    AbandonmentAdminBase = admin.ModelAdmin[Abandonment]
else:  # the admin's classes take no type parameters at run time
    AbandonmentAdminBase = admin.ModelAdmin


@admin.register(Abandonment)
class AbandonmentAdmin(AbandonmentAdminBase):
    list_display = ["at", "user", "game", "reason", "level", "until", "forgiven_at"]
    list_filter = ["reason", "at"]
    search_fields = ["user__username"]
    date_hierarchy = "at"
    list_select_related = ["user", "game"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
