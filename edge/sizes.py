"""Byte counts as people read limits, in the messages of every entry point that refuses a size."""

from __future__ import annotations


def megabytes(size: int) -> str:
    """ "512 KB", "2.5 MB", "20 MB"."""
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f}".removesuffix(".0") + " MB"
