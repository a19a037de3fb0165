from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from knownbase import embedded_db


class Command(BaseCommand):
    help = "Stop the embedded PostgreSQL server of KNOWNBASE_DATA_DIR, if one runs."

    def handle(self, *args: Any, **options: Any) -> None:
        outcome = embedded_db.stop(str(settings.KNOWNBASE_DATA_DIR))
        if outcome.running_after:
            # A non-zero exit, so `make db-stop` (and `make clean` after it) fail loudly.
            raise CommandError(outcome.message)
        self.stdout.write(outcome.message)
