"""Celery tasks of the arenas: seating an arena when someone joins or opens its page, freeing
and seating again the players of a game that ended, and beat's sweep (start, end, schedule,
seating as the gaps widen)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def pair(arena_id: int) -> int:
    return len(services.pair(arena_id))


@shared_task(ignore_result=True)
def game_ended(game_id: int) -> None:
    services.game_ended(game_id)


@shared_task(ignore_result=True)
def sweep() -> int:
    return services.sweep()
