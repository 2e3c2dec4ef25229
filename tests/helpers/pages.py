"""Every page of the site, found from its URL configuration, so that a test walking them all
also covers a page added later."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver


def site_patterns(resolver: URLResolver | None = None) -> Iterator[URLPattern]:
    """Every URL pattern of the site's own apps. Django's admin is left out: it is staff-only,
    and its views read any method but POST as a GET; so is the open API (api/), whose paths and
    bad parameters its own tests walk (tests/api/)."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace not in ("admin", "api-v1"):
                yield from site_patterns(entry)
        else:
            yield entry


def parameters(pattern: URLPattern) -> list[str]:
    """The names of the values in the pattern's path (``table_id``, ``code``)."""
    return list(pattern.pattern.regex.groupindex)
