"""Two-factor sign-in: turning it on from the account's page (the password again, the QR code
and its key, the app's code), signing in with the app's code or a recovery code, each code
good once, the wait after wrong ones; staff who hold permissions kept out of the admin and of
every moderation action until it is on."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import two_factor
from accounts.models import RecoveryCode, code_digest
from accounts.views import PENDING
from games.errors import ServiceError
from moderation import sanctions
from moderation.models import Sanction
from moderation.voiding import void_game
from tests.helpers.moderators import code_now
from tests.helpers.tables import signed_in

PASSWORD = "felt-table-queen-of-spades"

pytestmark = pytest.mark.django_db


def _turn_on(client: Client) -> list[str]:
    """Two-factor turned on from the page, as a person does: the recovery codes shown."""
    page = reverse("two_factor")
    assert client.post(page, {"action": "start", "password": PASSWORD}).status_code == 302
    user = User.objects.get(pk=client.session[SESSION_KEY])
    shown = client.post(page, {"action": "confirm", "confirm-code": code_now(user)})
    assert shown.status_code == 200, shown.content.decode()
    return re.findall(r"<li><code>([a-z0-9-]+)</code></li>", shown.content.decode())


def _password_step(client: Client, name: str) -> None:
    asked = client.post(reverse("login"), {"username": name, "password": PASSWORD})
    assert asked.status_code == 302 and asked["Location"] == reverse("login_code")
    assert SESSION_KEY not in client.session  # not signed in before the code


def _next_step(user: User) -> None:
    """The app's code is good once a time step: the tests' next code is the next step's."""
    # django_otp has no type information: the plugin does not see its devices' reverse relation.
    device = user.totpdevice_set.get(confirmed=True)  # type: ignore[attr-defined]
    device.last_t -= 2  # as if the last code was two steps ago (30 s each)
    device.save()


def test_a_player_turns_it_on_and_then_signs_in_with_the_apps_code() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    client = signed_in(alice)
    elsewhere = signed_in(alice)

    page = client.get(reverse("two_factor")).content.decode()
    assert "Set up two-factor sign-in" in page and 'name="password"' in page
    wrong = client.post(reverse("two_factor"), {"action": "start", "password": "not it"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.content.decode()
    assert not alice.totpdevice_set.exists()  # type: ignore[attr-defined]  # as in _next_step

    client.post(reverse("two_factor"), {"action": "start", "password": PASSWORD})
    setup = client.get(reverse("two_factor")).content.decode()
    assert "<svg" in setup and 'id="two-factor-secret"' in setup
    refused = client.post(reverse("two_factor"), {"action": "confirm", "confirm-code": "000000"})
    assert refused.status_code == 400 and not two_factor.is_on(alice)
    time.sleep(1.1)  # the wait after one wrong code

    codes = _turn_on(client)
    assert two_factor.is_on(alice) and len(codes) == two_factor.RECOVERY_CODES
    # Every other session ended: it had not given a code.
    elsewhere.get(reverse("lobby"))
    assert SESSION_KEY not in elsewhere.session
    on = client.get(reverse("two_factor")).content.decode()
    assert "Two-factor sign-in is on" in on and "10 recovery codes left" in on

    _next_step(alice)
    browser = Client()
    _password_step(browser, "alice")
    page = browser.get(reverse("login_code")).content.decode()
    assert 'autocomplete="one-time-code"' in page
    code = code_now(alice)
    assert browser.post(reverse("login_code"), {"code": code}).status_code == 302
    assert browser.session[SESSION_KEY] == str(alice.pk)

    # The same code again, from another browser: refused, though the password is right.
    thief = Client()
    _password_step(thief, "alice")
    again = thief.post(reverse("login_code"), {"code": code})
    assert again.status_code == 200 and SESSION_KEY not in thief.session
    assert "used already" in again.content.decode()


def test_wrong_codes_make_the_next_one_wait_and_a_half_made_sign_in_expires() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    _turn_on(signed_in(alice))
    _next_step(alice)
    browser = Client()
    _password_step(browser, "alice")

    assert "not right" in browser.post(reverse("login_code"), {"code": "123"}).content.decode()
    right_too_soon = browser.post(reverse("login_code"), {"code": code_now(alice)})
    assert "Too many wrong codes: try again in 1 second." in right_too_soon.content.decode()
    assert SESSION_KEY not in browser.session

    session = browser.session
    session[PENDING] = {**session[PENDING], "at": time.time() - 301}
    session.save()
    late = browser.get(reverse("login_code"))
    assert late.status_code == 302 and late["Location"] == reverse("login")


def test_recovery_codes_sign_in_once_each_and_only_their_hashes_are_kept() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    codes = _turn_on(signed_in(alice))
    stored = set(RecoveryCode.objects.values_list("digest", flat=True))
    assert stored == {code_digest(code) for code in codes}
    assert not stored & set(codes)

    browser = Client()
    _password_step(browser, "alice")
    typed = codes[3].upper().replace("-", " ")  # as a person might type it
    answer = browser.post(reverse("login_code"), {"code": typed}, follow=True)
    assert browser.session[SESSION_KEY] == str(alice.pk)
    assert "You signed in with a recovery code: 9 are left." in answer.content.decode()

    again = Client()
    _password_step(again, "alice")
    assert "used already" in again.post(reverse("login_code"), {"code": codes[3]}).content.decode()
    assert SESSION_KEY not in again.session
    assert two_factor.codes_left(alice) == 9


def test_new_recovery_codes_and_turning_it_off_take_the_apps_code() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    client = signed_in(alice)
    old = _turn_on(client)
    _next_step(alice)

    recovery = client.post(reverse("two_factor"), {"action": "codes", "codes-code": old[0]})
    assert recovery.status_code == 400 and two_factor.codes_left(alice) == 10
    new = client.post(reverse("two_factor"), {"action": "codes", "codes-code": code_now(alice)})
    fresh = re.findall(r"<li><code>([a-z0-9-]+)</code></li>", new.content.decode())
    assert len(fresh) == 10 and not set(fresh) & set(old)
    assert two_factor.verify(alice, old[1]) is None

    _next_step(alice)
    client.post(reverse("two_factor"), {"action": "off", "off-code": code_now(alice)})
    assert not two_factor.is_on(alice)
    signs_in = Client().post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert signs_in["Location"] == reverse("lobby")  # the password alone again


def _moderator_without_two_factor() -> User:
    from django.contrib.auth.models import Group

    staff = User.objects.create_user("mod_erin", password=PASSWORD, is_staff=True)
    staff.groups.add(Group.objects.get(name="Moderators"))
    return User.objects.get(pk=staff.pk)


def test_staff_are_refused_the_admin_and_every_moderation_action_until_it_is_on() -> None:
    staff = _moderator_without_two_factor()
    bob = User.objects.create_user("bob")
    client = signed_in(staff)

    for page in (reverse("admin:index"), reverse("admin:auth_user_changelist")):
        refused = client.get(page)
        assert refused.status_code == 403, page
        assert "Two-factor sign-in needed" in refused.content.decode()
        assert reverse("two_factor") in refused.content.decode()
    assert client.get(reverse("collusion_pairs")).status_code == 403
    with pytest.raises(sanctions.ModerationError, match="two-factor"):
        sanctions.ban(staff, bob, reason="Spam.")
    with pytest.raises(ServiceError, match="two-factor"):
        void_game(1, staff, "A bug.")
    assert not Sanction.objects.exists()

    _turn_on(client)  # this session gave the code: the admin opens
    assert client.get(reverse("admin:index")).status_code == 200
    users = reverse("admin:auth_user_changelist")
    asked = client.post(users, {"action": "ban", "_selected_action": [bob.pk]})
    assert asked.status_code == 200
    client.post(
        users, {"action": "ban", "_selected_action": [bob.pk], "apply": "yes", "reason": "Spam."}
    )
    assert Sanction.objects.filter(user=bob).exists()


def test_a_staff_password_alone_does_not_open_the_admin_once_two_factor_is_on() -> None:
    staff = _moderator_without_two_factor()
    _turn_on(signed_in(staff))
    _next_step(staff)

    browser = Client()
    asked = browser.post(
        reverse("admin:login"),
        {"username": "mod_erin", "password": PASSWORD, "next": "/admin/"},
    )
    assert asked["Location"] == reverse("login_code")
    assert browser.get(reverse("admin:index")).status_code == 302  # still signed out
    browser.post(reverse("login_code"), {"code": code_now(staff)})
    assert browser.get(reverse("admin:index")).status_code == 200


def test_a_superuser_turns_off_the_two_factor_of_a_person_who_lost_the_app_and_the_codes() -> None:
    from moderation.models import AuditEntry
    from tests.helpers.moderators import moderator, with_two_factor

    alice = User.objects.create_user("alice", password=PASSWORD)
    _turn_on(signed_in(alice))
    mod = moderator()
    with pytest.raises(sanctions.ModerationError, match="Only a superuser"):
        sanctions.turn_off_two_factor(mod, alice, reason="Proved who she is.")
    root = with_two_factor(User.objects.create_superuser("root_ops"))
    client = signed_in(root)
    users = reverse("admin:auth_user_changelist")
    client.post(
        users,
        {
            "action": "two_factor_off",
            "_selected_action": [alice.pk],
            "apply": "yes",
            "reason": "Proved who she is by mail.",
        },
    )
    assert not two_factor.is_on(alice)
    entry = AuditEntry.objects.get(action="two-factor turned off")
    assert entry.user == alice and entry.staff == root and entry.at <= timezone.now()
