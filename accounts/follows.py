"""Following people: one-way and private (accounts.Follow). A person follows another from the
other's profile and finds them again on their own list (``/accounts/following/``), which also
says which of them follow back. Nobody else learns who follows whom: not a profile, the API or
a game's page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import blocks, presence
from accounts.models import Follow, PresenceChoice
from games.models import Game, GamePlayer

MOST = 500  # people one may follow


class FollowRefused(ValueError):
    """A follow that may not be made, with the reason in words for the person."""


def follow(user: User, other: User) -> None:
    if other.pk == user.pk:
        raise FollowRefused(_("You cannot follow yourself"))
    if not other.is_active:
        raise FollowRefused(_("This account is closed"))
    if blocks.blocks(other, user):  # in words that do not tell them they are blocked
        raise FollowRefused(_("You cannot follow this person"))
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
    # What the person lets ``user`` see of them (accounts/presence.py): "playing", "online",
    # "offline", or "" when they show it to nobody or only to people they follow.
    status: str = ""
    last_seen: datetime | None = None
    watch: str = ""  # their public table's address, while they play there


def shown_to(user_id: int) -> str:
    choice = PresenceChoice.objects.filter(user_id=user_id).values_list("shown_to", flat=True)
    return choice.first() or PresenceChoice.ShownTo.FOLLOWED


def choose_shown_to(user: User, choice: str) -> None:
    if choice not in PresenceChoice.ShownTo.values:
        raise FollowRefused(_("Choose who may see when you are online"))
    PresenceChoice.objects.update_or_create(user=user, defaults={"shown_to": choice})


def following(user: User) -> list[Followed]:
    """Whom ``user`` follows, by name, each marked if they follow ``user`` too, with whether
    they are online, playing (and where, at a public table) or when they were last seen, for
    those who let ``user`` see it (never for someone who blocks ``user``)."""
    return following_of([user])[user.pk]


def following_of(users: Iterable[User], *, on_only: bool = False) -> dict[int, list[Followed]]:
    """:func:`following` of each of ``users`` (by id), all at once: the same six queries and
    two reads of presence however many people ask (the lobby's beat asks for all its sockets'
    people together, live/consumers.py). With ``on_only``, only the people who are on now (as
    the lobby shows them): who is on is read first, and only they are looked at further."""
    people = {user.pk for user in users}
    if not people:
        return {}
    pairs = list(
        Follow.objects.filter(follower_id__in=people).values_list(
            "follower_id", "followed_id", "since"
        )
    )
    if on_only:
        on = presence.online({followed for _person, followed, _since in pairs})
        pairs = [pair for pair in pairs if on[pair[1]]]
    ids = {followed for _person, followed, _since in pairs}
    names = User.objects.only("id", "username", "is_active").in_bulk(ids)
    pairs.sort(key=lambda pair: names[pair[1]].username.lower())
    # (person, someone they follow who follows them back)
    back = set(
        Follow.objects.filter(followed_id__in=people, follower_id__in=ids).values_list(
            "followed_id", "follower_id"
        )
    )
    choices = dict(
        PresenceChoice.objects.filter(user_id__in=ids).values_list("user_id", "shown_to")
    )
    blockers = blocks.blockers_among(people, ids)  # never seen by the people they block
    # (person, someone they follow whom they may see come and go)
    visible = set()
    for person, followed, _since in pairs:
        choice = choices.get(followed, PresenceChoice.ShownTo.FOLLOWED)
        if (person, followed) in blockers:
            continue
        if choice == PresenceChoice.ShownTo.EVERYONE or (
            choice == PresenceChoice.ShownTo.FOLLOWED and (person, followed) in back
        ):
            visible.add((person, followed))
    seen_ids = {followed for _, followed in visible}
    on = presence.online(seen_ids)
    seen = presence.last_seen(seen_ids)
    playing: dict[int, str] = {}
    running = GamePlayer.objects.filter(
        user_id__in=seen_ids, is_bot=False, game__status=Game.Status.PLAYING
    ).values_list("user_id", "game__table_id", "game__table__private")
    for user_id, table_id, private in running:
        playing[user_id] = "" if private else reverse("table", args=[table_id])
    out: dict[int, list[Followed]] = {person: [] for person in people}
    for person, followed, since in pairs:
        status = ""
        if (person, followed) in visible:
            status = (
                "playing" if followed in playing else "online" if on.get(followed) else "offline"
            )
        last = seen.get(followed)
        out[person].append(
            Followed(
                names[followed],
                since,
                (person, followed) in back,
                status=status,
                last_seen=datetime.fromtimestamp(last, tz=UTC) if last and status else None,
                watch=playing.get(followed, "") if status else "",
            )
        )
    return out


def followed_among(user: object, user_ids: Iterable[int | None]) -> set[int]:
    """Which of ``user_ids`` the signed-in ``user`` follows (a game's players, say): one query,
    none for a visitor."""
    if not isinstance(user, User):
        return set()
    ids = {i for i in user_ids if i is not None}
    found = Follow.objects.filter(follower=user, followed_id__in=ids)
    return set(found.values_list("followed_id", flat=True))
