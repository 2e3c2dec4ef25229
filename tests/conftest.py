"""The settings refuse to load without SECRET_KEY. pytest-django loads them before any conftest
runs when pyproject.toml names the settings module, so the module is named here, after the key,
and Django is set up here too (pytest-django then finds it ready)."""

import os

import django

# As long as the settings demand of any key when DEBUG is off (50 characters or more).
os.environ.setdefault(
    "SECRET_KEY", "test-secret-key-not-for-production-it-signs-only-test-sessions"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
django.setup()
