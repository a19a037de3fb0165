"""What a reader hands the import pipeline: one candidate note, and where it came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

# Uploaded files by their path relative to the upload's root ("CLAUDE.md", ".cursor/rules/api.mdc").
Files = Mapping[str, str]


@dataclass(frozen=True)
class Candidate:
    """A note a reader found. `type` is one of memory.models.NoteType's values; `origin` names the
    file and line (or record) it came from, shown in the preview so people can check the reading."""

    content: str
    type: str
    origin: str
    title: str | None = None
    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    importance: float | None = None


@dataclass(frozen=True)
class Reading:
    """A reader's result: the candidates, plus what it could not read and why (never an exception
    for a malformed file: the preview shows the reason beside the file's name)."""

    candidates: tuple[Candidate, ...]
    unreadable: tuple[tuple[str, str], ...] = field(default=())


class Reader(Protocol):
    def __call__(self, files: Files) -> Reading: ...
