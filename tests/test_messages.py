"""The site in four languages: every word marked in the code is in each catalog, translated,
never fuzzy, with the English placeholders (scripts/messages.py check: GNU gettext's msgcmp and
msgfmt --check); a page comes in the language the browser asks for, or the one chosen in the
footer, which a signed-in person's account keeps on any browser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


def test_the_catalogs_hold_every_marked_word_translated_with_its_placeholders() -> None:
    checked = subprocess.run(
        [sys.executable, "scripts/messages.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.django_db
def test_the_browsers_language_picks_the_first_time_and_the_footer_switches() -> None:
    browser = Client(headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    page = browser.get("/").content.decode()
    assert '<html lang="fr">' in page and "Langue" in page
    assert '<html lang="en">' in Client().get("/").content.decode()

    switched = browser.post("/language/", {"language": "de", "next": "/games/"})
    assert switched.status_code == 302 and switched["Location"] == "/games/"
    assert '<html lang="de">' in browser.get("/").content.decode()


@pytest.mark.django_db
def test_a_signed_in_persons_language_is_kept_in_their_account_for_any_browser() -> None:
    person = User.objects.create_user("lena", password="not-used-here-1")
    first = Client()
    first.force_login(person)
    first.post("/language/", {"language": "es", "next": "/"})

    elsewhere = Client(headers={"Accept-Language": "de"})  # another browser, asking German
    elsewhere.force_login(person)
    assert '<html lang="es">' in elsewhere.get("/").content.decode()
    assert Client().post("/language/", {"language": "xx"}).status_code == 302  # ignored


@pytest.mark.django_db
def test_a_language_the_site_does_not_offer_is_kept_neither_in_the_cookie_nor_the_account() -> None:
    from accounts.models import SpokenLanguage

    lena = User.objects.create_user("lena", password="not-used-here-1")
    browser = Client()
    browser.force_login(lena)
    browser.post("/language/", {"language": "de", "next": "/"})

    refused = browser.post("/language/", {"language": "it", "next": "/games/"})

    assert refused.status_code == 302 and refused["Location"] == "/games/"
    assert "hearts_language" not in refused.cookies  # Django speaks Italian; the site does not
    assert browser.cookies["hearts_language"].value == "de"
    assert SpokenLanguage.objects.get(user=lena).code == "de"
    assert '<html lang="de">' in browser.get("/").content.decode()
    stranger = Client()
    stranger.post("/language/", {"language": "it"})
    assert "hearts_language" not in stranger.cookies
