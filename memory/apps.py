from django.apps import AppConfig
from django.db.models.signals import pre_save


class MemoryConfig(AppConfig):
    name = "memory"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: models, and the store that uses them, load only once the apps are ready.
        from oauth2_provider.models import Application

        from memory import checks  # noqa: F401  (registers the system check)
        from memory.store.connections import screen_stored_application

        # Whatever path saves an OAuth application (registration, its RFC 7592 update, the admin),
        # its name is screened in the form it is stored.
        pre_save.connect(
            screen_stored_application, sender=Application, dispatch_uid="memory.screen_application"
        )
