"""The public address for entry points (which may not import accounts directly)."""

from __future__ import annotations

from accounts.site import MCP_PATH, absolute_url, mcp_url, site_url

__all__ = ["MCP_PATH", "absolute_url", "mcp_url", "site_url"]
