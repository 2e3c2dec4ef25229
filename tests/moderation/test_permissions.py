"""Who may do what to people: each action in the user admin (suspend, ban, lift, rename, mark,
unmark, close accounts, ban from chat and lift a chat ban) takes a permission of its own, which the "Moderators" group holds. A member of staff
without it is not offered the action, a request made by hand is refused and changes nothing,
and so is the service called directly. Acting on staff or a superuser takes a superuser."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from moderation import permissions, sanctions
from moderation.models import Sanction, chat_ban_in_force, is_marked, sanction_in_force
from moderation.permissions import PERMISSIONS
from moderation.sanctions import ModerationError
from tests.helpers.moderators import code_now, moderator, with_two_factor

pytestmark = pytest.mark.django_db

USERS = reverse("admin:auth_user_changelist")


def _until() -> str:
    return (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")


@dataclass(frozen=True)
class Action:
    """One action on people: what its form needs besides the reason, what has to be true of
    the person before it can be taken, how to take it in code, and whether it was taken."""

    name: str
    form: Callable[[], dict[str, str]]
    before: Callable[[User, User], object]  # (a superuser, the person)
    call: Callable[[User, User], object]  # (staff, the person)
    taken: Callable[[User], bool]


def _banned(person: User) -> bool:
    sanction = sanction_in_force(person)
    return sanction is not None and sanction.ends_at is None


def _suspended(person: User) -> bool:
    sanction = sanction_in_force(person)
    return sanction is not None and sanction.ends_at is not None


def _renamed(person: User) -> bool:
    person.refresh_from_db()
    return person.username == "player_bob"


def _closed(person: User) -> bool:
    person.refresh_from_db()
    return not person.is_active


def _nothing(root: User, person: User) -> None:
    return None


ACTIONS = [
    Action(
        "suspend",
        lambda: {"until": _until()},
        _nothing,
        lambda staff, person: sanctions.suspend(
            staff, person, until=timezone.now() + timedelta(days=2), reason="Spam."
        ),
        _suspended,
    ),
    Action(
        "ban",
        dict,
        _nothing,
        lambda staff, person: sanctions.ban(staff, person, reason="Cheating."),
        _banned,
    ),
    Action(
        "lift",
        dict,
        lambda root, person: sanctions.ban(root, person, reason="Cheating."),
        lambda staff, person: sanctions.lift(staff, person, reason="Appeal upheld."),
        lambda person: sanction_in_force(person) is None,
    ),
    Action(
        "rename",
        lambda: {"new_name": "player_bob"},
        _nothing,
        lambda staff, person: sanctions.rename(staff, person, "player_bob", reason="Rude."),
        _renamed,
    ),
    Action(
        "mark",
        dict,
        _nothing,
        lambda staff, person: sanctions.mark(staff, person, reason="Feeding."),
        is_marked,
    ),
    Action(
        "unmark",
        dict,
        lambda root, person: sanctions.mark(root, person, reason="Feeding."),
        lambda staff, person: sanctions.unmark(staff, person, reason="Reviewed."),
        lambda person: not is_marked(person),
    ),
    Action(
        "close",
        dict,
        _nothing,
        lambda staff, person: sanctions.close_account(staff, person, reason="Asked to."),
        _closed,
    ),
    Action(
        "chat_ban",
        dict,
        _nothing,
        lambda staff, person: sanctions.chat_ban(staff, person, reason="Insults."),
        lambda person: chat_ban_in_force(person.pk) is not None,
    ),
    Action(
        "chat_lift",
        dict,
        lambda root, person: sanctions.chat_ban(root, person, reason="Insults."),
        lambda staff, person: sanctions.lift_chat_ban(staff, person, reason="Apologised."),
        lambda person: chat_ban_in_force(person.pk) is None,
    ),
]
BY_NAME = {action.name: action for action in ACTIONS}


@pytest.fixture
def root() -> User:
    return with_two_factor(User.objects.create_superuser("root_ops", password="not-used-here-9Qs"))


def _signed_in(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def _offered(client: Client) -> str:
    return client.get(USERS).content.decode()


def _take(client: Client, action: Action, person: User) -> Any:
    """The action taken through the admin, reason and form filled in, as its page sends it."""
    data = {
        "action": action.name,
        "_selected_action": [str(person.pk)],
        "apply": "yes",
        "reason": "Staff's reason.",
        **action.form(),
    }
    return client.post(USERS, data, follow=True)


def test_every_action_has_its_own_permission() -> None:
    assert sorted(PERMISSIONS) == sorted(BY_NAME)
    assert len({codename for codename, _ in PERMISSIONS.values()}) == len(PERMISSIONS)
    assert doctest.testmod(permissions).failed == 0


@pytest.mark.parametrize("name", list(BY_NAME))
def test_staff_with_the_permission_are_offered_the_action_and_take_it(
    name: str, root: User
) -> None:
    action = BY_NAME[name]
    bob = User.objects.create_user("bob")
    action.before(root, bob)
    client = _signed_in(moderator(actions=[name]))

    assert f'<option value="{name}">' in _offered(client)
    _take(client, action, bob)

    assert action.taken(bob)


@pytest.mark.parametrize("name", list(BY_NAME))
def test_staff_without_the_permission_are_not_offered_the_action_and_a_forged_one_is_refused(
    name: str, root: User
) -> None:
    action = BY_NAME[name]
    bob = User.objects.create_user("bob")
    action.before(root, bob)
    others = [other for other in PERMISSIONS if other != name]
    staff = moderator(actions=others)
    client = _signed_in(staff)

    offered = _offered(client)
    _take(client, action, bob)

    assert 'name="action"' in offered  # the other actions are offered
    assert f'<option value="{name}">' not in offered
    assert not action.taken(bob)
    with pytest.raises(ModerationError, match="permission"):
        action.call(staff, bob)
    assert not action.taken(bob)


def test_staff_with_no_permission_are_offered_no_action_and_change_nothing(root: User) -> None:
    bob = User.objects.create_user("bob")
    client = _signed_in(with_two_factor(User.objects.create_user("mod_erin", is_staff=True)))

    offered = _offered(client)
    for action in ACTIONS:
        _take(client, action, bob)

    assert "bob" in offered and 'name="action"' not in offered
    assert sanction_in_force(bob) is None and not is_marked(bob)
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_the_moderators_group_holds_every_action_and_the_void_and_report_permissions() -> None:
    carol = with_two_factor(User.objects.create_user("mod_carol", is_staff=True))
    carol.groups.add(Group.objects.get(name="Moderators"))
    carol = User.objects.get(pk=carol.pk)  # permissions are read once a user object

    for name in PERMISSIONS:
        assert carol.has_perm(f"moderation.{PERMISSIONS[name][0]}"), name
    for held in ("games.change_game", "reports.change_report", "reports.view_report"):
        assert carol.has_perm(held), held
    assert all(f'<option value="{name}">' in _offered(_signed_in(carol)) for name in PERMISSIONS)


@pytest.mark.parametrize("name", list(BY_NAME))
@pytest.mark.parametrize("rank", ["superuser", "staff"])
def test_only_a_superuser_acts_on_staff_or_a_superuser(name: str, rank: str, root: User) -> None:
    action = BY_NAME[name]
    if rank == "superuser":
        bob = with_two_factor(User.objects.create_superuser("bob", password="not-used-here-9Qs"))
    else:
        bob = with_two_factor(User.objects.create_user("bob", is_staff=True))
    action.before(root, bob)
    erin = moderator()

    with pytest.raises(ModerationError, match="only a superuser"):
        action.call(erin, bob)
    assert not action.taken(bob)

    action.call(root, bob)
    assert action.taken(bob)


def test_a_moderator_banning_a_superuser_in_the_admin_is_told_no_and_the_superuser_stays_in(
    root: User,
) -> None:
    client = _signed_in(moderator())

    shown = _take(client, BY_NAME["ban"], root).content.decode()

    assert "root_ops is a superuser: only a superuser may act on staff or superusers" in shown
    assert not Sanction.objects.exists()
    signing_in = {"username": "root_ops", "password": "not-used-here-9Qs", "next": "/admin/"}
    superuser = Client()
    asked = superuser.post(reverse("admin:login"), signing_in, follow=True)
    assert asked.redirect_chain[-1][0] == reverse("login_code")  # two-factor is on
    signed_in = superuser.post(reverse("login_code"), {"code": code_now(root)}, follow=True)
    assert signed_in.redirect_chain and signed_in.redirect_chain[-1][0] == "/admin/"


@pytest.mark.parametrize("chosen", ["abc", "9" * 30, ""])
def test_a_chosen_id_that_is_no_persons_is_refused_with_a_message(chosen: str) -> None:
    client = _signed_in(moderator())
    client.raise_request_exception = False
    for step in ({}, {"apply": "yes", "reason": "Spam."}):
        response = client.post(USERS, {"action": "ban", "_selected_action": [chosen], **step})

        assert response.status_code == 302
        shown = client.get(response["Location"]).content.decode()
        assert "Those users could not be found: choose again." in shown
    assert not Sanction.objects.exists()


def _change_page_post(client: Client, person: User, **fields: str) -> Any:
    """The person's change page sent back with ``fields`` set besides the details it needs."""
    data = {
        "username": person.username,
        "email": person.email,
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        **fields,
    }
    return client.post(reverse("admin:auth_user_change", args=[person.pk]), data)


def test_staff_who_may_edit_people_cannot_give_themselves_or_anyone_powers() -> None:
    editor = with_two_factor(User.objects.create_user("edit_ed", is_staff=True))
    editor.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="auth", codename__in=["view_user", "change_user"]
        )
    )
    client = _signed_in(editor)
    moderators, _ = Group.objects.get_or_create(name=permissions.MODERATORS)

    page = client.get(reverse("admin:auth_user_change", args=[editor.pk])).content.decode()
    answer = _change_page_post(
        client,
        editor,
        username="root",
        email="ed@example.com",
        is_superuser="on",
        groups=str(moderators.pk),
    )

    assert 'name="is_superuser"' not in page and 'name="groups"' not in page
    assert answer.status_code == 302  # the details were saved...
    editor.refresh_from_db()
    assert editor.email == "ed@example.com"
    assert not editor.is_superuser  # ...and none of the powers
    assert editor.username == "edit_ed"
    assert not editor.groups.exists()


def test_a_superuser_still_makes_someone_staff_on_the_change_page(root: User) -> None:
    person = User.objects.create_user("sam_staff")

    answer = _change_page_post(_signed_in(root), person, is_staff="on")

    assert answer.status_code == 302
    person.refresh_from_db()
    assert person.is_staff
