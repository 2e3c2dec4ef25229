"""The open API, version 1: read-only JSON at /api/v1/, described by the OpenAPI schema at
/api/v1/openapi.json and the docs page at /api/docs (Django Ninja). docs/records.md gives the
formats; api/selectors.py does the reading.

Every answer is public: a private table's games, staff notes, reports, chat and e-mail are
never in it, and a running game never shows its seed or a hidden card. Each client gets
``HEARTS_API_RATE`` requests (``HEARTS_API_SIGNED_IN_RATE`` when signed in, counted by
account), and then 429 with Retry-After; bad parameters get 422 saying which, or 400.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from itertools import islice
from typing import Any
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.cache import patch_cache_control
from ninja import NinjaAPI, Query, Status
from ninja.errors import HttpError

from arenas.models import Arena
from games import reviews

from . import selectors
from .schemas import (
    ArenaDetail,
    ArenaLists,
    BoardFilters,
    GameFilters,
    GameOut,
    GamePage,
    LeaderboardOut,
    Message,
    Paging,
    PlayerOut,
    ReviewOut,
    ReviewProgressOut,
    RunningPage,
)
from .throttles import throttles

api = NinjaAPI(
    title="Hearts",
    version="1",
    description=(
        "Read-only: players, their games (also as a stream of one JSON object a line), any"
        " finished game in full with its deal check, the games running, the leaderboard and"
        " the arenas. Limits: see the README's API section; over them the answer is 429 with"
        " Retry-After."
    ),
    urls_namespace="api-v1",
    docs_url=None,  # the docs page is /api/docs (api/urls.py)
    openapi_url="/openapi.json",
    throttle=throttles(),
)

NOT_FOUND = {404: Message}


def _person(name: str) -> Any:
    user = selectors.person(name)
    if user is None:
        raise HttpError(404, f"No player called {name!r}")
    return user


def _page(
    request: HttpRequest,
    rows: Any,
    paging: Paging,
    name: str,
    shown: Callable[[Any, int], Iterable[Any]],
) -> dict[str, Any]:
    """The page asked for of ``rows`` (a query), under ``name``: ``shown(rows, offset)`` gives
    its rows as answered; with the count, the number of pages and the next page's address."""
    count = rows.count()
    pages = max(1, math.ceil(count / paging.per_page))
    offset = (paging.page - 1) * paging.per_page
    following = None
    if paging.page < pages:
        query = request.GET.copy()
        query["page"] = str(paging.page + 1)
        following = request.path + "?" + query.urlencode()
    page = {"count": count, "page": paging.page, "pages": pages, "next": following}
    return {**page, name: list(shown(rows, offset))}


def _check_dates(filters: GameFilters) -> None:
    if filters.since and filters.until and filters.since > filters.until:
        raise HttpError(400, "since is later than until: no game could be in that range")


@api.get("/players/{name}", response={200: PlayerOut, **NOT_FOUND}, tags=["players"])
def player(request: HttpRequest, name: str) -> Any:
    """A player: name, when they joined, their rating, their games counted by rule set and
    table size, their record and their latest games. A closed account says it is closed."""
    return selectors.player(_person(name))


@api.get("/players/{name}/games", response={200: GamePage, **NOT_FOUND}, tags=["players"])
def player_games(
    request: HttpRequest, name: str, filters: Query[GameFilters], paging: Query[Paging]
) -> Any:
    """A player's finished games at public tables, newest first, a page at a time."""
    user = _person(name)
    _check_dates(filters)
    games = selectors.games_of(user, **filters.dict())
    return _page(
        request,
        games,
        paging,
        "games",
        lambda rows, offset: map(selectors.summary, rows[offset : offset + paging.per_page]),
    )


@api.get(
    "/players/{name}/games.ndjson",
    response=NOT_FOUND,  # the 200, a stream, is described below
    tags=["players"],
    openapi_extra={
        "responses": {
            "200": {
                "description": "one finished game a line, in full (as /games/{id} gives it)",
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            }
        }
    },
)
def player_games_export(request: HttpRequest, name: str, filters: Query[GameFilters]) -> Any:
    """Every finished game of a player at public tables, newest first, streamed as one JSON
    object a line, each as /games/{id} gives it, with the list's filters."""
    user = _person(name)
    _check_dates(filters)
    games = selectors.games_of(user, **filters.dict())
    lines = (
        json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n"
        for game in selectors.exported(games)
    )
    response = StreamingHttpResponse(
        _streamed(request, lines), content_type="application/x-ndjson; charset=utf-8"
    )
    query = urlencode(sorted(request.GET.items()))
    suffix = f"-{zlib.crc32(query.encode()) % 10_000}" if query else ""
    filename = f"hearts-games-{user.username}{suffix}.ndjson"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _streamed(request: HttpRequest, lines: Iterator[str]) -> Iterator[str] | AsyncIterator[str]:
    """What the response sends, as it is read. Served by daphne (ASGI), Django would read a
    plain iterator to its end before sending its first line; so there the lines are read a
    hundred at a time, each batch in the thread the request's database connection is in."""
    if not isinstance(request, ASGIRequest):
        return lines

    async def batches() -> AsyncIterator[str]:
        take = sync_to_async(lambda: "".join(islice(lines, 100)), thread_sensitive=True)
        while batch := await take():
            yield batch

    return batches()


@api.get("/games/running", response=RunningPage, tags=["games"])
def running_games(request: HttpRequest, paging: Query[Paging]) -> Any:
    """Games being played at public tables: players and the scores so far, never a card."""
    return _page(
        request,
        selectors.running(),
        paging,
        "games",
        lambda rows, offset: map(selectors.running_game, rows[offset : offset + paging.per_page]),
    )


@api.get("/games/{int:game_id}", response={200: GameOut, 304: None, **NOT_FOUND}, tags=["games"])
def game(request: HttpRequest, game_id: int, response: HttpResponse) -> Any:
    """A game. Once it is over: every hand's deal and passes, every move with its seat and
    time, the scores, the result, the rating changes and the deal check (the seed and its
    fingerprint), with an ETag, since a finished game never changes. While it runs: the
    players, the scores of the hands played out and the fingerprint, nothing hidden."""
    found = selectors.viewable(game_id)
    if found is None:
        raise HttpError(404, f"No public game {game_id}")
    if not found.is_over:
        patch_cache_control(response, no_cache=True)
        return selectors.game(found)
    tag = selectors.etag(found)
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        unchanged = HttpResponse(status=304)
        unchanged["ETag"] = tag
        return unchanged
    response["ETag"] = tag
    patch_cache_control(response, public=True, max_age=settings.HEARTS_API_GAME_MAX_AGE)
    return selectors.game(found)


@api.get(
    "/games/{int:game_id}/review",
    response={200: ReviewOut, 202: ReviewProgressOut, **NOT_FOUND},
    tags=["games"],
)
def game_review(request: HttpRequest, game_id: int) -> Any:
    """The bot's review of a finished game (asked for on the game's page): every decision of
    its people judged with what they knew, the marks and each player's figures. 202 with the
    progress while it is made; 404 for a game not public or not reviewed."""
    found = selectors.viewable(game_id)
    review = reviews.review_of(found) if found is not None and found.is_over else None
    if found is None or review is None:
        raise HttpError(404, f"No review of game {game_id}")
    if not review.is_done:
        progress = {"status": review.status, "hands_done": review.hands_done}
        return Status(202, {**progress, "hands_total": review.hands_total})
    names = [player.name for player in sorted(found.players.all(), key=lambda p: p.seat)]
    return {
        "game": found.pk,
        "bot_version": review.bot_version,
        "cpu_seconds": round(review.cpu_seconds, 2),
        "summary": reviews.summary(review, names),
        "verdicts": review.verdicts,
    }


@api.get("/leaderboard", response=LeaderboardOut, tags=["ratings"])
def leaderboard(request: HttpRequest, board: Query[BoardFilters], paging: Query[Paging]) -> Any:
    """Everyone with a rated game, highest rating first; with ``rule_set`` or ``players``, those
    who played a rated game of that rule set or table size. A person has one rating over every
    rule set and size (shared/rules.md: ratings are for several players at once)."""
    return _page(
        request,
        selectors.board(board.rule_set, board.players),
        paging,
        "players",
        lambda rows, offset: selectors.ranked(rows, offset, paging.per_page),
    )


@api.get("/arenas", response=ArenaLists, tags=["arenas"])
def arenas(request: HttpRequest) -> Any:
    """The arenas: upcoming, running and the latest finished."""
    return selectors.arenas()


@api.get("/arenas/{int:arena_id}", response={200: ArenaDetail, **NOT_FOUND}, tags=["arenas"])
def arena(request: HttpRequest, arena_id: int) -> Any:
    """An arena and its standings."""
    found = Arena.objects.filter(pk=arena_id).first()
    if found is None:
        raise HttpError(404, f"No arena {arena_id}")
    return selectors.arena(found)
