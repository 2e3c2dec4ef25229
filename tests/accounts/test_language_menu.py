"""The footer's language menu names each language in itself, whatever the page's language:
a reader who cannot read the page's language still finds their own."""

from __future__ import annotations

import re

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_the_language_menu_names_each_language_in_itself(language: str) -> None:
    page = Client(headers={"Accept-Language": language}).get("/").content.decode()
    assert f'<html lang="{language}">' in page
    options = re.findall(r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', page)
    assert options == [("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")]
