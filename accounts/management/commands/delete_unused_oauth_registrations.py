"""Run the periodic clean-up of OAuth registrations by hand (the worker's beat runs it hourly)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts import oauth


class Command(BaseCommand):
    help = "Delete dynamically registered OAuth clients older than a day that never obtained a token."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = oauth.delete_unused_registrations()
        self.stdout.write(f"Deleted {deleted} unused OAuth registration(s).")
