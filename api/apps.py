from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # Registers the schema extensions (authentication schemes) with drf-spectacular.
        from api import schema  # noqa: F401
