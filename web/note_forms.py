"""Forms of the note pages. They only parse what the browser sends (a number, a comma-separated tag
list); the store checks every value, and its refusals come back onto the field they name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from memory import inputs
from memory.store import StoreError
from web.forms import MultilineTextField

_FIELD_IN_MESSAGE = re.compile(r"^`([a-z_]+)")
_FIELD_ROOT = re.compile(r"^[a-z_]+")

EDITABLE = ("title", "body", "type", "status", "tags", "importance", "visibility", "paths")


def _choices(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(value, value.replace("_", " ")) for value in values]


def tags_field() -> forms.CharField:
    """A note's tags typed on one line, as the edit and new-note forms take them."""
    return forms.CharField(
        required=False,
        max_length=inputs.TAG_LINE.max_length,
        help_text="Separated by commas, e.g. “auth, payments”.",
    )


def paths_field(rows: int, help_text: str) -> MultilineTextField:
    """A note's globs, one a line."""
    return MultilineTextField(
        rows=rows, required=False, max_length=inputs.PATH_LINES.max_length, strip=False, help_text=help_text
    )


class NoteForm(forms.Form):
    title = forms.CharField(max_length=inputs.TITLE.max_length, strip=False)
    body = MultilineTextField(
        rows=18,
        attrs={"spellcheck": "true"},
        max_length=inputs.BODY.max_length,
        strip=False,
        help_text="Markdown.",
    )
    type = forms.ChoiceField(choices=_choices(inputs.NOTE_TYPES))
    status = forms.ChoiceField(choices=_choices(inputs.NOTE_STATUSES))
    tags = tags_field()
    paths = paths_field(
        3,
        "Code this note is about, one glob a line from the repository root, e.g. billing/** "
        "or api/views/*.py (** spans folders, * does not).",
    )
    importance = forms.FloatField(
        min_value=inputs.IMPORTANCE.minimum,
        max_value=inputs.IMPORTANCE.maximum,
        widget=forms.NumberInput(attrs={"step": "0.05"}),
        help_text="0 to 1: 0.5 is ordinary, 0.9 critical.",
    )
    visibility = forms.ChoiceField(
        choices=_choices(inputs.VISIBILITIES),
        help_text="Private notes are seen by their author only. Only the author can change this.",
    )
    expected_version = forms.IntegerField(
        widget=forms.HiddenInput, min_value=int(inputs.VERSION.minimum), max_value=int(inputs.VERSION.maximum)
    )

    def __init__(self, *args: Any, may_change_visibility: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not may_change_visibility:
            self.fields["visibility"].disabled = True

    @staticmethod
    def initial_from(note: Mapping[str, Any]) -> dict[str, Any]:
        return {
            **{field: note[field] for field in EDITABLE if field not in ("tags", "paths")},
            "tags": ", ".join(note["tags"]),
            "paths": "\n".join(note.get("paths", [])),
            "expected_version": note["version"],
        }

    def clean_tags(self) -> list[str]:
        text = str(self.cleaned_data.get("tags") or "")
        return [tag.strip() for tag in text.split(",") if tag.strip()]

    def clean_paths(self) -> list[str]:
        text = str(self.cleaned_data.get("paths") or "")
        return [line.strip() for line in text.splitlines() if line.strip()]

    def changes_from(self, note: Mapping[str, Any]) -> dict[str, Any]:
        """The fields that differ from `note`: an edit names only what it changes (the audit row lists
        the changed fields)."""
        return {
            field: self.cleaned_data[field]
            for field in EDITABLE
            if field in self.cleaned_data and self.cleaned_data[field] != note.get(field, [])
        }


class NewNoteForm(forms.Form):
    """A note written by a person: judged as an agent's `remember` is (duplicates merge, a
    contradiction is shown before anything is saved)."""

    title = forms.CharField(
        max_length=inputs.TITLE.max_length,
        required=False,
        strip=False,
        help_text="Left empty, the first words of the text.",
    )
    body = MultilineTextField(
        rows=10,
        attrs={"spellcheck": "true"},
        max_length=inputs.BODY.max_length,
        strip=False,
        help_text="Markdown.",
    )
    type = forms.ChoiceField(choices=_choices(inputs.NOTE_TYPES), initial=inputs.DEFAULT_TYPE)
    tags = tags_field()
    paths = paths_field(2, "Code this note is about, one glob a line, e.g. billing/**.")
    keep_both = forms.BooleanField(
        required=False, label="Save it although it contradicts a current note (both stay true)"
    )

    clean_tags = NoteForm.clean_tags
    clean_paths = NoteForm.clean_paths


class VersionForm(forms.Form):
    """A confirmation that acts only on the version the person saw."""

    expected_version = forms.IntegerField(
        widget=forms.HiddenInput, min_value=int(inputs.VERSION.minimum), max_value=int(inputs.VERSION.maximum)
    )


class DeleteForm(VersionForm):
    reason = forms.CharField(
        required=False,
        max_length=inputs.DELETE_REASON.max_length,
        help_text="Kept with the deleted note.",
    )


def add_store_error(form: forms.Form, error: StoreError) -> None:
    """Put the store's refusal on the field it names (a screening finding's path such as `tags[2]`, or
    the argument its message starts with), or on the form as a whole."""
    root = _FIELD_ROOT.match(str(error.details.get("field") or ""))
    quoted = _FIELD_IN_MESSAGE.match(error.message)
    field = root.group(0) if root else (quoted.group(1) if quoted else "")
    if field in form.fields and not form.fields[field].disabled:
        form.add_error(field, error.message)
    else:
        form.add_error(None, error.message)
