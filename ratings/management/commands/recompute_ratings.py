"""Rate every rated finished game again from scratch, in the order the games ended."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import recompute_all


class Command(BaseCommand):
    help = (
        "Delete every rating and rate all rated finished games again, oldest first "
        "(after a game was voided, say)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        games, people = recompute_all()
        game_s = "game" if games == 1 else "games"
        people_s = "person has" if people == 1 else "people have"
        self.stdout.write(f"Rated {games} {game_s}: {people} {people_s} a rating.")
