from django.apps import AppConfig


class PairingConfig(AppConfig):
    name = "pairing"
    verbose_name = "Rated queue"
    default_auto_field = "django.db.models.BigAutoField"
