"""Staff for the tests that act on people: a moderator holds the permission of every action,
as the "Moderators" group gives them. They are given one by one rather than through the group,
which a database emptied between two transactional tests no longer holds.

Staff who hold permissions must have two-factor sign-in on (accounts/two_factor.py): these
have it, and a test client signed in as one (``force_login``) passed it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission, User
from django.contrib.auth.signals import user_logged_in
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from moderation.permissions import PERMISSIONS


def moderator(username: str = "mod_erin", *, actions: list[str] | None = None) -> User:
    """A member of staff who may take ``actions`` (every action on people when not given)."""
    staff = User.objects.create_user(username, is_staff=True)
    codenames = [PERMISSIONS[action][0] for action in actions or PERMISSIONS]
    staff.user_permissions.set(
        Permission.objects.filter(content_type__app_label="moderation", codename__in=codenames)
    )
    return with_two_factor(staff)


TEST_APP = "the tests' app"  # the authenticator a test client's sign-in passes with


def with_two_factor(user: User) -> User:
    """``user`` with an authenticator: a test client's ``force_login`` as them signs in a
    session that passed two-factor."""
    TOTPDevice.objects.get_or_create(user=user, name=TEST_APP, defaults={"confirmed": True})
    return user


def code_now(user: User) -> str:
    """The code ``user``'s authenticator (the tests', or one set up on the page) shows now."""
    device = TOTPDevice.objects.filter(user=user).order_by("-pk").first()
    assert device is not None, f"{user} has no authenticator"
    return f"{TOTP(device.bin_key, device.step, device.t0, device.digits).token():06d}"


def _passed_two_factor(sender: type, request: Any, user: Any, **kwargs: Any) -> None:
    # A test client's force_login signs in without a code: the session of a user given
    # ``with_two_factor`` is marked as django-otp marks one that gave its code.
    session = getattr(request, "session", None)
    device = TOTPDevice.objects.filter(user=user, name=TEST_APP, confirmed=True).first()
    if device is not None and session is not None:
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id


user_logged_in.connect(_passed_two_factor, dispatch_uid="tests.helpers.two_factor")
