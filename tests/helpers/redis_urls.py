"""Redis addresses for test runs that share one server."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def redis_url_with_db(url: str, db: int) -> str:
    """The same Redis server as ``url``, database ``db``: in the path, or for a unix socket in
    its query."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query))
        query["db"] = str(db)
        return urlunsplit(parts._replace(query=urlencode(query)))
    return urlunsplit(parts._replace(path=f"/{db}"))


def run_number() -> str:
    """This test run's number among those side by side on this machine, or "" alone: a
    pytest-xdist worker's, or the group's of ``./dev test`` (``HEARTS_TEST_RUN``, which runs the
    suite as two groups of its modules at once, tests/helpers/groups.py)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "").removeprefix("gw")
    return worker or os.environ.get("HEARTS_TEST_RUN", "")
