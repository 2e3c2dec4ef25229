"""What the API's tests share: the limits counted in a cache of each test's own (the shared
Redis would carry one test's requests into the next)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import caches
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _limits_of_its_own(settings: Settings) -> Iterator[None]:
    settings.CACHES = {
        **settings.CACHES,
        "api": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "api"},
    }
    caches["api"].clear()
    yield
    caches["api"].clear()
