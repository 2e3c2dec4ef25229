from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_save


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.models import User

        post_save.connect(_user_saved, sender=User, dispatch_uid="accounts.lookalike_keys")


def _user_saved(
    sender: type,
    instance: Any,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    # However a user is made or renamed (registration, the admin, createsuperuser, a test), the
    # names registered after it are checked against its name.
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    from accounts.models import remember_lookalike_keys

    remember_lookalike_keys(instance)
