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

# Property tests explore new examples on every developer's run; under CI (CI=true) they run a
# fixed set, so that a landing is not decided by chance. A failure found either way is a bug
# to fix with its example kept as a plain test.
from hypothesis import settings as hypothesis_settings  # noqa: E402

# Fixtures that more than one folder of tests asks for (see each module).
pytest_plugins = ["tests.helpers.live"]

hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")
