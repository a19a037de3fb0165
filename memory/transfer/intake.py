"""An upload of other tools' memory, checked and read: which format, which candidate notes, what
could not be read. Nothing here writes; the store judges each candidate as remember would."""

from __future__ import annotations

from typing import Any

from accounts.errors import InvalidArgument
from memory import limits, validation
from memory.transfer.formats import registry
from memory.transfer.formats.candidate import Reading

# The `source` of notes brought in from other tools' files: not an agent's write of today.
IMPORTED_SOURCE = "import"


def checked_files(files: Any) -> dict[str, str]:
    """`files` as {path: text}, within the upload's bounds, or InvalidArgument saying which bound."""
    if not isinstance(files, dict) or not files:
        raise InvalidArgument("`files` must be an object of at least one file: {path: text}.", path="files")
    if len(files) > limits.MEMORY_IMPORT_FILES.max_items:
        raise InvalidArgument(
            f"`files` holds {len(files)} files; the limit is {limits.MEMORY_IMPORT_FILES.max_items}.",
            path="files",
        )
    checked: dict[str, str] = {}
    size = 0
    for raw_name, text in files.items():
        name = validation.text(
            raw_name, "files (a name)", limit=limits.MEMORY_IMPORT_FILE_NAME.max_length, required=True
        )
        if not isinstance(text, str):
            raise InvalidArgument(f"`files[{name!r}]` must be the file's text.", path="files")
        validation.no_nul({"files": text})
        size += len(text.encode("utf-8", "surrogatepass"))
        if size > limits.MEMORY_IMPORT_BYTES:
            raise InvalidArgument(
                f"The files hold more than {limits.MEMORY_IMPORT_BYTES:,} bytes of text, the most one "
                "import takes: send them in parts.",
                path="files",
            )
        checked[name.strip().lstrip("/").replace("\\", "/")] = text
    return checked


def read_upload(files: dict[str, str], format: Any) -> tuple[str, Reading]:
    """The format (detected for "auto" or None) and what its reader found, within the note cap."""
    chosen = "auto" if format is None else validation.choice(format, "format", registry.FORMATS)
    name = registry.detect(files) if chosen == "auto" else chosen
    reading: Reading = registry.READERS[name].read(files)
    if len(reading.candidates) > limits.MEMORY_IMPORT_NOTES:
        raise InvalidArgument(
            f"The files hold {len(reading.candidates):,} notes; one import takes at most "
            f"{limits.MEMORY_IMPORT_NOTES:,}: send them in parts.",
            path="files",
        )
    return name, reading
