"""The change feed behind get_changes_since: a project's notes oldest first by (updated_at, id).

Pages are keyset pages: "after position (t, i)" means updated_at > t, or updated_at = t and id > i, so
notes that share one timestamp are neither skipped nor repeated. A position made from `since` has no
id and means updated_at > since.

The cursor is a django.core.signing token (tamper-evident, not secret) holding
`{"v": 1, "p": project pk, "t": position time (RFC 3339, microseconds) or null, "i": note pk or null,
"ty": sorted types, "st": sorted statuses}`. A continuation may change only limit and max_tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeGuard

from django.core import signing
from django.db import connection
from django.db.models import Q, QuerySet

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import validation
from memory.models import Note, NoteStatus, NoteType, Project
from memory.notes import excerpt, rfc3339
from memory.tokens import CHARS_PER_TOKEN, compact_json, estimate_json_tokens

CURSOR_SALT = "knownbase.feed.v1"
CURSOR_VERSION = 1
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_TOKENS_CEILING = 100_000
EXCERPT_CHARS = 200

_FIELDS = ("id", "public_id", "type", "status", "title", "body", "version", "created_at", "updated_at")
_SINCE_FORMAT = "an RFC 3339 timestamp with a time zone, e.g. '2026-11-30T12:00:00Z'"
_BAD_CURSOR = (
    "`cursor` is not a valid get_changes_since cursor (it was altered, truncated or made up). Pass the "
    "cursor string exactly as the previous get_changes_since response returned it, or start again "
    "without cursor (pass `since` to start from a time)."
)
_OTHER_QUESTION = "This cursor was issued for a different project or question; start again without cursor."


@dataclass(frozen=True)
class Position:
    """Where a page starts: after (time, note_pk); note_pk None means strictly after time."""

    time: datetime
    note_pk: int | None


def changes_since(
    principal: Principal,
    project: Project,
    *,
    since: str | None,
    cursor: str | None,
    types: list[str] | None,
    statuses: list[str] | None,
    limit: int = DEFAULT_LIMIT,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """One page of the project's changes, oldest first: `{changes, has_more, cursor}`.

    `project` must already be resolved and visible to the caller."""
    limit = validation.bounded_int(limit, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
    if max_tokens is not None:
        max_tokens = validation.bounded_int(
            max_tokens, "max_tokens", default=0, low=1, high=MAX_TOKENS_CEILING
        )
    since = _blank_to_none(since, "since")
    cursor = _blank_to_none(cursor, "cursor")
    if since is not None and cursor is not None:
        raise InvalidArgument(
            "Pass either `since` or `cursor`, not both: `cursor` continues a previous page, `since` starts "
            "a new feed at a time. To continue, drop `since`; to restart from a time, drop `cursor`."
        )
    wanted_types = validation.choice_list(types, "types", NoteType.values, allow_empty=True)
    wanted_statuses = validation.choice_list(statuses, "statuses", NoteStatus.values, allow_empty=True)

    position: Position | None = None
    if cursor is not None:
        position, recorded_types, recorded_statuses = _decode_cursor(cursor, project)
        if (wanted_types is not None and wanted_types != recorded_types) or (
            wanted_statuses is not None and wanted_statuses != recorded_statuses
        ):
            raise InvalidArgument(
                f"This cursor was issued for types={recorded_types} and statuses={recorded_statuses}; "
                "a continuation may change only `limit` and `max_tokens`. Omit `types` and `statuses` "
                "(or pass the same values) to continue, or start again without cursor to ask a "
                "different question."
            )
        wanted_types, wanted_statuses = recorded_types, recorded_statuses
    elif since is not None:
        position = Position(_parse_since(since), None)
    filter_types = wanted_types or []
    filter_statuses = wanted_statuses or []

    notes = _page_query(principal, project, position, filter_types, filter_statuses)
    rows = list(notes[: limit + 1])
    more_rows = len(rows) > limit
    rows = rows[:limit]

    def cursor_after(index: int) -> str:
        """The cursor after rows[index], or the starting position when index is -1."""
        at = position if index < 0 else Position(rows[index].updated_at, rows[index].pk)
        return _encode_cursor(project, at, filter_types, filter_statuses)

    entries = [_change(note, position) for note in rows]
    if max_tokens is None or not entries:
        return {
            "changes": entries,
            "has_more": more_rows,
            "cursor": cursor_after(len(entries) - 1),
        }
    return _fit(entries, more_rows, max_tokens, cursor_after)


# --- building the page ---------------------------------------------------------------------------


def _page_query(
    principal: Principal,
    project: Project,
    position: Position | None,
    types: list[str],
    statuses: list[str],
) -> QuerySet[Note]:
    notes = Note.objects.visible_to(principal).filter(project=project)
    if types:
        notes = notes.filter(type__in=types)
    if statuses:
        notes = notes.filter(status__in=statuses)
    if position is not None:
        if position.note_pk is None:
            notes = notes.filter(updated_at__gt=position.time)
        else:
            notes = notes.filter(
                Q(updated_at__gt=position.time) | Q(updated_at=position.time, id__gt=position.note_pk)
            )
    horizon = settled_before()
    if horizon is not None:
        notes = notes.filter(updated_at__lt=horizon)
    return notes.only(*_FIELDS, "deleted_at").order_by("updated_at", "id")


def settled_before() -> datetime | None:
    """The start of the oldest other transaction that has written and not yet finished, if any.

    A note's updated_at is taken inside its transaction, so a write still in flight can commit a
    time older than rows already visible. Serving only rows older than every open writer keeps a
    cursor from moving past a change that is about to appear; those rows come on the next poll."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT min(xact_start) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_xid IS NOT NULL"
        )
        row = cursor.fetchone()
    return row[0] if row and row[0] is not None else None


def _created_after(note: Note, position: Position | None) -> bool:
    """Whether the note was created after the position, in the feed's own (time, id) order: a note
    created at the position's time but sorting after its note was never on an earlier page."""
    if position is None or note.created_at > position.time:
        return True
    return note.created_at == position.time and position.note_pk is not None and note.pk > position.note_pk


def _change(note: Note, position: Position | None) -> dict[str, Any]:
    """What is proven about a note since `position`: deleted, created after it, or else updated."""
    if note.deleted_at is not None:
        kind = "deleted"
    elif _created_after(note, position):
        kind = "created"
    else:
        kind = "updated"
    return {
        "id": note.public_id,
        "change": kind,
        "version": note.version,
        "type": note.type,
        "status": note.status,
        "title": note.title,
        "excerpt": excerpt(note.body, EXCERPT_CHARS),
        "body_chars": len(note.body),
        "updated_at": rfc3339(note.updated_at),
    }


def _fit(
    entries: list[dict[str, Any]],
    more_rows: bool,
    max_tokens: int,
    cursor_after: Callable[[int], str],
) -> dict[str, Any]:
    """The longest prefix of `entries` whose whole response stays within max_tokens; at least one
    entry (its excerpt emptied if it does not fit whole) so that paging always progresses."""

    def response(count: int) -> dict[str, Any]:
        return {
            "changes": entries[:count],
            "has_more": more_rows or count < len(entries),
            "cursor": cursor_after(count - 1),
        }

    # Exact size of compact JSON: the empty envelope plus the entries and the commas between them.
    # The cursor's length depends on the position, so the envelope is measured for each count.
    entry_chars = [len(compact_json(entry)) for entry in entries]
    running = 0
    count = 0
    for index, chars in enumerate(entry_chars):
        candidate = index + 1
        envelope = len(compact_json({**response(candidate), "changes": []}))
        total = envelope + running + chars + (candidate - 1)
        if -(-total // CHARS_PER_TOKEN) > max_tokens:  # estimate_tokens, without building the text
            break
        running += chars
        count = candidate
    # The arithmetic above is exact; check against the shared estimate all the same.
    while count > 1 and estimate_json_tokens(response(count)) > max_tokens:
        count -= 1
    if count == 0 or estimate_json_tokens(response(count)) > max_tokens:
        entries[0] = {**entries[0], "excerpt": ""}
        count = 1
    return response(count)


# --- validation ----------------------------------------------------------------------------------


def _blank_to_none(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidArgument(
            f"`{name}` must be a string; got {type(value).__name__}. "
            + (
                f"Pass {_SINCE_FORMAT}."
                if name == "since"
                else "Pass the cursor string exactly as a previous response returned it."
            )
        )
    value = value.strip()
    return value or None


def _parse_since(since: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(since)
    except ValueError:
        raise InvalidArgument(f"`since` is not a valid timestamp: {since!r}. Pass {_SINCE_FORMAT}.") from None
    if parsed.tzinfo is None:  # also every date without a time
        raise InvalidArgument(f"`since` {since!r} has no time zone. Pass {_SINCE_FORMAT}.")
    return parsed.astimezone(UTC)


# --- cursor --------------------------------------------------------------------------------------


def _encode_cursor(project: Project, position: Position | None, types: list[str], statuses: list[str]) -> str:
    payload = {
        "v": CURSOR_VERSION,
        "p": project.pk,
        "t": None if position is None else position.time.astimezone(UTC).isoformat(timespec="microseconds"),
        "i": None if position is None else position.note_pk,
        "ty": sorted(types),
        "st": sorted(statuses),
    }
    return signing.dumps(payload, salt=CURSOR_SALT, compress=True)


def _decode_cursor(cursor: str, project: Project) -> tuple[Position | None, list[str], list[str]]:
    try:
        payload = signing.loads(cursor, salt=CURSOR_SALT)
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        raise InvalidArgument(_BAD_CURSOR) from None
    if not isinstance(payload, dict) or payload.get("v") != CURSOR_VERSION:
        raise InvalidArgument(_BAD_CURSOR)
    if payload.get("p") != project.pk:
        raise InvalidArgument(_OTHER_QUESTION)
    time, note_pk = payload.get("t"), payload.get("i")
    types, statuses = payload.get("ty"), payload.get("st")
    if not _str_list(types, NoteType.values) or not _str_list(statuses, NoteStatus.values):
        raise InvalidArgument(_BAD_CURSOR)
    if time is None:
        if note_pk is not None:
            raise InvalidArgument(_BAD_CURSOR)
        return None, types, statuses
    if not isinstance(time, str) or not (note_pk is None or type(note_pk) is int):
        raise InvalidArgument(_BAD_CURSOR)
    try:
        parsed = datetime.fromisoformat(time)
    except ValueError:
        raise InvalidArgument(_BAD_CURSOR) from None
    if parsed.tzinfo is None:
        raise InvalidArgument(_BAD_CURSOR)
    return Position(parsed, note_pk), types, statuses


def _str_list(value: Any, allowed: list[str]) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) and item in allowed for item in value)
