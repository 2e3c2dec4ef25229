"""Writing the audit log: every staff action calls :func:`record` in the same transaction as
the change it made, so an action and its entry are saved together or not at all."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import Game

from .models import AuditEntry


def record(
    staff: User,
    action: str,
    *,
    user: User | None = None,
    game: Game | None = None,
    reason: str = "",
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    """Keep the entry for ``staff`` doing ``action`` to ``user`` and/or ``game``, and why."""
    return AuditEntry.objects.create(
        staff=staff, action=action, user=user, game=game, reason=reason, details=details or {}
    )
