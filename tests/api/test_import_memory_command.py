"""manage.py import_memory: files and folders from disk through the same store call as REST."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memory.models import Note


def run(*args: str, key: str) -> str:
    out = StringIO()
    call_command("import_memory", *args, f"--api-key={key}", stdout=out)
    return out.getvalue()


def test_a_repository_folder_is_read_with_its_rules_scoped(cast, tmp_path):
    (tmp_path / "CLAUDE.md").write_text("# Rules\n- Never log card numbers anywhere.\n@docs/testing.md\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "testing.md").write_text("- Tests must never reach the network.\n")
    rules = tmp_path / ".cursor" / "rules"
    rules.mkdir(parents=True)
    (rules / "api.mdc").write_text("---\nglobs: api/**\n---\n- Views stay thin and call the store only.\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "README.md").write_text("- Never read this vendored file.\n")
    key = cast.key(cast.member)
    before = Note.objects.count()

    preview = run("payments", str(tmp_path), "--dry-run", key=key)
    assert "Would import into payments (rules): 3 created." in preview
    assert "created   constraint      docs/testing.md:1" in preview and Note.objects.count() == before

    done = run("payments", str(tmp_path), key=key)
    assert "Imported into payments (rules): 3 created." in done
    assert Note.objects.get(body__startswith="Views stay thin").paths == ["api/**"]
    assert not Note.objects.filter(body__contains="vendored").exists()


def test_errors_are_command_errors(cast, tmp_path):
    export = tmp_path / "mem0.json"
    export.write_text('{"results": [{"memory": "Prefers dark mode in every editor"}]}')
    with pytest.raises(CommandError, match="API key"):
        run("payments", str(export), key="kb_nope")
    with pytest.raises(CommandError, match="no such file"):
        run("payments", str(tmp_path / "missing.md"), key=cast.key(cast.member))
    with pytest.raises(CommandError, match="viewer"):
        run("payments", str(export), key=cast.key(cast.viewer))
    assert "1 created" in run("payments", str(export), "--format", "mem0", key=cast.key(cast.member))
