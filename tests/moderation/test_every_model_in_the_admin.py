"""Every model of the site's own apps has its page in the admin. What only the site writes (the
rated queue, the games' tallies, the keys of names, people's own choices of language and chat,
mutes, arena entries) is read-only there, even for a superuser, and the Moderators group reads
it; a member of staff without the permission does not (arenas are every staff member's). Reserved names are the one list staff
add to and take from, those who may rename people, each change in the audit log."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import Address, ReservedName, SpokenLanguage, is_reserved
from accounts.validators import lookalike_keys
from arenas.models import Entrant
from chat.models import ChatSetting, Mute
from moderation.models import AuditEntry
from moderation.permissions import MODERATORS
from pairing.models import Seeker
from ratings.models import GameTally
from tests.helpers.moderators import moderator, with_two_factor

pytestmark = pytest.mark.django_db

# Read by the Moderators group, not by every member of staff (arenas are every staff member's).
MODERATORS_READ: list[type[Model]] = [Seeker, GameTally, SpokenLanguage, Mute, ChatSetting]
READ_ONLY: list[type[Model]] = [*MODERATORS_READ, Entrant, Address]
RESERVED = reverse("admin:accounts_reservedname_changelist")


def _signed_in(person: User) -> Client:
    client = Client()
    client.force_login(person)
    return client


def _changelist(model: type[Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def test_every_model_of_the_sites_own_apps_is_in_the_admin() -> None:
    ours = [
        config
        for config in apps.get_app_configs()
        if Path(config.path).is_relative_to(settings.BASE_DIR)
        and "site-packages" not in Path(config.path).parts  # the packages of a venv in it
    ]
    models = [model for config in ours for model in config.get_models()]

    assert len(ours) > 10 and len(models) > 20
    assert [model._meta.label for model in models if not admin.site.is_registered(model)] == []


def test_what_only_the_site_writes_is_read_only_even_for_a_superuser() -> None:
    root = with_two_factor(User.objects.create_superuser("root_ops"))
    request = RequestFactory().get("/admin/")
    request.user = root

    for model in READ_ONLY:
        model_admin = admin.site.get_model_admin(model)
        label = model._meta.label
        assert model_admin.has_view_permission(request), label
        assert not model_admin.has_add_permission(request), label
        assert not model_admin.has_change_permission(request), label
        assert not model_admin.has_delete_permission(request), label
        assert _signed_in(root).get(_changelist(model)).status_code == 200, label


def test_a_moderator_reads_mutes_and_chat_settings_and_staff_without_the_permission_do_not() -> (
    None
):
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    Mute.objects.create(muter=bob, muted=carol)
    ChatSetting.objects.create(user=carol, off=True)
    erin = with_two_factor(User.objects.create_user("mod_erin", is_staff=True))
    erin.groups.add(Group.objects.get(name=MODERATORS))
    frank = with_two_factor(User.objects.create_user("frank", is_staff=True))

    for model in MODERATORS_READ:
        assert _signed_in(erin).get(_changelist(model)).status_code == 200, model._meta.label
        assert _signed_in(frank).get(_changelist(model)).status_code == 403, model._meta.label
    mutes = _signed_in(erin).get(_changelist(Mute)).content.decode()
    assert "bob" in mutes and "carol" in mutes
    index = _signed_in(erin).get(reverse("admin:index")).content.decode()
    for words in ("People in the queue", "Game tallies", "Mutes", "Chat settings"):
        assert words in index


def test_staff_who_may_rename_keep_a_name_out_of_use_and_let_it_go_again() -> None:
    alice = User.objects.create_user("alice")
    erin = _signed_in(moderator())
    add = reverse("admin:accounts_reservedname_add")

    kept = erin.post(add, {"name": "Queen_Bee", "user": alice.pk, "reason": "Looks like staff."})

    assert kept.status_code == 302
    assert ReservedName.objects.filter(name="Queen_Bee").count() == len(lookalike_keys("Queen_Bee"))
    assert is_reserved("queen_b3e") and not is_reserved("queen_bee", but_for=alice)
    entry = AuditEntry.objects.get(action="keep_name")
    assert entry.user == alice and entry.reason == "Looks like staff."

    one_key = ReservedName.objects.filter(name="Queen_Bee").first()
    assert one_key is not None
    released = erin.post(RESERVED, {"action": "release", "_selected_action": [str(one_key.pk)]})

    assert released.status_code == 302
    assert not ReservedName.objects.exists() and not is_reserved("Queen_Bee")
    assert AuditEntry.objects.get(action="release_name").details == {"name": "Queen_Bee"}


def test_staff_who_may_not_rename_neither_keep_nor_release_a_name() -> None:
    alice = User.objects.create_user("alice")
    ReservedName.objects.create(key="queenbee", name="Queen_Bee", user=alice)
    one_key = ReservedName.objects.get()
    gus = _signed_in(moderator("mod_gus", actions=["ban"]))
    add = reverse("admin:accounts_reservedname_add")

    assert gus.get(add).status_code == 403
    gus.post(add, {"name": "Other_Name", "user": alice.pk, "reason": "Because."})
    gus.post(RESERVED, {"action": "release", "_selected_action": [str(one_key.pk)]})

    assert list(ReservedName.objects.values_list("name", flat=True)) == ["Queen_Bee"]
    assert not AuditEntry.objects.exists()


def test_a_key_two_kept_names_share_stays_when_one_of_them_is_let_go() -> None:
    alice = User.objects.create_user("alice")
    erin = _signed_in(moderator())
    add = reverse("admin:accounts_reservedname_add")
    erin.post(add, {"name": "Queen_Bee", "user": alice.pk, "reason": "Looks like staff."})
    erin.post(add, {"name": "Queen_B33", "user": alice.pk, "reason": "The same, in digits."})
    first = ReservedName.objects.get(name="Queen_Bee")

    erin.post(RESERVED, {"action": "release", "_selected_action": [str(first.pk)]})

    assert is_reserved("Queen_Bee")  # a look-alike of Queen_B33, which is still kept
    assert set(ReservedName.objects.values_list("key", flat=True)) == lookalike_keys("Queen_B33")


def test_a_name_kept_out_of_use_already_is_not_kept_twice() -> None:
    alice = User.objects.create_user("alice")
    erin = _signed_in(moderator())
    add = reverse("admin:accounts_reservedname_add")
    erin.post(add, {"name": "Queen_Bee", "user": alice.pk, "reason": "Looks like staff."})

    again = erin.post(add, {"name": "queen_bee", "user": alice.pk, "reason": "Again."})

    assert again.status_code == 200
    assert "“queen_bee” and its look-alikes are kept out of use already" in again.content.decode()
    assert ReservedName.objects.get().name == "Queen_Bee"
