"""Sign-in refused to a person under a sanction in force.

Listed in ``AUTHENTICATION_BACKENDS`` after axes' backend and before Django's ``ModelBackend``
(kept for the sessions it started: registration signs people in through it). It checks the
name and password as ``ModelBackend`` does; for the right password of a suspended or banned
person it raises ``PermissionDenied``, as axes does for a lockout, which ends the sign-in there
(no later backend is asked) and leaves the sanction on the request for the page to say why
and until when. Only the right password earns that answer: a stranger learns nothing.

Django tells axes of every refused sign-in alike, but the right password is no guess: axes is
told to leave it out (``AXES_WHITELIST_CALLABLE`` is ``right_password_of_the_sanctioned``), so
a suspended person who keeps trying is told why each time and is never locked out for it.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .models import sanction_in_force


class SanctionBackend(ModelBackend):
    def authenticate(  # type: ignore[override]  # as ModelBackend's own (django-stubs)
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            if username is not None and password is not None:
                # The name and password are wrong for ModelBackend too: end here rather than
                # have it hash the password a second time.
                raise PermissionDenied
            return None
        sanction = sanction_in_force(user)
        if sanction is None:
            return user
        if request is not None:
            request.refused_sanction = sanction  # type: ignore[attr-defined]
        raise PermissionDenied

    async def aauthenticate(  # type: ignore[override]
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        # ModelBackend's own does not ask authenticate(): the same checks, in a thread.
        return await sync_to_async(self.authenticate)(request, username, password, **kwargs)


def right_password_of_the_sanctioned(
    request: HttpRequest | None, credentials: dict[str, Any] | None = None
) -> bool:
    """Whether this sign-in was refused for a sanction, the password being right
    (``AXES_WHITELIST_CALLABLE``): not a failure to count towards a lockout."""
    return getattr(request, "refused_sanction", None) is not None
