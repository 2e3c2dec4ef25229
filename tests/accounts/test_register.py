import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

PASSWORD = "felt-table-queen-of-spades"


def _register(client: Client, username: str, password: str = PASSWORD, again: str | None = None):
    data = {"username": username, "password1": password, "password2": again or password}
    return client.post(reverse("register"), data)


def _username_errors(response) -> list[str]:
    return response.context["form"].errors.get("username", [])


@pytest.mark.django_db
def test_registering_signs_the_new_player_in_and_goes_to_the_lobby(client: Client) -> None:
    response = _register(client, "alice")

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    alice = User.objects.get(username="alice")
    assert client.session[SESSION_KEY] == str(alice.pk)


@pytest.mark.django_db
def test_the_password_is_stored_as_an_argon2_hash(client: Client) -> None:
    _register(client, "alice")

    alice = User.objects.get(username="alice")
    assert alice.password.startswith("argon2")
    assert alice.check_password(PASSWORD)


@pytest.mark.django_db
def test_the_register_page_shows_the_form(client: Client) -> None:
    response = client.get(reverse("register"))

    assert response.status_code == 200
    assert b'<label for="id_username">' in response.content
    assert b'<label for="id_password1">' in response.content
    assert b'<label for="id_password2">' in response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("al", "3 to 20 characters"),
        ("a" * 21, "3 to 20 characters"),
        ("alice smith", "Use only letters"),
        ("al!ce", "Use only letters"),
        ("Bot", "reserved"),
        ("robot_x", "reserved"),
        ("b0t", "reserved"),
        ("Admin", "reserved"),
        ("moderator", "reserved"),
        ("staff", "reserved"),
        ("system", "reserved"),
        ("hearts", "reserved"),
    ],
)
def test_a_name_breaking_a_rule_is_refused_with_its_reason(
    client: Client, name: str, reason: str
) -> None:
    response = _register(client, name)

    assert response.status_code == 200
    assert any(reason in error for error in _username_errors(response))
    assert not User.objects.exists()
    assert SESSION_KEY not in client.session


@pytest.mark.django_db
def test_a_name_differing_only_in_case_from_a_taken_one_is_refused(client: Client) -> None:
    User.objects.create_user("alice", password=PASSWORD)

    response = _register(client, "Alice")

    assert _username_errors(response) == ["That name is already taken."]
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_the_same_name_is_refused_too(client: Client) -> None:
    User.objects.create_user("bob", password=PASSWORD)

    response = _register(client, "bob")

    assert _username_errors(response) == ["That name is already taken."]


@pytest.mark.django_db
def test_the_two_passwords_must_match(client: Client) -> None:
    response = _register(client, "carol", again=PASSWORD + "x")

    assert response.context["form"].errors["password2"]
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "password"),
    [
        ("dave", "password123"),  # common
        ("dave", "shor7"),  # too short
        ("dave", "31415926535"),  # all digits
        ("dave_the_great", "dave_the_great1"),  # too like the name
    ],
)
def test_weak_passwords_are_refused_by_the_password_validators(
    client: Client, name: str, password: str
) -> None:
    response = _register(client, name, password=password)

    assert response.context["form"].errors["password2"]
    assert not User.objects.exists()


@pytest.mark.django_db
def test_an_error_is_tied_to_its_field_for_screen_readers(client: Client) -> None:
    response = _register(client, "Bot")
    html = response.content.decode()

    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="id_username_helptext id_username_error"' in html
    assert 'id="id_username_error"' in html
    assert 'id="id_username_helptext"' in html


@pytest.mark.django_db
def test_registering_returns_to_a_safe_next_page(client: Client) -> None:
    data = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}

    response = client.post(reverse("register") + "?next=/t/join/abc/", data)

    assert response["Location"] == "/t/join/abc/"


@pytest.mark.django_db
def test_registering_ignores_a_next_page_on_another_site(client: Client) -> None:
    data = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}

    response = client.post(reverse("register") + "?next=https://evil.example/", data)

    assert response["Location"] == reverse("lobby")


@pytest.mark.django_db
def test_someone_signed_in_is_sent_on_from_the_register_page(client: Client) -> None:
    client.force_login(User.objects.create_user("alice", password=PASSWORD))

    response = client.get(reverse("register"))

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
