"""Forms of the export, import and team admin pages: they read what was sent and say what is wrong with
its shape; the store checks the rest (limits are read from memory.inputs, never restated)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from edge import bounded_json
from edge.sizes import megabytes
from memory import inputs

FORMAT_LABELS = {
    "json": "JSON — complete, with revisions and links; can be imported again",
    "markdown": "Markdown — readable, current notes grouped by type",
}


class ExportForm(forms.Form):
    format = forms.ChoiceField(
        choices=[(fmt, FORMAT_LABELS[fmt]) for fmt in inputs.EXPORT_FORMATS],
        initial="json",
        widget=forms.RadioSelect,
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Export file (JSON)",
        help_text="A file written by a Knownbase export in JSON.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/json,.json"}),
    )
    slug = forms.CharField(
        label="Slug of the new project",
        max_length=inputs.PROJECT_SLUG.max_length,
        required=False,
        help_text="Leave empty to keep the slug in the file.",
    )
    name = forms.CharField(
        label="Name of the new project",
        max_length=inputs.PROJECT_NAME.max_length,
        required=False,
        help_text="Leave empty to keep the name in the file.",
    )

    too_large = False  # the page answers 413 when the file is over the limit

    def clean_file(self) -> Any:
        """The parsed JSON document of the upload (its shape is the store's to judge)."""
        upload = cast("UploadedFile[bytes]", self.cleaned_data["file"])
        limit = int(settings.IMPORT_MAX_BYTES)
        if upload.size is not None and upload.size > limit:
            self.too_large = True
            raise forms.ValidationError(
                f"The file is {megabytes(upload.size)}; the limit is {megabytes(limit)}."
            )
        raw = upload.read(limit + 1)
        if len(raw) > limit:
            self.too_large = True
            raise forms.ValidationError(f"The file is larger than the limit of {megabytes(limit)}.")
        try:
            return bounded_json.loads(raw)
        except UnicodeDecodeError:
            raise forms.ValidationError("The file is not UTF-8 text: choose a JSON export file.") from None
        except bounded_json.TooDeep as error:
            raise forms.ValidationError(
                f"The file is nested deeper than {error.limit} levels of arrays and objects: it is "
                "not a Knownbase export."
            ) from None
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                f"The file is not valid JSON (line {error.lineno}, column {error.colno}): "
                "choose a JSON export file."
            ) from None

    def clean_slug(self) -> str | None:
        return str(self.cleaned_data["slug"]).strip() or None

    def clean_name(self) -> str | None:
        return str(self.cleaned_data["name"]).strip() or None


class ScreeningRuleForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            ("pattern", "Pattern — a regular expression refused on every write"),
            ("allow", "Allowed value — an exact value the gate lets through"),
        ],
        initial="pattern",
        widget=forms.RadioSelect,
    )
    name = forms.CharField(
        max_length=inputs.RULE_NAME.max_length, help_text="What it is, e.g. “billing ids”."
    )
    value = forms.CharField(
        max_length=inputs.RULE_VALUE.max_length,
        strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text="A pattern such as ACME-[0-9]{6}, or the exact value to allow.",
    )


class AuditFilterForm(forms.Form):
    action = forms.CharField(
        max_length=inputs.ACTION.max_length,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "e.g. note.updated"}),
    )
    actor = forms.ChoiceField(label="Who", required=False)
    project = forms.ChoiceField(required=False)
    since = forms.DateField(
        label="From (UTC)", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label="To (UTC, inclusive)", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, actors: list[str], projects: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["actor"]).choices = [("", "Anyone"), *((e, e) for e in actors)]
        cast(forms.ChoiceField, self.fields["project"]).choices = [
            ("", "Any project"),
            *((slug, slug) for slug in projects),
        ]

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        since, until = self.cleaned_data.get("since"), self.cleaned_data.get("until")
        if since and until and until < since:
            self.add_error("until", "The end date is before the start date.")
        return cleaned

    def store_filters(self) -> dict[str, str | None]:
        """The filters as list_audit_events takes them: whole UTC days, the end day included."""
        data = self.cleaned_data

        def day(value: date | None, offset: int = 0) -> str | None:
            if value is None:
                return None
            try:
                return f"{(value + timedelta(days=offset)).isoformat()}T00:00:00Z"
            except OverflowError:  # the end of 9999-12-31: no upper bound
                return None

        return {
            "action": data.get("action") or None,
            "actor": data.get("actor") or None,
            "project": data.get("project") or None,
            "since": day(data.get("since")),
            "until": day(data.get("until"), 1),
        }
