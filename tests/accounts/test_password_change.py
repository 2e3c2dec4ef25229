import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

PASSWORD = "felt-table-queen-of-spades"
NEW_PASSWORD = "shooting-the-moon-twice"


def _change(client: Client, old: str, new: str, again: str | None = None):
    data = {"old_password": old, "new_password1": new, "new_password2": again or new}
    return client.post(reverse("password_change"), data)


@pytest.mark.django_db
def test_changing_the_password_needs_a_signed_in_player(client: Client) -> None:
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('password_change')}"


@pytest.mark.django_db
def test_the_change_password_page_shows_the_form(client: Client) -> None:
    client.force_login(User.objects.create_user("alice", password=PASSWORD))

    response = client.get(reverse("password_change"))

    assert response.status_code == 200
    assert b'<label for="id_old_password">' in response.content


@pytest.mark.django_db
def test_a_changed_password_works_and_the_player_stays_signed_in(client: Client) -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    client.force_login(alice)

    response = _change(client, PASSWORD, NEW_PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == reverse("profile", args=["alice"])
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice.password.startswith("argon2")
    assert client.session[SESSION_KEY] == str(alice.pk)
    page = client.get(response["Location"])
    assert b"Your password has been changed: you are signed out everywhere else." in page.content


@pytest.mark.django_db
def test_the_old_password_must_be_right(client: Client) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    client.force_login(bob)

    response = _change(client, "not-the-password", NEW_PASSWORD)

    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    bob.refresh_from_db()
    assert bob.check_password(PASSWORD)


@pytest.mark.django_db
def test_the_new_password_is_validated(client: Client) -> None:
    client.force_login(User.objects.create_user("carol", password=PASSWORD))

    response = _change(client, PASSWORD, "password")

    assert response.status_code == 200
    assert response.context["form"].errors["new_password2"]
