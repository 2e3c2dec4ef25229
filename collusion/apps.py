from django.apps import AppConfig


class CollusionConfig(AppConfig):
    name = "collusion"
    default_auto_field = "django.db.models.BigAutoField"
