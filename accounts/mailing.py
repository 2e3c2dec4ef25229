"""The site's mail goes by a Celery worker (accounts/tasks.py): a page that asks for a mail
answers at once, and a mail server that is slow or down for a moment holds up nobody (the task
tries again). The task is queued by name, once the request's transaction commits.

"Forgot your password?" queues the same task whatever the address typed (:data:`SEND_RESET`):
the worker looks for its account, so the page does the same work, in the same time, for an
address nobody has as for one that gets a mail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string

SEND = "accounts.tasks.send_message"
SEND_RESET = "accounts.tasks.send_reset"


def send_now(subject: str, body: str, to: str) -> None:
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])


def deliver_from(
    subject_template: str, body_template: str, context: dict[str, Any], to: str
) -> None:
    """:func:`deliver` the mail the two templates make of ``context`` (the subject on one line)."""
    subject = " ".join(render_to_string(subject_template, context).split())
    deliver(subject, render_to_string(body_template, context), to)


def deliver(subject: str, body: str, to: str) -> None:
    """Send a mail: by the worker once the request's transaction commits, or at once where
    ``HEARTS_MAIL_QUEUED`` is off (the tests, which read Django's in-memory outbox)."""
    later(SEND, (subject, body, to), send_now)


def later(task: str, args: tuple[Any, ...], now: Callable[..., object]) -> None:
    """The worker's ``task`` with ``args`` once the transaction commits; where
    ``HEARTS_MAIL_QUEUED`` is off, ``now(*args)`` at once instead."""
    if not settings.HEARTS_MAIL_QUEUED:
        now(*args)
        return
    from hearts_site.celery import app

    transaction.on_commit(lambda: app.send_task(task, args=args))
