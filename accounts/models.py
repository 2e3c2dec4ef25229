from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models

from accounts.validators import lookalike_keys


class LookalikeKey(models.Model):
    """One of the keys a name shares with the names it could be taken for (``lookalike_keys``).

    Kept for every user, so that a new name is checked against all of them with one query.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lookalike_keys"
    )
    key = models.CharField(max_length=200, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_key_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


def holder_of_a_lookalike(name: str) -> User | None:
    """Someone whose name could be taken for ``name``, if anyone has one."""
    keys = LookalikeKey.objects.filter(key__in=lookalike_keys(name)).select_related("user")
    found = keys.order_by("user_id").first()
    return found.user if found else None


def remember_lookalike_keys(user: User) -> None:
    """Store ``user``'s keys, replacing any they had under an earlier name."""
    keys = lookalike_keys(user.username)
    LookalikeKey.objects.filter(user=user).exclude(key__in=keys).delete()
    LookalikeKey.objects.bulk_create(
        [LookalikeKey(user=user, key=key) for key in keys], ignore_conflicts=True
    )
