"""The consent form: DOT's hidden authorization fields plus what the user grants the client."""

from __future__ import annotations

from typing import Any

from django import forms
from oauth2_provider.forms import AllowForm

from memory import store
from memory.store import OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE, Role, User

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
        self.teams: list[store.results_accounts.ConsentTeam] = store.consent_choices(
            store.principal_for_account(user)
        )["teams"]
        self.fields["team"].choices = [(t["slug"], t["name"]) for t in self.teams]
        self.fields["project"].choices = [("", "All projects of the team")] + [
            (t["name"], [(p["public_id"], p["name"]) for p in t["projects"]])
            for t in self.teams
            if t["projects"]
        ]
        if len(self.teams) == 1:
            self.fields["team"].initial = self.teams[0]["slug"]
        # The scope the client asked for (DOT's hidden field: from the authorization request on GET,
        # posted back with the answer). The user may grant less, never more.
        asked = str(self.data.get("scope") or self.initial.get("scope") or "").split()
        self.write_requested = OAUTH_WRITE_SCOPE in asked
        if not self.write_requested:
            self.fields["access"].initial = READ_ONLY

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean()
        if not cleaned.get("allow"):
            return cleaned
        team = next((t for t in self.teams if t["slug"] == cleaned.get("team")), None)
        if team is None:
            raise forms.ValidationError("Choose one of your teams.")
        project_id = None
        if cleaned.get("project"):
            chosen = cleaned["project"]
            match = [p for p in team["projects"] if p["public_id"] == chosen]
            if not match:
                self.add_error("project", "Choose a project of that team, or all projects.")
                return cleaned
            project_id = match[0]["id"]
        read_only = (
            cleaned.get("access") != READ_WRITE or team["role"] == Role.VIEWER or not self.write_requested
        )
        cleaned["consent"] = {"team_id": team["id"], "project_id": project_id, "read_only": read_only}
        # The token's scope says what was granted; the principal applies the same choice.
        cleaned["scope"] = OAUTH_READ_SCOPE if read_only else f"{OAUTH_READ_SCOPE} {OAUTH_WRITE_SCOPE}"
        return cleaned
