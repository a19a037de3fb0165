from django.apps import AppConfig


class KnownbaseConfig(AppConfig):
    name = "knownbase"
    default_auto_field = "django.db.models.BigAutoField"
