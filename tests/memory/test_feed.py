from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import signing
from django.db import connection, transaction

from accounts.errors import InvalidArgument
from memory import store
from memory.models import Note
from memory.recall.feed import changes_since
from memory.recall.tokens import estimate_json_tokens

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def stamp(minutes: float) -> str:
    return at(minutes).isoformat().replace("+00:00", "Z")


def make(cast, project=None, *, created: float = 0, updated: float | None = None, **fields) -> Note:
    fields.setdefault("title", "a note")
    fields.setdefault("body", "some body text")
    return Note.objects.create(
        team=cast.acme,
        project=project or cast.payments,
        content_hash="x",
        created_at=at(created),
        updated_at=at(created if updated is None else updated),
        **fields,
    )


def feed(cast, user=None, project=None, **kwargs: Any) -> store.results.Changes:
    args: dict[str, Any] = {"since": None, "cursor": None, "types": None, "statuses": None}
    args.update(kwargs)
    return changes_since(cast.principal(user or cast.member), project or cast.payments, **args)


def ids(response: store.results.Changes) -> list[str]:
    return [change["id"] for change in response["changes"]]


def follow(cast, **kwargs: Any) -> tuple[list[store.results.Changes], list[store.results.Change]]:
    """All pages of a feed: (pages, changes)."""
    pages = [feed(cast, **kwargs)]
    kwargs.pop("since", None)
    while pages[-1]["has_more"]:
        assert len(pages) < 500, "paging does not progress"
        pages.append(feed(cast, **{**kwargs, "cursor": pages[-1]["cursor"]}))
    return pages, [change for page in pages for change in page["changes"]]


def test_oldest_change_first_with_contract_fields(cast):
    early = make(cast, created=10)
    tie_a = make(cast, created=20)
    tie_b = make(cast, created=20)
    late = make(cast, created=0, updated=30, title="late", body="word " * 100, type="decision", version=3)

    response = feed(cast)

    assert ids(response) == [early.public_id, tie_a.public_id, tie_b.public_id, late.public_id]
    assert response["has_more"] is False
    assert isinstance(response["cursor"], str)
    last = response["changes"][-1]
    assert set(last) == {
        "id",
        "change",
        "version",
        "type",
        "status",
        "title",
        "excerpt",
        "body_chars",
        "updated_at",
    }
    assert last["version"] == 3
    assert last["type"] == "decision"
    assert last["status"] == "current"
    assert last["body_chars"] == len(late.body)
    assert len(last["excerpt"]) <= 200
    assert last["excerpt"].endswith("…")
    assert last["updated_at"] == "2026-11-30T12:30:00Z"


def test_120_notes_sharing_one_timestamp_page_50_50_20_without_gaps_or_repeats(cast):
    Note.objects.bulk_create(
        Note(
            team=cast.acme,
            project=cast.payments,
            title=f"n{n}",
            content_hash="x",
            created_at=T0,
            updated_at=T0,
        )
        for n in range(120)
    )
    expected = list(
        Note.objects.filter(project=cast.payments).order_by("id").values_list("public_id", flat=True)
    )

    pages, changes = follow(cast, limit=50)

    assert [len(page["changes"]) for page in pages] == [50, 50, 20]
    assert [page["has_more"] for page in pages] == [True, True, False]
    assert [change["id"] for change in changes] == expected
    # None of them was ever seen before: every page reports creations, even past the shared timestamp.
    assert {change["change"] for change in changes} == {"created"}

    # Polling the last cursor later: nothing, then only what is new.
    idle = feed(cast, cursor=pages[-1]["cursor"])
    assert idle == {"changes": [], "has_more": False, "cursor": idle["cursor"]}
    fresh = make(cast, created=0)  # same timestamp, later id: after the position
    assert ids(feed(cast, cursor=idle["cursor"])) == [fresh.public_id]


def test_has_more_is_exact_at_the_limit(cast):
    for n in range(3):
        make(cast, created=n)
    assert feed(cast, limit=3)["has_more"] is False
    first = feed(cast, limit=2)
    assert first["has_more"] is True
    second = feed(cast, limit=2, cursor=first["cursor"])
    assert len(second["changes"]) == 1
    assert second["has_more"] is False


def test_created_updated_deleted_classification_since_a_time(cast):
    old_untouched = make(cast, created=0)
    edited = make(cast, created=0, updated=20, version=2)
    new = make(cast, created=20)
    deleted = make(cast, created=0, updated=25, deleted_at=at(25))
    new_then_deleted = make(cast, created=15, updated=30, deleted_at=at(30))

    response = feed(cast, since=stamp(10))

    kinds = {change["id"]: change["change"] for change in response["changes"]}
    assert kinds == {
        edited.public_id: "updated",
        new.public_id: "created",
        deleted.public_id: "deleted",
        new_then_deleted.public_id: "deleted",
    }
    assert old_untouched.public_id not in kinds
    # From the beginning nothing has been seen: live notes are all creations.
    from_start = {change["id"]: change["change"] for change in feed(cast)["changes"]}
    assert from_start[edited.public_id] == "created"
    assert from_start[old_untouched.public_id] == "created"
    assert from_start[deleted.public_id] == "deleted"


def test_an_edit_after_the_cursor_is_reported_as_updated(cast):
    note = make(cast, created=0)
    first = feed(cast)
    assert [c["change"] for c in first["changes"]] == ["created"]

    Note.objects.filter(pk=note.pk).update(updated_at=at(5), version=2, title="renamed")
    later = feed(cast, cursor=first["cursor"])

    assert later["changes"][0]["id"] == note.public_id
    assert later["changes"][0]["change"] == "updated"
    assert later["changes"][0]["version"] == 2
    assert later["changes"][0]["title"] == "renamed"


def test_since_is_exclusive_and_its_cursor_can_be_kept(cast):
    make(cast, created=0)
    at_since = make(cast, created=10)
    after = make(cast, created=11)

    response = feed(cast, since=stamp(10))
    assert ids(response) == [after.public_id]
    assert at_since.public_id not in ids(response)

    # Nothing after `since` yet: the cursor continues from now, so every change committed later
    # comes next (whatever time it carries: an import may write old timestamps).
    empty = feed(cast, since=stamp(11))
    assert empty["changes"] == []
    assert empty["has_more"] is False
    imported_old = make(cast, created=11)
    newer = make(cast, created=12)
    assert ids(feed(cast, cursor=empty["cursor"])) == [imported_old.public_id, newer.public_id]


def test_since_with_offset_and_fraction_is_accepted(cast):
    note = make(cast, created=10)
    assert ids(feed(cast, since="2026-11-30T13:09:59.5+01:00")) == [note.public_id]
    assert ids(feed(cast, since="2026-11-30T12:10:00.000001Z")) == []


def test_empty_feed_from_start_returns_a_cursor_that_later_sees_creations(cast):
    response = feed(cast)
    assert response["changes"] == []
    assert response["has_more"] is False
    note = make(cast, created=0)
    later = feed(cast, cursor=response["cursor"])
    assert ids(later) == [note.public_id]
    assert later["changes"][0]["change"] == "created"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda c: c[:-1] + ("A" if c[-1] != "A" else "B"),
        lambda c: c[:5] + ("x" if c[5] != "x" else "y") + c[6:],
        lambda c: c[: len(c) // 2],
        lambda c: "not-a-cursor",
        lambda c: signing.dumps({"v": 1, "p": 1, "t": None, "i": None, "ty": [], "st": []}, salt="other"),
    ],
)
def test_tampered_or_garbage_cursor_is_invalid_argument(cast, tamper):
    make(cast, created=0)
    make(cast, created=1)
    cursor = feed(cast, limit=1)["cursor"]
    with pytest.raises(InvalidArgument) as error:
        feed(cast, cursor=tamper(cursor))
    assert "without cursor" in error.value.message


def test_cursor_from_another_project_is_refused_without_revealing_it(cast):
    make(cast, created=0, title="payments secret")
    make(cast, created=1)
    cursor = feed(cast, limit=1)["cursor"]

    with pytest.raises(InvalidArgument) as error:
        feed(cast, project=cast.website, cursor=cursor)

    message = error.value.message
    assert "different project" in message
    assert "payments" not in message
    assert str(cast.payments.pk) not in message


def test_continuation_may_change_limit_and_max_tokens_but_not_the_question(cast):
    decisions = [make(cast, created=n, type="decision") for n in range(4)]
    make(cast, created=10, type="fact")
    first = feed(cast, types=["decision"], limit=1)
    assert ids(first) == [decisions[0].public_id]

    other_questions: list[dict[str, list[str]]] = [
        {"types": ["fact"]},
        {"types": ["decision", "fact"]},
        {"types": []},
        {"statuses": ["current"]},
    ]
    for changed in other_questions:
        with pytest.raises(InvalidArgument) as error:
            feed(cast, cursor=first["cursor"], **changed)
        assert "limit" in error.value.message
        assert "without cursor" in error.value.message

    # Omitted filters continue with the recorded ones; limit and max_tokens may change.
    second = feed(cast, cursor=first["cursor"], limit=2, max_tokens=5000)
    assert ids(second) == [decisions[1].public_id, decisions[2].public_id]
    third = feed(cast, cursor=second["cursor"], types=["decision", "decision"], limit=10)
    assert ids(third) == [decisions[3].public_id]
    assert third["has_more"] is False


def test_filter_order_does_not_change_the_question(cast):
    make(cast, created=0, type="fact")
    make(cast, created=1, type="decision")
    first = feed(cast, types=["fact", "decision"], limit=1)
    second = feed(cast, types=["decision", "fact"], cursor=first["cursor"])
    assert len(second["changes"]) == 1


def test_since_and_cursor_together_are_refused(cast):
    make(cast, created=0)
    cursor = feed(cast)["cursor"]
    with pytest.raises(InvalidArgument) as error:
        feed(cast, cursor=cursor, since=stamp(0))
    assert "not both" in error.value.message


def test_max_tokens_keeps_the_whole_response_within_budget(cast):
    for n in range(10):
        make(cast, created=n, title=f"note {n}", body=f"body {n} " + "lorem ipsum dolor sit amet " * 20)
    budget = 400

    response = feed(cast, max_tokens=budget)

    assert 2 <= len(response["changes"]) < 10
    assert estimate_json_tokens(response) <= budget
    assert response["has_more"] is True
    assert all(change["excerpt"] for change in response["changes"])
    # As many as fit: one more change would have gone over.
    one_more = feed(cast, limit=len(response["changes"]) + 1)
    assert estimate_json_tokens(one_more) > budget

    pages, changes = follow(cast, max_tokens=budget)
    assert all(estimate_json_tokens(page) <= budget for page in pages)
    assert len(changes) == 10
    assert len({change["id"] for change in changes}) == 10
    assert [change["updated_at"] for change in changes] == sorted(change["updated_at"] for change in changes)


def test_tiny_max_tokens_still_progresses_one_change_at_a_time(cast):
    notes = [make(cast, created=n, body="long body " * 50) for n in range(3)]

    pages, changes = follow(cast, max_tokens=1)

    assert [len(page["changes"]) for page in pages] == [1, 1, 1]
    assert [page["has_more"] for page in pages] == [True, True, False]
    assert [change["id"] for change in changes] == [note.public_id for note in notes]
    assert all(change["excerpt"] == "" for change in changes)


def test_has_more_when_budget_cuts_the_last_row_of_the_fetch(cast):
    for n in range(2):
        make(cast, created=n, body="lorem ipsum " * 30)
    response = feed(cast, limit=2, max_tokens=1)
    assert len(response["changes"]) == 1
    assert response["has_more"] is True


def test_private_notes_of_others_are_absent_and_own_are_present(cast):
    own = make(cast, created=0, author=cast.member, visibility="private")
    others = make(cast, created=1, author=cast.owner, visibility="private")
    others_deleted = make(cast, created=2, author=cast.owner, visibility="private", deleted_at=at(2))
    team = make(cast, created=3, author=cast.owner)
    make(cast, cast.website, created=4)

    member_ids = ids(feed(cast, user=cast.member))
    assert member_ids == [own.public_id, team.public_id]
    assert others.public_id not in member_ids
    assert others_deleted.public_id not in member_ids
    assert ids(feed(cast, user=cast.owner)) == [others.public_id, others_deleted.public_id, team.public_id]
    assert own.public_id not in ids(feed(cast, user=cast.viewer))


def test_types_and_statuses_filter(cast):
    decision = make(cast, created=0, type="decision")
    fact = make(cast, created=1, type="fact")
    superseded = make(cast, created=2, type="decision", status="superseded")
    make(cast, created=3, type="task", status="pending")

    assert ids(feed(cast, types=["decision"])) == [decision.public_id, superseded.public_id]
    assert ids(feed(cast, types=["fact", "decision"], statuses=["current"])) == [
        decision.public_id,
        fact.public_id,
    ]
    assert ids(feed(cast, statuses=["superseded"])) == [superseded.public_id]
    assert len(feed(cast, types=[])["changes"]) == 4


@pytest.mark.parametrize("limit", [0, -1, 201, True])
def test_bad_limit(cast, limit):
    with pytest.raises(InvalidArgument) as error:
        feed(cast, limit=limit)
    assert "1 to 200" in error.value.message


@pytest.mark.parametrize("max_tokens", [0, 100_001])
def test_bad_max_tokens(cast, max_tokens):
    with pytest.raises(InvalidArgument) as error:
        feed(cast, max_tokens=max_tokens)
    assert "max_tokens" in error.value.message


@pytest.mark.parametrize("since", ["yesterday", "2026-13-01T00:00:00Z", "2026-11-30", "2026-11-30T12:00:00"])
def test_bad_since(cast, since):
    with pytest.raises(InvalidArgument) as error:
        feed(cast, since=since)
    assert "2026-11-30T12:00:00Z" in error.value.message


def test_unknown_type_or_status_names_the_allowed_values(cast):
    with pytest.raises(InvalidArgument) as error:
        feed(cast, types=["decision", "bogus"])
    assert "'bogus'" in error.value.message
    assert "failed_approach" in error.value.message
    with pytest.raises(InvalidArgument) as error:
        feed(cast, statuses=["active"])
    assert "'active'" in error.value.message
    assert "superseded" in error.value.message
    with pytest.raises(InvalidArgument):
        feed(cast, types="decision")


def _in_thread(work, *, started: threading.Event | None = None):
    """Run `work` in a thread with its own connection; returns (thread, done event, result list)."""
    done, result = threading.Event(), []

    def run() -> None:
        try:
            result.append(work())
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, done, result


def _create(cast, team, project, title):
    return Note.objects.create(team=team, project=project, title=title, body=title, content_hash=title)


def test_a_write_still_in_flight_is_not_skipped(cast, transactional_db):
    """A change that commits late is never passed by a cursor: a second writer of the same project
    waits for the first, so change numbers are handed out in commit order."""
    principal = cast.principal(cast.member)
    written, release = threading.Event(), threading.Event()

    def slow_writer() -> str:
        with transaction.atomic():
            note = _create(cast, cast.acme, cast.payments, "slow")
            written.set()
            assert release.wait(timeout=20)
            return note.public_id

    slow, slow_done, slow_id = _in_thread(slow_writer)
    assert written.wait(timeout=20)
    fast, fast_done, fast_note = _in_thread(lambda: _create(cast, cast.acme, cast.payments, "fast"))
    # The fast writer waits for the slow one's project lock, so a reader now sees neither.
    assert not fast_done.wait(timeout=1)
    first = changes_since(principal, cast.payments, since=None, cursor=None, types=None, statuses=None)
    assert first["changes"] == []
    release.set()
    assert slow_done.wait(timeout=20) and fast_done.wait(timeout=20)
    slow.join()
    fast.join()
    second = changes_since(
        principal, cast.payments, since=None, cursor=first["cursor"], types=None, statuses=None
    )
    assert [c["id"] for c in second["changes"]] == [slow_id[0], fast_note[0].public_id]


def test_another_tenants_open_transaction_does_not_hold_back_the_feed(cast, transactional_db):
    principal = cast.principal(cast.member)
    written, release = threading.Event(), threading.Event()

    def globex_writer() -> None:
        with transaction.atomic():
            _create(cast, cast.globex, cast.lab, "globex, still open")
            written.set()
            assert release.wait(timeout=20)

    other, other_done, _ = _in_thread(globex_writer)
    try:
        assert written.wait(timeout=20)
        mine = _create(cast, cast.acme, cast.payments, "acme, committed")
        page = changes_since(principal, cast.payments, since=None, cursor=None, types=None, statuses=None)
        assert [c["id"] for c in page["changes"]] == [mine.public_id]
    finally:
        release.set()
        assert other_done.wait(timeout=20)
        other.join()


def test_bookkeeping_updates_are_not_changes(cast):
    note = make(cast, created=0)
    first = feed(cast)
    Note.objects.filter(pk=note.pk).update(access_count=5, embedding_model="m", embedding_hash="h")
    assert feed(cast, cursor=first["cursor"])["changes"] == []


def _readable_parts(cursor: str) -> list[bytes]:
    """Every way the cursor's text decodes without a key: each ':'-separated part as URL-safe base64,
    zlib-inflated where it can be (how django.core.signing packs a payload)."""
    import base64
    import contextlib
    import zlib

    parts = []
    for part in [cursor, *cursor.split(":")]:
        stripped = part.lstrip(".")
        try:
            raw = base64.urlsafe_b64decode(stripped + "=" * (-len(stripped) % 4))
        except ValueError:
            continue
        parts.append(raw)
        with contextlib.suppress(zlib.error):
            parts.append(zlib.decompress(raw))
    return parts


def test_a_cursor_is_opaque_no_project_id_or_position_can_be_read(cast):
    make(cast, created=0, type="decision")
    make(cast, created=1, type="decision")
    page = feed(cast, limit=1, types=["decision"])
    cursor = page["cursor"]
    seq = Note.objects.get(public_id=page["changes"][0]["id"]).change_seq
    readable = [cursor.encode(), *_readable_parts(cursor)]
    for secret in (cast.payments.public_id, "decision", '"s"', f":{seq}", '"p"'):
        assert not any(secret.encode() in text for text in readable), secret
    # Encrypted with a fresh nonce each time: the same position never gives the same text twice.
    again = feed(cast, limit=1, types=["decision"])["cursor"]
    assert again != cursor
    assert ids(feed(cast, cursor=again)) == ids(feed(cast, cursor=cursor)) != []


def test_signed_cursors_of_the_old_readable_format_and_other_tokens_are_refused(cast):
    from memory.transfer.exporting import signed_export_url

    make(cast, created=0)
    # Exactly what the previous, signed but readable, cursors were.
    old = signing.dumps(
        {"v": 2, "p": cast.payments.public_id, "s": 0, "ty": [], "st": []},
        salt="knownbase.feed.v1",
        compress=True,
    )
    export_token = signed_export_url(cast.principal(cast.member), cast.payments, "json")[0].rsplit("/", 1)[1]
    for bad in (old, export_token):
        with pytest.raises(InvalidArgument) as error:
            feed(cast, cursor=bad)
        assert "without cursor" in error.value.message


def test_every_single_character_change_of_a_cursor_is_refused(cast):
    # Including the last character, whose low bits base64 would otherwise ignore.
    make(cast, created=0)
    make(cast, created=1)
    cursor = feed(cast, limit=1)["cursor"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for position in range(len(cursor)):
        for other in {alphabet[(alphabet.index(cursor[position]) + step) % 64] for step in (1, 2, 17)}:
            with pytest.raises(InvalidArgument):
                feed(cast, cursor=cursor[:position] + other + cursor[position + 1 :])
