"""The audit log, sanctions and marks in the admin: lists staff read, never edit. Every change
to a sanction or a mark is an action on the person (accounts/admin.py), which writes its audit
entry; nobody adds, changes or deletes an entry, superusers included."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.admin import ReadOnlyAdmin

from .models import AuditEntry, ChatBan, Mark, Sanction


class StaffReadOnlyAdmin(ReadOnlyAdmin):
    """A list and a detail page that every staff member may read; no add, change or delete
    for anyone."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_active and request.user.is_staff


@admin.register(AuditEntry)
class AuditEntryAdmin(StaffReadOnlyAdmin):
    list_display = ["at", "staff", "action", "user", "game", "reason"]
    list_filter = ["action", "at"]
    search_fields = ["staff__username", "user__username", "reason"]
    date_hierarchy = "at"
    list_select_related = ["staff", "user", "game"]


@admin.register(Sanction)
class SanctionAdmin(StaffReadOnlyAdmin):
    list_display = ["user", "kind", "starts_at", "ends_at", "lifted_at", "staff", "reason", "note"]
    list_filter = ["kind", "starts_at"]
    search_fields = ["user__username", "reason", "note"]
    list_select_related = ["user", "staff"]


@admin.register(Mark)
class MarkAdmin(StaffReadOnlyAdmin):
    list_display = ["user", "reason", "at", "lifted_at", "staff"]
    list_filter = ["at"]
    search_fields = ["user__username", "reason"]
    list_select_related = ["user", "staff"]


@admin.register(ChatBan)
class ChatBanAdmin(StaffReadOnlyAdmin):
    list_display = ["user", "starts_at", "ends_at", "lifted_at", "staff", "reason", "note"]
    list_filter = ["starts_at"]
    search_fields = ["user__username", "reason", "note"]
    list_select_related = ["user", "staff"]
