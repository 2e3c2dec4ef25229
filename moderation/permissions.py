"""Who may take which action on people.

Each action (suspend, ban, lift, rename, mark, unmark, close, chat ban and its lift) takes a permission of its own,
held on the audit log's model (``AuditEntry.Meta.permissions``); migrations give them all to the
"Moderators" group, with the permissions that voiding games and handling reports check.
Superusers hold every permission. Acting on a member of staff or a superuser takes a
superuser, whatever else one holds: otherwise a moderator could lock a superuser out of the
admin, and only the shell would let them back in.

The admin offers an action only to those who may take it (``may``); the services refuse the
others (``refusal``), so a request made by hand is refused too. Staff who hold permissions must
have passed two-factor sign-in first (accounts/two_factor.py): until then they may take none.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import two_factor

# The permission each action takes: its codename and its name, as the admin shows it.
PERMISSIONS: dict[str, tuple[str, str]] = {
    "suspend": ("suspend_user", "Can suspend people"),
    "ban": ("ban_user", "Can ban people"),
    "lift": ("lift_sanctions", "Can lift suspensions and bans"),
    "rename": ("rename_user", "Can rename people"),
    "mark": ("mark_user", "Can mark players"),
    "unmark": ("unmark_user", "Can lift marks"),
    "close": ("close_account", "Can close accounts"),
    "chat_ban": ("chat_ban_user", "Can ban people from chat"),
    "chat_lift": ("lift_chat_bans", "Can lift chat bans"),
}

MODERATORS = "Moderators"  # the group that holds them (moderation/migrations)

# Why staff without an action's permission may not take it, in the reader's language (the
# permissions' names above are stored as written, by the migrations).
NOT_PERMITTED = {
    "suspend": gettext_lazy(
        "You do not have permission to suspend people: a superuser can give it to you"
    ),
    "ban": gettext_lazy("You do not have permission to ban people: a superuser can give it to you"),
    "lift": gettext_lazy(
        "You do not have permission to lift suspensions and bans: a superuser can give it to you"
    ),
    "rename": gettext_lazy(
        "You do not have permission to rename people: a superuser can give it to you"
    ),
    "mark": gettext_lazy(
        "You do not have permission to mark players: a superuser can give it to you"
    ),
    "unmark": gettext_lazy(
        "You do not have permission to lift marks: a superuser can give it to you"
    ),
    "close": gettext_lazy(
        "You do not have permission to close accounts: a superuser can give it to you"
    ),
    "chat_ban": gettext_lazy(
        "You do not have permission to ban people from chat: a superuser can give it to you"
    ),
    "chat_lift": gettext_lazy(
        "You do not have permission to lift chat bans: a superuser can give it to you"
    ),
}


def permission(action: str) -> str:
    """The permission ``action`` takes, as ``has_perm`` asks for it.

    >>> permission("ban")
    'moderation.ban_user'
    """
    return f"moderation.{PERMISSIONS[action][0]}"


def may(staff: User | AnonymousUser, action: str) -> bool:
    """Whether ``staff`` may take ``action`` at all: an active member of staff who holds its
    permission (a superuser holds them all)."""
    held = staff.is_active and staff.is_staff and staff.has_perm(permission(action))
    return held and two_factor.cleared(staff)


def without_two_factor(staff: User | AnonymousUser) -> str | None:
    """Why ``staff`` may take no moderation action yet: two-factor sign-in not passed; None
    when it is, or is not asked of them."""
    if two_factor.cleared(staff):
        return None
    return _(
        "Staff must sign in with two-factor before taking any moderation action: turn it on "
        "from your account's page (Two-factor sign-in)"
    )


def refusal(staff: User | AnonymousUser, action: str, person: User) -> str | None:
    """Why ``staff`` may not take ``action`` on ``person``, in words fit to show them; None
    when they may."""
    if why := without_two_factor(staff):
        return why
    if not may(staff, action):
        return str(NOT_PERMITTED[action])
    if (person.is_staff or person.is_superuser) and not staff.is_superuser:
        name = {"name": person.username}
        if person.is_superuser:
            return (
                _("%(name)s is a superuser: only a superuser may act on staff or superusers") % name
            )
        return _("%(name)s is staff: only a superuser may act on staff or superusers") % name
    return None
