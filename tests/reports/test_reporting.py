"""A signed-in player reports another from a profile or a game's page, within a few open
reports a day, never themselves or a bot, and follows their reports on their own page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from games.models import Game
from reports.models import Report
from reports.services import ReportRefused, file_report
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

FORM = {"category": "abuse", "comment": "Called me names in the table chat."}


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _messages(response: object) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]  # type: ignore[attr-defined]


def _report(client: Client, name: str) -> object:
    return client.post(reverse("report_player", args=[name]), FORM, follow=True)


@pytest.fixture
def finished_game() -> Game:
    """alice, bob, carol and dave played a game to the end, in seats 0 to 3."""
    return play_out(start(people("alice", "bob", "carol", "dave")), 1)


def test_a_player_reports_another_from_their_profile() -> None:
    alice, bob = people("alice", "bob")
    client = _signed_in(alice)
    report_url = reverse("report_player", args=["bob"])
    assert f'href="{report_url}"' in client.get(reverse("profile", args=["bob"])).content.decode()
    form = client.get(report_url).content.decode()
    assert "Report bob" in form
    assert "csrfmiddlewaretoken" in form

    response = client.post(report_url, FORM, follow=True)

    assert response.redirect_chain == [(reverse("my_reports"), 302)]
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game) == (alice, bob, None)
    assert (report.category, report.comment, report.status) == ("abuse", FORM["comment"], "open")
    html = response.content.decode()
    assert "Thank you. Staff will read your report of bob." in html
    assert "Abuse" in html
    assert '<td class="report-status">Open</td>' in html


def test_a_player_reports_another_from_a_game_page(finished_game: Game) -> None:
    alice = User.objects.get(username="alice")
    client = _signed_in(alice)
    page = client.get(reverse("game_detail", args=[finished_game.pk])).content.decode()
    report_bob = reverse("report_game_player", args=[finished_game.pk, 1])
    assert f'href="{report_bob}">Report bob</a>' in page
    assert "Report alice" not in page

    response = client.post(report_bob, {**FORM, "category": "cheating"}, follow=True)

    report = Report.objects.get()
    assert (report.reported.username, report.game, report.category) == (
        "bob",
        finished_game,
        "cheating",
    )
    html = response.content.decode()
    assert f'href="{reverse("game_detail", args=[finished_game.pk])}"' in html
    assert "Cheating or collusion" in html


def test_a_game_is_reported_only_by_someone_who_played_in_it(finished_game: Game) -> None:
    (erin,) = people("erin")  # the game's page is open to her: she may have watched it
    client = _signed_in(erin)
    game_page = reverse("game_detail", args=[finished_game.pk])
    report_bob = reverse("report_game_player", args=[finished_game.pk, 1])
    assert "Report a player" not in client.get(game_page).content.decode()

    for response in (
        client.get(report_bob, follow=True),
        client.post(report_bob, FORM, follow=True),
    ):
        assert response.redirect_chain == [(game_page, 302)]
        assert _messages(response) == [
            "You did not play in this game, so it cannot be reported from here. To report bob, "
            "use the link on their profile."
        ]
    with pytest.raises(ReportRefused, match="You did not play in this game"):
        file_report(erin, User.objects.get(username="bob"), "abuse", "Rude.", game=finished_game)
    assert not Report.objects.exists()

    _report(client, "bob")  # from his profile, as the message says
    assert Report.objects.get().game is None


def test_only_a_signed_in_viewer_is_offered_the_report_links(finished_game: Game) -> None:
    game_page = reverse("game_detail", args=[finished_game.pk])

    assert "Report a player" not in Client().get(game_page).content.decode()
    assert (
        "Report this player" not in Client().get(reverse("profile", args=["bob"])).content.decode()
    )
    response = Client().get(reverse("report_player", args=["bob"]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Report.objects.exists()


def test_the_fourth_open_report_in_a_day_is_refused_with_a_message() -> None:
    alice, *_ = people("alice", "bob", "carol", "dave", "erin")
    client = _signed_in(alice)
    for name in ("bob", "carol", "dave"):
        _report(client, name)

    refused = _report(client, "erin")

    assert Report.objects.filter(reporter=alice).count() == 3
    assert refused.redirect_chain == [(reverse("profile", args=["erin"]), 302)]  # type: ignore[attr-defined]
    assert _messages(refused) == [
        "You have 3 open reports from the last day, as many as one person may have. You can "
        "report again once staff have handled one, or tomorrow."
    ]


def test_reports_handled_or_older_than_a_day_leave_room_for_more(settings: Settings) -> None:
    settings.HEARTS_REPORTS_A_DAY = 2
    alice, *_ = people("alice", "bob", "carol", "dave", "erin")
    client = _signed_in(alice)
    _report(client, "bob")
    _report(client, "carol")
    assert not Report.objects.filter(reported__username="dave").exists()
    _report(client, "dave")
    assert not Report.objects.filter(reported__username="dave").exists()

    Report.objects.filter(reported__username="bob").update(status=Report.Status.DISMISSED)
    _report(client, "dave")
    old = timezone.now() - timedelta(days=1, seconds=1)
    Report.objects.filter(reported__username="carol").update(created_at=old)
    _report(client, "erin")

    assert Report.objects.filter(reporter=alice).count() == 4


def test_a_player_cannot_be_reported_twice_while_a_report_of_them_is_open() -> None:
    alice, _ = people("alice", "bob")
    client = _signed_in(alice)
    _report(client, "bob")

    again = _report(client, "bob")

    assert Report.objects.count() == 1
    assert _messages(again) == [
        "You have already reported bob; staff will look at that report before another one."
    ]


def test_nobody_can_report_themselves() -> None:
    (alice,) = people("alice")
    client = _signed_in(alice)
    assert (
        "Report this player" not in client.get(reverse("profile", args=["alice"])).content.decode()
    )

    response = _report(client, "alice")

    assert not Report.objects.exists()
    assert _messages(response) == ["You cannot report yourself."]


def test_a_bot_cannot_be_reported() -> None:
    game = start(people("alice"), bots=3)
    client = _signed_in(User.objects.get(username="alice"))
    assert (
        "Report a player" not in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    )

    response = client.post(reverse("report_game_player", args=[game.pk, 1]), FORM, follow=True)

    assert not Report.objects.exists()
    assert response.redirect_chain == [(reverse("game_detail", args=[game.pk]), 302)]
    assert _messages(response) == ["A bot cannot be reported: it only plays the cards it is dealt."]


def test_a_report_needs_a_category_and_a_comment() -> None:
    alice, _ = people("alice", "bob")

    response = _signed_in(alice).post(reverse("report_player", args=["bob"]), {"comment": " "})

    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"category", "comment"}
    assert not Report.objects.exists()


def test_the_reporters_page_lists_only_their_own_reports() -> None:
    alice, bob, _ = people("alice", "bob", "carol")
    _report(_signed_in(alice), "carol")
    _report(_signed_in(bob), "alice")

    html = _signed_in(alice).get(reverse("my_reports")).content.decode()

    assert 'href="/u/carol/"' in html
    assert 'href="/u/alice/"' not in html.split("<h1>")[1]
    own_profile = _signed_in(alice).get(reverse("profile", args=["alice"])).content.decode()
    assert f'href="{reverse("my_reports")}"' in own_profile
    other_profile = _signed_in(bob).get(reverse("profile", args=["alice"])).content.decode()
    assert f'href="{reverse("my_reports")}"' not in other_profile
