"""What staff do to a person: suspend, ban, lift, rename, mark, unmark, close the account, and
ban from chat and lift a chat ban; and to a name: keep it out of use, or let it be taken again.

Each action is one transaction that locks the person's row, makes the change and writes its
audit entry (``moderation.audit.record``), so the two are saved together or not at all. A
sanction in force keeps the person out (``moderation.gates``, the sign-in backend and the
middleware); once it is saved their sockets hear ``account.closed`` and close, each game they
are playing ends against them as a resignation and they leave the open tables they sit at,
through the games' own write path.

A suspension or a ban has a reason, shown to the person word for word, and a note for staff
that they never see. The reason may not name anyone who reported them: the report form
promises that the person is not told who reported them.

Nothing here deletes anyone: closing an account deactivates it, and its games, ratings,
reports and audit entries stay.
"""

from __future__ import annotations

import re
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import two_factor
from accounts.models import (
    LookalikeKey,
    ReservedName,
    is_reserved,
    is_wholly_reserved,
    remember_lookalike_keys,
    reserve_name,
)
from accounts.validators import lookalike_keys, validate_username
from games import services
from games.models import Game, GamePlayer, Seat, Table
from live import broadcasts
from reports.models import Report

from .audit import record
from .models import ChatBan, Mark, Sanction
from .permissions import NOT_PERMITTED, may, refusal, without_two_factor

ACCOUNT_CLOSED = "account.closed"  # the message that closes a person's sockets


class ModerationError(ValueError):
    """An action staff cannot take; the message says why, fit to show them."""


def account_group(user_id: int) -> str:
    """The channel group of every socket a signed-in person has open."""
    return f"user-{user_id}"


def _check_allowed(staff: User, action: str, user: User) -> None:
    """``staff`` holds the permission ``action`` takes, and ``user`` is not staff unless
    ``staff`` is a superuser (``moderation.permissions``)."""
    why = refusal(staff, action, user)
    if why is not None:
        raise ModerationError(why)


def suspend(staff: User, user: User, *, until: datetime, reason: str, note: str = "") -> Sanction:
    """Keep ``user`` out until ``until``, telling them ``reason`` (and never ``note``)."""
    _check_allowed(staff, "suspend", user)
    if until <= timezone.now():
        raise ModerationError(_("A suspension ends in the future: choose a later end"))
    return _sanction(staff, user, Sanction.Kind.SUSPENSION, until, reason, note)


def ban(staff: User, user: User, *, reason: str, note: str = "") -> Sanction:
    """Keep ``user`` out for good (until a lift), telling them ``reason`` (never ``note``)."""
    _check_allowed(staff, "ban", user)
    return _sanction(staff, user, Sanction.Kind.BAN, None, reason, note)


def lift(staff: User, user: User, *, reason: str) -> int:
    """End every sanction of ``user``'s in force now; how many there were."""
    _check_allowed(staff, "lift", user)
    _check_reason(reason)
    with transaction.atomic():
        _lock(user)
        in_force = list(Sanction.objects.in_force().filter(user=user).values_list("pk", flat=True))
        if not in_force:
            raise ModerationError(
                _("%(name)s has no suspension or ban in force") % {"name": user.username}
            )
        Sanction.objects.filter(pk__in=in_force).update(lifted_at=timezone.now())
        record(staff, "lift", user=user, reason=reason, details={"sanctions": in_force})
    return len(in_force)


def chat_ban(
    staff: User, user: User, *, reason: str, note: str = "", until: datetime | None = None
) -> ChatBan:
    """Keep ``user`` out of every chat until ``until`` (None: until lifted), telling them
    ``reason`` when they write (never ``note``). They still play; what they wrote stays."""
    _check_allowed(staff, "chat_ban", user)
    _check_reason(reason)
    _check_no_reporter_named(user, reason)
    if until is not None and until <= timezone.now():
        raise ModerationError(_("A chat ban ends in the future: choose a later end, or none"))
    with transaction.atomic():
        _lock(user)
        banned = ChatBan.objects.create(
            user=user, reason=reason, note=note, staff=staff, ends_at=until
        )
        details = {"chat_ban": banned.pk, "until": until.isoformat() if until else None}
        if note:
            details["note"] = note
        record(staff, "chat ban", user=user, reason=reason, details=details)
    return banned


def lift_chat_ban(staff: User, user: User, *, reason: str) -> int:
    """End every chat ban of ``user``'s in force now; how many there were."""
    _check_allowed(staff, "chat_lift", user)
    _check_reason(reason)
    with transaction.atomic():
        _lock(user)
        in_force = list(ChatBan.objects.in_force().filter(user=user).values_list("pk", flat=True))
        if not in_force:
            raise ModerationError(_("%(name)s has no chat ban in force") % {"name": user.username})
        ChatBan.objects.filter(pk__in=in_force).update(lifted_at=timezone.now())
        record(staff, "chat ban lifted", user=user, reason=reason, details={"chat_bans": in_force})
    return len(in_force)


def rename(staff: User, user: User, new_name: str, *, reason: str) -> None:
    """Give ``user`` the name ``new_name``, under the rules names are chosen by; the entry
    keeps the old name, and nobody else may take it or a look-alike of it again."""
    _check_allowed(staff, "rename", user)
    _check_reason(reason)
    with transaction.atomic():
        _lock(user)
        old_name = user.username
        _check_name(user, new_name)
        user.username = new_name
        user.save(update_fields=["username"])
        remember_lookalike_keys(user)
        reserve_name(user, old_name)
        details = {"old_name": old_name, "new_name": new_name}
        record(staff, "rename", user=user, reason=reason, details=details)


def keep_name_out_of_use(staff: User, name: str, *, kept_for: User, reason: str) -> ReservedName:
    """Keep ``name`` and its look-alikes out of use by hand, as a rename keeps the old name (one
    that could be taken for staff, say); ``kept_for`` may still take it. It takes the rename's
    permission: the same power over names."""
    _check_may(staff, "rename")
    _check_reason(reason)
    with transaction.atomic():
        if is_wholly_reserved(name):
            raise ModerationError(already_kept(name))
        reserve_name(kept_for, name)
        record(staff, "keep_name", user=kept_for, reason=reason, details={"name": name})
    kept = ReservedName.objects.filter(key__in=lookalike_keys(name)).order_by("pk")
    return kept.filter(name=name, user=kept_for).first() or kept[0]


def already_kept(name: str) -> str:
    return _("“%(name)s” and its look-alikes are kept out of use already") % {"name": name}


def release_name(staff: User, reserved: ReservedName) -> None:
    """Let anyone take ``reserved``'s name again: every key of it goes (a name is kept by all its
    keys or by none), but for the keys another name kept out of use shares, which stay."""
    _check_may(staff, "rename")
    with transaction.atomic():
        ReservedName.objects.filter(name=reserved.name, user_id=reserved.user_id).delete()
        released = lookalike_keys(reserved.name)
        others = ReservedName.objects.values_list("name", "user_id").distinct()
        ReservedName.objects.bulk_create(
            [
                ReservedName(key=key, name=name, user_id=user_id)
                for name, user_id in others
                for key in lookalike_keys(name) & released
            ],
            ignore_conflicts=True,
        )
        details = {"name": reserved.name}
        record(staff, "release_name", user=reserved.user, details=details)


def mark(staff: User, user: User, *, reason: str) -> Mark:
    """Mark ``user`` (``reason``: "suspected point feeding", say): until the mark is lifted
    their games are unrated and rated tables refuse them (they leave those they sit at)."""
    _check_allowed(staff, "mark", user)
    _check_reason(reason)
    with transaction.atomic():
        _lock(user)
        if Mark.objects.filter(user=user, lifted_at__isnull=True).exists():
            raise ModerationError(_("%(name)s is marked already") % {"name": user.username})
        marked = Mark.objects.create(user=user, reason=reason, staff=staff)
        record(staff, "mark", user=user, reason=reason, details={"mark": marked.pk})
    _leave_open_tables(user, Seat.objects.filter(table__rated=True))
    return marked


def unmark(staff: User, user: User, *, reason: str) -> None:
    """Lift ``user``'s mark: their next games may be rated again."""
    _check_allowed(staff, "unmark", user)
    _check_reason(reason)
    with transaction.atomic():
        _lock(user)
        standing = Mark.objects.filter(user=user, lifted_at__isnull=True)
        marks = list(standing.values_list("pk", flat=True))
        if not marks:
            raise ModerationError(_("%(name)s is not marked") % {"name": user.username})
        standing.update(lifted_at=timezone.now())
        record(staff, "unmark", user=user, reason=reason, details={"marks": marks})


def close_account(staff: User, user: User, *, reason: str) -> None:
    """Close ``user``'s account: they are signed out and cannot sign in again. Nothing of theirs
    is deleted: their games, ratings and reports stay, and so does their name, shown as a
    closed account's and still taken."""
    _check_allowed(staff, "close", user)
    _check_reason(reason)
    if user.pk == staff.pk:
        raise ModerationError(_("Staff cannot close their own account"))
    with transaction.atomic():
        _lock(user)
        user.refresh_from_db(fields=["is_active"])
        if not user.is_active:
            raise ModerationError(
                _("%(name)s's account is closed already") % {"name": user.username}
            )
        user.is_active = False
        user.save(update_fields=["is_active"])
        record(staff, "close", user=user, reason=reason)
        closed = {account_group(user.pk): {"type": ACCOUNT_CLOSED}}
        transaction.on_commit(lambda: broadcasts.send(closed))
    _take_out_of_play(user)


def _sanction(
    staff: User,
    user: User,
    kind: Sanction.Kind,
    until: datetime | None,
    reason: str,
    note: str,
) -> Sanction:
    _check_reason(reason)
    _check_no_reporter_named(user, reason)
    if user.pk == staff.pk:
        raise ModerationError(_("Staff cannot suspend or ban themselves"))
    with transaction.atomic():
        _lock(user)
        sanction = Sanction.objects.create(
            user=user, kind=kind, reason=reason, note=note, staff=staff, ends_at=until
        )
        details = {"sanction": sanction.pk, "until": until.isoformat() if until else None}
        if note:
            details["note"] = note
        action = "suspend" if kind == Sanction.Kind.SUSPENSION else "ban"
        record(staff, action, user=user, reason=reason, details=details)
        closed = {account_group(user.pk): {"type": ACCOUNT_CLOSED}}
        transaction.on_commit(lambda: broadcasts.send(closed))
    _take_out_of_play(user)
    return sanction


def turn_off_two_factor(staff: User, user: User, *, reason: str) -> None:
    """Two-factor sign-in off for a person who lost both the app and the recovery codes, once
    staff know it is them: a superuser's to do alone, as it opens the account to its password
    again."""
    if why := without_two_factor(staff):
        raise ModerationError(why)
    if not staff.is_superuser:
        raise ModerationError(_("Only a superuser may turn off someone's two-factor sign-in"))
    _check_reason(reason)
    if not two_factor.is_on(user):
        raise ModerationError(_("Two-factor sign-in is not on"))
    with transaction.atomic():
        two_factor.turn_off(user)
        record(staff, "two-factor turned off", user=user, reason=reason)


def _take_out_of_play(user: User) -> None:
    """Each game ``user`` is playing ends against them as a resignation, and they leave the
    open tables they sit at. After the sanction is saved, so that a game's failure cannot undo
    it."""
    playing = GamePlayer.objects.filter(user=user, is_bot=False, game__status=Game.Status.PLAYING)
    for game_id, seat in playing.values_list("game_id", "seat"):
        try:
            services.resign(game_id, seat)
        except services.ServiceError:  # it ended meanwhile
            continue
    _leave_open_tables(user, Seat.objects.all())


def _leave_open_tables(user: User, seats: QuerySet[Seat]) -> None:
    """``user`` leaves those of ``seats`` they hold at open tables of others (a table they host
    stays: nobody else could start or close it)."""
    waiting = seats.filter(user=user, table__status=Table.Status.OPEN).exclude(table__host=user)
    for table_id in waiting.values_list("table_id", flat=True):
        try:
            services.leave_seat(table_id, user)
        except services.ServiceError:  # it started meanwhile: the gates refuse their moves
            continue


def _lock(user: User) -> None:
    """Two staff acting on one person at once take turns."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def _check_may(staff: User, action: str) -> None:
    if why := without_two_factor(staff):
        raise ModerationError(why)
    if not may(staff, action):
        raise ModerationError(str(NOT_PERMITTED[action]))


def _check_reason(reason: str) -> None:
    if not reason.strip():
        raise ModerationError(_("Say why: the reason is kept in the audit log"))


def _check_no_reporter_named(user: User, reason: str) -> None:
    """``reason`` is shown to ``user``: it must not name anyone who has reported them."""
    words = {word.lower() for word in re.findall(r"[A-Za-z0-9_-]+", reason)}
    reporters = Report.objects.filter(reported=user).values_list("reporter__username", flat=True)
    named = sorted({name for name in reporters if name.lower() in words})
    if named:
        raise ModerationError(
            _(
                "The reason is shown to %(name)s, and it names %(reporters)s, who reported them: "
                "leave the name out of the reason and put it in the note for staff"
            )
            % {"name": user.username, "reporters": ", ".join(named)}
        )


def _check_name(user: User, name: str) -> None:
    """The rules a new name is chosen by at registration (accounts.forms.RegisterForm)."""
    try:
        validate_username(name)
    except ValidationError as error:
        raise ModerationError(" ".join(error.messages)) from error
    if User.objects.filter(username__iexact=name).exclude(pk=user.pk).exists():
        raise ModerationError(_("That name is already taken"))
    if is_reserved(name, but_for=user):
        raise ModerationError(
            _("“%(name)s” is kept out of use: someone was renamed away from it") % {"name": name}
        )
    keys = LookalikeKey.objects.filter(key__in=lookalike_keys(name)).exclude(user=user)
    holder = keys.select_related("user").order_by("user_id").first()
    if holder is not None:
        raise ModerationError(
            _("“%(name)s” could be taken for “%(holder)s”")
            % {"name": name, "holder": holder.user.username}
        )
