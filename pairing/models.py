"""Who waits in the rated queue, kept in the database so that every daphne and worker sees the
same queue and a restart loses nobody. Only ``pairing.services`` writes it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Seeker(models.Model):
    """A person waiting for a rated table of one rule set and size: one queue at a time."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seeker",
        verbose_name=gettext_lazy("person"),
    )
    preset = models.CharField(gettext_lazy("rule set"), max_length=20)
    players = models.PositiveSmallIntegerField(gettext_lazy("players"))
    # Their skill on the rating scale when they joined (ratings.selectors.pairing_rating): who
    # may sit together is judged from it.
    rating = models.FloatField(gettext_lazy("skill when joining"))
    joined_at = models.DateTimeField(gettext_lazy("joined at"), default=timezone.now)
    # The queue pages open for them (their sockets), and when one last showed it was there: a
    # closed tab leaves the queue, a reloaded one keeps its place (pairing/services.py).
    sockets = models.SmallIntegerField(gettext_lazy("pages open"), default=0)
    seen_at = models.DateTimeField(gettext_lazy("last seen"), default=timezone.now)

    class Meta:
        ordering = ["joined_at"]
        verbose_name = gettext_lazy("person in the queue")
        verbose_name_plural = gettext_lazy("people in the queue")
        indexes = [models.Index(fields=["preset", "players", "joined_at"], name="queue_order")]

    def __str__(self) -> str:
        return f"{self.user} waiting for {self.preset}, {self.players} players"
