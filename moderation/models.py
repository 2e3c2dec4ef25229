"""What staff did, and what it does to people.

The audit log: every staff action writes one entry through ``moderation.audit.record``; nobody
edits or deletes one, in the admin or anywhere else. Sanctions (suspensions and bans) and marks
are changed only by ``moderation.sanctions``, each change with its entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Self, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .permissions import PERMISSIONS


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    """Entries are added one at a time (``record``); none is updated or deleted in bulk either."""

    def update(self, **kwargs: object) -> int:
        raise ValueError("An audit entry is never changed")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ValueError("An audit entry is never deleted")


class AuditEntry(models.Model):
    """One staff action: who did what, when, to whom (a person, a game, a report) and why."""

    at = models.DateTimeField(auto_now_add=True, db_index=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="staff_actions",
    )
    action = models.CharField(max_length=40, db_index=True)  # "ban", "void", "rename", ...
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)  # e.g. {"old_name": ..., "until": ...}

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = gettext_lazy("audit entries")
        # One for each action staff take on people (moderation.permissions): every one of
        # them writes an entry here.
        permissions = list(PERMISSIONS.values())

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.staff} {self.action}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("An audit entry is never changed")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("An audit entry is never deleted")


_Lasting = TypeVar("_Lasting", bound=models.Model)


class InForceQuerySet(models.QuerySet[_Lasting]):
    """Of a sanction that lasts until its end (None: for good) unless lifted early."""

    def in_force(self) -> Self:
        """Not lifted, and for good or until an end that has not come yet."""
        now = timezone.now()
        return self.filter(lifted_at__isnull=True).filter(
            models.Q(ends_at__isnull=True) | models.Q(ends_at__gt=now)
        )


class SanctionQuerySet(InForceQuerySet["Sanction"]):
    pass


class Sanction(models.Model):
    """A suspension (until ``ends_at``) or a ban (no end) of a person: while it is in force they
    cannot sign in, sit down or move. Lifting it early sets ``lifted_at``; nothing is deleted.

    The person is shown ``reason`` word for word (``notice``) and never ``note``: what staff
    keep for each other, such as the report that led to it and who filed it.
    """

    class Kind(models.TextChoices):
        SUSPENSION = "suspension", pgettext_lazy("a sanction", "Suspension")
        BAN = "ban", pgettext_lazy("a sanction", "Ban")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions"
    )
    kind = models.CharField(max_length=10, choices=Kind)
    reason = models.TextField()  # shown to the person
    note = models.TextField(blank=True)  # for staff only
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)  # None: a ban, for good
    lifted_at = models.DateTimeField(null=True, blank=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="sanction_user_lifted")]

    def __str__(self) -> str:
        return _("%(kind)s of %(user)s") % {"kind": self.get_kind_display(), "user": self.user}

    @property
    def notice(self) -> str:
        """What the person is told: why, and until when.

        >>> Sanction(kind="ban", reason="Cheating.").notice
        'Your account is banned: Cheating.'
        """
        if self.ends_at is None:
            return _("Your account is banned: %(reason)s") % {"reason": self.reason}
        until = _until(self.ends_at)
        return _("Your account is suspended until %(until)s: %(reason)s") % {
            "until": until,
            "reason": self.reason,
        }


class Mark(models.Model):
    """Staff's mark on a player ("suspected point feeding"): while it stands, their games are
    unrated and they cannot sit at a rated table. Lifting it sets ``lifted_at``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="marks"
    )
    reason = models.TextField()
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return _("Mark on %(user)s: %(reason)s") % {"user": self.user, "reason": self.reason}


class ChatBan(models.Model):
    """A chat ban: while it is in force the person may play but not write in any chat; what
    they wrote before stays, for the reports. For good (``ends_at`` None) or until a date;
    lifting it early sets ``lifted_at``. They are told ``reason`` and never ``note``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_bans"
    )
    reason = models.TextField()  # shown to the person
    note = models.TextField(blank=True)  # for staff only
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)  # None: for good
    lifted_at = models.DateTimeField(null=True, blank=True)

    objects = InForceQuerySet["ChatBan"].as_manager()

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="chat_ban_user_lifted")]

    def __str__(self) -> str:
        return _("Chat ban of %(user)s") % {"user": self.user}

    @property
    def notice(self) -> str:
        """What the person is told when they write.

        >>> ChatBan(reason="Insults.").notice
        'You are banned from chat: Insults.'
        """
        if self.ends_at is None:
            return _("You are banned from chat: %(reason)s") % {"reason": self.reason}
        until = _until(self.ends_at)
        return _("You are banned from chat until %(until)s: %(reason)s") % {
            "until": until,
            "reason": self.reason,
        }


def _until(ends_at: datetime) -> str:
    """When a sanction ends, as its notice says it: "3 May 2025, 18:00 UTC", in the language's
    date and time (hearts_site/formats/) and the reader's time zone, which it names."""
    local = timezone.localtime(ends_at)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} {formats.date_format(local, 'T')}"


def chat_ban_in_force(user_id: int) -> ChatBan | None:
    """The chat ban of the person ``user_id`` in force now, if any (one for good first)."""
    in_force = ChatBan.objects.in_force().filter(user_id=user_id)
    return in_force.order_by(models.F("ends_at").desc(nulls_first=True)).first()


def sanction_in_force(user: AbstractBaseUser | AnonymousUser) -> Sanction | None:
    """The sanction that keeps ``user`` out now (a ban before any suspension), if any."""
    if not user.is_authenticated:
        return None
    in_force = Sanction.objects.in_force().filter(user_id=user.pk)
    return in_force.order_by(models.F("ends_at").desc(nulls_first=True)).first()


def is_marked(user: AbstractBaseUser) -> bool:
    """Whether a mark of staff's stands on ``user``."""
    return Mark.objects.filter(user_id=user.pk, lifted_at__isnull=True).exists()
