"""``manage.py rebuild_snapshots``: rebuild every game's snapshot from its seed and move log,
the source of truth (after a snapshot was damaged, or the engine's snapshot format changed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Game


def rebuild_snapshots() -> tuple[int, int]:
    """Every game's snapshot replayed from its log, each under the game's row lock so that no
    move lands in between. Returns (games, snapshots that were wrong or missing)."""
    games = repaired = 0
    for game_id in Game.objects.order_by("pk").values_list("pk", flat=True).iterator():
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            snapshot = game.match().to_snapshot()
            games += 1
            if game.snapshot != snapshot:
                repaired += 1
                Game.objects.filter(pk=game_id).update(snapshot=snapshot)
    return games, repaired


class Command(BaseCommand):
    help = "Rebuild every game's snapshot from its seed and move log."

    def handle(self, *args: Any, **options: Any) -> None:
        games, repaired = rebuild_snapshots()
        self.stdout.write(f"{games} game(s) replayed, {repaired} snapshot(s) rebuilt")
