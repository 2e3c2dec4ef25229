from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    default_auto_field = "django.db.models.BigAutoField"
