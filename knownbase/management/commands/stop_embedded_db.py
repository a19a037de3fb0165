from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from knownbase import embedded_db


class Command(BaseCommand):
    help = "Stop the embedded PostgreSQL server of KNOWNBASE_DATA_DIR, if one runs."

    def handle(self, *args: Any, **options: Any) -> None:
        stopped = embedded_db.stop(str(settings.KNOWNBASE_DATA_DIR))
        self.stdout.write("stopped" if stopped else "not running")
