"""Getting an account back: an address asked for at registration or on the account's page,
confirmed by a signed link before it counts, and "Forgot your password?" sending a reset link
to it; the same answer for an address nobody has, limits per address and per client, a link
that works once, and a reset that signs the account out everywhere."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts import addresses, resets
from accounts.models import Address, SignIn
from tests.helpers.moderators import with_two_factor

PASSWORD = "felt-table-queen-of-spades"
NEW_PASSWORD = "shooting-the-moon-twice"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits(settings):
    # This process's own counts: the run's Redis is shared by its parallel test processes,
    # whose resets would count against these tests' limits.
    limits = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "resets"}
    settings.CACHES = {**settings.CACHES, "limits": limits}
    caches["limits"].clear()


def _link(message: mail.EmailMessage) -> str:
    body = message.body
    assert isinstance(body, str), body
    found = re.search(r"https?://[^/\s]+(/\S+)", body)
    assert found, message.body
    return found.group(1)


def _register(client: Client, name: str, email: str = ""):
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD, "email": email}
    return client.post(reverse("register"), data)


def _confirmed(client: Client, message: mail.EmailMessage):
    link = _link(message)
    assert client.get(link).status_code == 200  # a page with a button: opening it keeps nothing
    return client.post(link)


def _with_address(name: str, email: str) -> User:
    user = User.objects.create_user(name, password=PASSWORD)
    Address.objects.create(user=user, email=email, confirmed_at="2026-12-01T00:00Z")
    return user


def _signs_in(client: Client, name: str, password: str) -> bool:
    client.post(reverse("login"), {"username": name, "password": password})
    return SESSION_KEY in client.session


def _forgot(client: Client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


def test_register_with_an_address_confirm_it_forget_the_password_and_get_back_in() -> None:
    client = Client()
    assert _register(client, "alice", "Alice@Example.org").status_code == 302
    assert not Address.objects.exists()  # not before it is confirmed
    (confirmation,) = mail.outbox
    assert confirmation.to == ["Alice@Example.org"]

    assert _confirmed(client, confirmation).status_code == 302
    assert addresses.address_of(User.objects.get(username="alice")) == "Alice@Example.org"

    other_device = Client()
    assert _signs_in(other_device, "alice", PASSWORD)
    mail.outbox.clear()
    stranger = Client()
    asked = _forgot(stranger, "alice@example.ORG")
    assert asked.status_code == 302 and asked["Location"] == reverse("password_reset_done")
    (reset,) = mail.outbox
    assert reset.to == ["Alice@Example.org"]

    landing = stranger.get(_link(reset), follow=True)
    assert b"id_new_password1" in landing.content
    set_url = landing.redirect_chain[-1][0]
    assert "set-password" in set_url  # the token out of the address at once
    done = stranger.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert not SignIn.objects.filter(user__username="alice").exists()

    assert _signs_in(Client(), "alice", NEW_PASSWORD)
    assert not _signs_in(Client(), "alice", PASSWORD)
    # The other device, and the browser that registered, were signed out by the reset (now,
    # not at their next request).
    for device in (other_device, client):
        device.get(reverse("lobby"))
        assert SESSION_KEY not in device.session


def test_a_reset_link_works_once() -> None:
    _with_address("bob", "bob@example.org")
    client = Client()
    _forgot(client, "bob@example.org")
    link = _link(mail.outbox[-1])
    set_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    again = Client().get(link, follow=True)

    assert "does not work any more" in again.content.decode()
    assert b"id_new_password1" not in again.content


def test_an_unknown_address_gets_the_same_answer_and_no_mail() -> None:
    _with_address("carol", "carol@example.org")
    known, unknown = _forgot(Client(), "carol@example.org"), _forgot(Client(), "nobody@x.org")

    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [message.to for message in mail.outbox] == [["carol@example.org"]]
    page = Client().get(unknown["Location"]).content.decode()
    assert "If an account has confirmed that address" in page


def test_a_closed_account_gets_no_reset() -> None:
    dave = _with_address("dave", "dave@example.org")
    dave.is_active = False
    dave.save()

    assert _forgot(Client(), "dave@example.org").status_code == 302
    assert mail.outbox == []


def test_resets_are_limited_per_address_quietly_and_per_client_loudly() -> None:
    _with_address("erin", "erin@example.org")
    for _ in range(resets.PER_ADDRESS + 2):
        assert _forgot(Client(), "erin@example.org").status_code == 302
    assert len(mail.outbox) == resets.PER_ADDRESS

    client = Client(REMOTE_ADDR="203.0.113.9")
    answers = [_forgot(client, f"x{n}@example.org").status_code for n in range(resets.PER_CLIENT)]
    refused = _forgot(client, "erin@example.org")

    assert set(answers) == {302}
    assert refused.status_code == 429
    assert "try again in an hour" in refused.content.decode()
    assert len(mail.outbox) == resets.PER_ADDRESS  # nothing more sent


def test_an_address_is_shown_to_its_owner_alone() -> None:
    frank = _with_address("frank", "frank@example.org")
    owner = Client()
    owner.force_login(frank)
    someone = Client()
    someone.force_login(User.objects.create_user("gina"))

    assert "frank@example.org" in owner.get(reverse("address")).content.decode()
    for viewer in (owner, someone, Client()):
        profile = viewer.get(reverse("profile", args=["frank"])).content.decode()
        assert "frank@example.org" not in profile


def test_changing_the_address_confirms_the_new_one_tells_the_old_and_kills_older_links() -> None:
    frank = _with_address("frank", "frank@example.org")
    client = Client()
    client.force_login(frank)

    client.post(reverse("address"), {"email": "frank@new.example"})
    first, notice = mail.outbox
    client.post(reverse("address"), {"email": "frank@newer.example"})
    second = mail.outbox[-2]

    assert first.to == ["frank@new.example"] and notice.to == ["frank@example.org"]
    assert addresses.address_of(frank) == "frank@example.org"  # until one is confirmed
    assert _confirmed(client, second).status_code == 302
    assert addresses.address_of(frank) == "frank@newer.example"
    # The first link came before the change: it confirms nothing, and neither does the second twice.
    assert _confirmed(client, first).status_code == 410
    assert _confirmed(client, second).status_code == 410
    assert addresses.address_of(frank) == "frank@newer.example"


def test_an_address_in_use_a_malformed_one_or_a_huge_one_is_refused_with_words() -> None:
    _with_address("hana", "hana@example.org")
    client = Client()

    for email, words in [
        ("HANA@example.org", "belongs to another account"),
        ("not an address", "Enter a valid email address"),
        ("a" * 10_000 + "@example.org", "at most 254 characters"),
    ]:
        response = _register(client, "ivan", email)
        assert response.status_code == 200
        assert words in response.content.decode()
    assert not User.objects.filter(username="ivan").exists()
    assert mail.outbox == []


def test_two_accounts_cannot_confirm_one_address() -> None:
    jo, kim = User.objects.create_user("jo"), User.objects.create_user("kim")
    factory = Client()
    factory.force_login(jo)
    factory.post(reverse("address"), {"email": "shared@example.org"})
    jo_link = mail.outbox[-1]
    other = Client()
    other.force_login(kim)
    other.post(reverse("address"), {"email": "Shared@Example.org"})
    kim_link = mail.outbox[-1]

    assert _confirmed(factory, jo_link).status_code == 302
    assert _confirmed(other, kim_link).status_code == 409
    assert Address.objects.get().user == jo


def test_a_forged_or_foreign_confirmation_link_confirms_nothing() -> None:
    client = Client()
    response = client.post(reverse("confirm_address", args=["forged:link"]))

    assert response.status_code == 410
    assert not Address.objects.exists()


def test_staff_see_whether_an_address_is_confirmed_not_which_and_can_send_a_reset() -> None:
    from django.contrib.auth.models import Permission

    staff = with_two_factor(User.objects.create_user("staff_lee", is_staff=True))
    staff.user_permissions.add(Permission.objects.get(codename="change_user"))
    with_one, without = _with_address("mia", "mia@example.org"), User.objects.create_user("ned")
    client = Client()
    client.force_login(staff)
    users = reverse("admin:auth_user_changelist")

    listing = client.get(users).content.decode()
    sent = client.post(
        users, {"action": "send_reset", "_selected_action": [with_one.pk, without.pk]}
    )

    assert "mia@example.org" not in listing and "confirmed address" in listing.lower()
    assert sent.status_code == 302
    assert [message.to for message in mail.outbox] == [["mia@example.org"]]
    assert "/accounts/password/reset/" in mail.outbox[0].body


def test_the_sites_mail_goes_by_the_worker_and_a_reset_asks_it_the_same_for_any_address(
    settings, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    from accounts import tasks
    from hearts_site.celery import app

    settings.HEARTS_MAIL_QUEUED = True
    queued: list[tuple[str, tuple[object, ...]]] = []

    def send_task(name: str, args: tuple[object, ...]) -> None:
        assert name in app.tasks  # one of the worker's tasks
        queued.append((name, args))

    monkeypatch.setattr(app, "send_task", send_task)
    _with_address("olga", "olga@example.org")

    with django_capture_on_commit_callbacks(execute=True):
        known = _forgot(Client(), "olga@example.org")
        unknown = _forgot(Client(), "nobody@example.org")

    # The same answer, after the same work: one task each, which looks the address up.
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert mail.outbox == []  # not in the request
    assert [name for name, _args in queued] == [tasks.send_reset.name] * 2
    assert [args[1:] for _name, args in queued] == [("testserver", False)] * 2
    for _name, args in list(queued):
        with django_capture_on_commit_callbacks(execute=True):
            tasks.send_reset(*args)  # as the worker runs it: the known address's mail queued
    ((name, (subject, body, to)),) = queued[2:]
    assert name == tasks.send_message.name
    assert isinstance(body, str), body
    assert to == "olga@example.org" and "/accounts/password/reset/" in body
    tasks.send_message(subject, body, to)
    assert [message.to for message in mail.outbox] == [["olga@example.org"]]


def test_a_known_and_an_unknown_address_take_the_same_time_to_answer(settings) -> None:
    """The enumeration check by the clock: the request's time is the same for both, within
    what one request's time varies by (the mail is the worker's, queued for both)."""
    settings.HEARTS_MAIL_QUEUED = True
    _with_address("olga", "olga@example.org")

    def timed(email: str, n: int) -> float:
        caches["limits"].clear()
        client = Client(REMOTE_ADDR=f"198.51.100.{n}")
        started = time.perf_counter()
        assert _forgot(client, email).status_code == 302
        return time.perf_counter() - started

    timed("warm@example.org", 0)
    # Taken in turn, so that whatever else the machine does slows both alike.
    pairs = [(timed("olga@example.org", n), timed("nobody@example.org", n)) for n in range(15)]
    # The quickest of each: what the request costs, without what else the machine was doing.
    known, unknown = min(pair[0] for pair in pairs), min(pair[1] for pair in pairs)
    # A mail sent in the request, or a password hashed for a known address alone, would take
    # several times as long as the request (about 10 ms alone, more beside other tests).
    assert abs(known - unknown) < max(0.025, min(known, unknown)), (known, unknown)


def test_the_addresses_list_is_for_staff_given_the_permission_to_see_them() -> None:
    from django.contrib.auth.models import Permission

    from tests.helpers.moderators import moderator, with_two_factor

    _with_address("pia", "pia@example.org")
    addresses_page = reverse("admin:accounts_address_changelist")
    staff = Client()
    staff.force_login(moderator())
    given = with_two_factor(User.objects.create_user("staff_quin", is_staff=True))
    given.user_permissions.add(Permission.objects.get(codename="view_address"))
    allowed = Client()
    allowed.force_login(given)

    assert staff.get(addresses_page).status_code == 403  # a moderator, without it
    assert "pia@example.org" in allowed.get(addresses_page).content.decode()
