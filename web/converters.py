"""Path converters for the ids and tokens in page URLs, in place of `str`: a segment that cannot be
an id (a NUL, a percent sign, a space, anything past its length) is no match, so the page is a 404
before any query is made with it (a NUL reaching PostgreSQL was a 500)."""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

from memory import inputs


class _Pattern:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class PublicIdConverter(_Pattern):
    """Opaque public ids: a type prefix and base62 characters (n_…, tj_…, inv_…, oc_…, kb_…)."""

    regex = f"[A-Za-z0-9_]{{1,{max(inputs.PUBLIC_ID.max_length, inputs.API_KEY_ID.max_length, inputs.NOTE_ID.max_length)}}}"


class TokenConverter(_Pattern):
    """Signed and sealed tokens: base64url, with the signer's ":" and "." separators."""

    regex = f"[A-Za-z0-9_.:=-]{{1,{inputs.LINK_TOKEN.max_length}}}"


def register() -> None:
    """Register the converters (once: Django deprecates registering a name again)."""
    if "pid" not in get_converters():
        register_converter(PublicIdConverter, "pid")
        register_converter(TokenConverter, "token")
