"""Every page of the site, found from its URL configuration, so that a test walking them all
also covers a page added later; and what a page holds that its Content-Security-Policy and its
CSRF protection care about."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

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


class PageParts(HTMLParser):
    """Collects what the CSP cares about (scripts, styles, event handlers) and the forms."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline_script_text = ""
        self.style_elements = 0
        self.style_attributes: list[str] = []  # the tags that carry one
        self.event_handlers: list[str] = []
        self.post_forms = 0
        self.post_forms_with_token = 0
        self.body: dict[str, str | None] = {}
        self._in_script = False
        self._in_post_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if "style" in attributes:
            self.style_attributes.append(tag)
        self.event_handlers += [name for name in attributes if name.startswith("on")]
        if tag == "script":
            self.scripts.append(attributes)
            self._in_script = True
        elif tag == "style":
            self.style_elements += 1
        elif tag == "body":
            self.body = attributes
        elif tag == "form" and (attributes.get("method") or "").lower() == "post":
            self.post_forms += 1
            self._in_post_form = True
        elif (
            tag == "input"
            and self._in_post_form
            and attributes.get("name") == "csrfmiddlewaretoken"
        ):
            self.post_forms_with_token += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False
        elif tag == "form":
            self._in_post_form = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline_script_text += data.strip()


def page_parts(html: bytes) -> PageParts:
    """What the page ``html`` holds (``PageParts``)."""
    page = PageParts()
    page.feed(html.decode())
    return page
