"""Staff for the tests that act on people: a moderator holds the permission of every action,
as the "Moderators" group gives them. They are given one by one rather than through the group,
which a database emptied between two transactional tests no longer holds."""

from __future__ import annotations

from django.contrib.auth.models import Permission, User

from moderation.permissions import PERMISSIONS


def moderator(username: str = "mod_erin", *, actions: list[str] | None = None) -> User:
    """A member of staff who may take ``actions`` (every action on people when not given)."""
    staff = User.objects.create_user(username, is_staff=True)
    codenames = [PERMISSIONS[action][0] for action in actions or PERMISSIONS]
    staff.user_permissions.set(
        Permission.objects.filter(content_type__app_label="moderation", codename__in=codenames)
    )
    return staff
