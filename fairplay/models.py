"""Abandonments: the rated games a person left before the end, and the bans they earned.

Only ``fairplay.penalties`` writes one, as a rated game ends; the ban it earned runs from its
``at`` to its ``until``, and once forgiven it no longer counts towards the next ban's length.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _

from games.engine import EndReason
from games.words import ABANDONMENT_REASONS


class Abandonment(models.Model):
    """One rated game that ``user`` left: by three time-outs in a row, a strict missed
    deadline or resigning before the last hand."""

    class Reason(models.TextChoices):
        # How a game ended early (the engine's EndReason), in the staff's words.
        LEFT = EndReason.LEFT.value, ABANDONMENT_REASONS[EndReason.LEFT]
        TIMED_OUT = EndReason.TIMED_OUT.value, ABANDONMENT_REASONS[EndReason.TIMED_OUT]
        RESIGNED = EndReason.RESIGNED.value, ABANDONMENT_REASONS[EndReason.RESIGNED]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="abandonments"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="abandonments")
    at = models.DateTimeField(db_index=True)  # when the game ended
    reason = models.CharField(max_length=10, choices=Reason)
    # How many abandonments not yet forgiven this one made (1 for the first): the ban's step.
    level = models.PositiveSmallIntegerField()
    until = models.DateTimeField()  # the end of the ban from rated tables it earned
    forgiven_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_abandonment_per_game")
        ]

    def __str__(self) -> str:
        return _("%(user)s left %(game)s (%(reason)s)") % {
            "user": self.user,
            "game": self.game,
            "reason": self.reason,
        }
