"""Sign-in lockouts: short, growing, and for the guesser's own address, behind a proxy too."""

from __future__ import annotations

import doctest
import re
from datetime import timedelta
from typing import TypedDict, Unpack

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts import lockout
from accounts.lockout import client_address

PASSWORD = "felt-table-queen-of-spades"
PROXY = "10.0.0.2"
ALICES_HOME = "198.51.100.7"
ATTACKER = "203.0.113.66"

pytestmark = pytest.mark.django_db


class _Meta(TypedDict, total=False):
    """What a request's WSGI environment is given here (the test client's ``**extra``)."""

    REMOTE_ADDR: str
    HTTP_X_FORWARDED_FOR: str


def _sign_in(client: Client, password: str, **headers: Unpack[_Meta]):
    return client.post(reverse("login"), {"username": "alice", "password": password}, **headers)


def _via_proxy(client_ip: str, forwarded: str | None = None) -> _Meta:
    """What daphne sees of a request that came through the proxy of docs/deploy.md."""
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded or client_ip}


def _minutes_pass(minutes: float) -> None:
    """Move every time axes stored back, as if ``minutes`` had passed."""
    shift = timedelta(minutes=minutes)
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - shift)
    AccessAttemptExpiration.objects.update(expires_at=F("expires_at") - shift)
    AccessFailureLog.objects.update(attempt_time=F("attempt_time") - shift)
    AccessLog.objects.update(attempt_time=F("attempt_time") - shift)


def _guess_wrong(client: Client, times: int, **headers: Unpack[_Meta]) -> str:
    """Guess wrong ``times`` times; return the page of the last guess."""
    for _ in range(times):
        response = _sign_in(client, "wrong-guess", **headers)
    return response.content.decode()


def test_the_examples_in_the_lockout_docstrings_hold() -> None:
    assert doctest.testmod(lockout).failed == 0


def test_behind_the_proxy_ten_bad_guesses_from_an_attacker_do_not_lock_the_owner_out(
    settings,
) -> None:
    settings.HEARTS_TRUSTED_PROXIES = 1
    alice = User.objects.create_user("alice", password=PASSWORD)
    attacker = Client()

    for _ in range(10):
        _sign_in(attacker, "wrong-guess", **_via_proxy(ATTACKER))

    assert _sign_in(attacker, PASSWORD, **_via_proxy(ATTACKER)).status_code == 429
    owner = Client()
    response = _sign_in(owner, PASSWORD, **_via_proxy(ALICES_HOME))
    assert response.status_code == 302
    assert owner.session[SESSION_KEY] == str(alice.pk)


def test_an_attacker_cannot_pass_for_the_owner_by_writing_the_forwarded_header(settings) -> None:
    settings.HEARTS_TRUSTED_PROXIES = 1
    User.objects.create_user("alice", password=PASSWORD)
    attacker = Client()
    # The proxy appends the address it was called from to whatever the client sent.
    forged = _via_proxy(ATTACKER, forwarded=f"{ALICES_HOME}, {ATTACKER}")

    for _ in range(10):
        _sign_in(attacker, "wrong-guess", **forged)

    assert _sign_in(attacker, PASSWORD, **forged).status_code == 429
    assert _sign_in(Client(), PASSWORD, **_via_proxy(ALICES_HOME)).status_code == 302


def test_without_a_trusted_proxy_a_forwarded_header_is_not_believed(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)
    client = Client()

    for n in range(3):
        _sign_in(client, "wrong-guess", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    assert _sign_in(client, PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


@pytest.mark.parametrize(
    ("proxies", "meta", "address"),
    [
        (0, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": ATTACKER}, PROXY),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": ATTACKER}, ATTACKER),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"1.2.3.4, {ATTACKER}"}, ATTACKER),
        (2, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"{ATTACKER}, 10.0.0.1"}, ATTACKER),
        (2, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": ATTACKER}, PROXY),  # not via both
        (1, {"REMOTE_ADDR": PROXY}, PROXY),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "not-an-address"}, PROXY),
        (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "2001:db8::1"}, "2001:db8::1"),
    ],
)
def test_the_client_address_is_the_one_the_trusted_proxies_saw(
    settings, proxies: int, meta: _Meta, address: str
) -> None:
    settings.HEARTS_TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", **meta)

    assert client_address(request) == address


def test_a_proxy_may_name_its_header(settings) -> None:
    settings.HEARTS_TRUSTED_PROXIES = 1
    settings.HEARTS_CLIENT_IP_HEADER = "X-Real-IP"
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_REAL_IP=ATTACKER)

    assert client_address(request) == ATTACKER


def test_a_lockout_lasts_a_minute_and_each_further_one_twice_as_long(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)
    client = Client()

    assert "Please wait a minute" in _guess_wrong(client, 3)
    assert _sign_in(client, PASSWORD).status_code == 429  # even the right password waits
    _minutes_pass(1.1)
    assert "Please wait 2 minutes" in _guess_wrong(client, 3)
    _minutes_pass(1.1)
    still = _sign_in(client, PASSWORD)
    assert still.status_code == 429
    assert "Please wait a minute" in still.content.decode()  # what is left of the two
    _minutes_pass(1)
    assert "Please wait 4 minutes" in _guess_wrong(client, 3)
    _minutes_pass(4.1)
    assert _sign_in(client, PASSWORD).status_code == 302


def test_lockouts_stop_growing_at_the_longest_wait(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 1
    settings.HEARTS_LOCKOUT_MAX_MINUTES = 3
    User.objects.create_user("alice", password=PASSWORD)
    client = Client()

    waits = []
    for minutes in (1, 2, 3, 3):
        page = _guess_wrong(client, 1)
        wait = re.search(r"Please wait ([^<]+) and try again", page)
        assert wait is not None, page
        waits.append(wait.group(1))
        _minutes_pass(minutes + 0.1)

    assert waits == ["a minute", "2 minutes", "3 minutes", "3 minutes"]


def test_knocking_during_a_lockout_does_not_make_it_longer(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)
    client = Client()
    _guess_wrong(client, 3)

    _minutes_pass(0.5)
    assert "Please wait a minute" in _guess_wrong(client, 5)
    _minutes_pass(0.6)

    assert _sign_in(client, PASSWORD).status_code == 302


def test_signing_in_starts_the_lockouts_over(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)
    client = Client()
    _guess_wrong(client, 3)
    _minutes_pass(1.1)
    assert _sign_in(client, PASSWORD).status_code == 302
    client.logout()
    _minutes_pass(1)

    assert "Please wait a minute" in _guess_wrong(client, 3)


def test_one_names_short_lockout_does_not_end_anothers_longer_one(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("alice", password=PASSWORD)
    User.objects.create_user("bob", password=PASSWORD)
    client = Client()
    _guess_wrong(client, 3)
    _minutes_pass(1.1)
    _guess_wrong(client, 3)  # alice: 2 minutes
    _minutes_pass(1.1)

    for _ in range(3):  # bob's first lockout, a minute, from the same address
        client.post(reverse("login"), {"username": "bob", "password": "wrong"})

    assert _sign_in(client, PASSWORD).status_code == 429
