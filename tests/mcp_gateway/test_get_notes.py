from __future__ import annotations

from memory import store
from memory.models import Note
from memory.notes import reinforcement
from tests.mcp_gateway.state import NOTE_FIELDS, save, text_matches_structured


def test_reads_a_batch_and_lists_unknown_ids_as_missing(mcp, cast):
    first = save(cast, "First", "First body.", type="fact", tags=["a"])
    second = save(cast, "Second", "Second body.")
    key = cast.key(cast.member)
    result = mcp.call(key, "get_notes", {"ids": [second, "n_doesnotexist", first]})
    assert not result.is_error, result.structured_content
    assert text_matches_structured(result)
    batch = result.structured_content
    assert [n["id"] for n in batch["notes"]] == [second, first]
    assert batch["missing"] == ["n_doesnotexist"]
    note = batch["notes"][1]
    assert set(note) >= NOTE_FIELDS | {"body"}
    assert (note["title"], note["body"], note["type"], note["tags"]) == (
        "First",
        "First body.",
        "fact",
        ["a"],
    )
    # Reads reinforce the notes they return, once the buffered reads are flushed.
    reinforcement.flush()
    assert Note.objects.get(public_id=first).access_count == 1

    lean = mcp.ok(key, "get_notes", {"ids": [first], "include_body": False})["notes"][0]
    assert "body" not in lean
    assert lean["body_chars"] == len("First body.")


def test_superseded_notes_name_their_successor(local_mcp, cast):
    old = save(cast, "Old", "Sessions use opaque tokens.")
    principal = cast.principal(cast.member)
    new = store.remember(principal, "payments", "Sessions use signed cookies.", supersedes=[old])["note"][
        "id"
    ]
    notes = local_mcp.ok(cast.key(cast.member), "get_notes", {"ids": [old, new]})["notes"]
    assert (notes[0]["status"], notes[0]["superseded_by"]) == ("superseded", new)
    assert notes[1]["supersedes"] == [old]


def test_read_only_callers_may_read(local_mcp, cast):
    note = save(cast, "First", "First body.")
    for key in (cast.key(cast.member, read_only=True), cast.key(cast.viewer)):
        assert [n["id"] for n in local_mcp.ok(key, "get_notes", {"ids": [note]})["notes"]] == [note]


def test_invisible_ids_are_missing_and_untouched(local_mcp, cast):
    team_note = save(cast, "First", "First body.")
    private = save(cast, "Mine", "Olivia's private note.", user=cast.owner, visibility="private")
    for key in (cast.key(cast.outsider), cast.key(cast.member, project=cast.website)):
        batch = local_mcp.ok(key, "get_notes", {"ids": [team_note]})
        assert batch == {"notes": [], "missing": [team_note]}
    assert local_mcp.ok(cast.key(cast.member), "get_notes", {"ids": [private]})["missing"] == [private]
    assert list(Note.objects.values_list("access_count", flat=True)) == [0, 0]


def test_bad_input_is_invalid_argument(local_mcp, cast):
    key = cast.key(cast.member)
    for arguments in [
        {},
        {"ids": []},
        {"ids": "n_abc"},
        {"ids": [5]},
        {"ids": [""]},
        {"ids": ["x" * 41]},
        {"ids": [f"n_{i}" for i in range(51)]},
        {"ids": ["n_abc"], "include_body": "maybe"},
        {"ids": ["n_abc"], "project": "payments"},
    ]:
        result = local_mcp.call(key, "get_notes", arguments)
        assert result.is_error, arguments
        assert result.structured_content["error"]["code"] == "invalid_argument", arguments
