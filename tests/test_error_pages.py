"""The site's own pages for a missing address and a server error, and the admin's icon."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.template import loader
from django.templatetags.static import static
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_own_with_a_way_back_to_the_lobby() -> None:
    response = Client().get("/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert f'<a href="{reverse("lobby")}">Back to the lobby</a>' in page
    assert 'aria-label="Site"' in page  # the site's header and navigation
    assert static("css/site.css") in page


def test_a_missing_table_says_page_not_found_to_a_signed_in_player() -> None:
    client = Client()
    client.force_login(User.objects.create_user("alice"))

    response = client.get(reverse("table", args=[9999]))

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert ">alice</a>" in page  # still signed in, as the header shows


def test_a_server_error_shows_the_sites_page_without_needing_the_request() -> None:
    response = server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong</h1>" in page
    assert f'<a href="{reverse("lobby")}">Back to the lobby</a>' in page
    # Django renders it with an empty context: the template asks nothing of a request.
    assert loader.get_template("500.html").render() == page


def test_the_admins_pages_link_the_sites_icon_which_is_served() -> None:
    icon = static("favicon.svg")

    sign_in = Client().get(reverse("admin:login"))

    assert sign_in.status_code == 200
    assert f'<link rel="icon" href="{icon}" type="image/svg+xml">' in sign_in.content.decode()
    served = Client().get(icon)
    assert served.status_code == 200
    assert served["Content-Type"].startswith("image/svg+xml")
