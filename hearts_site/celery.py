"""The Celery application: bot moves, deadlines and the sweep for overdue turns."""

import os
import warnings
from typing import Any

from celery import Celery
from celery.exceptions import SecurityWarning
from celery.signals import (
    celeryd_after_setup,
    task_postrun,
    task_prerun,
    worker_process_init,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")

# ./dev serve run by root, as in a developer's container: the person chose it, and Celery's
# page-long warning at each start would read as a fault. Only ./dev serve without --verbose
# sets this; with it, and wherever else a worker runs, the warning is said.
if os.environ.get("HEARTS_QUIET_ROOT") == "1":
    warnings.filterwarnings(
        "ignore", "You're running the worker with superuser privileges", SecurityWarning
    )

app = Celery("hearts_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**kwargs: Any) -> None:
    """Before and after each task, as Django does around each request: a database connection
    that broke or outlived ``CONN_MAX_AGE`` is closed, and any other kept for the next task
    (``CELERY_DB_REUSE_MAX`` in the settings)."""
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def _keep_a_loop(**kwargs: Any) -> None:
    """A pool process tells the tables from an event loop that its tasks' thread keeps
    (live/broadcasts.py)."""
    from live import broadcasts

    broadcasts.keep_a_loop()


@celeryd_after_setup.connect
def _stop_quietly(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A worker below INFO (``./dev serve`` without ``--verbose``) stops without saying "Warm
    shutdown": it is a normal stop (supervisord's SIGTERM), not a warning or an error. Its
    handler replaces Celery's as soon as Celery installs its own, before the worker is ready,
    so that a stop that comes early is quiet too."""
    import logging

    from celery.apps.worker import install_worker_term_handler

    if instance.loglevel <= logging.INFO:
        return
    install_tweaks = instance.install_platform_tweaks

    def then_quietly(worker: Any) -> None:
        install_tweaks(worker)
        install_worker_term_handler(worker, verbose=False)

    instance.install_platform_tweaks = then_quietly
