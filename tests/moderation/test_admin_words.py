"""The admin speaks as the site does: "Sign out" in its header, not Django's "Log out"; signing
out there leads back to the site's lobby, signed out, as the site's own Sign out does."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.helpers.moderators import moderator

pytestmark = pytest.mark.django_db


def test_the_admin_says_sign_out_and_then_sign_in_again(client: Client) -> None:
    client.force_login(moderator())
    page = client.get("/admin/").content.decode()
    assert "Sign out" in page and "Log out" not in page

    after = client.post("/admin/logout/", follow=True)
    assert after.redirect_chain[-1][0] == "/"
    assert "Sign in" in after.content.decode() and "Log in" not in after.content.decode()
    assert client.get("/admin/").status_code == 302  # signed out indeed
