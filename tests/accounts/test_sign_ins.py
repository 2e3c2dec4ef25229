"""Where an account is signed in: each session listed for its owner with its browser, its
network and its times; "Sign out everywhere else" ends the others and closes their live pages;
a password changed or reset does the same."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import SignIn
from tests.helpers.sockets import TIMEOUT, open_lobby_socket

PASSWORD = "felt-table-queen-of-spades"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)


def _browser(agent: str, address: str) -> Client:
    return Client(HTTP_USER_AGENT=agent, REMOTE_ADDR=address)


def _signs_in(client: Client, name: str = "alice", password: str = PASSWORD) -> bool:
    client.post(reverse("login"), {"username": name, "password": password})
    return SESSION_KEY in client.session


def _still_signed_in(client: Client) -> bool:
    client.get(reverse("lobby"))
    return SESSION_KEY in client.session


@pytest.mark.django_db
def test_the_list_shows_each_browser_and_sign_out_everywhere_else_ends_the_others() -> None:
    User.objects.create_user("alice", password=PASSWORD)
    laptop = _browser(FIREFOX, "203.0.113.77")
    phone = _browser(IPHONE, "2001:db8:1234:5678::1")
    assert _signs_in(laptop) and _signs_in(phone)

    page = laptop.get(reverse("sign_ins")).content.decode()
    assert "Firefox on Linux" in page and "Mobile Safari on iOS" in page
    assert "203.0.113.0/24" in page and "2001:db8:1234::/48" in page
    assert "203.0.113.77" not in page  # the network, not the address
    assert page.count("(this one)") == 1
    laptop_key, phone_key = laptop.session.session_key, phone.session.session_key
    assert laptop_key is not None and phone_key is not None
    assert laptop_key not in page and phone_key not in page

    answer = laptop.post(reverse("sign_ins"), follow=True)
    assert "Signed out of 1 other place." in answer.content.decode()
    assert not _still_signed_in(phone) and _still_signed_in(laptop)
    page = laptop.get(reverse("sign_ins")).content.decode()
    assert "Mobile Safari" not in page and "Firefox on Linux" in page


@pytest.mark.django_db
def test_signing_out_takes_the_session_off_the_list() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    browser = _browser(FIREFOX, "203.0.113.7")
    _signs_in(browser)
    assert SignIn.objects.filter(user=alice).count() == 1
    browser.post(reverse("logout"))
    assert not SignIn.objects.filter(user=alice).exists()


@pytest.mark.django_db
def test_a_password_change_signs_out_everywhere_else_and_keeps_this_session_listed() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    here, there = _browser(FIREFOX, "203.0.113.7"), _browser(IPHONE, "198.51.100.9")
    _signs_in(here), _signs_in(there)
    new = "another long passphrase 7"
    here.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )

    assert not _still_signed_in(there) and _still_signed_in(here)
    (kept,) = SignIn.objects.filter(user=alice)
    assert kept.session_id == here.session.session_key and kept.browser == "Firefox on Linux"


def _two_sessions_with_a_socket_each() -> tuple[Client, str, str]:
    User.objects.create_user("alice", password=PASSWORD)
    here, there = Client(), Client()
    _signs_in(here), _signs_in(there)
    cookies = [f"sessionid={client.cookies['sessionid'].value}" for client in (here, there)]
    return here, cookies[0], cookies[1]


async def _closed_with(socket: WebsocketCommunicator) -> int:
    while True:
        output: dict[str, Any] = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return int(output["code"])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_live_pages_of_the_sessions_signed_out_close_and_this_ones_stay() -> None:
    here, here_cookie, there_cookie = await sync_to_async(_two_sessions_with_a_socket_each)()
    mine = await open_lobby_socket(here_cookie)
    theirs = await open_lobby_socket(there_cookie)

    await sync_to_async(here.post)(reverse("sign_ins"))

    assert await _closed_with(theirs) == 4401  # the page reloads, signed out
    assert await mine.receive_nothing(timeout=0.5)
    await mine.disconnect()
