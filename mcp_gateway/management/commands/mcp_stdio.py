"""Serve the MCP tools over stdio for a local client, acting for one API key.

    KNOWNBASE_API_KEY=kb_... python manage.py mcp_stdio [--toolset core]

stdout carries the protocol; logs go to stderr.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import anyio
from django.core.management.base import BaseCommand, CommandError, CommandParser

from edge.principals import api_key_principal
from mcp_gateway.auth import process_principal
from mcp_gateway.server import build_server
from memory.store import AuthMethod


class Command(BaseCommand):
    help = "Serve the Knownbase MCP tools over stdio with the API key in KNOWNBASE_API_KEY (or --api-key)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--api-key", default=None, help="prefer the KNOWNBASE_API_KEY variable: argv is visible"
        )
        parser.add_argument("--toolset", choices=["full", "core"], default="full")

    def handle(self, *args: Any, **options: Any) -> None:
        raw_key = options["api_key"] or os.environ.get("KNOWNBASE_API_KEY", "")
        principal = api_key_principal(raw_key.strip(), client_name="stdio") if raw_key else None
        if principal is None:
            raise CommandError("Set KNOWNBASE_API_KEY to a valid, unrevoked API key (kb_...).")
        server = build_server(core_only=options["toolset"] == "core", http=False)
        # The same key, but the process is the credential: audit rows say stdio, not api_key.
        process_principal.set(replace(principal, auth_method=AuthMethod.STDIO))
        anyio.run(server.run_stdio_async)
