"""Tables, their seats, the games played at them and each game's append-only move log.

The move log and the seed are the source of truth: ``Game.match()`` rebuilds the engine's state
from them. Live play reads ``Game.live_match()`` instead, from the snapshot the services save
with every move, so a move's work does not grow with the game. Nothing here changes a game:
``games.services`` does, by a write conditional on the game's version.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import shown_name
from games.engine import (
    Match,
    Move,
    Phase,
    RecordError,
    Rules,
    fingerprint,
    format_cards,
    new_seed,
    parse_cards,
)
from games.words import preset_title

ADDED_SEED_LENGTH = 200  # characters a person may add to a deal

log = logging.getLogger(__name__)


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        PLAYING = "playing", pgettext_lazy("a table's status", "Playing")
        CLOSED = "closed", pgettext_lazy("a table's status", "Closed")

    class BotLevel(models.TextChoices):
        EASY = "easy", pgettext_lazy("bot level", "Easy")
        NORMAL = "normal", pgettext_lazy("bot level", "Normal")
        STRONG = "strong", pgettext_lazy("bot level", "Strong")

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    preset = models.CharField(max_length=20, default="standard")
    rules = models.JSONField()
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=False)
    # A table made for one game (an arena's: arenas/services.py): no rematch once it is over.
    one_game = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, unique=True, default=_invite_code)
    bot_level = models.CharField(max_length=10, choices=BotLevel, default=BotLevel.NORMAL)
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    # The seed of the next game, fixed (and its fingerprint shown) before anyone adds a seed.
    next_seed = models.BinaryField(max_length=32, default=new_seed, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Table {self.pk}"

    @property
    def next_fingerprint(self) -> str:
        return fingerprint(bytes(self.next_seed))

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    def change_invite_code(self) -> None:
        """A new invite code in place of the old one, in memory (``games.services`` saves it)."""
        self.invite_code = _invite_code()

    @property
    def engine_rules(self) -> Rules:
        return Rules.from_json(self.rules)

    @property
    def players(self) -> int:
        return int(self.rules.get("players", 4))

    @property
    def preset_title(self) -> str:
        return preset_title(self.preset)

    @property
    def has_empty_seat(self) -> bool:
        """Whether a seat has neither a person nor a bot (the host may fill it with bots)."""
        return any(seat.is_empty for seat in self.seats.all())

    def current_game(self) -> Game | None:
        return self.games.order_by("-number").first()


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    is_bot = models.BooleanField(default=False)
    # The person's text for the next game's deal; public, and cleared when the game starts.
    added_seed = models.CharField(max_length=ADDED_SEED_LENGTH, blank=True, default="")

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.index}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def seed_suggestion(self) -> str:
        """A random text to offer as this seat's added seed: a new one at every look."""
        return secrets.token_hex(8)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("a game's status", "Playing")
        FINISHED = "finished", pgettext_lazy("a game's status", "Finished")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)  # 1 for the first game, then rematches
    rules = models.JSONField()
    seed = models.BinaryField(max_length=32, default=new_seed, editable=False)
    fingerprint = models.CharField(max_length=64, editable=False)
    added_seeds = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)  # the number of moves in the log
    status = models.CharField(max_length=10, choices=Status, default=Status.PLAYING)
    rated = models.BooleanField(default=False)
    # Voided by staff (moderation.voiding.void_game): kept in the history, never rated again.
    void = models.BooleanField(default=False)
    voided_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The engine's state after the last move (Match.to_snapshot), stamped with its version;
    # it holds the seed and the passes, so it is as secret as they are.
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table")
        ]
        indexes = [
            # The clock's sweep (games/tasks.py) every second: the running games' deadlines
            # only, a small index however many finished games there are.
            models.Index(
                fields=["deadline"],
                condition=models.Q(status="playing"),
                name="game_deadline_playing",
            )
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.fingerprint:
            self.fingerprint = fingerprint(bytes(self.seed))
        super().save(*args, **kwargs)

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING

    def engine_moves(self) -> list[Move]:
        return [row.to_engine() for row in self.moves.order_by("number")]

    def match(self) -> Match:
        """The engine's state, rebuilt from the seed and the whole move log: for records."""
        return Match.replay(
            Rules.from_json(self.rules), bytes(self.seed), self.engine_moves(), self.added_seeds
        )

    def live_match(self) -> Match:
        """The engine's state for live play, restored from the snapshot and the few moves
        logged since it was taken (a bounded amount of work however long the game: the
        services take one at each trick and each hand, games/services.py). A snapshot
        missing, unreadable, newer than the game or of another deal or rules than the game's
        is logged and the whole log replayed instead."""
        snapshot = self.snapshot
        stamp = snapshot.get("version") if isinstance(snapshot, dict) else None
        if not isinstance(stamp, int) or not 0 <= stamp <= self.version:
            log.warning(
                "Game %s: snapshot of version %s, not %s; replaying its log",
                self.pk,
                stamp,
                self.version,
            )
            return self.match()
        assert isinstance(snapshot, dict)
        try:
            match = Match.from_snapshot(snapshot)
        except RecordError as error:
            log.warning("Game %s: unreadable snapshot (%s); replaying its log", self.pk, error)
            return self.match()
        game = (bytes(self.seed), tuple(self.added_seeds), Rules.from_json(self.rules))
        if (match.seed, match.added_seeds, match.rules) != game:
            log.warning("Game %s: snapshot of another deal or rules; replaying its log", self.pk)
            return self.match()
        if stamp < self.version:
            # Up to this row's version: a writer may have logged the next move meanwhile.
            since = self.moves.filter(number__gt=stamp, number__lte=self.version)
            since = since.order_by("number")
            for row in since:
                match.apply(row.to_engine())
            if match.version != self.version:
                log.warning("Game %s: moves missing after its snapshot; replaying its log", self.pk)
                return self.match()
        return match

    def keep_snapshot(self, match: Match) -> None:
        """Take ``match`` (this game's state after its latest move) as the snapshot to save."""
        assert match.version == self.version
        self.snapshot = match.to_snapshot()

    def snapshot_due(self, match: Match) -> bool:
        """Whether the move just made (``match`` after it) is one to take a snapshot at: the
        end of a trick or of the passes, a new hand, the end, or a few moves since the last
        (a moon's choice). Between them, a game is loaded from its snapshot and the moves
        logged since (:meth:`live_match`), a trick at most; a move writes less."""
        stamp = self.snapshot.get("version") if isinstance(self.snapshot, dict) else None
        if not isinstance(stamp, int) or stamp >= match.version or match.is_over:
            return True  # none, or one not of an earlier version (distrusted when loaded)
        hand = match.hand
        fresh = not hand.moves  # a new hand dealt
        boundary = not hand.trick and hand.phase is not Phase.PASSING  # a trick just taken
        return fresh or boundary or match.version - stamp >= 2 * match.players


class GamePlayer(models.Model):
    """Who sat where for one game: people and bots, fixed when the game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    # A game's record outlives its players' accounts: one that has played is closed, not deleted.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    is_bot = models.BooleanField(default=False)
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_seat")]

    def __str__(self) -> str:
        return f"{self.game} seat {self.seat}: {self.name}"

    @property
    def name(self) -> str:
        if self.is_bot:
            return f"Bot {self.seat + 1}"
        return shown_name(self.user) if self.user else "(gone)"


class MoveRecord(models.Model):
    """One entry of a game's append-only move log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 1, 2, ...: the game's version after this move
    kind = models.CharField(max_length=10)
    seat = models.PositiveSmallIntegerField()
    cards = models.CharField(max_length=20, blank=True)
    choice = models.CharField(max_length=20, blank=True)
    timeout = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_move_per_number")
        ]

    @classmethod
    def of(cls, game: Game, number: int, move: Move) -> MoveRecord:
        """The log entry (unsaved) for the engine's ``move``, the game's ``number``-th."""
        return cls(
            game=game,
            number=number,
            kind=move.kind,
            seat=move.seat,
            cards=format_cards(move.cards),
            choice=move.choice,
            timeout=move.timeout,
        )

    def to_engine(self) -> Move:
        return Move(self.kind, self.seat, tuple(parse_cards(self.cards)), self.choice, self.timeout)

    @classmethod
    def logs_of(cls, game_ids: list[int]) -> dict[int, list[Move]]:
        """The move logs of several games in one query, as the engine's moves, read as plain
        rows: a few hundred moves a game add up."""
        logs: dict[int, list[Move]] = defaultdict(list)
        rows = (
            cls.objects.filter(game_id__in=game_ids)
            .order_by("game_id", "number")
            .values_list("game_id", "kind", "seat", "cards", "choice", "timeout")
        )
        for game_id, kind, seat, cards, choice, timeout in rows.iterator(chunk_size=5000):
            logs[game_id].append(Move(kind, seat, tuple(parse_cards(cards)), choice, timeout))
        return logs


class GameReview(models.Model):
    """The bot's review of a finished game (games/reviews.py): every decision of its people
    judged with what they knew (games/bots/review.py). One a game for each version of the bot:
    a changed bot makes a new review beside the old. Written a hand at a time, so a review whose
    worker died goes on from the last hand it kept."""

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("a review's state", "queued")
        RUNNING = "running", pgettext_lazy("a review's state", "running")
        DONE = "done", pgettext_lazy("a review's state", "done")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="reviews")
    bot_version = models.CharField(gettext_lazy("bot version"), max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("asked for by"),
    )
    requested_at = models.DateTimeField(gettext_lazy("asked for at"), auto_now_add=True)
    # The worker's last sign of life: a review queued or running without one for long is
    # queued again by the sweep.
    touched_at = models.DateTimeField(auto_now=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    hands_total = models.PositiveIntegerField(default=0)
    hands_done = models.PositiveIntegerField(default=0)
    # One object a decision judged, in the log's order (games/reviews.py, verdict_json).
    verdicts = models.JSONField(default=list, blank=True)
    cpu_seconds = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "bot_version"], name="one_review_a_bot")
        ]
        verbose_name = gettext_lazy("game review")
        verbose_name_plural = gettext_lazy("game reviews")

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.status})"

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE
