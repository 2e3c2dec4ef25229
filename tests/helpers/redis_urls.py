"""Redis addresses for test runs that share one server."""

from __future__ import annotations

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
