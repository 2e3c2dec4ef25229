"""The Celery application: bot moves, deadlines and the sweep for overdue turns."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")

app = Celery("hearts_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
