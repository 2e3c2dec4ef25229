"""The site's mail, sent by the worker (accounts/mailing.py queues it)."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from accounts import challenges, mailing, resets


@shared_task(
    name=mailing.SEND, autoretry_for=(OSError, SMTPException), retry_backoff=5, max_retries=6
)
def send_message(subject: str, body: str, to: str) -> None:
    mailing.send_now(subject, body, to)


@shared_task(name=mailing.SEND_RESET)
def send_reset(email: str, domain: str, use_https: bool) -> None:
    resets.send_reset(email, domain, use_https)  # an address that is none: nothing to send


@shared_task(name="accounts.tasks.sweep_challenges")
def sweep_challenges() -> int:
    """The invitations whose time is up end, and both people are told."""
    return challenges.expire_due()
