from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the Celery tasks that accounts.scheduling enqueues by name.
        from accounts import recent, tasks  # noqa: F401

        # Saving or deleting a row a credential's resolution read forgets it at once in this process.
        recent.connect()
