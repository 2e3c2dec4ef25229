"""Celery tasks of the rated queue: seating a queue when someone's page opens, and beat's
sweep (drop who left, seat who can, the gaps having widened since the last)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def pair(preset: str, players: int) -> int:
    queue = services.Queue(preset, players)
    return len(services.pair(queue)) if queue in services.QUEUES else 0


@shared_task(ignore_result=True)
def sweep() -> int:
    return services.sweep()
