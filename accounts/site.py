"""The server's one public address. Every absolute URL it prints, renders, mails or publishes (the
banner, client configurations, pages, mail links, OAuth metadata, export and upgrade links) is built
here from SITE_URL, never from a request's Host header (which a client chooses) nor from a default
written elsewhere: a server started on another port (`make run PORT=8100`) names only itself.

It sits in the lowest layer so that the domain (upgrade and export links) can use it; entry points
reach it through `edge.site`."""

from __future__ import annotations

from django.conf import settings

# Where the streamable HTTP MCP endpoint is mounted (knownbase/asgi.py routes it).
MCP_PATH = "/mcp"


def site_url() -> str:
    """SITE_URL without a trailing slash: the scheme, host and port clients reach."""
    return str(settings.SITE_URL).rstrip("/")


def absolute_url(path: str = "/") -> str:
    """`path` (absolute, with any query) on the public address."""
    if not path.startswith("/") or path.startswith("//"):
        raise ValueError(f"absolute_url takes a path starting with one '/', not {path!r}")
    return f"{site_url()}{path}"


def mcp_url() -> str:
    """The MCP endpoint: what client configurations name and what OAuth tokens are issued for."""
    return absolute_url(MCP_PATH)
