"""The settings refuse to load without SECRET_KEY. pytest-django loads them before any conftest
runs when pyproject.toml names the settings module, so the module is named here, after the key,
and Django is set up here too (pytest-django then finds it ready)."""

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import django
import pytest

from tests.helpers.redis_urls import redis_url_with_db, run_number

# As long as the settings demand of any key when DEBUG is off (50 characters or more).
os.environ.setdefault(
    "SECRET_KEY", "test-secret-key-not-for-production-it-signs-only-test-sessions"
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")


def _a_redis_of_this_runs_own() -> None:
    """Each test run side by side with others is a run of its own on the same Redis server:
    its own database (the broker's queues, the API's counters) and its own channel prefix
    (pub/sub channels span every database), so that one run's table 1 is not the other's."""
    run = run_number()
    url = os.environ.get("REDIS_URL")
    if not run:
        return
    os.environ["HEARTS_CHANNEL_PREFIX"] = f"asgi-test-{run}"
    if url:
        os.environ["REDIS_URL"] = redis_url_with_db(url, int(run))


_a_redis_of_this_runs_own()
django.setup()

# Property tests explore new examples on every developer's run; under CI (CI=true) they run a
# fixed set, so that a landing is not decided by chance. A failure found either way is a bug
# to fix with its example kept as a plain test.
from django.conf import settings as django_settings  # noqa: E402
from django.utils import translation  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

# Plugins: the fixtures that more than one folder of tests asks for, the groups that ./dev test
# runs side by side, and what a test socket's stalled handshake was waiting on (see each module).
pytest_plugins = ["tests.helpers.live", "tests.helpers.groups", "tests.helpers.stalls"]

hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """A test database of this run's own beside the others' (pytest-django names xdist
    workers' itself): ``test_test_run1`` for ``./dev test``'s first group."""
    run = os.environ.get("HEARTS_TEST_RUN", "")
    if not run or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for database in django_settings.DATABASES.values():
        if database["ENGINE"] != "django.db.backends.sqlite3":  # SQLite's is in memory
            test = database.setdefault("TEST", {})
            test["NAME"] = f"{test.get('NAME') or 'test_' + database['NAME']}_run{run}"


@pytest.fixture(autouse=True)
def _chat_rates_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's chat messages are counted apart in Redis (chat/rates.py), since every test's
    database counts people and tables from 1: one test's "hello" of user 3 at table 2 is not the
    next one's, a moment later, refused as a second message within the second."""
    from chat import rates

    monkeypatch.setattr(rates, "KEY_PREFIX", f"test-chat-rate-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def _mail_at_once(settings: Any) -> None:
    """Mail is sent in the request, into Django's in-memory outbox, not by a worker the tests
    do not run (accounts/tasks.py; tests/accounts/test_recovery.py checks the queued way)."""
    settings.HEARTS_MAIL_QUEUED = False


@pytest.fixture(autouse=True)
def _the_sites_own_language() -> Iterator[None]:
    """Each test starts in English, the language the words are written in. A page asked for in
    German leaves German active in this thread (the locale middleware activates a language and
    nothing undoes it), which a later test's words would otherwise be put in."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests last, after pytest-django's own order (plain, then transactional,
    then the tests without a database): Playwright's synchronous API keeps an event loop running
    in this thread from the first browser test to the end of the session, and an asyncio test
    after it could not start one of its own ("Runner.run() cannot be called from a running
    event loop")."""
    browser_tests = Path(__file__).parent / "browser"
    items.sort(key=lambda item: item.path.is_relative_to(browser_tests))
