"""What the console says of a request: a client's error (a page not found, a query of too many
fields) is one line at INFO, kept back at ``./dev serve``'s WARNING, and never a traceback; a
server's error stays an error with its traceback; and no line is said twice, DEBUG on or off.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.test import Client, override_settings

from hearts_site.logs import Console

pytestmark = pytest.mark.django_db

TOO_MANY_FIELDS = "/learn/rules/?" + "&".join(f"k{n}=v" for n in range(2000))


def _consoles() -> list[logging.StreamHandler]:  # type: ignore[type-arg]
    """Every stream a record of ``django.request`` reaches, but pytest's own capture."""
    found = []
    logger: logging.Logger | None = logging.getLogger("django.request")
    while logger is not None:
        found += [
            handler
            for handler in logger.handlers
            if isinstance(handler, logging.StreamHandler)
            and not type(handler).__module__.startswith("_pytest")
        ]
        logger = logger.parent if logger.propagate else None
    return found


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the terminal would show, at INFO (``--verbose``) unless a test says otherwise."""
    said = io.StringIO()
    root = logging.getLogger()
    level = root.level
    streams = [(handler, handler.setStream(said)) for handler in _consoles()]
    root.setLevel(logging.INFO)
    yield said
    root.setLevel(level)
    for handler, stream in streams:
        handler.setStream(stream)


def test_a_page_not_found_is_one_line_at_info(console: io.StringIO) -> None:
    assert Client().get("/api/v1/games/999999").status_code == 404

    assert console.getvalue() == "Not Found: /api/v1/games/999999\n"


def test_a_page_not_found_is_not_said_at_the_consoles_warning_level(console: io.StringIO) -> None:
    logging.getLogger().setLevel(logging.WARNING)

    assert Client().get("/no/such/page/").status_code == 404

    assert console.getvalue() == ""


@override_settings(DEBUG=True)
def test_with_debug_on_a_page_not_found_is_said_once(console: io.StringIO) -> None:
    Client().get("/api/v1/games/999999")

    assert console.getvalue().count("Not Found: /api/v1/games/999999") == 1


def test_a_query_of_too_many_fields_is_one_line_without_its_traceback(
    console: io.StringIO, caplog: pytest.LogCaptureFixture
) -> None:
    assert Client().get(TOO_MANY_FIELDS).status_code == 400

    said = console.getvalue()
    assert said.count("\n") == 1 and "DATA_UPLOAD_MAX_NUMBER_FIELDS" in said
    assert "Traceback" not in said and "TooManyFieldsSent" not in said
    # Django said it as an error with its traceback: the console made it one line.
    (refused,) = (record for record in caplog.records if record.name.startswith("django.security"))
    assert refused.levelno == logging.ERROR and refused.exc_info


def test_a_request_for_another_host_is_one_line_without_its_traceback(
    console: io.StringIO,
) -> None:
    assert Client().get("/", headers={"host": "elsewhere.example"}).status_code == 400

    said = console.getvalue()
    assert said.count("\n") == 1 and "elsewhere.example" in said and "Traceback" not in said


def test_a_server_error_stays_an_error_with_its_traceback(console: io.StringIO) -> None:
    logging.getLogger().setLevel(logging.WARNING)
    try:
        raise RuntimeError("the database went away")
    except RuntimeError:
        logging.getLogger("django.request").exception(
            "Internal Server Error: %s", "/games/", extra={"status_code": 500}
        )

    said = console.getvalue()
    assert said.startswith("Internal Server Error: /games/\nTraceback")
    assert "RuntimeError: the database went away" in said


def test_the_site_has_one_console() -> None:
    assert [type(handler) for handler in _consoles()] == [Console]
