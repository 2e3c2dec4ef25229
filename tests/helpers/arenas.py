"""Arenas for the tests (tests/arenas/, the API's): Standard tables of four for an hour."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from arenas import services
from arenas.models import Arena


def an_arena(name: str = "Test arena", **changes: Any) -> Arena:
    """An arena that starts a minute ago (unless ``changes`` say otherwise) and runs for an
    hour, as it is made: the sweep that starts it has not come yet."""
    fields: dict[str, Any] = {
        "preset": "standard",
        "players": 4,
        "starts_at": timezone.now() - timedelta(minutes=1),
        "minutes": 60,
    }
    fields.update(changes)
    return services.create_arena(name, **fields)


def running_arena(name: str = "Test arena", **changes: Any) -> Arena:
    """An arena that started a minute ago and runs for an hour (started by the sweep, unless
    ``changes`` put its start ahead)."""
    arena = an_arena(name, **changes)
    Arena.objects.filter(pk=arena.pk).update(started=arena.starts_at <= timezone.now())
    arena.refresh_from_db()
    return arena
