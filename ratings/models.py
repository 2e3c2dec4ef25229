"""A person's current rating, and what each rated game did to it.

``RatingChange`` rows are the history: one per person per rated game, unique, so that a game is
never rated twice. ``Rating`` is the latest of them, kept for the leaderboard and the profile.
Only ``ratings.services`` writes either.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Game

from .maths import MU, SIGMA, Skill, change_text, display_rating, is_provisional


class Rating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField(default=MU)
    sigma = models.FloatField(default=SIGMA)
    games = models.PositiveIntegerField(default=0)  # rated games played
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} {self.display}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def is_provisional(self) -> bool:
        return is_provisional(self.games)


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games_after = models.PositiveIntegerField()  # the person's rated games, this one included

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.display_before} → {self.display_after}"

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def display_change(self) -> int:
        return self.display_after - self.display_before

    @property
    def is_provisional(self) -> bool:
        """Whether the rating this game left was still provisional."""
        return is_provisional(self.games_after)

    @property
    def in_words(self) -> str:
        """The new rating and the change, as a game's result shows them: "rating 1312 (+12)",
        "rating 480 (+180, provisional)"."""
        numbers = {"rating": self.display_after, "change": change_text(self.display_change)}
        if self.is_provisional:
            return _("rating %(rating)s (%(change)s, provisional)") % numbers
        return _("rating %(rating)s (%(change)s)") % numbers


class GameTally(models.Model):
    """What a finished game's move log adds up to for each seat, worked out once (the log of a
    finished game never changes) so that a profile need not replay every game it counts."""

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=gettext_lazy("game"),
    )
    # hands scored (not one cut short by the end)
    hands = models.PositiveSmallIntegerField(gettext_lazy("hands scored"))
    points = models.JSONField(gettext_lazy("points by seat"))  # over those hands
    # per seat: hands in which the seat took every penalty card
    moons = models.JSONField(gettext_lazy("moons by seat"))

    class Meta:
        verbose_name = gettext_lazy("game tally")
        verbose_name_plural = gettext_lazy("game tallies")
