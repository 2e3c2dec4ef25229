"""What every page shares: the Content-Security-Policy holds, forms carry CSRF tokens."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.helpers.pages import page_parts

PASSWORD = "felt-table-queen-of-spades"


def _pages(client: Client) -> list[str]:
    User.objects.create_user("alice", password=PASSWORD)
    return [reverse("login"), reverse("register"), reverse("profile", args=["alice"])]


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_pages_have_no_inline_scripts_or_styles(client: Client, signed_in: bool) -> None:
    urls = _pages(client)
    if signed_in:
        client.force_login(User.objects.get(username="alice"))
        urls = [reverse("profile", args=["alice"]), reverse("password_change")]

    for url in urls:
        page = page_parts(client.get(url).content)
        assert page.scripts, url
        assert all(script.get("src") for script in page.scripts), url
        assert page.inline_script_text == "", url
        assert page.style_elements == 0, url
        assert page.style_attributes == [], url
        assert page.event_handlers == [], url


@pytest.mark.django_db
def test_pages_are_sent_with_a_strict_content_security_policy(client: Client) -> None:
    policy = client.get(reverse("login"))["Content-Security-Policy"]

    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy


@pytest.mark.django_db
def test_the_base_page_loads_htmx_and_tells_it_not_to_inject_styles(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()

    assert '<html lang="en">' in html
    assert '<meta name="viewport"' in html
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false}'>""" in html
    assert 'src="/static/vendor/htmx/htmx.min.js" defer' in html
    assert 'src="/static/vendor/htmx-ext-ws/ws.min.js" defer' in html
    assert '<a class="skip-link" href="#content">Skip to content</a>' in html
    assert '<main id="content"' in html


@pytest.mark.django_db
def test_every_post_form_carries_a_csrf_token(client: Client) -> None:
    client.force_login(User.objects.create_user("bob", password=PASSWORD))

    for url in [reverse("password_change"), reverse("profile", args=["bob"])]:
        page = page_parts(client.get(url).content)
        assert page.post_forms >= 1, url
        assert page.post_forms_with_token == page.post_forms, url


@pytest.mark.django_db
def test_htmx_requests_carry_the_csrf_token_from_the_body(client: Client) -> None:
    response = client.get(reverse("login"))
    page = page_parts(response.content)

    token = response.context["csrf_token"]
    assert page.body["hx-headers"] == f'{{"X-CSRFToken": "{token}"}}'


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["register", "login"])
def test_a_post_without_a_csrf_token_is_refused(name: str) -> None:
    client = Client(enforce_csrf_checks=True)
    data = {"username": "carol", "password": PASSWORD, "password1": PASSWORD, "password2": PASSWORD}

    response = client.post(reverse(name), data)

    assert response.status_code == 403
    assert not User.objects.filter(username="carol").exists()


@pytest.mark.django_db
def test_signing_out_without_a_csrf_token_is_refused() -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.create_user("dave", password=PASSWORD))

    response = client.post(reverse("logout"))

    assert response.status_code == 403
    assert "_auth_user_id" in client.session
