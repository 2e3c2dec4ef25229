"""The bot's review of finished games: asked for on a game's page (or the API's), made by a
worker on a queue of its own (``reviews``, one process at low priority: live play never waits
behind a review), kept once made.

A review is written a hand at a time, each hand in its own transaction, so a worker that dies
leaves every hand it finished: the sweep (:func:`sweep`, every minute) queues a review again
that has not moved for :data:`STALE`, and the next run goes on from the first hand not kept. Two
runs of one review (a task delivered twice) cannot both keep a hand: each hand is kept only by
the run that finds it next in line. The judging is games/bots/review.py's, from each person's
view alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from itertools import groupby
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bots import review as judging
from games.engine import Match, Move, SeatView
from games.errors import ServiceError
from hearts_site import celery_app

from .models import Game, GameReview

TASK = "games.tasks.review_game"
QUEUE = "reviews"
# Reviews a person may have waiting (queued or running) at once.
MAX_WAITING = 2
STALE = timedelta(minutes=2)  # a review not moved for this long is queued again


def review_of(game: Game) -> GameReview | None:
    """The review of ``game`` by today's bot, made or on its way."""
    return GameReview.objects.filter(game=game, bot_version=judging.VERSION).first()


def people(game: Game) -> set[int]:
    """The seats people played (a bot's seat is not reviewed)."""
    return set(game.players.filter(is_bot=False).values_list("seat", flat=True))


def request_review(game_id: int, user: User) -> GameReview:
    """The review of the game, asked for by ``user``: the one there is, or a new one queued
    (two people asking at once get the same one)."""
    try:
        return _request(game_id, user)
    except IntegrityError:  # the other one made it first (SQLite locks no row for the check)
        made = GameReview.objects.filter(game_id=game_id, bot_version=judging.VERSION).first()
        if made is None:
            raise
        return made


def _request(game_id: int, user: User) -> GameReview:
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise ServiceError(_("There is no such game"))
        if not game.is_over:
            raise ServiceError(_("A game is reviewed once it is over"))
        existing = review_of(game)
        if existing is not None:
            return existing
        seats = people(game)
        hands = len(_by_hand(game.match(), seats))
        if not hands:
            raise ServiceError(
                _("Nobody but the bots made a decision in this game: there is nothing to review")
            )
        waiting = GameReview.objects.filter(
            requested_by=user, status__in=[GameReview.Status.QUEUED, GameReview.Status.RUNNING]
        ).count()
        if waiting >= MAX_WAITING:
            raise ServiceError(
                ngettext(
                    "You have %(count)s review on its way: ask for another once it is done",
                    "You have %(count)s reviews on their way: ask for another once one is done",
                    waiting,
                )
                % {"count": waiting}
            )
        made = GameReview.objects.create(
            game=game, bot_version=judging.VERSION, requested_by=user, hands_total=hands
        )
        transaction.on_commit(lambda: queue(made.pk))
    return made


def queue(review_id: int) -> None:
    celery_app.send_task(TASK, args=(review_id,), queue=QUEUE)


def _by_hand(match: Match, seats: set[int]) -> list[list[tuple[int, Move, SeatView]]]:
    """The decisions to judge, a list a hand (the hands without one left out)."""
    found = judging.decisions(match, seats)
    return [list(group) for _number, group in groupby(found, key=lambda d: d[2].hand_number)]


def run(review_id: int, *, stop_after: int | None = None) -> None:
    """Make the review, from its first hand not kept; ``stop_after`` hands at most (a test's
    worker dying half-way)."""
    review = GameReview.objects.select_related("game").get(pk=review_id)
    if review.is_done:
        return
    game = review.game
    seed = bytes(game.seed).hex()
    hands = _by_hand(game.match(), people(game))
    for done, position in enumerate(range(review.hands_done, len(hands))):
        if stop_after is not None and done >= stop_after:
            return
        started = time.process_time()
        verdicts = [
            verdict_json(judging.judge(index, move, view, seed), view)
            for index, move, view in hands[position]
        ]
        spent = time.process_time() - started
        if not _keep(review_id, position, verdicts, spent, last=position == len(hands) - 1):
            return  # another run is at it


def _keep(
    review_id: int, position: int, verdicts: list[dict[str, Any]], spent: float, *, last: bool
) -> bool:
    with transaction.atomic():
        review = GameReview.objects.select_for_update().get(pk=review_id)
        if review.hands_done != position or review.is_done:
            return False
        review.verdicts = [*review.verdicts, *verdicts]
        review.hands_done = position + 1
        review.cpu_seconds += spent
        review.status = GameReview.Status.DONE if last else GameReview.Status.RUNNING
        if last:
            review.finished_at = timezone.now()
        review.save()
    return True


def verdict_json(verdict: judging.Verdict, view: SeatView) -> dict[str, Any]:
    return {
        "move": verdict.index,
        "seat": verdict.seat,
        "hand": verdict.hand,
        "trick": len(view.tricks) + 1,
        "kind": verdict.kind,
        "chosen": [str(card) for card in verdict.chosen],
        "best": [str(card) for card in verdict.best],
        "value": round(verdict.chosen_value, 3),
        "best_value": round(verdict.best_value, 3),
        "loss": round(verdict.loss, 3),
        "mark": verdict.mark,
    }


def sweep() -> int:
    """Queue again each review waiting or running that has not moved for :data:`STALE` (its
    worker died, its task was lost); how many."""
    stale = GameReview.objects.filter(
        status__in=[GameReview.Status.QUEUED, GameReview.Status.RUNNING],
        touched_at__lt=timezone.now() - STALE,
    )
    ids = list(stale.values_list("pk", flat=True))
    GameReview.objects.filter(pk__in=ids).update(touched_at=timezone.now())
    for review_id in ids:
        queue(review_id)
    return len(ids)


def summary(review: GameReview, names: list[str]) -> list[dict[str, Any]]:
    """For each seat reviewed: its name, the points its choices lost in each hand and in all,
    and how many of each mark it got."""
    rows: dict[int, dict[str, Any]] = {}
    hands = sorted({verdict["hand"] for verdict in review.verdicts})
    for verdict in review.verdicts:
        row = rows.setdefault(
            verdict["seat"],
            {
                "seat": verdict["seat"],
                "name": names[verdict["seat"]],
                "by_hand": dict.fromkeys(hands, 0.0),
                "marks": {name: 0 for name, _least in judging.MARKS},
                "decisions": 0,
            },
        )
        row["by_hand"][verdict["hand"]] += verdict["loss"]
        row["decisions"] += 1
        if verdict["mark"]:
            row["marks"][verdict["mark"]] += 1
    out = []
    for seat in sorted(rows):
        row = rows[seat]
        row["lost"] = round(sum(row["by_hand"].values()), 1)
        row["per_hand"] = round(row["lost"] / max(len(hands), 1), 2)
        row["by_hand"] = [round(row["by_hand"][hand], 1) for hand in hands]
        out.append(row)
    return out


def marked(review: GameReview) -> Iterator[dict[str, Any]]:
    return (verdict for verdict in review.verdicts if verdict["mark"])
