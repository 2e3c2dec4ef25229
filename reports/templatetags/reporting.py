"""The players a viewer of a game's page may report."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from games.models import GamePlayer

register = template.Library()


@register.filter
def reportable_by(
    players: list[GamePlayer], viewer: AbstractBaseUser | AnonymousUser
) -> list[GamePlayer]:
    """The people among ``players`` other than ``viewer``, when ``viewer`` is one of them: a
    game is reported by those who played in it. Bots and players who have left the site cannot
    be reported, nor can one report oneself."""
    if not viewer.is_authenticated or all(p.user_id != viewer.pk for p in players):
        return []
    return [p for p in players if not p.is_bot and p.user is not None and p.user_id != viewer.pk]
