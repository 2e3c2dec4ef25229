"""The console's log: what the settings' ``LOGGING`` sends to the terminal.

A request the client got wrong (a 4xx: a page that is not there, a form refused, a query of
too many fields) is the client's business, not the server's: Django says each at WARNING, and
a refused one (``SuspiciousOperation``: ``TooManyFieldsSent``, ``RequestDataTooBig``,
``DisallowedHost``, a bad multipart body) at ERROR with its whole traceback. Here each is one
line at INFO, said only where INFO is (``./dev serve --verbose``); the server's own errors (a
5xx) stay errors, with their tracebacks.
"""

from __future__ import annotations

import logging


def is_the_clients_error(record: logging.LogRecord) -> bool:
    """Whether ``record`` is Django's word on a request answered 4xx (``django.utils.log``
    gives each the answer's status)."""
    status = getattr(record, "status_code", None)
    return isinstance(status, int) and 400 <= status < 500


def as_one_line(record: logging.LogRecord) -> logging.LogRecord:
    """A copy of ``record`` at INFO and without its traceback (the original may reach other
    handlers as it came)."""
    line = logging.makeLogRecord(record.__dict__)
    line.levelno, line.levelname = logging.INFO, logging.getLevelName(logging.INFO)
    line.exc_info, line.exc_text, line.stack_info = None, None, None
    return line


class Console(logging.StreamHandler):  # type: ignore[type-arg]
    """The terminal: every record as it comes, but a client's error as one line at INFO, kept
    back unless its logger says INFO."""

    def handle(self, record: logging.LogRecord) -> bool:
        if is_the_clients_error(record):
            if not logging.getLogger(record.name).isEnabledFor(logging.INFO):
                return False
            record = as_one_line(record)
        return bool(super().handle(record))
