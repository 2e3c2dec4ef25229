from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.models import User

        post_save.connect(_user_saved, sender=User, dispatch_uid="accounts.lookalike_keys")
        user_logged_in.connect(_signed_in, dispatch_uid="accounts.sign_ins")


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


def _signed_in(sender: type, request: Any, user: Any, **kwargs: Any) -> None:
    # However a person signs in (the site's page, the admin's, a test's client), the session
    # goes on their list of sign-ins.
    if request is None or not hasattr(request, "session"):
        return
    from accounts.sign_ins import record

    record(request, user)
