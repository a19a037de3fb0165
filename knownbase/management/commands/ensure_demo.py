"""Ensure the demo account exists and print its login, a fresh API key and the client config.

The login password is replaced and printed only while it is still one this command set: a password
the user chose is kept. To know, the command keeps a marker in KNOWNBASE_DATA_DIR: the SHA-256 of the
password hash it stored (never the password), readable by the owner only.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from accounts import actions
from accounts.models import ApiKey, Team, User
from accounts.site import absolute_url, mcp_url
from billing import actions as billing_actions
from billing.models import Plan
from memory import store
from memory.models import Project

DEMO_EMAIL = "demo@knownbase.local"
DEMO_TEAM = "demo"
DEMO_PROJECT = "demo"
DEMO_KEY_NAME = "make run demo key"
MARKER_NAME = "demo-password.sha256"


def marker_path() -> Path:
    return Path(settings.KNOWNBASE_DATA_DIR) / MARKER_NAME


def _digest(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()


def _reason_to_keep(user: User) -> str | None:
    """Why the current password must stay, or None when it is still the one this command set."""
    try:
        marker = marker_path().read_text().strip()
    except FileNotFoundError:
        # An account from an older install, or another data folder: whose password it is is unknown.
        return "not set by ensure_demo in this data folder"
    if secrets.compare_digest(marker, _digest(user.password)):
        return None
    return "changed by the user"


def _write_marker(password_hash: str) -> None:
    path = marker_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{MARKER_NAME}.{os.getpid()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(_digest(password_hash) + "\n")
    temporary.replace(path)


class Command(BaseCommand):
    help = (
        "Create the demo superuser if missing; print its password while it is one this command set, "
        "and a new API key (shown once). Development only."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError(
                "ensure_demo creates a superuser with a printed password and is for development only; "
                "it refuses to run with KNOWNBASE_ENV=production. Use bootstrap_team instead."
            )
        with transaction.atomic():
            user = User.objects.filter(email=DEMO_EMAIL).first()
            reason_to_keep = None if user is None else _reason_to_keep(user)
            password = None if reason_to_keep else secrets.token_urlsafe(12)
            if user is None:
                user = User.objects.create_superuser(DEMO_EMAIL, password, name="Demo")
            elif password is not None:
                user.set_password(password)
                user.save(update_fields=["password"])
            raw_key = self._demo_key(user)
        if password is not None:
            # Written after the commit: a rolled-back run must not vouch for a hash the database lacks.
            _write_marker(user.password)
            password_line = password
        else:
            password_line = (
                f"{reason_to_keep}, so kept (to reset it: python manage.py changepassword {DEMO_EMAIL})"
            )
        self._print(password_line, raw_key)

    def _demo_key(self, user: User) -> str:
        """Make sure the demo team and project exist; revoke the last demo key and issue a new one."""
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
        return raw_key

    def _print(self, password_line: str, raw_key: str) -> None:
        mcp = mcp_url()
        config = {
            "mcpServers": {
                "knownbase": {
                    "type": "http",
                    "url": mcp,
                    "headers": {"Authorization": f"Bearer {raw_key}"},
                }
            }
        }
        self.stdout.write(
            "\n".join(
                [
                    "",
                    "Knownbase is ready.",
                    f"  Web:       {absolute_url('/')}  (admin at {absolute_url(reverse('admin:index'))})",
                    f"  Sign in:   {absolute_url(reverse('web:login'))}",
                    f"  Login:     {DEMO_EMAIL}",
                    f"  Password:  {password_line}",
                    f"  API key:   {raw_key}   (shown once; a new one is issued on every `make run`)",
                    f"  API keys:  {absolute_url(reverse('web:keys'))}",
                    f"  MCP URL:   {mcp}",
                    "",
                    "Paste into your MCP client's configuration:",
                    json.dumps(config, indent=2),
                    "",
                    "Claude Code: claude mcp add --transport http knownbase "
                    f"{mcp} --header 'Authorization: Bearer {raw_key}'",
                    "",
                ]
            )
        )
