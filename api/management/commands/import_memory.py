"""Bring memory in from files on disk: rules files, a basic-memory folder, another tool's export.

    KNOWNBASE_API_KEY=kb_... python manage.py import_memory payments CLAUDE.md .cursor/rules
    KNOWNBASE_API_KEY=kb_... python manage.py import_memory payments export.json --format mem0 --dry-run

Folders are read recursively (Markdown, .mdc, JSON and JSONL files, rules dotfiles); each file is
named by its path relative to the folder given (or, for a file, by its path as given), so front
matter scopes and @imports resolve as in the repository. The same store call as REST's, acting for
the API key: the report lists each note's outcome, and nothing is written with --dry-run.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from edge.principals import api_key_principal
from memory import inputs, store

READ_SUFFIXES = (".md", ".mdc", ".json", ".jsonl", ".txt")
READ_NAMES = (".cursorrules", ".windsurfrules")
SKIPPED_FOLDERS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", "dist", "build"})


def _collect(arguments: list[str]) -> dict[str, str]:
    files: dict[str, str] = {}
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                inside = found.relative_to(path)
                if any(part in SKIPPED_FOLDERS for part in inside.parts) or not found.is_file():
                    continue
                if found.suffix.lower() in READ_SUFFIXES or found.name in READ_NAMES:
                    files[inside.as_posix()] = _text(found)
        elif path.is_file():
            files[path.as_posix().removeprefix("./")] = _text(path)
        else:
            raise CommandError(f"{argument}: no such file or folder")
    if not files:
        raise CommandError("No files to read: give rules files, folders or an export.")
    return files


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{path}: cannot be read as UTF-8 text ({error})") from None


class Command(BaseCommand):
    help = "Import rules files or another memory tool's export into a project (acting for KNOWNBASE_API_KEY)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("project", help="the project's slug")
        parser.add_argument("paths", nargs="+", help="files or folders to read")
        parser.add_argument("--format", choices=inputs.MEMORY_IMPORT_FORMATS, default="auto")
        parser.add_argument("--dry-run", action="store_true", help="report what would happen; write nothing")
        parser.add_argument(
            "--skip-refused", action="store_true", help="leave out notes that look like secrets"
        )
        parser.add_argument(
            "--api-key", default=None, help="prefer the KNOWNBASE_API_KEY variable: argv is visible"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        raw_key = options["api_key"] or os.environ.get("KNOWNBASE_API_KEY", "")
        principal = api_key_principal(raw_key.strip(), client_name="import_memory") if raw_key else None
        if principal is None:
            raise CommandError("Set KNOWNBASE_API_KEY to a valid, unrevoked API key (kb_...).")
        files = _collect(options["paths"])
        try:
            report = store.import_memory(
                principal,
                options["project"],
                files,
                format=options["format"],
                dry_run=options["dry_run"],
                skip_refused=options["skip_refused"],
            )
        except store.StoreError as error:
            raise CommandError(error.message) from None
        for entry in report["notes"]:
            line = f"{entry['outcome']:<9} {entry['type']:<15} {entry['origin']}  {entry['title'] or entry['content'][:60]}"
            self.stdout.write(line.rstrip())
            if entry.get("message"):
                self.stdout.write(f"          {entry['message']}")
        for part in report["unreadable"]:
            self.stdout.write(f"unreadable {part['file']}: {part['reason']}")
        counts = ", ".join(
            f"{count} {name.replace('_', ' ')}" for name, count in report["counts"].items() if count
        )
        verb = "Would import" if report["dry_run"] else "Imported"
        self.stdout.write(f"{verb} into {report['project']} ({report['format']}): {counts or 'nothing'}.")
