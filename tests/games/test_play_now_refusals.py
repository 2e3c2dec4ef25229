"""Play now's refusals are told on the lobby, as the new-table form's are, never as an error
page, and nothing is made. The sign-out middleware keeps a suspended person from every page, so
Play now meets a suspension only when staff save it while the press is on its way: the
middleware had let the request in."""

from __future__ import annotations

from datetime import timedelta
from html import escape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, Table
from moderation import middleware, sanctions
from moderation.models import Sanction
from tests.helpers.moderators import moderator
from tests.helpers.tables import person

pytestmark = pytest.mark.django_db


def _alice_suspended() -> str:
    """alice, suspended for a day; what she is told of it."""
    until = timezone.now() + timedelta(days=1)
    sanctions.suspend(moderator(), person("alice"), until=until, reason="Rude in chat.")
    return Sanction.objects.get(user=person("alice")).notice


def test_play_now_refuses_a_suspended_person_and_makes_nothing() -> None:
    notice = _alice_suspended()

    with pytest.raises(services.ServiceError) as refused:
        services.play_now(person("alice"))

    assert str(refused.value) == notice
    assert not Table.objects.exists() and not Game.objects.exists()


def test_a_suspension_saved_as_alice_presses_play_now_is_told_on_the_lobby(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = Client()
    client.force_login(person("alice"))
    notice = _alice_suspended()
    # Saved just after the middleware looked at her request: it let her in.
    monkeypatch.setattr(middleware, "sanction_in_force", lambda user: None)

    response = client.post(reverse("play_now"))

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    lobby = client.get(response["Location"])
    assert lobby.status_code == 200
    assert f'<li class="message message-error">{escape(notice)}</li>' in lobby.content.decode()
    assert not Table.objects.exists() and not Game.objects.exists()
