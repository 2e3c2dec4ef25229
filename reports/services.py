"""The write path of reports: a player files one, staff act on it or dismiss it. Each change
happens here, in one transaction, so that the limits and the audit log cannot be stepped past."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from chat.models import ChatMessage
from games.models import Game
from moderation import audit
from moderation.permissions import without_two_factor

from .models import Report


class ReportRefused(ValueError):
    """A report that may not be filed, with the reason in words for the reporter."""


class ReportAlreadyHandled(ValueError):
    """Another member of staff acted on or dismissed the report first."""


class NotCleared(PermissionError):
    """Staff who have not passed two-factor sign-in (moderation/permissions.py)."""


def refusal(
    reporter: User, reported: User, game: Game | None = None, *, about_chat: bool = False
) -> str | None:
    """Why ``reporter`` may not report ``reported`` now (about ``game``, if one is named), or
    None when they may. A report about a game needs its reporter to have played in it, unless
    it is of a chat message (``about_chat``), which whoever read it may report."""
    if reporter.pk == reported.pk:
        return _("You cannot report yourself.")
    played = about_chat or game is None or game.players.filter(user=reporter, is_bot=False).exists()
    if not played:
        return _(
            "You did not play in this game, so it cannot be reported from here. To report "
            "%(name)s, use the link on their profile."
        ) % {"name": reported.username}
    open_reports = Report.objects.filter(reporter=reporter, status=Report.Status.OPEN)
    if open_reports.filter(reported=reported).exists():
        return _(
            "You have already reported %(name)s; staff will look at that report before another one."
        ) % {"name": reported.username}
    a_day_ago = timezone.now() - timedelta(days=1)
    limit = settings.HEARTS_REPORTS_A_DAY
    if open_reports.filter(created_at__gte=a_day_ago).count() >= limit:
        return ngettext(
            "You have %(count)s open report from the last day, as many as one person may "
            "have. You can report again once staff have handled one, or tomorrow.",
            "You have %(count)s open reports from the last day, as many as one person may "
            "have. You can report again once staff have handled one, or tomorrow.",
            limit,
        ) % {"count": limit}
    return None


def file_report(
    reporter: User,
    reported: User,
    category: str,
    comment: str,
    *,
    game: Game | None = None,
    chat_message: ChatMessage | None = None,
) -> Report:
    """Save ``reporter``'s report of ``reported`` (about ``chat_message``, written by them, if
    one is named), or raise :class:`ReportRefused`."""
    with transaction.atomic():
        # One reporter's reports are filed one at a time, so two at once cannot both pass the
        # limit.
        User.objects.select_for_update().filter(pk=reporter.pk).first()
        reason = refusal(reporter, reported, game, about_chat=chat_message is not None)
        if reason:
            raise ReportRefused(reason)
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            game=game,
            chat_message=chat_message,
            category=category,
            comment=comment,
        )


def act_on(report: Report, staff: User, note: str) -> None:
    """Staff did something about the report (a warning, a ban elsewhere): close it as acted
    on and write the audit entry."""
    _handle(report, staff, note, Report.Status.ACTED_ON, "report acted on")


def dismiss(report: Report, staff: User, note: str) -> None:
    """Staff found nothing to do: close the report as dismissed and write the audit entry."""
    _handle(report, staff, note, Report.Status.DISMISSED, "report dismissed")


def _handle(report: Report, staff: User, note: str, status: str, action: str) -> None:
    if why := without_two_factor(staff):
        raise NotCleared(why)
    now = timezone.now()
    with transaction.atomic():
        # Only an open report changes: if none did, someone else handled it first.
        changed = Report.objects.filter(pk=report.pk, status=Report.Status.OPEN).update(
            status=status, handled_by=staff, handled_at=now, staff_note=note
        )
        if not changed:
            raise ReportAlreadyHandled(f"Report {report.pk} was already handled.")
        audit.record(
            staff,
            action,
            user=report.reported,
            game=report.game,
            reason=note,
            details={"report": report.pk, "category": report.category},
        )
    report.refresh_from_db()
