"""Following people: one-way and private (accounts.Follow). A person follows another from the
other's profile and finds them again on their own list (``/accounts/following/``), which also
says which of them follow back. Nobody else learns who follows whom: not a profile, the API or
a game's page."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import Follow

MOST = 500  # people one may follow


class FollowRefused(ValueError):
    """A follow that may not be made, with the reason in words for the person."""


def follow(user: User, other: User) -> None:
    if other.pk == user.pk:
        raise FollowRefused(_("You cannot follow yourself"))
    if not other.is_active:
        raise FollowRefused(_("This account is closed"))
    if Follow.objects.filter(follower=user).count() >= MOST:
        raise FollowRefused(
            _("You follow %(count)s people already: unfollow someone first") % {"count": MOST}
        )
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=user, followed=other)
    except IntegrityError:  # made at the same moment by another request of theirs
        pass


def unfollow(user: User, other: User) -> None:
    Follow.objects.filter(follower=user, followed=other).delete()


def follows(user: User, other: User) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()


@dataclass(frozen=True)
class Followed:
    person: User
    since: object
    follows_you: bool


def following(user: User) -> list[Followed]:
    """Whom ``user`` follows, by name, each marked if they follow ``user`` too."""
    back = set(Follow.objects.filter(followed=user).values_list("follower_id", flat=True))
    rows = Follow.objects.filter(follower=user).select_related("followed")
    return [
        Followed(row.followed, row.since, row.followed_id in back)
        for row in sorted(rows, key=lambda row: row.followed.username.lower())
    ]
