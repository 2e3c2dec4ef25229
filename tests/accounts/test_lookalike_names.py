"""Registering a name that could be taken for someone else's."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import LookalikeKey

PASSWORD = "felt-table-queen-of-spades"

pytestmark = pytest.mark.django_db


def _register(username: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("register"), data)


@pytest.mark.parametrize("name", ["AIice9249", "4lice9249", "Al1ce9249", "ALICE9249", "a1ice9249"])
def test_a_name_that_could_be_taken_for_an_existing_one_is_refused(name: str) -> None:
    User.objects.create_user("Alice9249", password=PASSWORD)

    response = _register(name)

    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("could be taken for “Alice9249”" in e for e in errors) or errors == [
        "That name is already taken."
    ]
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["you", "gone", "Seat_1", "empty", "host"])
def test_a_name_that_reads_as_the_tables_own_word_is_refused(name: str) -> None:
    response = _register(name)

    assert response.status_code == 200
    assert "reserved" in response.context["form"].errors["username"][0]
    assert not User.objects.exists()


def test_a_name_that_looks_different_is_accepted_beside_an_existing_one() -> None:
    User.objects.create_user("Alice9249", password=PASSWORD)

    assert _register("Alicia9249").status_code == 302
    assert _register("Alice9250").status_code == 302


def test_a_renamed_user_is_checked_under_the_new_name() -> None:
    carol = User.objects.create_user("carol", password=PASSWORD)
    carol.username = "dora"
    carol.save()

    assert _register("carol").status_code == 302
    assert _register("d0ra").status_code == 200
    assert set(LookalikeKey.objects.filter(user=carol).values_list("key", flat=True)) == {"dora"}
