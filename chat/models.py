"""Table chat: what people wrote at a table, who has muted whom, and who has turned chat off.

A table has two rooms: its players' (the people seated) and its spectators'. Messages are kept
for good, also after a chat ban, so that a report can show staff exactly what was written; a
message is never edited. Chat bans themselves are sanctions (``moderation.models.ChatBan``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MAX_LENGTH = 500  # characters in one message
HISTORY = 100  # the messages of a room a page shows


class Room(models.TextChoices):
    PLAYERS = "players", gettext_lazy("Players")
    SPECTATORS = "spectators", gettext_lazy("Spectators")


class ChatMessage(models.Model):
    """One message in one room of a table, written during ``game`` (None: before the first)."""

    table = models.ForeignKey("games.Table", on_delete=models.PROTECT, related_name="chat_messages")
    game = models.ForeignKey(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    room = models.CharField(max_length=12, choices=Room)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    text = models.TextField(max_length=MAX_LENGTH)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["table", "room", "-id"], name="chat_room_latest")]

    def __str__(self) -> str:
        said = {"author": self.author, "table": self.table_id, "text": self.text[:40]}
        if self.room == Room.PLAYERS:
            return _("%(author)s in the players room of table %(table)s: %(text)s") % said
        return _("%(author)s in the spectators room of table %(table)s: %(text)s") % said


class Mute(models.Model):
    """``muter`` does not see what ``muted`` writes, at any table, until they unmute them."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=gettext_lazy("muted by"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=gettext_lazy("muted person"),
    )
    at = models.DateTimeField(gettext_lazy("since"), default=timezone.now)

    class Meta:
        verbose_name = gettext_lazy("mute")
        verbose_name_plural = gettext_lazy("mutes")
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_once"),
            models.CheckConstraint(
                condition=~models.Q(muter=models.F("muted")), name="no_mute_of_oneself"
            ),
        ]


class ChatSetting(models.Model):
    """A person's own choice about chat: ``off`` hides every table's chat from them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_setting",
        verbose_name=gettext_lazy("person"),
    )
    off = models.BooleanField(gettext_lazy("chat off"), default=False)

    class Meta:
        verbose_name = gettext_lazy("chat setting")
        verbose_name_plural = gettext_lazy("chat settings")
