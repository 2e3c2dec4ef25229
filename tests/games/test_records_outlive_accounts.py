"""The records that must outlive an account (a game's seats, the reports either side of them)
keep it from being deleted, in the ORM and in the database itself: an account is closed
instead (is_active off), and its games and reports stay whole."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from games.models import GamePlayer
from reports.models import Report
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_account_that_played_cannot_be_deleted_and_its_game_stays_whole() -> None:
    game = play_out(start(people("ann", "ben", "cal", "dee"), rated=False), 3)
    ann = User.objects.get(username="ann")

    with pytest.raises(ProtectedError):
        ann.delete()
    # Past the ORM too: the database refuses a plain DELETE of the row.
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM auth_user WHERE id = %s", [ann.pk])
        connection.check_constraints()
    assert GamePlayer.objects.filter(game=game, user=ann).exists()


def test_an_account_on_either_side_of_a_report_cannot_be_deleted() -> None:
    reporter, reported = people("eve", "fay")
    Report.objects.create(reporter=reporter, reported=reported, category="other", comment="x")
    for person in (reporter, reported):
        with pytest.raises(ProtectedError):
            person.delete()
    User.objects.create_user("gus").delete()  # an account with nothing to keep still goes
