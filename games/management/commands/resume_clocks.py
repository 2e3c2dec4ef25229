"""``manage.py resume_clocks``: after a restart of the whole site, give every running game a
fresh deadline for the turn in progress and wake its bots (``serve`` runs it at start)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import resume_clocks


class Command(BaseCommand):
    help = "Give every running game a fresh deadline for its turn in progress."

    def handle(self, *args: Any, **options: Any) -> None:
        resumed = resume_clocks()
        if resumed or options["verbosity"] > 1:
            self.stdout.write(f"{resumed} running game(s) resumed")
