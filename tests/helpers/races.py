"""Races of the write path: the same write made by several threads at once, each with a
database connection of its own, as two processes of the site (two workers, a worker and a
daphne) would make it."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def raised_at_once(write: Callable[[], object], times: int = 2) -> list[BaseException]:
    """What ``write`` raised, made ``times`` times in threads that start together."""
    start = threading.Barrier(times)
    errors: list[BaseException] = []

    def one() -> None:
        try:
            start.wait(timeout=10)
            write()
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors
