"""Path converters for the names in URLs, so that a path segment that cannot be one never
reaches a query: PostgreSQL refuses a string with a NUL byte in it, which is a server error."""

from __future__ import annotations


class InviteCodeConverter:
    """A table's invite code: ``secrets.token_urlsafe`` letters (games.models)."""

    regex = r"[A-Za-z0-9_-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter:
    """A username as Django's validator allows it: letters, digits and ``@ . + - _``."""

    regex = r"[\w.@+-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
