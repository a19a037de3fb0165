"""OAuth 2.1 for MCP clients: django-oauth-toolkit's authorization server with the product's policy."""
