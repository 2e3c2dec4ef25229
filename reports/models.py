"""Reports from players about other players, and what staff made of each one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Report(models.Model):
    """One player's report of another, perhaps about one game, until staff act on it or
    dismiss it. The staff note is for staff: the reporter only learns which of the two it was."""

    class Category(models.TextChoices):
        CHEATING = "cheating", _("Cheating or collusion")
        OFFENSIVE_NAME = "offensive_name", _("Offensive name")
        ABANDONING = "abandoning", _("Abandoning games")
        ABUSE = "abuse", _("Abuse")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a report's status", "Open")
        ACTED_ON = "acted_on", pgettext_lazy("a report's status", "Acted on")
        DISMISSED = "dismissed", pgettext_lazy("a report's status", "Dismissed")

    # A report outlives the accounts on either side of it: they are closed, not deleted.
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_against"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    # A report of something written in a table's chat: the message itself, kept as written.
    chat_message = models.ForeignKey(
        "chat.ChatMessage",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
    )
    category = models.CharField(max_length=20, choices=Category)
    comment = models.TextField(max_length=1000)
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_handled",
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    staff_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reporter=models.F("reported")), name="no_report_of_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.reported} ({self.get_category_display()})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN
