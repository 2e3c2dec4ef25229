"""The site as an app on a home screen: its web app manifest, its icons and the service worker
that shows a turn's notification (hearts_site/views.py), served from the root and allowed by
the Content-Security-Policy. What a browser makes of them:
tests/browser/test_turn_notifications_in_browser.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from hearts_site.views import SERVICE_WORKER

pytestmark = pytest.mark.django_db


def _manifest() -> dict[str, object]:
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest: dict[str, object] = json.loads(response.content)
    return manifest


def test_the_manifest_names_the_site_and_opens_it_whole_at_the_lobby() -> None:
    manifest = _manifest()

    assert manifest["name"] == manifest["short_name"] == "Hearts"
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0d5a34"  # the header's felt (static/css/site.css)
    assert manifest["background_color"] == "#f8f9f6"  # the page's


def test_every_icon_of_the_manifest_is_served_and_one_is_for_any_use() -> None:
    icons = _manifest()["icons"]

    assert isinstance(icons, list)
    assert {icon["purpose"] for icon in icons} == {"any", "maskable"}
    for icon in icons:
        assert icon["sizes"] == "any"  # vectors, for the 192 and 512 px an install asks for
        served = Client().get(icon["src"])
        assert served.status_code == 200, icon["src"]
        assert served["Content-Type"].startswith(icon["type"])
        assert b"<svg" in b"".join(served.streaming_content)  # type: ignore[attr-defined]


def test_the_service_worker_is_served_from_the_root_as_javascript_asked_for_afresh() -> None:
    response = Client().get(reverse("service_worker"))

    assert reverse("service_worker") == "/service-worker.js"  # its scope: the whole site
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # never an old worker kept from a cache
    assert response.content == SERVICE_WORKER.read_bytes()


def test_the_service_worker_keeps_no_answer_of_the_site() -> None:
    """Live fragments and signed-in pages: nothing is cached, and no request goes through it."""
    source = SERVICE_WORKER.read_text()

    assert not re.search(r"""addEventListener\(\s*["']fetch["']""", source)
    assert "caches." not in source
    assert 'addEventListener("notificationclick"' in source


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed out", "signed in"])
def test_the_pages_link_the_manifest_with_the_theme_colour(signed_in: bool) -> None:
    client = Client()
    if signed_in:
        client.force_login(User.objects.create_user("alice"))

    for url in (reverse("lobby"), reverse("game_list"), reverse("learn")):
        page = client.get(url).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, url
        assert '<meta name="theme-color" content="#0d5a34">' in page, url


def test_the_content_security_policy_allows_the_worker_and_the_manifest_from_the_site() -> None:
    policy = Client().get(reverse("lobby"))["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))

    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"


@pytest.mark.parametrize("url", ["/manifest.webmanifest", "/service-worker.js"])
def test_the_manifest_and_the_worker_refuse_a_post(url: str) -> None:
    assert Client().post(url).status_code == 405
