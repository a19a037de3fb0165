"""One labelled upload."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ImportCase:
    name: str
    format: str  # the reader that should recognise it
    source_url: str
    licence: str
    files: dict[str, str]
    expected: list[tuple[str, str]]  # (note type, a fragment of the note's text), each a note to create
    duplicates: int  # repeats inside the upload the judgement must catch
