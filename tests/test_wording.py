"""The site's words: "Sign in" everywhere, and a visitor is only invited to what they can do."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db

BASE_DIR = Path(__file__).resolve().parents[1]
SITE_CODE = ["templates", "static", "games", "accounts", "moderation", "ratings", "reports"]
LOG_IN = re.compile(r"\blog(ged)?[ -]?in\b", re.IGNORECASE)


def test_the_sites_pages_and_messages_never_say_log_in() -> None:
    said = [
        f"{path.relative_to(BASE_DIR)}: {line.strip()}"
        for folder in SITE_CODE
        for path in (BASE_DIR / folder).rglob("*")
        if path.suffix in {".html", ".js", ".py", ".txt"}
        for line in path.read_text().splitlines()
        # What is meant is the words, not Django's names (login_required, LOGIN_URL, "login").
        if LOG_IN.search(re.sub(r"[\w.]*login\w*|['\"]login['\"]", "", line, flags=re.I))
    ]
    assert said == []


def test_a_visitor_of_an_empty_lobby_is_told_to_register_or_sign_in_to_start_a_table() -> None:
    page = Client().get(reverse("lobby")).content.decode()

    assert "No tables yet." in page
    assert "Start one" not in page
    assert re.search(r"Register</a> or <a href=\"[^\"]+\">sign in</a> to start a\s+table", page)


def test_a_signed_in_person_of_an_empty_lobby_is_told_to_start_one() -> None:
    client = Client()
    client.force_login(User.objects.create_user("alice"))

    page = client.get(reverse("lobby")).content.decode()

    assert '<p class="no-tables">No tables yet.</p>' in page
    assert '<p class="start-one">Start one below.</p>' in page  # shown while the list is empty
    assert "sign in</a> to start" not in page


def test_a_visitor_at_a_waiting_table_is_told_to_sign_in_or_register_to_take_a_seat() -> None:
    table = services.create_table(User.objects.create_user("alice"))
    url = reverse("table", args=[table.pk])
    back = f"?next={quote(url)}"

    page = Client().get(url).content.decode()

    assert f'<a href="{reverse("login")}{back}">Sign in</a> or' in page
    assert f'<a href="{reverse("register")}{back}">register</a> to take a seat.' in page
    assert "Sit here" not in page

    bob = Client()
    bob.force_login(User.objects.create_user("bob"))
    assert "to take a seat" not in bob.get(url).content.decode()
