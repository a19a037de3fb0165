"""Forms of the web pages: they check input and say what is wrong; the store does the writing."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm

from memory import inputs, store
from memory.store import Role, User

ROLE_HELP = {
    Role.OWNER: "everything, including the plan and the team's owners",
    Role.ADMIN: "manages members, keys and settings",
    Role.MEMBER: "reads and writes memory",
    Role.VIEWER: "reads memory only",
}


def role_choices(*, include_owner: bool) -> list[tuple[str, str]]:
    return [
        (role.value, f"{role.label} — {ROLE_HELP[role]}")
        for role in Role
        if include_owner or role != Role.OWNER
    ]


class MultilineTextField(forms.CharField):
    """A textarea's text with the line endings agents write. Browsers submit every newline of a
    textarea as CRLF (the HTML form encoding); stored as sent, one web edit would change every line
    of a note written through the tools, and re-saving an unchanged form would look like an edit."""

    def __init__(self, *, rows: int, **kwargs: Any) -> None:
        attrs = {"rows": rows, **kwargs.pop("attrs", {})}
        super().__init__(widget=forms.Textarea(attrs=attrs), **kwargs)

    def to_python(self, value: Any) -> str:
        text = str(super().to_python(value))
        return text.replace("\r\n", "\n").replace("\r", "\n")


class PasswordField(forms.CharField):
    def __init__(self, label: str = "Password", autocomplete: str = "new-password", **kwargs: Any) -> None:
        super().__init__(
            label=label,
            strip=False,
            max_length=inputs.PASSWORD.max_length,
            widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
            **kwargs,
        )


class SignupForm(forms.Form):
    email = forms.EmailField(
        max_length=inputs.EMAIL.max_length, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    name = forms.CharField(
        label="Your name",
        max_length=inputs.DISPLAY_NAME.max_length,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    password = PasswordField(help_text="At least 10 characters, not a common password.")
    team = forms.CharField(
        label="Team name",
        max_length=inputs.TEAM_NAME.max_length,
        required=False,
        help_text="You can rename it later.",
    )

    def clean_email(self) -> str:
        email = str(self.cleaned_data["email"]).strip().lower()
        if store.email_registered(store.principal_for_account(), email):
            raise forms.ValidationError(
                "An account with this address exists already: sign in, or reset the password."
            )
        return email

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        password = self.cleaned_data.get("password")
        if password:
            probe = User(email=self.cleaned_data.get("email", ""), name=self.cleaned_data.get("name", ""))
            try:
                password_validation.validate_password(password, probe)
            except forms.ValidationError as error:
                self.add_error("password", error)
        return cleaned


class InvitedSignupForm(forms.Form):
    """Sign up from an invitation: the address is the invited one, proven by the link."""

    name = forms.CharField(
        label="Your name",
        max_length=inputs.DISPLAY_NAME.max_length,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    password = PasswordField(help_text="At least 10 characters, not a common password.")

    def __init__(self, *args: Any, email: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if store.email_registered(store.principal_for_account(), self.email):
            raise forms.ValidationError("An account with this address exists already: sign in to accept.")
        password = self.cleaned_data.get("password")
        if password:
            try:
                password_validation.validate_password(password, User(email=self.email))
            except forms.ValidationError as error:
                self.add_error("password", error)
        return cleaned


class LoginForm(AuthenticationForm):
    """Django's sign-in form (field names `username` and `password`), with the email as username."""

    username = forms.EmailField(
        label="Email",
        max_length=inputs.EMAIL.max_length,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )
    password = PasswordField(autocomplete="current-password")

    def clean_username(self) -> str:
        return str(self.cleaned_data["username"]).strip().lower()


class PasswordResetRequestForm(forms.Form):
    email = forms.EmailField(
        max_length=inputs.EMAIL.max_length, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )

    def clean_email(self) -> str:
        return str(self.cleaned_data["email"]).strip().lower()


class TeamForm(forms.Form):
    name = forms.CharField(label="Team name", max_length=inputs.TEAM_NAME.max_length)

    def clean_name(self) -> str:
        name = " ".join(str(self.cleaned_data["name"]).split())
        if not name:
            raise forms.ValidationError("A team needs a name.")
        return name


class InviteForm(forms.Form):
    email = forms.EmailField(max_length=inputs.EMAIL.max_length)
    role = forms.ChoiceField(choices=[])

    def __init__(self, *args: Any, include_owner: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        role = cast(forms.ChoiceField, self.fields["role"])
        role.choices = role_choices(include_owner=include_owner)
        role.initial = Role.MEMBER

    def clean_email(self) -> str:
        return str(self.cleaned_data["email"]).strip().lower()


class MemberForm(forms.Form):
    """Names a member by address in the POST body, so no internal id appears in a URL."""

    email = forms.EmailField(max_length=inputs.EMAIL.max_length, widget=forms.HiddenInput)


class RoleForm(MemberForm):
    role = forms.ChoiceField(choices=[(role.value, role.label) for role in Role])


ACCESS_CHOICES = [("read_write", "Read and write"), ("read_only", "Read only")]
EXPIRY_CHOICES = [
    ("", "Never"),
    ("7", "In 7 days"),
    ("30", "In 30 days"),
    ("90", "In 90 days"),
    ("365", "In a year"),
]


class KeyForm(forms.Form):
    name = forms.CharField(
        max_length=inputs.API_KEY_NAME.max_length,
        initial="API key",
        help_text="Where it is used, e.g. “laptop — Claude Code”.",
    )
    project = forms.ChoiceField(label="Projects", required=False)
    access = forms.ChoiceField(choices=ACCESS_CHOICES, initial="read_write", widget=forms.RadioSelect)
    expires = forms.ChoiceField(label="Expires", choices=EXPIRY_CHOICES, required=False)

    def __init__(self, *args: Any, projects: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["project"]).choices = [
            ("", "All projects of the team"),
            *projects,
        ]

    def clean_name(self) -> str:
        name = " ".join(str(self.cleaned_data["name"]).split())
        if not name:
            raise forms.ValidationError("Give the key a name.")
        return name
