"""Forms of the project pages. They read their limits and choices from memory.inputs and turn text
into the store's argument types; the store does the judging, and its errors come back onto the field
they name (`store_error_on`)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, cast

from django import forms

from memory import inputs
from memory.store import StoreError
from web.forms import MultilineTextField

ANY = ""
SORT_CHOICES = [
    ("-updated", "Recently updated"),
    ("updated", "Least recently updated"),
    ("-importance", "Most important"),
    ("importance", "Least important"),
]
RELEVANCE = "relevance"
BULK_CHOICES = [
    ("retag", "Retag"),
    ("mark_historical", "Mark historical"),
    ("delete", "Delete"),
]
_FIELD_NAME = re.compile(r"`([a-z_]+)`")


def _label(value: str) -> str:
    return value.replace("_", " ").capitalize()


def store_error_on(form: forms.Form, error: StoreError, aliases: dict[str, str] | None = None) -> None:
    """Show a store error on the form field its message names (`field`), else above the form."""
    names = [aliases.get(name, name) if aliases else name for name in _FIELD_NAME.findall(error.message)]
    # A hidden field (the page cursor) has nowhere to show its error: it goes above the form.
    field = next(
        (name for name in names if name in form.fields and not form.fields[name].widget.is_hidden), None
    )
    form.add_error(field, error.message)


def split_tags(text: str) -> list[str]:
    """Tags typed as one line: commas or spaces between them (the store normalises each)."""
    return [tag for tag in re.split(r"[,\s]+", text) if tag]


class DateInput(forms.DateInput):
    input_type = "date"


class NoteFilterForm(forms.Form):
    """The note browser's question, sent as GET so a page of results has its own address."""

    q = forms.CharField(label="Search", max_length=inputs.QUERY.max_length, required=False)
    type = forms.ChoiceField(required=False)
    status = forms.ChoiceField(required=False)
    tag = forms.CharField(max_length=inputs.TAG.max_length, required=False)
    path = forms.CharField(
        label="Code path",
        max_length=inputs.PATH_PATTERN.max_length,
        required=False,
        help_text="Notes bound to this file, e.g. billing/invoice.py.",
    )
    author = forms.ChoiceField(required=False)
    source = forms.CharField(
        label="Source (agent)",
        max_length=inputs.SOURCE.max_length,
        required=False,
        help_text="The client that wrote it, e.g. claude-code.",
    )
    updated_after = forms.DateField(label="Updated from", required=False, widget=DateInput)
    updated_before = forms.DateField(label="Updated until", required=False, widget=DateInput)
    sort = forms.ChoiceField(required=False)
    deleted = forms.BooleanField(label="Include deleted notes", required=False)
    cursor = forms.CharField(max_length=inputs.CURSOR.max_length, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, authors: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._choices("type", [(ANY, "Any type"), *((t, _label(t)) for t in inputs.NOTE_TYPES)])
        self._choices("status", [(ANY, "Any status"), *((s, _label(s)) for s in inputs.NOTE_STATUSES)])
        self._choices("author", [(ANY, "Anyone"), *((email, email) for email in authors)])
        self._choices("sort", [(ANY, "Relevance when searching, else recently updated"), *SORT_CHOICES])

    def _choices(self, name: str, choices: list[tuple[str, str]]) -> None:
        cast(forms.ChoiceField, self.fields[name]).choices = choices

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        after, before = self.cleaned_data.get("updated_after"), self.cleaned_data.get("updated_before")
        if after and before and after > before:
            self.add_error("updated_before", "The end of the range is before its start.")
        return cleaned

    @property
    def searching(self) -> bool:
        return bool(self.cleaned_data.get("q", "").strip())

    def list_arguments(self) -> dict[str, Any]:
        """store.list_notes's arguments for this question (not the page position)."""
        data = self.cleaned_data
        arguments: dict[str, Any] = {
            "types": [data["type"]] if data["type"] else None,
            "statuses": [data["status"]] if data["status"] else None,
            "tag": data["tag"] or None,
            "path": data["path"] or None,
            "author": data["author"] or None,
            "source": data["source"] or None,
            # The store's bounds are exclusive: from the first microsecond of the first day to the
            # start of the day after the last.
            "updated_after": _day_start(data["updated_after"], microseconds=-1),
            "updated_before": _day_start(data["updated_before"], days=1),
            "sort": data["sort"] or None,
            "include_deleted": data["deleted"],
        }
        return arguments

    def search_arguments(self) -> dict[str, Any]:
        """store.search_notes's arguments: search filters by type, status and tag only."""
        data = self.cleaned_data
        return {
            "query": data["q"],
            "types": [data["type"]] if data["type"] else None,
            "statuses": [data["status"]] if data["status"] else None,
            "tags": [data["tag"]] if data["tag"] else None,
            "paths": [data["path"]] if data["path"] else None,
        }

    def ignored_while_searching(self) -> list[str]:
        data = self.cleaned_data
        names = ["author", "source", "updated_after", "updated_before", "sort", "deleted"]
        return [str(self.fields[name].label or _label(name)) for name in names if data.get(name)]


def _day_start(day: date | None, *, days: int = 0, microseconds: int = 0) -> str | None:
    """The RFC 3339 time (UTC) a day starts, moved by `days` and `microseconds`."""
    if day is None:
        return None
    start = datetime.combine(day, time.min, UTC) + timedelta(days=days, microseconds=microseconds)
    return start.isoformat()


class ProjectForm(forms.Form):
    name = forms.CharField(max_length=inputs.PROJECT_NAME.max_length, help_text="e.g. Payments API")
    slug = forms.CharField(
        max_length=inputs.PROJECT_SLUG.max_length,
        required=False,
        help_text="The project's name in URLs and tool calls: lowercase letters, digits and hyphens. "
        "Left empty, it is made from the name.",
    )
    summary = MultilineTextField(
        rows=3,
        max_length=inputs.PROJECT_TEXT.max_length,
        required=False,
        help_text="What the project is; agents get it first in get_context.",
    )
    agent_instructions = MultilineTextField(
        rows=5,
        max_length=inputs.PROJECT_TEXT.max_length,
        required=False,
        help_text="Instructions every agent gets with the project's context.",
    )


class ProjectSettingsForm(ProjectForm):
    default_context_budget = forms.IntegerField(
        label="Default context budget (tokens)",
        required=False,
        min_value=int(inputs.PROJECT_CONTEXT_BUDGET.minimum),
        max_value=int(inputs.PROJECT_CONTEXT_BUDGET.maximum),
        help_text=inputs.PROJECT_CONTEXT_BUDGET.description + " Empty: the detail level's budget applies.",
    )

    def __init__(self, *args: Any, read_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = True
        self.fields["slug"].help_text = "Renaming changes the project's URL and the slug agents pass."
        if read_only:
            for field in self.fields.values():
                field.disabled = True

    def changes(self) -> dict[str, Any]:
        """update_project's arguments: only the fields the person changed."""
        changed: dict[str, Any] = {}
        for name in self.changed_data:
            value = self.cleaned_data[name]
            if name == "default_context_budget":
                value = 0 if value is None else value
            changed[name] = value
        return changed


class ContextPreviewForm(forms.Form):
    max_tokens = forms.IntegerField(
        label="Budget (tokens)",
        required=False,
        min_value=int(inputs.CONTEXT_MAX_TOKENS.minimum),
        max_value=int(inputs.CONTEXT_MAX_TOKENS.maximum),
        help_text="Empty: the project's default, else the detail level's budget.",
    )
    query = forms.CharField(
        label="Task",
        max_length=inputs.QUERY.max_length,
        required=False,
        help_text="What the agent is about to do: relevant notes are ranked for it.",
    )
    detail = forms.ChoiceField(
        choices=[(d, _label(d)) for d in inputs.DETAIL_LEVELS], initial="balanced", required=False
    )


class BulkForm(forms.Form):
    """The selected notes (`id` or `id:version` each) and what to do with them."""

    action = forms.ChoiceField(choices=BULK_CHOICES)
    add_tags = forms.CharField(label="Tags to add", max_length=inputs.TAG_LINE.max_length, required=False)
    remove_tags = forms.CharField(
        label="Tags to remove", max_length=inputs.TAG_LINE.max_length, required=False
    )
    reason = forms.CharField(
        label="Reason for deleting", max_length=inputs.DELETE_REASON.max_length, required=False
    )
    filters = forms.CharField(
        required=False, widget=forms.HiddenInput, max_length=inputs.FILTERS_QUERY.max_length
    )

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.selected: list[str] = data.getlist("note") if data is not None else []

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        versions: dict[str, int] = {}
        ids: list[str] = []
        for value in self.selected:
            note_id, _, version = value.partition(":")
            if note_id and note_id not in ids:
                ids.append(note_id)
            if version:
                if not version.isdigit():
                    raise forms.ValidationError(
                        "The selection is malformed: reload the page and select again."
                    )
                versions[note_id] = int(version)
        if not ids:
            raise forms.ValidationError("Select at least one note.")
        if len(ids) > inputs.NOTE_IDS.max_items:
            raise forms.ValidationError(f"Select at most {inputs.NOTE_IDS.max_items} notes at a time.")
        self.cleaned_data["ids"] = ids
        self.cleaned_data["versions"] = versions
        return cleaned

    def store_arguments(self) -> dict[str, Any]:
        # One bar offers every action's fields: only the chosen action's are sent.
        data = self.cleaned_data
        retag, delete = data["action"] == "retag", data["action"] == "delete"
        return {
            "ids": data["ids"],
            "action": data["action"],
            "add_tags": (split_tags(data["add_tags"]) or None) if retag else None,
            "remove_tags": (split_tags(data["remove_tags"]) or None) if retag else None,
            "reason": (data["reason"] or None) if delete else None,
            "expected_versions": data["versions"] or None,
        }
