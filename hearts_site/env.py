"""Small typed readers of the environment: a bad value stops the site at start-up, loudly."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit


class EnvironmentError_(ValueError):
    """A setting in the environment that cannot be used."""


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise EnvironmentError_(f"{name} must be set")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise EnvironmentError_(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvironmentError_(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise EnvironmentError_(f"{name} must be at least {minimum}")
    return number


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return float(value)
    except ValueError:
        raise EnvironmentError_(f"{name} must be a number, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    if not value.strip():
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    """A URL whose scheme is one of ``schemes``, or None when unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    scheme = value.split("://", 1)[0] if "://" in value else ""
    if scheme not in schemes:
        raise EnvironmentError_(f"{name} must be a {' or '.join(schemes)} URL, not {value!r}")
    return value


def env_https_header(name: str) -> tuple[str, str] | None:
    """The request header by which a TLS-terminating proxy says a request came over HTTPS, as
    ``SECURE_PROXY_SSL_HEADER`` takes it: ``X-Forwarded-Proto`` (meaning the value ``https``) or
    ``X-Forwarded-Proto: https``. None when unset: without a proxy that sets the header (and
    strips it from clients), trusting it would let any client claim HTTPS."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    header, _, marker = value.partition(":")
    header, marker = header.strip(), marker.strip() or "https"
    if not re.fullmatch(r"[A-Za-z0-9-]+", header) or not re.fullmatch(r"[!-~]+", marker):
        raise EnvironmentError_(
            f"{name} must be a header name such as X-Forwarded-Proto, not {value!r}"
        )
    return "HTTP_" + header.upper().replace("-", "_"), marker


def check_secret_key(key: str) -> str:
    """``key`` when it is fit to sign sessions and password resets, as Django's own deploy check
    (security.W009) judges it: 50 characters or more, at least 5 different ones, and not a
    ``django-insecure-`` key from ``startproject``. A warning there is easily missed, so the
    site refuses to start instead."""
    if len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-"):
        raise EnvironmentError_(
            "SECRET_KEY is too weak: use at least 50 random characters, for example "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    return key


def mail_settings(url: str | None, folder: Path) -> dict[str, Any]:
    """Django's mail settings from ``EMAIL_URL``: ``smtp://user:password@host:587`` (STARTTLS),
    ``smtps://…:465`` (TLS from the start), ``smtp+plain://…`` (neither: a relay on the same
    machine), user and password percent-encoded. Without one, each mail is written as a file in
    ``folder`` (the embedded run: a person trying the site follows its links from there).

    >>> mail_settings("smtp://me%40x.org:p%2Fw@mail.x.org:587", Path("m"))["EMAIL_HOST_USER"]
    'me@x.org'
    >>> mail_settings(None, Path("m"))["EMAIL_BACKEND"]
    'django.core.mail.backends.filebased.EmailBackend'
    """
    if url is None:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(folder),
        }
    parts = urlsplit(url)
    secure = {"smtp": "tls", "smtps": "ssl", "smtp+plain": ""}[parts.scheme]
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or {"tls": 587, "ssl": 465, "": 25}[secure],
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": secure == "tls",
        "EMAIL_USE_SSL": secure == "ssl",
        "EMAIL_TIMEOUT": 10,
    }
