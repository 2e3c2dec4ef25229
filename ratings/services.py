"""The rating service: rate a game once as it ends, rate the later games again after a void,
or replay every rated game from scratch.

``rate_game`` runs inside the transaction that finishes the game (``games.services._finish``),
so a game's result and its rating changes are saved together or not at all. It locks the
players' user rows first, so two games that end at the same time with a person in common are
rated one after the other. ``recompute_all`` replays every rated game in the order they ended
(``finished_at``, then id) through the same arithmetic, and so gives the same numbers.

After a void (``moderation.voiding.void_game``) only what the voided game changed is worked out
again: its players' later games, and the later games of everyone who played one of those, in
the order the games ended, each from its players' numbers just before it (what the rating
changes keep, ``mu_before`` and ``sigma_before``). The result is what ``recompute_all`` would
give, without rating everything again and without holding back the games that end meanwhile:

1. In the void's transaction, :func:`unrate_game` deletes the game's rating changes and notes
   where its players stood before it, and the newest rating change of all.
2. :func:`rate_again_after` then goes through the later rated games in batches, each batch
   its own short transaction, and writes their new rating changes. Nothing is locked: a game
   that ends meanwhile is rated as usual, from the ratings as they are (not yet worked out
   again), and its rating changes are newer than the one noted.
3. Last, in one short transaction that games ending wait for, the games rated meanwhile are
   rated again too where the void reached them, and the ratings themselves are written.

The games that end wait only for steps 1 and 3 (the *rating lock*: on PostgreSQL an advisory
lock that ``rate_game`` takes shared and those steps take exclusive; SQLite lets one writer in
at a time anyway). Two voids, or a void and ``recompute_all``, never run at once (an advisory
lock held for the whole of each on PostgreSQL). A void cut short (the process killed) leaves
the later ratings as they were: ``python manage.py recompute_ratings`` puts them right.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any

import psycopg
from django.contrib.auth.models import User
from django.db import connections, transaction
from django.db.models import Field, Model, Q
from django.utils import timezone

from games.models import Game, GamePlayer

from . import maths
from .models import Rating, RatingChange

# PostgreSQL advisory lock keys: the rating lock (rating a game, shared; writing what a void
# or a recompute worked out, exclusive) and the one held by a void or a recompute throughout.
RATING_LOCK = 0x4865_6172_7473_01
REPLAY_LOCK = 0x4865_6172_7473_02
BATCH_GAMES = 500  # later games a batch of a void's replay rates again, in one transaction
CHANGED_FIELDS = ["mu_before", "sigma_before", "mu_after", "sigma_after", "games_after"]


def is_rateable(game: Game, players: Sequence[GamePlayer]) -> bool:
    """Rated table, not voided, no bot, every seat a registered person from start to end, and
    a result with places."""
    user_ids = [player.user_id for player in players]
    return (
        game.rated
        and not game.void
        and game.status == Game.Status.FINISHED
        and bool(game.result and game.result.get("places"))
        and bool(players)
        and not any(player.is_bot for player in players)
        and None not in user_ids
        and len(set(user_ids)) == len(user_ids)
    )


def rate_game(game: Game) -> list[RatingChange]:
    """Update the ratings of everyone in ``game`` once; a second call changes nothing."""
    players = list(game.players.order_by("seat"))
    if not is_rateable(game, players):
        return []
    with transaction.atomic():
        _hold_ratings(exclusive=False)
        user_ids = [player.user_id for player in players if player.user_id is not None]
        _lock_users(user_ids)
        if RatingChange.objects.filter(game=game).exists():
            return []
        ratings = {rating.user_id: rating for rating in Rating.objects.filter(user_id__in=user_ids)}
        for user_id in user_ids:
            ratings.setdefault(user_id, Rating(user_id=user_id))
        changes = _rate(game, players, ratings)
        for rating in ratings.values():
            rating.save()
        return RatingChange.objects.bulk_create(changes)


def recompute_all() -> tuple[int, int]:
    """Forget every rating and rate every rated finished game again, oldest first. Games that
    end meanwhile wait for it to finish before they are rated.

    Returns the number of games rated and of people with a rating."""
    with one_replay_at_a_time(), transaction.atomic():
        _hold_ratings(exclusive=True)
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        ratings: dict[int, Rating] = {}
        changes: list[RatingChange] = []
        rated = 0
        games = (
            Game.objects.filter(rated=True, status=Game.Status.FINISHED)
            .order_by("finished_at", "pk")
            .prefetch_related("players")
        )
        for game in games.iterator(chunk_size=500):
            players = sorted(game.players.all(), key=lambda player: player.seat)
            if not is_rateable(game, players):
                continue
            for player in players:
                assert player.user_id is not None
                ratings.setdefault(player.user_id, Rating(user_id=player.user_id))
            changes += _rate(game, players, ratings)
            rated += 1
        Rating.objects.bulk_create(ratings.values(), batch_size=500)
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return rated, len(ratings)


# Rating the later games again after a void -------------------------------------------------


@dataclass
class Replay:
    """Where a void's replay stands: everyone whose numbers the void changed so far (by user
    id), with their skill and rated games as the replay has worked them out."""

    after: tuple[datetime, int]  # the voided game's (finished_at, id): later games are replayed
    newest_change: int  # the newest rating change at the void: any newer one was made meanwhile
    skills: dict[int, maths.Skill] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    rated_again: int = 0  # games rated again

    def rate_again(self, changes: Sequence[RatingChange]) -> list[RatingChange]:
        """One later game's rating changes (seat by seat), worked out again if one of its
        players' numbers changed; the game's players are then among those changed."""
        if not any(change.user_id in self.skills for change in changes):
            return []
        before = [self._before(change) for change in changes]
        after = maths.rate([skill for skill, _ in before], [change.place for change in changes])
        for change, (old, games), new in zip(changes, before, after, strict=True):
            change.mu_before, change.sigma_before = old.mu, old.sigma
            change.mu_after, change.sigma_after = new.mu, new.sigma
            change.games_after = games + 1
            self.skills[change.user_id], self.games[change.user_id] = new, games + 1
        self.rated_again += 1
        return list(changes)

    def _before(self, change: RatingChange) -> tuple[maths.Skill, int]:
        """A player's skill and rated games before the game: as the replay has them, or, for
        someone the void has not reached yet, as the rating change kept them."""
        if change.user_id in self.skills:
            return self.skills[change.user_id], self.games[change.user_id]
        return maths.Skill(change.mu_before, change.sigma_before), change.games_after - 1


def unrate_game(game: Game) -> Replay:
    """In the transaction that voids ``game``: delete its rating changes and return where its
    players stood before it, for :func:`rate_again_after` to go on from after the commit."""
    assert game.finished_at is not None
    with transaction.atomic():
        _hold_ratings(exclusive=True)
        newest = RatingChange.objects.order_by("-pk").values_list("pk", flat=True).first()
        replay = Replay(after=(game.finished_at, game.pk), newest_change=newest or 0)
        for change in RatingChange.objects.filter(game=game):
            replay.skills[change.user_id] = maths.Skill(change.mu_before, change.sigma_before)
            replay.games[change.user_id] = change.games_after - 1
        RatingChange.objects.filter(game=game).delete()
    return replay


def rate_again_after(replay: Replay) -> int:
    """Rate again every game after the voided one that its players' changed numbers reach,
    ``BATCH_GAMES`` later games a transaction, then (holding the rating lock, briefly) the
    games rated meanwhile, and save the new ratings. Returns the number of games rated again."""
    if not replay.skills:
        return 0  # the voided game was not rated: nobody's numbers change
    later, batch = _later_games(replay), BATCH_GAMES
    for start in range(0, len(later), batch):
        changes = RatingChange.objects.filter(
            game_id__in=later[start : start + batch], pk__lte=replay.newest_change
        )
        _rate_batch_again(replay, changes.order_by("game__finished_at", "game_id", "seat"))
    with transaction.atomic():
        _hold_ratings(exclusive=True)
        meanwhile = RatingChange.objects.filter(pk__gt=replay.newest_change)
        _rate_batch_again(replay, meanwhile.order_by("game__finished_at", "game_id", "seat"))
        _save_ratings(replay)
    return replay.rated_again


def _later_games(replay: Replay) -> list[int]:
    """The rated games after the voided one, in the order they ended."""
    finished_at, game_id = replay.after
    later = Q(game__finished_at__gt=finished_at) | Q(
        game__finished_at=finished_at, game_id__gt=game_id
    )
    rows = (
        RatingChange.objects.filter(later, pk__lte=replay.newest_change)
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )
    return list(dict.fromkeys(rows))


def _rate_batch_again(replay: Replay, changes: Iterable[RatingChange]) -> None:
    """Rate again the games of ``changes`` (in the order they ended, seat by seat) that the
    void reaches, and save their new rating changes in one transaction."""
    changed: list[RatingChange] = []
    for _, game_changes in groupby(changes, key=lambda change: change.game_id):
        changed += replay.rate_again(list(game_changes))
    _update(RatingChange, changed, CHANGED_FIELDS)


def _save_ratings(replay: Replay) -> None:
    """Everyone the void reached gets the rating the replay worked out; someone whose only
    rated game was the voided one has none any more."""
    now = timezone.now()
    ratings = {r.user_id: r for r in Rating.objects.filter(user_id__in=list(replay.skills))}
    unrated = {user_id for user_id, games in replay.games.items() if not games}
    Rating.objects.filter(user_id__in=unrated).delete()
    new, updated = [], []
    for user_id, skill in replay.skills.items():
        if user_id in unrated:
            continue
        rating = ratings.get(user_id)
        if rating is None:
            rating = Rating(user_id=user_id)
            new.append(rating)
        else:
            updated.append(rating)
        rating.mu, rating.sigma, rating.games = skill.mu, skill.sigma, replay.games[user_id]
        rating.updated_at = now
    _update(Rating, updated, ["mu", "sigma", "games", "updated_at"])
    Rating.objects.bulk_create(new)


def _update(model: type[Model], rows: Sequence[Model], names: Sequence[str]) -> None:
    """Save the fields ``names`` of ``rows`` in one statement, its values bound on the server
    (PostgreSQL; elsewhere one prepared statement run for each row). Django's ``bulk_update``
    builds an expression for every value: for the few thousand rating changes of a batch, that
    took seconds."""
    if not rows:
        return
    connection = connections[model._default_manager.db]
    fields = [_field(model, name) for name in names] + [_field(model, "id")]
    table = connection.ops.quote_name(model._meta.db_table)
    *columns, key = [connection.ops.quote_name(f.column) for f in fields]
    if connection.vendor != "postgresql":
        values = [
            [f.get_db_prep_save(getattr(r, f.attname), connection) for f in fields] for r in rows
        ]
        settings = ", ".join(f"{column} = %s" for column in columns)
        with connection.cursor() as cursor:
            cursor.executemany(f"UPDATE {table} SET {settings} WHERE {key} = %s", values)
        return
    arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
    settings = ", ".join(f"{column} = v.{column}" for column in columns)
    sql = (
        f"UPDATE {table} AS t SET {settings} FROM unnest({arrays}) "
        f"AS v({', '.join([*columns, key])}) WHERE t.{key} = v.{key}"
    )
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql.encode(), [[getattr(row, f.attname) for row in rows] for f in fields])


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field


# Locks -------------------------------------------------------------------------------------


def _hold_ratings(*, exclusive: bool) -> None:
    """Take the rating lock until the transaction ends: shared to rate a game as it ends,
    exclusive to write what a void or a recompute worked out. On PostgreSQL only; SQLite's
    write transactions (BEGIN IMMEDIATE) are one at a time anyway."""
    connection = connections[RatingChange.objects.db]
    if connection.vendor != "postgresql":
        return
    how = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {how}(%s)", [RATING_LOCK])


@contextmanager
def one_replay_at_a_time() -> Iterator[None]:
    """Hold off any other void or recompute of the ratings until the block ends (PostgreSQL:
    an advisory lock of the connection; elsewhere nothing)."""
    connection = connections[RatingChange.objects.db]
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [REPLAY_LOCK])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [REPLAY_LOCK])


def _lock_users(user_ids: Sequence[int]) -> None:
    """Lock the people's rows in id order (the same order everywhere, so no deadlock)."""
    list(User.objects.select_for_update().filter(pk__in=user_ids).order_by("pk"))


def _rate(
    game: Game, players: Sequence[GamePlayer], ratings: dict[int, Rating]
) -> list[RatingChange]:
    """The changes one game makes; ``ratings`` (by user id) are updated in memory."""
    assert game.result is not None
    places = [int(place) for place in game.result["places"]]
    mine = [ratings[player.user_id] for player in players if player.user_id is not None]
    before = [rating.skill for rating in mine]
    after = maths.rate(before, places)
    changes = []
    for player, rating, old, new, place in zip(players, mine, before, after, places, strict=True):
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        changes.append(
            RatingChange(
                game=game,
                user_id=rating.user_id,
                seat=player.seat,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                games_after=rating.games,
            )
        )
    return changes
