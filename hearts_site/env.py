"""Small typed readers of the environment: a bad value stops the site at start-up, loudly."""

from __future__ import annotations

import os


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
