"""The change feed behind get_changes_since: a project's changed notes, oldest change first.

Every change a reader can see gives the note the next number of its project's change sequence,
taken by a database trigger under the project row's lock (memory/migrations/0003). The lock is held
until commit, so within a project sequence order is commit order: once a reader has seen number n,
no change numbered below n can still commit, and a cursor can never pass a late commit. Nothing
depends on other projects' or other tenants' transactions, and numbers are unique, so pages neither
skip nor repeat notes that share a timestamp.

Pages are keyset pages: "after position s" means change_seq > s. A first page from `since` means
updated_at > since, in sequence order.

The cursor is a sealed token (memory.sealing: encrypted and authenticated, so neither the project nor
the position can be read from it, and an altered one is refused) holding
`{"v": 2, "p": project public id, "s": position sequence or null, "ty": sorted types, "st": sorted statuses}`.
A continuation may change only limit and max_tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeGuard

from django.db.models import QuerySet

from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import inputs, sealing, validation
from memory.models import Note, NoteStatus, NoteType, Project
from memory.notes.lifecycle import excerpt, rfc3339
from memory.notes.scoping import echo
from memory.recall.tokens import CHARS_PER_TOKEN, compact_json, estimate_json_tokens
from memory.shapes import results

CURSOR_PURPOSE = "knownbase.feed-cursor"
CURSOR_VERSION = 2
EXCERPT_CHARS = 200

_FIELDS = (
    "id",
    "public_id",
    "type",
    "status",
    "title",
    "body",
    "version",
    "created_at",
    "updated_at",
    "change_seq",
    "created_seq",
)
_SINCE_FORMAT = "an RFC 3339 timestamp with a time zone, e.g. '2026-11-30T12:00:00Z'"
_BAD_CURSOR = (
    "`cursor` is not a valid change-feed cursor (it was altered, truncated or made up). Pass the "
    "cursor string exactly as the previous page returned it, or start again "
    "without cursor (pass `since` to start from a time)."
)
_OTHER_QUESTION = "This cursor was issued for a different project or question; start again without cursor."


@dataclass(frozen=True)
class Position:
    """Where a page starts: after change number `seq`, or (a first page from `since`) after `time`."""

    seq: int | None = None
    time: datetime | None = None


def changes_since(
    principal: Principal,
    project: Project,
    *,
    since: str | None,
    cursor: str | None,
    types: list[str] | None,
    statuses: list[str] | None,
    limit: int = inputs.FEED_LIMIT.whole_default,
    max_tokens: int | None = None,
) -> results.Changes:
    """One page of the project's changes, oldest first: `{changes, has_more, cursor}`.

    `project` must already be resolved and visible to the caller."""
    limit = validation.declared_int(limit, "limit", inputs.FEED_LIMIT)
    if max_tokens is not None:
        max_tokens = validation.declared_int(max_tokens, "max_tokens", inputs.FEED_MAX_TOKENS)
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
        position = Position(time=_parse_since(since))
    filter_types = wanted_types or []
    filter_statuses = wanted_statuses or []

    notes = _page_query(principal, project, position, filter_types, filter_statuses)
    rows = list(notes[: limit + 1])
    more_rows = len(rows) > limit
    rows = rows[:limit]

    def cursor_after(index: int) -> str:
        """The cursor after rows[index], or the starting position when index is -1."""
        at = position if index < 0 else Position(seq=rows[index].change_seq)
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
    if position is not None and position.seq is not None:
        notes = notes.filter(change_seq__gt=position.seq)
    elif position is not None and position.time is not None:
        notes = notes.filter(updated_at__gt=position.time)
    return notes.only(*_FIELDS, "deleted_at").order_by("change_seq")


def _created_after(note: Note, position: Position | None) -> bool:
    """Whether the note was created after the position: its first change comes after it."""
    if position is None:
        return True
    if position.seq is not None:
        return note.created_seq > position.seq
    return position.time is not None and note.created_at > position.time


def _change(note: Note, position: Position | None) -> results.Change:
    """What is proven about a note since `position`: deleted, created after it, or else updated."""
    kind: Literal["created", "updated", "deleted"]
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
    entries: list[results.Change],
    more_rows: bool,
    max_tokens: int,
    cursor_after: Callable[[int], str],
) -> results.Changes:
    """The longest prefix of `entries` whose whole response stays within max_tokens; at least one
    entry (its excerpt emptied if it does not fit whole) so that paging always progresses."""

    def response(count: int) -> results.Changes:
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
        raise InvalidArgument(
            f"`since` is not a valid timestamp: {echo(since)}. Pass {_SINCE_FORMAT}."
        ) from None
    if parsed.tzinfo is None:  # also every date without a time
        raise InvalidArgument(f"`since` {echo(since)} has no time zone. Pass {_SINCE_FORMAT}.")
    try:
        return parsed.astimezone(UTC)
    except OverflowError:
        # 0001-01-01T00:00:00+14:00 is a valid time whose UTC falls outside the years 1 to 9999.
        raise InvalidArgument(
            f"`since` {echo(since)} is outside the years 1 to 9999 once converted to UTC. Pass {_SINCE_FORMAT}."
        ) from None


# --- cursor --------------------------------------------------------------------------------------


def _encode_cursor(project: Project, position: Position | None, types: list[str], statuses: list[str]) -> str:
    # A time position is only ever a first page's start; its cursor is that page's last change, or,
    # for an empty page, the project's current number: changes from now on.
    seq = None if position is None else position.seq
    if position is not None and seq is None:
        seq = Project.objects.filter(pk=project.pk).values_list("change_seq", flat=True).first() or 0
    payload = {
        "v": CURSOR_VERSION,
        "p": project.public_id,
        "s": seq,
        "ty": sorted(types),
        "st": sorted(statuses),
    }
    return sealing.seal(payload, CURSOR_PURPOSE)


def _decode_cursor(cursor: str, project: Project) -> tuple[Position | None, list[str], list[str]]:
    try:
        payload = sealing.unseal(cursor, CURSOR_PURPOSE)
    except sealing.BadToken:
        raise InvalidArgument(_BAD_CURSOR) from None
    if not isinstance(payload, dict) or payload.get("v") != CURSOR_VERSION:
        raise InvalidArgument(_BAD_CURSOR)
    if payload.get("p") != project.public_id:
        raise InvalidArgument(_OTHER_QUESTION)
    seq, types, statuses = payload.get("s"), payload.get("ty"), payload.get("st")
    if not _str_list(types, NoteType.values) or not _str_list(statuses, NoteStatus.values):
        raise InvalidArgument(_BAD_CURSOR)
    if seq is None:
        return None, types, statuses
    if type(seq) is not int or seq < 0:
        raise InvalidArgument(_BAD_CURSOR)
    return Position(seq=seq), types, statuses


def _str_list(value: Any, allowed: list[str]) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) and item in allowed for item in value)
