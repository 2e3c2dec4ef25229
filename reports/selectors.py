"""Reads for reports: the games staff look at, and a reporter's own list."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from games.models import Game

from .models import Report

RECENT_GAMES = 10


def recent_games(user: User) -> QuerySet[Game]:
    """The games ``user`` sat in as a person, newest first, private ones too (for staff)."""
    games = Game.objects.filter(players__user=user, players__is_bot=False).distinct()
    return games.select_related("table").order_by("-started_at", "-pk")[:RECENT_GAMES]


def reports_by(user: User) -> QuerySet[Report]:
    """What ``user`` reported, newest first."""
    return Report.objects.filter(reporter=user).select_related("reported", "game")


def other_reports_against(report: Report) -> QuerySet[Report]:
    """Every other report of the same person, newest first."""
    against = Report.objects.filter(reported_id=report.reported_id).exclude(pk=report.pk)
    return against.select_related("reporter")
