"""What was written in the tables' chats, for staff: read, never changed or deleted. A report
of a message links here, to the room around it; a game's page in the admin to its chat."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["at", "table", "game", "room", "author", "text"]
    list_filter = ["room", "at"]
    list_select_related = ["author", "table", "game"]
    search_fields = ["author__username", "text", "=table__id", "=game__id"]
    date_hierarchy = "at"
    ordering = ["-at", "-pk"]
