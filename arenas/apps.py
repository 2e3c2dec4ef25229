from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenasConfig(AppConfig):
    name = "arenas"
    verbose_name = _("Arenas")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_finished

        game_finished.connect(_game_finished, dispatch_uid="arenas.game_finished")


def _game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    from . import services

    services.game_finished(game_id)
