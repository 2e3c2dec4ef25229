"""Forms that arrive over the socket (seating, rematch) carry a CSRF token that Django accepts,
just like the forms of a page rendered for a request."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Game
from games.tasks import play_bots
from tests.helpers.sockets import data_cards, open_table_socket, session_cookie, version_of


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_rematch_form_pushed_over_the_socket_posts_with_its_csrf_token() -> None:
    alice = await sync_to_async(User.objects.create_user)("alice", password="x")
    game = await sync_to_async(services.play_now)(alice)
    await sync_to_async(services.resign)(game.pk, 0)
    browser = Client(enforce_csrf_checks=True)
    await sync_to_async(browser.force_login)(alice)
    await sync_to_async(browser.get)(f"/t/{game.table_id}/")  # sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    cookie = f"sessionid={browser.cookies['sessionid'].value}; csrftoken={csrf}"

    socket, html = await open_table_socket(game.table_id, cookie)
    await socket.disconnect()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token, "the rematch form came without a token"

    response = await sync_to_async(browser.post)(
        f"/t/{game.table_id}/rematch/", {"csrfmiddlewaretoken": token.group(1)}
    )

    assert response.status_code == 302
    assert await Game.objects.filter(table_id=game.table_id, number=2).aexists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_reconnecting_shows_exactly_the_table_the_page_shows(settings) -> None:
    settings.HEARTS_BOT_DELAY = 60  # the relay makes the bots' moves: not while this looks
    alice = await sync_to_async(User.objects.create_user)("alice", password="x")
    game = await sync_to_async(services.play_now)(alice)
    await sync_to_async(play_bots)(game.pk, 0)
    game = await Game.objects.aget(pk=game.pk)
    match = await sync_to_async(game.match)()
    cards = [str(card) for card in match.hand.holding(0)[:3]]
    await sync_to_async(services.act)(game.pk, 0, "pass", version=game.version, cards=cards)
    browser = Client()
    await sync_to_async(browser.force_login)(alice)
    page = (await sync_to_async(browser.get)(f"/t/{game.table_id}/")).content.decode()

    cookie = await sync_to_async(session_cookie)(alice)
    first, first_html = await open_table_socket(game.table_id, cookie)
    await first.disconnect()
    again, again_html = await open_table_socket(game.table_id, cookie)
    await again.disconnect()

    game = await Game.objects.aget(pk=game.pk)
    match = await sync_to_async(game.match)()
    expected = [str(card) for card in match.hand.holding(0)]
    for html in (page, first_html, again_html):
        assert data_cards(html) == expected
        assert version_of(html) == game.version
