"""What staff did: the audit log. Every staff action writes one entry through
``moderation.audit.record``; nobody edits or deletes one, in the admin or anywhere else."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    """One staff action: who did what, when, to whom (a person, a game, a report) and why."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="staff_actions",
    )
    action = models.CharField(max_length=40, db_index=True)  # "ban", "void", "rename", ...
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)  # e.g. {"old_name": ..., "until": ...}

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.staff} {self.action}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("An audit entry is never changed")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("An audit entry is never deleted")
