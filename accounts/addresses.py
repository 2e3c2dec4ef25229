"""A person's e-mail address: asked for, confirmed by a signed link, and then the way back into
the account when its password is forgotten.

An address is kept (``Address``) only once its owner followed the link sent to it. The link
carries the account, the address and the address the account had when it was sent, signed with
the site's key and good for :data:`CONFIRM_DAYS`: nothing is stored while it waits, and a link
sent before a later change (or already followed) does nothing, since the account's address is
no longer the one it was sent for. A change is told to the old address too.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from accounts.mailing import deliver_from
from accounts.models import Address

CONFIRM_DAYS = 3
_SALT = "accounts.address"


class NotConfirmed(Exception):
    """A link that confirms nothing: out of date, already followed, or not the site's."""


def address_of(user: User) -> str:
    """The account's confirmed address, or ''."""
    found = Address.objects.filter(user=user).values_list("email", flat=True).first()
    return found or ""


def in_use(email: str, but_for: User | None = None) -> bool:
    """Whether another account has confirmed ``email`` (without regard to case)."""
    taken = Address.objects.filter(email__iexact=email)
    if but_for is not None:
        taken = taken.exclude(user=but_for)
    return taken.exists()


def link_for(user: User, email: str) -> str:
    """The signed part of the link that confirms ``email`` for ``user``."""
    return signing.dumps({"u": user.pk, "e": email, "was": address_of(user)}, salt=_SALT)


def ask_to_confirm(request: HttpRequest, user: User, email: str) -> None:
    """Send ``email`` the link that confirms it for ``user``, and tell the address it replaces."""
    url = request.build_absolute_uri(reverse("confirm_address", args=[link_for(user, email)]))
    context = {"user": user, "email": email, "url": url, "days": CONFIRM_DAYS}
    _mail(email, "accounts/mail/confirm", context)
    old = address_of(user)
    if old and old.lower() != email.lower():
        _mail(old, "accounts/mail/changing", context)


def confirm(signed: str) -> tuple[User, str]:
    """Keep the address a link confirms; its account and the address. Raises
    :class:`NotConfirmed` for a link that no longer confirms anything, and ``ValueError`` when
    another account confirmed the address first."""
    try:
        data = signing.loads(signed, salt=_SALT, max_age=timedelta(days=CONFIRM_DAYS))
        user = User.objects.get(pk=data["u"], is_active=True)
        email, was = str(data["e"]), str(data["was"])
    except (signing.BadSignature, User.DoesNotExist, KeyError, TypeError) as error:
        raise NotConfirmed from error
    if address_of(user) != was:  # followed already, or another change came after it
        raise NotConfirmed
    if in_use(email, but_for=user):
        raise ValueError(email)
    try:
        with transaction.atomic():
            Address.objects.update_or_create(
                user=user, defaults={"email": email, "confirmed_at": timezone.now()}
            )
    except IntegrityError as error:  # confirmed for another account meanwhile
        raise ValueError(email) from error
    return user, email


def _mail(to: str, template: str, context: dict[str, object]) -> None:
    """One mail from ``template`` (its ``_subject.txt`` and ``.txt``), in the current language."""
    deliver_from(f"{template}_subject.txt", f"{template}.txt", context, to)
