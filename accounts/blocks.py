"""Blocking: one person keeps another away (accounts.Block). The blocked person cannot invite
the blocker to a game or follow them, never sees their online status, is never seated with them
by the rated queue or an arena, and what they write at a shared table is hidden from the
blocker as a mute hides it. Silent: the blocked person is never told; undone on the profile."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import Block, Follow


class BlockRefused(ValueError):
    """A block that may not be made, with the reason in words for the person."""


def block(user: User, other: User) -> None:
    """``user`` blocks ``other``, who stops following them."""
    if other.pk == user.pk:
        raise BlockRefused(_("You cannot block yourself"))
    with transaction.atomic():
        try:
            with transaction.atomic():
                Block.objects.get_or_create(blocker=user, blocked=other)
        except IntegrityError:  # made at the same moment by another request of theirs
            pass
        Follow.objects.filter(follower=other, followed=user).delete()


def unblock(user: User, other: User) -> None:
    Block.objects.filter(blocker=user, blocked=other).delete()


def blocks(user: User, other: User) -> bool:
    """Whether ``user`` blocks ``other``."""
    return Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).exists()


def blocked(user_id: int) -> frozenset[int]:
    """The people ``user_id`` blocks."""
    found = Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True)
    return frozenset(found)


def blockers_among(user_ids: Iterable[int], among: Iterable[int]) -> set[tuple[int, int]]:
    """Who of ``among`` blocks whom of ``user_ids``, as (blocked, blocker) pairs: one query."""
    found = Block.objects.filter(blocked_id__in=set(user_ids), blocker_id__in=set(among))
    return set(found.values_list("blocked_id", "blocker_id"))


def apart(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs of ``user_ids`` where one blocks the other: never seated together. One query."""
    ids = set(user_ids)
    if len(ids) < 2:
        return set()
    found = Block.objects.filter(Q(blocker_id__in=ids) & Q(blocked_id__in=ids))
    return {frozenset(pair) for pair in found.values_list("blocker_id", "blocked_id")}
