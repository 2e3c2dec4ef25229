from typing import Any

from django.apps import AppConfig

from games import signals

from . import broadcasts


class LiveConfig(AppConfig):
    name = "live"

    def ready(self) -> None:
        # The games tell their news by a signal: they may not import the live layer.
        signals.news.connect(_send, dispatch_uid="live.broadcasts")


def _send(sender: Any, messages: dict[str, dict[str, Any]], **kwargs: Any) -> None:
    broadcasts.send(messages)
