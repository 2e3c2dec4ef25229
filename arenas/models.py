"""Arenas: rated tournaments with a start and a length, open to join while they run.

An arena's standings are never stored: they are worked out from the results of its games
(arenas/scoring.py), so that voiding a game takes its points away and recomputing gives the
same table. What is kept is who joined (and whether they are paused), which games were the
arena's, and whether each entrant is at one of its tables now. Only ``arenas.services`` writes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.engine import PRESETS, Clock
from games.models import Game, Table
from games.words import preset_title

# The names the default schedule (settings.HEARTS_ARENA_SCHEDULE) gives its arenas: translated
# where they are shown (Arena.shown_name), kept in English in the database and the API.
SCHEDULED_NAMES = frozenset({gettext_noop("Hourly Standard arena")})


class Arena(models.Model):
    """One tournament: its rule set and table size (one of the rated queue's, each with its own
    clock), its start and its length."""

    name = models.CharField(max_length=80)
    preset = models.CharField(
        max_length=20,
        choices=[(key, preset.title) for key, preset in PRESETS.items() if key != "custom"],
        default="standard",
    )
    players = models.PositiveSmallIntegerField(default=4)
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(default=60)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Set by the sweep once the arena has begun and once it has ended, each told once.
    started = models.BooleanField(default=False)
    ended = models.BooleanField(default=False)
    # Which entry of HEARTS_ARENA_SCHEDULE made it, if any: the schedule makes each once.
    schedule_key = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        permissions = [("run_arenas", "Can create and change arenas")]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule_key", "starts_at"],
                condition=~models.Q(schedule_key=""),
                name="one_scheduled_arena_a_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return f"/arenas/{self.pk}/"

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def state(self, now: datetime | None = None) -> str:
        """ "upcoming", "running" or "finished", from the clock alone."""
        now = now or timezone.now()
        if now < self.starts_at:
            return "upcoming"
        return "running" if now < self.ends_at else "finished"

    @property
    def shown_name(self) -> str:
        """Its name in the reader's language, where the name is one the site's schedule gives
        (SCHEDULED_NAMES); a name staff wrote stays as written."""
        return _(self.name) if self.name in SCHEDULED_NAMES else self.name

    @property
    def rules_title(self) -> str:
        """As the rated queue says it (pairing.services.rules_title): "Standard, 4 players"."""
        return ngettext(
            "%(rules)s, %(players)s player", "%(rules)s, %(players)s players", self.players
        ) % {"rules": preset_title(self.preset), "players": self.players}

    @property
    def clock(self) -> str:
        """The time control, as the rule set has it: "relaxed clock" or "strict clock"."""
        rules = PRESETS[self.preset].make(self.players)
        times = {"card": settings.HEARTS_CARD_SECONDS, "passing": settings.HEARTS_PASS_SECONDS}
        if rules.clock == Clock.STRICT:
            return _("strict clock: %(card)s s a card, %(passing)s s a pass") % times
        return _("relaxed clock: %(card)s s a card, %(passing)s s a pass") % times


class Entrant(models.Model):
    """A person who joined an arena: in its standings from then on, paired while not paused
    and while their arena page is open."""

    arena = models.ForeignKey(
        Arena, on_delete=models.CASCADE, related_name="entrants", verbose_name=gettext_lazy("arena")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arena_entries",
        verbose_name=gettext_lazy("person"),
    )
    joined_at = models.DateTimeField(gettext_lazy("joined at"), default=timezone.now)
    paused = models.BooleanField(gettext_lazy("paused"), default=False)
    # Their skill on the rating scale when they last joined or came back: who sits together.
    rating = models.FloatField(gettext_lazy("skill when joining"))
    # The arena game they are at now: set in the seating's transaction, only where it was
    # empty (so that no one is seated twice), and emptied when that game ends.
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=gettext_lazy("game now"),
    )
    # Since when they have been free to be seated (joined, back from a pause, a game over):
    # the longer, the wider the range of ratings they may sit with (pairing/matching.py).
    free_since = models.DateTimeField(gettext_lazy("free since"), default=timezone.now)
    # The arena pages open for them, and when one last said it was there (as the rated queue).
    sockets = models.SmallIntegerField(gettext_lazy("pages open"), default=0)
    seen_at = models.DateTimeField(gettext_lazy("last seen"), default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name = gettext_lazy("entrant")
        verbose_name_plural = gettext_lazy("entrants")
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="one_entry_an_arena"),
        ]

    def __str__(self) -> str:
        return _("%(person)s in %(arena)s") % {"person": self.user, "arena": self.arena}


class ArenaGame(models.Model):
    """A game of an arena: its table was made by the arena's seating."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="arena_game")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="arena_game")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return _("%(game)s in %(arena)s") % {"game": self.game, "arena": self.arena}
