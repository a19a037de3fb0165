"""The consent form: DOT's hidden authorization fields plus what the user grants the client."""

from __future__ import annotations

from typing import Any

from django import forms
from oauth2_provider.forms import AllowForm

from accounts.models import OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE, Membership, Role, User
from accounts.principal import principal_for_membership
from memory.models import Project

READ_WRITE = "read_write"
READ_ONLY = "read_only"
ACCESS_CHOICES = [
    (READ_WRITE, "Read and write: search, read and save notes"),
    (READ_ONLY, "Read only: search and read notes, never change them"),
]


class ConsentForm(AllowForm):
    team = forms.ChoiceField(required=False, label="Team")
    project = forms.ChoiceField(required=False, label="Project")
    access = forms.ChoiceField(
        choices=ACCESS_CHOICES, initial=READ_WRITE, widget=forms.RadioSelect, required=False, label="Access"
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.memberships = list(
            Membership.objects.filter(user=user).select_related("team").order_by("team__name", "team__slug")
        )
        self.projects_by_team: dict[str, list[Project]] = {}
        for membership in self.memberships:
            visible = Project.objects.visible_to(principal_for_membership(membership)).order_by("name")
            self.projects_by_team[membership.team.slug] = list(visible)
        self.fields["team"].choices = [(m.team.slug, m.team.name) for m in self.memberships]
        self.fields["project"].choices = [("", "All projects of the team")] + [
            (m.team.name, [(p.public_id, p.name) for p in self.projects_by_team[m.team.slug]])
            for m in self.memberships
            if self.projects_by_team[m.team.slug]
        ]
        if len(self.memberships) == 1:
            self.fields["team"].initial = self.memberships[0].team.slug

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean()
        if not cleaned.get("allow"):
            return cleaned
        membership = next((m for m in self.memberships if m.team.slug == cleaned.get("team")), None)
        if membership is None:
            raise forms.ValidationError("Choose one of your teams.")
        project_id = None
        if cleaned.get("project"):
            chosen = cleaned["project"]
            match = [p for p in self.projects_by_team[membership.team.slug] if p.public_id == chosen]
            if not match:
                self.add_error("project", "Choose a project of that team, or all projects.")
                return cleaned
            project_id = match[0].pk
        read_only = cleaned.get("access") != READ_WRITE or membership.role == Role.VIEWER
        cleaned["consent"] = {"team_id": membership.team_id, "project_id": project_id, "read_only": read_only}
        # The token's scope says what was granted; the principal applies the same choice.
        cleaned["scope"] = OAUTH_READ_SCOPE if read_only else f"{OAUTH_READ_SCOPE} {OAUTH_WRITE_SCOPE}"
        return cleaned
