"""Two-factor sign-in: a code from an authenticator app (TOTP, django-otp's device) after the
password, or one of ten recovery codes, each good once.

Anyone may turn it on from the account's page. Staff who hold any permission must: every staff
page (the admin, the collusion report) and every moderation action refuses them until it is on
(``required``, ``cleared``). A session passes the second factor at sign-in (``django_otp.login``
marks it); turning it on marks the session that did so and signs the account out everywhere
else, so that no session of an account with two-factor has skipped it.

A code is refused if it is wrong, if it was used already (the app's: each time step once,
django-otp's ``last_t``; a recovery code: once), or while the wait after wrong ones runs.
"""

from __future__ import annotations

import math
import secrets
from base64 import b32encode
from datetime import datetime, timedelta

import segno
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp import devices_for_user
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import RecoveryCode, RecoveryCodes, code_digest

RECOVERY_CODES = 10
# 31 letters and digits no one misreads (no 0/o, 1/l/i): 16 of them carry about 79 bits.
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def required(user: User | AnonymousUser) -> bool:
    """Whether ``user`` must use two-factor: an active member of staff holding any permission
    (a superuser holds them all). Every permission the admin grants acts on people or their
    games, or reads what they wrote."""
    if not (user.is_active and user.is_staff):
        return False
    return bool(user.is_superuser or user.get_all_permissions())


def is_on(user: User | AnonymousUser) -> bool:
    """Whether ``user`` has a confirmed authenticator."""
    if not user.is_authenticated:
        return False
    return TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).exists()


def cleared(user: User | AnonymousUser) -> bool:
    """Whether ``user`` may use what :func:`required` guards: not required of them, or passed.
    Within a request (django-otp's middleware), whether this session passed it; elsewhere (a
    socket, a task) whether it is on, which every session of theirs then passed."""
    if not required(user):
        return True
    is_verified = getattr(user, "is_verified", None)
    if is_verified is not None:
        return bool(is_verified())
    return is_on(user)


def pending_device(user: User) -> TOTPDevice:
    """The authenticator ``user`` is setting up: the one waiting for its first code, or a new
    one with a new secret."""
    waiting = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return waiting or TOTPDevice.objects.create(user=user, name="app", confirmed=False)


def secret_text(device: TOTPDevice) -> str:
    """The secret as an app takes it typed: base 32, in groups of four.

    >>> secret_text(TOTPDevice(key="00" * 20))
    'AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA'
    """
    text = b32encode(device.bin_key).decode()
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def qr_svg(device: TOTPDevice) -> str:
    """The secret as a QR code an app scans: an inline SVG, dark on light."""
    svg: str = segno.make(device.config_url, error="m").svg_inline(
        scale=5, border=2, dark="#000", light="#fff", omitsize=False
    )
    return svg


def confirm(device: TOTPDevice, code: str) -> list[str] | None:
    """Turn two-factor on with ``device`` if ``code`` is the app's: the new recovery codes, or
    None for a wrong code. Earlier authenticators of the account are replaced."""
    with transaction.atomic():
        locked = TOTPDevice.objects.select_for_update().get(pk=device.pk)
        if not locked.verify_token(_digits(code)):
            return None
        TOTPDevice.objects.filter(user_id=locked.user_id).exclude(pk=locked.pk).delete()
        locked.confirmed = True
        locked.save(update_fields=["confirmed"])
        return new_recovery_codes(locked.user)


def new_recovery_codes(user: User) -> list[str]:
    """Ten new recovery codes for ``user`` (the old ones stop working), shown once: only
    their hashes are kept."""
    codes = ["-".join(_chunk(_random_code(), 4)) for _ in range(RECOVERY_CODES)]
    with transaction.atomic():
        RecoveryCodes.objects.filter(user=user).delete()
        device = RecoveryCodes.objects.create(user=user, name="recovery codes", confirmed=True)
        RecoveryCode.objects.bulk_create(
            RecoveryCode(device=device, digest=code_digest(code)) for code in codes
        )
    return codes


def codes_left(user: User) -> int:
    device = RecoveryCodes.objects.filter(user=user).first()
    return device.left() if device else 0


def verify(user: User, code: str, *, app_only: bool = False) -> Device | None:
    """The device ``code`` passes for ``user`` (the app's code, or an unused recovery code
    unless ``app_only``), or None. A wrong one counts against the device it was taken for (six
    digits: the app's)."""
    code = code.strip()
    if not code or len(code) > 40:
        return None
    digits = _digits(code)
    with transaction.atomic():
        for device in devices_for_user(user, for_verify=True):
            is_app = isinstance(device, TOTPDevice)
            if is_app != (digits.isdigit() and len(digits) <= 8) or (app_only and not is_app):
                continue
            if device.verify_token(digits if is_app else code):
                return device
    return None


def passes(user: User, code: str, *, app_only: bool = False) -> tuple[Device | None, str]:
    """The device ``code`` passes for ``user``, or None and why not, in words to show: a wrong
    or used code, or the wait after wrong ones still running (the code is not tried then)."""
    until = wait_until(user, app_only=app_only)
    if until is not None:
        seconds = max(1, math.ceil((until - timezone.now()).total_seconds()))
        return None, ngettext(
            "Too many wrong codes: try again in %(count)s second.",
            "Too many wrong codes: try again in %(count)s seconds.",
            seconds,
        ) % {"count": seconds}
    device = verify(user, code, app_only=app_only)
    if device is None:
        return None, _("That code is not right, or it was used already.")
    return device, ""


def wait_until(user: User, *, app_only: bool = False) -> datetime | None:
    """Until when codes for ``user`` (the app's alone, if ``app_only``) are not tried, after
    wrong ones; None if they are."""
    latest: datetime | None = None
    for device in devices_for_user(user):
        if app_only and not isinstance(device, TOTPDevice):
            continue
        allowed, why = device.verify_is_allowed()
        if not allowed and why and "locked_until" in why:
            until: datetime = why["locked_until"]
            latest = until if latest is None else max(latest, until)
    return latest


def turn_off(user: User) -> None:
    """Two-factor off for ``user``: the app and the recovery codes forgotten."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        RecoveryCodes.objects.filter(user=user).delete()


def since(user: User) -> datetime | None:
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device.created_at if device else None


def _digits(code: str) -> str:
    return "".join(code.split())


def _random_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(16))


def _chunk(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


# How long a password's first step waits for its code at sign-in (accounts/views.py).
CODE_WAIT = timedelta(minutes=5)
