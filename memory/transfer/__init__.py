"""Moving a project in and out: export documents and signed links, and import as a new project."""

from memory.transfer.exporting import (
    EXPORT_FORMATS,
    export_counts,
    export_document,
    export_markdown,
    read_export_token,
    signed_export_url,
)
from memory.transfer.importing import import_document

__all__ = [
    "EXPORT_FORMATS",
    "export_counts",
    "export_document",
    "export_markdown",
    "import_document",
    "read_export_token",
    "signed_export_url",
]
