"""A note's code paths travel through export and import; documents exported before paths existed
still import; bad globs are refused naming their place in the document."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidArgument
from memory import store
from memory.models import Note, Project
from memory.transfer.exporting import export_document, markdown_of
from memory.transfer.importing import import_document


def bound(cast) -> str:
    return store.create_note(
        cast.principal(cast.owner), "payments", "Invoices", "Totals round half-even.", paths=["billing/**"]
    )["note"]["id"]


def test_paths_round_trip_and_show_in_markdown(cast):
    bound(cast)
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    assert document["notes"][0]["paths"] == ["billing/**"]
    assert "`billing/**`" in markdown_of(document)
    import_document(owner, document, slug="copy", name="Copy")
    copy = Project.objects.get(team=cast.acme, slug="copy")
    assert Note.objects.get(project=copy).paths == ["billing/**"]


def test_a_document_without_paths_imports_unbound(cast):
    bound(cast)
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    del document["notes"][0]["paths"]
    import_document(owner, document, slug="older", name="Older")
    assert Note.objects.get(project__slug="older", team=cast.acme).paths == []


@pytest.mark.parametrize("paths", [["../outside"], "billing/**", [f"d{i}/**" for i in range(21)]])
def test_bad_paths_are_refused_naming_the_place(cast, paths):
    bound(cast)
    owner = cast.principal(cast.owner)
    document = export_document(owner, cast.payments)
    document["notes"][0]["paths"] = paths
    with pytest.raises(InvalidArgument, match=r"notes\[0\]\.paths"):
        import_document(owner, document, slug="bad", name="Bad")
    assert not Project.objects.filter(slug="bad").exists()
