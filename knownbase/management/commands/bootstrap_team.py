"""Create what is missing (user, team owned by that user, project) and a new API key; print JSON."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts import actions
from accounts.errors import StoreError
from accounts.models import Membership, Role, Team, User
from accounts.site import mcp_url
from billing import actions as billing_actions
from billing.models import Plan
from memory import store
from memory.models import Project


class Command(BaseCommand):
    help = "Ensure a user, a team and a project exist, issue an API key, and print them as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", required=True)
        parser.add_argument("--team", required=True, help="team slug")
        parser.add_argument("--project", required=True, help="project slug")
        parser.add_argument("--project-scoped", action="store_true", help="limit the key to the project")
        parser.add_argument("--read-only", action="store_true", help="the key may only read")
        parser.add_argument("--password", default=None, help="set the user's password")
        parser.add_argument(
            "--plan", default=None, help="plan code for a new team (default: the default plan)"
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        email = options["email"].strip().lower()
        user = User.objects.filter(email=email).first()
        if user is None:
            user = actions.create_user(email, options["password"])
        elif options["password"]:
            user.set_password(options["password"])
            user.save(update_fields=["password"])

        team = Team.objects.filter(slug=options["team"]).first()
        if team is None:
            plan = None
            if options["plan"]:
                plan = Plan.objects.filter(code=options["plan"]).first()
                if plan is None:
                    raise CommandError(f"no plan {options['plan']!r}")
            team = actions.create_team(user, name=options["team"], slug=options["team"])
            if team.slug != options["team"]:
                raise CommandError(f"team slug {options['team']!r} is not valid")
            if plan is not None:
                billing_actions.change_plan(team, plan)
        elif not Membership.objects.filter(team=team, user=user).exists():
            raise CommandError(f"{email} is not a member of team {team.slug}")
        membership = Membership.objects.get(team=team, user=user)

        project = Project.objects.filter(
            team=team, slug=options["project"]
        ).first()  # the command acts for the team
        if project is None:
            if membership.role == Role.VIEWER:
                raise CommandError("a viewer cannot create projects")
            principal = actions.owner_principal(team, user, client_name="bootstrap_team")
            try:
                store.create_project(principal, name=options["project"], slug=options["project"])
            except StoreError as exc:
                raise CommandError(exc.message) from exc
            project = Project.objects.get(team=team, slug=options["project"])

        try:
            _, raw_key = billing_actions.issue_api_key(
                team,
                user,
                project_id=project.pk if options["project_scoped"] else None,
                name="bootstrap_team key",
                read_only=options["read_only"],
            )
        except StoreError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            json.dumps(
                {
                    "user": user.email,
                    "team": team.slug,
                    "project": project.slug,
                    "api_key": raw_key,
                    "project_scoped": options["project_scoped"],
                    "read_only": options["read_only"],
                    "mcp_url": mcp_url(),
                }
            )
        )
