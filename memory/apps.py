from django.apps import AppConfig
from django.db.models.signals import pre_save


class MemoryConfig(AppConfig):
    name = "memory"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: models, and the store that uses them, load only once the apps are ready.
        # Registers the system check, and the Celery tasks that accounts.scheduling enqueues by name.
        from accounts import recent
        from memory import checks, tasks  # noqa: F401
        from memory.models import Project
        from memory.store.rows import GUARDED, screen_stored_row

        # A project's credentials are resolved with its team: creating, renaming or deleting one
        # forgets them, so a key narrowed to a deleted project is refused on its next call.
        recent.forget_on_change(Project)

        # Whatever path saves an account's, team's, key's, invitation's or OAuth client's row (the
        # store, the admin, client registration), its names are screened in the form they are stored.
        for model in GUARDED:
            pre_save.connect(
                screen_stored_row, sender=model, dispatch_uid=f"memory.row_guard.{model.__name__}"
            )
