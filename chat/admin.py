"""What was written in the tables' chats, for staff: read, never changed or deleted. A report
of a message links here, to the room around it; a game's page in the admin to its chat. Who
muted whom, and who turned chat off, are there too, read-only: each is a person's own choice,
the context of a report."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import ChatMessage, ChatSetting, Mute


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["at", "table", "game", "room", "author", "text"]
    list_filter = ["room", "at"]
    list_select_related = ["author", "table", "game"]
    search_fields = ["author__username", "text", "=table__id", "=game__id"]
    date_hierarchy = "at"
    ordering = ["-at", "-pk"]


@admin.register(Mute)
class MuteAdmin(ReadOnlyAdmin):
    list_display = ["at", "muter", "muted"]
    list_select_related = ["muter", "muted"]
    search_fields = ["muter__username", "muted__username"]
    date_hierarchy = "at"


@admin.register(ChatSetting)
class ChatSettingAdmin(ReadOnlyAdmin):
    list_display = ["user", "off"]
    list_filter = ["off"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
