"""Which pages may open the site's sockets: only the site's own origin (scheme, host and port,
as Django's CSRF check compares them) or a trusted one. Another port of the same host is
another site: a page there must not open a socket with the player's cookie."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings

from games import services
from hearts_site.asgi import application
from tests.helpers.sockets import TIMEOUT, lobby_socket, session_cookie, table_socket

Header = tuple[bytes, bytes]


def _lobby(
    origin: bytes | None, host: bytes, *, wss: bool = False, more: tuple[Header, ...] = ()
) -> WebsocketCommunicator:
    headers = [(b"host", host), *([(b"origin", origin)] if origin else []), *more]
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    if wss:
        socket.scope["scheme"] = "wss"  # the scope the application will be called with
    return socket


async def _opens(socket: WebsocketCommunicator) -> bool:
    connected, _ = await socket.connect(timeout=TIMEOUT)
    if connected:
        await socket.disconnect()
    return connected


@pytest.fixture
def behind_a_proxy(settings: Settings) -> None:
    settings.ALLOWED_HOSTS = ["hearts.example", "localhost"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "host"),
    [
        (b"http://localhost", b"localhost"),
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000"),
        (b"http://[::1]:8000", b"[::1]:8000"),
    ],
)
async def test_a_socket_from_the_sites_own_page_opens(origin: bytes, host: bytes) -> None:
    assert await _opens(_lobby(origin, host))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "host"),
    [
        (b"http://127.0.0.1:9999", b"127.0.0.1:8000"),
        (b"http://127.0.0.1:9999", b"127.0.0.1"),
        (b"http://localhost:8001", b"localhost:8000"),
        (b"http://localhost", b"localhost:8000"),
    ],
)
async def test_a_socket_from_another_port_of_the_same_host_is_refused(
    origin: bytes, host: bytes
) -> None:
    assert not await _opens(_lobby(origin, host))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_refused_for_its_origin_is_one_line_at_info_as_a_clients_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    assert not await _opens(_lobby(b"http://127.0.0.1:9999", b"127.0.0.1:8000"))

    refused = [r for r in caplog.records if r.name == "hearts_site.origins"]
    assert [(r.levelno, r.getMessage()) for r in refused] == [
        (logging.INFO, "websocket to /ws/lobby/ refused: its origin is not this site")
    ]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_players_table_socket_from_another_port_is_refused() -> None:
    table_id, cookie = await database_sync_to_async(_alices_table)()
    socket = table_socket(table_id, cookie, origin=b"http://localhost:9999")

    connected, _ = await socket.connect(timeout=TIMEOUT)

    assert not connected
    assert await _opens(table_socket(table_id, cookie))


def _alices_table() -> tuple[int, str]:
    alice = User.objects.create_user("alice")
    return services.create_table(alice).pk, session_cookie(alice)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "host", "wss"),
    [
        (b"https://localhost", b"localhost", False),  # a plain socket from an https page
        (b"http://localhost", b"localhost", True),  # an encrypted socket from an http page
        (b"ws://localhost", b"localhost", False),
        (b"http://evil.example", b"localhost", False),
        (b"http://localhost.evil.example", b"localhost", False),
        (b"null", b"localhost", False),  # a sandboxed frame or a file
        (None, b"localhost", False),  # browsers always send one
    ],
)
async def test_a_socket_from_another_scheme_or_host_or_none_is_refused(
    origin: bytes | None, host: bytes, wss: bool
) -> None:
    assert not await _opens(_lobby(origin, host, wss=wss))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_host_the_site_does_not_serve_is_refused_even_from_its_own_page() -> None:
    """A name pointed at the server by someone else (DNS rebinding) is not this site."""
    assert not await _opens(_lobby(b"http://evil.example", b"evil.example"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_origins_or_two_hosts_are_refused() -> None:
    twice = ((b"origin", b"http://evil.example"),)
    assert not await _opens(_lobby(b"http://localhost", b"localhost", more=twice))
    assert not await _opens(_lobby(b"http://localhost", b"localhost", more=((b"host", b"x"),)))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_encrypted_socket_from_the_sites_https_page_opens(settings: Settings) -> None:
    settings.ALLOWED_HOSTS = ["hearts.example"]

    assert await _opens(_lobby(b"https://hearts.example", b"hearts.example", wss=True))
    assert not await _opens(_lobby(b"https://hearts.example:8443", b"hearts.example", wss=True))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("behind_a_proxy")
async def test_behind_a_tls_proxy_the_socket_takes_the_scheme_the_proxy_names() -> None:
    https = ((b"x-forwarded-proto", b"https"),)

    assert await _opens(_lobby(b"https://hearts.example", b"hearts.example", more=https))
    assert not await _opens(_lobby(b"http://hearts.example", b"hearts.example", more=https))
    # Without the proxy's word the socket is plain, and an https page is another origin.
    assert not await _opens(_lobby(b"https://hearts.example", b"hearts.example"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("behind_a_proxy")
async def test_a_header_spelled_with_an_underscore_does_not_pass_for_the_proxys() -> None:
    spoofed = ((b"x_forwarded_proto", b"https"),)

    assert not await _opens(_lobby(b"https://hearts.example", b"hearts.example", more=spoofed))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_without_a_proxy_setting_a_clients_forwarded_scheme_is_ignored() -> None:
    forged = ((b"x-forwarded-proto", b"https"),)

    assert not await _opens(_lobby(b"https://localhost", b"localhost", more=forged))
    assert await _opens(_lobby(b"http://localhost", b"localhost", more=forged))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_trusted_origin_opens_a_socket(settings: Settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://hearts.example", "https://*.cards.example"]

    # The proxy passes its own address as the host: the trusted origin is the site's.
    assert await _opens(_lobby(b"https://hearts.example", b"127.0.0.1:8001"))
    assert await _opens(_lobby(b"https://www.cards.example", b"127.0.0.1:8001"))
    assert not await _opens(_lobby(b"http://hearts.example", b"127.0.0.1:8001"))
    assert not await _opens(_lobby(b"https://hearts.example:444", b"127.0.0.1:8001"))
    assert not await _opens(_lobby(b"https://cards.example.evil", b"127.0.0.1:8001"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_test_helpers_sockets_come_from_the_sites_own_page() -> None:
    """The other socket tests open their sockets as a page at http://localhost would."""
    assert await _opens(lobby_socket())
