"""Ensure the demo account exists and print a fresh login password, API key and client config."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import actions
from accounts.models import ApiKey, Team, User
from billing import actions as billing_actions
from billing.models import Plan
from memory import store
from memory.models import Project

DEMO_EMAIL = "demo@knownbase.local"
DEMO_TEAM = "demo"
DEMO_PROJECT = "demo"
DEMO_KEY_NAME = "make run demo key"


class Command(BaseCommand):
    help = "Create the demo account if missing; print a new password and API key (shown once)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        password = secrets.token_urlsafe(12)
        user = User.objects.filter(email=DEMO_EMAIL).first()
        if user is None:
            user = User.objects.create_superuser(DEMO_EMAIL, password, name="Demo")
        else:
            user.set_password(password)
            user.save(update_fields=["password"])
        team = Team.objects.filter(slug=DEMO_TEAM).first()
        if team is None:
            team = actions.create_team(user, name="Demo team", slug=DEMO_TEAM)
            developer = Plan.objects.filter(code="developer").first()
            if developer is not None:
                billing_actions.change_plan(team, developer)
        principal = actions.owner_principal(team, user, client_name="make run")
        if not Project.objects.filter(team=team, slug=DEMO_PROJECT).exists():
            store.create_project(
                principal,
                name="Demo project",
                slug=DEMO_PROJECT,
                summary="A place to try Knownbase: ask your agent to call get_context.",
            )
        for old in ApiKey.objects.usable().filter(team=team, user=user, name=DEMO_KEY_NAME):
            actions.revoke_api_key(old, actor=principal)
        _, raw_key = billing_actions.issue_api_key(team, user, name=DEMO_KEY_NAME, actor=principal)

        config = {
            "mcpServers": {
                "knownbase": {
                    "type": "http",
                    "url": settings.MCP_URL,
                    "headers": {"Authorization": f"Bearer {raw_key}"},
                }
            }
        }
        self.stdout.write(
            "\n".join(
                [
                    "",
                    "Knownbase is ready.",
                    f"  Web:       {settings.SITE_URL}/  (admin at {settings.SITE_URL}/admin/)",
                    f"  Login:     {DEMO_EMAIL}",
                    f"  Password:  {password}",
                    f"  API key:   {raw_key}   (shown once; a new one is issued on every `make run`)",
                    f"  MCP URL:   {settings.MCP_URL}",
                    "",
                    "Paste into your MCP client's configuration:",
                    json.dumps(config, indent=2),
                    "",
                    "Claude Code: claude mcp add --transport http knownbase "
                    f"{settings.MCP_URL} --header 'Authorization: Bearer {raw_key}'",
                    "",
                ]
            )
        )
