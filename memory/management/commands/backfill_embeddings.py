"""Embed every note that has no vector of the current model (new notes, edits, a provider change)."""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memory.embeddings import ProviderError, get_provider
from memory.embeddings.queries import missing_embeddings
from memory.embeddings.scheduling import enqueue_batches
from memory.recall.semantic import ensure_vector_index
from memory.tasks import embed_notes


class Command(BaseCommand):
    help = "Embed notes that lack a vector of the configured model; prints progress and throughput."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch-size", type=int, default=256)
        parser.add_argument(
            "--enqueue", action="store_true", help="queue Celery tasks (bulk queue) instead of embedding here"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            provider = get_provider()
        except ProviderError as exc:
            raise CommandError(str(exc)) from exc
        if provider is None:
            self.stdout.write("EMBEDDINGS_PROVIDER=none: nothing to embed.")
            return
        pks = list(missing_embeddings(provider.model_id).order_by("pk").values_list("pk", flat=True))
        total = len(pks)
        if options["enqueue"]:
            # Bulk work: batches on the bulk queue, never ahead of mail and single writes.
            tasks = enqueue_batches(pks)
            self.stdout.write(f"queued {total} notes in {tasks} tasks")
            return
        started = time.perf_counter()
        done = 0
        batch = max(1, options["batch_size"])
        for start in range(0, total, batch):
            try:
                embed_notes(pks[start : start + batch])
            except ProviderError as exc:
                raise CommandError(f"provider failed after {done} of {total} notes: {exc}") from exc
            done = min(total, start + batch)
            self._progress(done, total, started)
        if provider.dim:
            ensure_vector_index(provider.model_id, provider.dim)
        elapsed = time.perf_counter() - started
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stdout.write(
            f"\nembedded {done} notes in {elapsed:.1f} s ({rate:.1f} notes/s) with {provider.model_id}"
        )

    def _progress(self, done: int, total: int, started: float) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        rate = done / max(1e-6, time.perf_counter() - started)
        bar = "#" * filled + "-" * (width - filled)
        self.stdout.write(f"\r[{bar}] {done}/{total} ({rate:.0f}/s)", ending="")
        if hasattr(sys.stdout, "flush"):
            self.stdout.flush()
