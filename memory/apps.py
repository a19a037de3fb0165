from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the system check, and the Celery tasks that accounts.scheduling enqueues by name.
        from memory import checks, tasks  # noqa: F401
