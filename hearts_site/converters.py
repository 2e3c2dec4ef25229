"""Path converters for the names and ids in URLs, so that a path segment that cannot be one
never reaches a query: PostgreSQL refuses a string with a NUL byte in it, and SQLite an integer
past 64 bits (``OverflowError``), each a server error."""

from __future__ import annotations

from django.urls import register_converter

# A row's id as an address may carry it (a socket's path or query): at most 18 digits, below
# the largest key a BigAutoField holds on SQLite and PostgreSQL alike (2**63 - 1), so that no
# id taken from an address overflows a query. The games' versions are read the same way.
ID = r"[0-9]{1,18}"


class IdConverter:
    """``<id:…>``: a row's id in a socket's path (``ID``). A longer number matches no route, so
    the socket is refused (hearts_site/asgi.py) as an HTTP address past any row is a 404."""

    regex = ID

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")  # once, here: every socket route imports this module


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
