"""The form of the page that brings memory in from rules files and other tools' exports: uploaded
files and pasted text become {name: text}; the store reads, judges and reports on them."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile

from edge import bounded_json
from memory import inputs
from web.forms import MultilineTextField

FORMAT_LABELS = {
    "auto": "Recognise it from the files",
    "rules": "Rules files — CLAUDE.md, AGENTS.md, GEMINI.md, Copilot instructions, Cursor or Claude Code rules",
    "basic-memory": "basic-memory — Markdown notes with observations and relations",
    "mcp-memory-service": "mcp-memory-service — its JSON export",
    "memory-graph": "MCP memory server — its knowledge graph (memory.jsonl)",
    "mem0": "Mem0 — its JSON export",
}


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        if isinstance(data, list | tuple):
            return [super(MultipleFileField, self).clean(item, initial) for item in data if item]
        return [super().clean(data, initial)] if data else []


class BringInForm(forms.Form):
    uploads = MultipleFileField(
        label="Files",
        required=False,
        widget=MultipleFileInput(
            attrs={"accept": ".md,.mdc,.json,.jsonl,.txt,text/markdown,application/json"}
        ),
        help_text="One or more files: rules files, basic-memory notes, or another tool's export.",
    )
    pasted = MultilineTextField(
        rows=8,
        label="Or paste the text",
        required=False,
        help_text="For example the contents of your CLAUDE.md.",
    )
    pasted_name = forms.CharField(
        label="Name of the pasted file",
        required=False,
        initial="AGENTS.md",
        max_length=inputs.MEMORY_IMPORT_FILE_NAME.max_length,
        help_text="Its path in the repository, e.g. CLAUDE.md or .cursor/rules/api.mdc.",
    )
    format = forms.ChoiceField(
        choices=[(name, FORMAT_LABELS[name]) for name in inputs.MEMORY_IMPORT_FORMATS], initial="auto"
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        files: dict[str, str] = {}
        for upload in cast("list[UploadedFile[bytes]]", data.get("uploads") or []):
            if upload.size is not None and upload.size > inputs.MEMORY_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"{upload.name} is larger than {inputs.MEMORY_IMPORT_BYTES:,} bytes."
                )
            try:
                files[str(upload.name)] = upload.read(inputs.MEMORY_IMPORT_BYTES + 1).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(f"{upload.name} is not UTF-8 text.") from None
        if str(data.get("pasted") or "").strip():
            files[str(data.get("pasted_name") or "").strip() or "AGENTS.md"] = str(data["pasted"])
        if not files:
            raise forms.ValidationError("Choose at least one file, or paste some text.")
        data["files"] = files
        return data


class ConfirmBringInForm(forms.Form):
    """The previewed upload, sent back as it was shown, with the person's choice about secrets."""

    files_json = forms.CharField(widget=forms.HiddenInput)
    format = forms.ChoiceField(choices=[(name, name) for name in inputs.MEMORY_IMPORT_FORMATS])
    skip_refused = forms.BooleanField(required=False, label="Leave out the notes that look like secrets")

    def clean_files_json(self) -> dict[str, Any]:
        try:
            files = bounded_json.loads(str(self.cleaned_data["files_json"]))
        except (ValueError, json.JSONDecodeError):
            raise forms.ValidationError("The preview was lost: start again.") from None
        if not isinstance(files, dict):
            raise forms.ValidationError("The preview was lost: start again.")
        return files
