"""Staff work through the reports in the admin: open ones first with the games they are about,
each report's page with both players' recent games and the other reports of the same player,
and a decision (acted on, or dismissed) with a note that goes into the audit log. The reporter
then sees the report handled, without the note."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game
from moderation.models import AuditEntry
from reports.models import Report
from tests.helpers.finishing import play_out, start
from tests.helpers.moderators import with_two_factor
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:reports_report_changelist")


def _page_of(report: Report) -> str:
    return reverse("admin:reports_report_change", args=[report.pk])


@pytest.fixture
def sam() -> User:
    """A member of staff who handles reports (and nothing else)."""
    sam = with_two_factor(User.objects.create_user("sam", is_staff=True))
    sam.user_permissions.set(
        Permission.objects.filter(codename__in=["view_report", "change_report"])
    )
    return sam


@pytest.fixture
def staff(sam: User) -> Client:
    client = Client()
    client.force_login(sam)
    return client


@pytest.fixture
def game() -> Game:
    """alice, bob, carol and dave played a game to the end."""
    return play_out(start(people("alice", "bob", "carol", "dave")), 1)


def _report(
    reporter: str,
    reported: str,
    game: Game | None = None,
    *,
    category: str = Report.Category.CHEATING,
    status: str = Report.Status.OPEN,
) -> Report:
    return Report.objects.create(
        reporter=User.objects.get(username=reporter),
        reported=User.objects.get(username=reported),
        game=game,
        category=category,
        comment="They passed each other hearts all game.",
        status=status,
    )


def test_the_queue_lists_open_reports_newest_first_with_the_reported_games(
    staff: Client, game: Game
) -> None:
    handled = _report("carol", "dave", status=Report.Status.DISMISSED)
    older = _report("alice", "bob", game)
    Report.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(hours=2))
    newer = _report("carol", "bob", game, category=Report.Category.ABUSE)

    html = staff.get(QUEUE).content.decode()

    positions = [html.index(f'href="{_page_of(r)}"') for r in (newer, older, handled)]
    assert positions == sorted(positions)
    assert html.count(f'href="{reverse("game_detail", args=[game.pk])}"') == 2

    only_open = staff.get(QUEUE, {"status__exact": "open"}).content.decode()
    # A row's link carries the filter on to the report's page.
    assert f'href="{_page_of(handled)}?' not in only_open
    assert f'href="{_page_of(newer)}?' in only_open


def test_a_reports_page_shows_both_players_games_and_the_other_reports(
    staff: Client, game: Game
) -> None:
    earlier = play_out(start(people("bob", "erin", "fred", "gina")), 2)
    report = _report("alice", "bob", game)
    other = _report("carol", "bob", category=Report.Category.OFFENSIVE_NAME)
    by_bob = _report("bob", "carol")

    html = staff.get(_page_of(report)).content.decode()

    for shown in (game, earlier):
        assert f'href="{reverse("game_detail", args=[shown.pk])}"' in html
    assert f'href="{_page_of(other)}">Report {other.pk}</a>' in html
    assert "Offensive name by carol, Open" in html
    assert f'href="{_page_of(by_bob)}"' not in html  # a report by bob is not one of bob
    assert 'name="_act_on"' in html and 'name="_dismiss"' in html
    assert 'name="_save"' not in html


def test_a_private_games_link_carries_its_invite_code_so_staff_can_open_it(
    staff: Client,
) -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    table = services.create_table(alice, private=True)
    for seat, person in enumerate((bob, carol, dave), start=1):
        services.take_seat(table.pk, person, seat, table.invite_code)
    game = play_out(services.start_game(table.pk, alice), 1)
    report = _report("alice", "bob", game)
    link = f"{reverse('game_detail', args=[game.pk])}?code={table.invite_code}"

    assert f'href="{link}"' in staff.get(_page_of(report)).content.decode()
    assert staff.get(link).status_code == 200


def test_acting_on_a_report_is_audited_and_the_reporter_sees_it_handled(
    staff: Client, sam: User, game: Game
) -> None:
    report = _report("alice", "bob", game)
    note = "Warned bob; the hand logs show the passes."

    response = staff.post(_page_of(report), {"staff_note": note, "_act_on": "1"})

    assert response.status_code == 302 and response["Location"] == QUEUE
    report.refresh_from_db()
    assert (report.status, report.handled_by, report.staff_note) == ("acted_on", sam, note)
    entry = AuditEntry.objects.get()
    assert (entry.staff, entry.action, entry.user, entry.game) == (
        sam,
        "report acted on",
        report.reported,
        game,
    )
    assert entry.reason == note
    assert entry.details == {"report": report.pk, "category": "cheating"}

    alice = Client()
    alice.force_login(report.reporter)
    mine = alice.get(reverse("my_reports")).content.decode()
    assert "Handled: acted on" in mine
    assert note not in mine
    assert 'name="_act_on"' not in staff.get(_page_of(report)).content.decode()


def test_dismissing_a_report_is_audited(staff: Client, sam: User) -> None:
    people("alice", "bob")
    report = _report("alice", "bob")

    staff.post(_page_of(report), {"staff_note": "Nothing in the games.", "_dismiss": "1"})

    report.refresh_from_db()
    assert report.status == Report.Status.DISMISSED
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.reason) == ("report dismissed", "Nothing in the games.")


def test_a_decision_needs_a_note(staff: Client) -> None:
    people("alice", "bob")
    report = _report("alice", "bob")

    response = staff.post(_page_of(report), {"staff_note": "  ", "_dismiss": "1"})

    report.refresh_from_db()
    assert report.is_open
    assert not AuditEntry.objects.exists()
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Say in the note what you did or why there is nothing to do."
    ]


def test_a_report_is_handled_once(staff: Client) -> None:
    people("alice", "bob")
    report = _report("alice", "bob")
    staff.post(_page_of(report), {"staff_note": "Warned.", "_act_on": "1"})

    second = staff.post(_page_of(report), {"staff_note": "Nothing.", "_dismiss": "1"})

    report.refresh_from_db()
    assert (report.status, report.staff_note) == ("acted_on", "Warned.")
    assert AuditEntry.objects.count() == 1
    assert "Someone else handled this report first." in [
        str(m) for m in get_messages(second.wsgi_request)
    ]


def test_a_player_who_is_not_staff_cannot_reach_the_queue() -> None:
    _, bob = people("alice", "bob")
    report = _report("alice", "bob")
    client = Client()
    client.force_login(bob)

    for url in (QUEUE, _page_of(report)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
    client.post(_page_of(report), {"staff_note": "mine now", "_dismiss": "1"})
    report.refresh_from_db()
    assert report.is_open
    assert not AuditEntry.objects.exists()


def test_staff_who_may_only_view_reports_cannot_decide_them() -> None:
    people("alice", "bob")
    report = _report("alice", "bob")
    viewer = with_two_factor(User.objects.create_user("vera", is_staff=True))
    viewer.user_permissions.set(Permission.objects.filter(codename="view_report"))
    client = Client()
    client.force_login(viewer)

    page = client.get(_page_of(report)).content.decode()
    client.post(_page_of(report), {"staff_note": "Looks fine.", "_dismiss": "1"})

    assert 'name="_dismiss"' not in page
    report.refresh_from_db()
    assert report.is_open
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("object_id", ["abc", "9" * 30])
@pytest.mark.parametrize("decision", ["_act_on", "_dismiss"])
def test_a_decision_on_an_id_that_is_no_reports_is_not_found(
    staff: Client, object_id: str, decision: str
) -> None:
    staff.raise_request_exception = False
    page = reverse("admin:reports_report_change", args=[object_id])

    response = staff.post(page, {"staff_note": "Nothing to do.", decision: "1"})

    assert response.status_code == 404
    assert not AuditEntry.objects.exists()


def test_staff_who_may_not_handle_reports_cannot_tell_which_reports_exist() -> None:
    people("alice", "bob")
    report = _report("alice", "bob")
    client = Client()
    client.force_login(with_two_factor(User.objects.create_user("vic", is_staff=True)))
    missing = reverse("admin:reports_report_change", args=[report.pk + 1000])

    answers = [
        client.post(page, {"staff_note": "Nothing to do.", "_dismiss": "1"})
        for page in (_page_of(report), missing)
    ]

    assert [answer.status_code for answer in answers] == [403, 403]
    report.refresh_from_db()
    assert report.is_open
    assert not AuditEntry.objects.exists()
