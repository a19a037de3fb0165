"""Keyset pages for store.list_notes: a cursor continues after the last note of the previous page.

Offsets skip or repeat notes when a note is written between two page requests; a keyset position
(the sort value and the note of the last row) does not. The cursor is a django.core.signing token
(tamper-evident, not secret) holding only public values: `{"v": 1, "p": project public id,
"q": digest of the question, "k": the last row's sort value, "n": the last row's note id}`. The
question is the filters and the sort, so a continuation cannot change them (only `limit`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core import signing
from django.db.models import Q

from accounts.errors import InvalidArgument
from memory.models import Note, Project
from memory.notes.lifecycle import rfc3339

CURSOR_SALT = "knownbase.list-notes.v1"
CURSOR_VERSION = 1
_BAD_CURSOR = (
    "`cursor` is not a valid note-list cursor (it was altered, truncated or made up). Pass the cursor "
    "exactly as the previous page returned it, or start again without cursor."
)
_OTHER_QUESTION = (
    "This cursor was issued for a different project, filters or sort: a continuation may change only "
    "`limit`. Pass the same filters as the first page, or start again without cursor."
)
_GONE = "The note this cursor continues after no longer exists. Start again without cursor."


@dataclass(frozen=True)
class Order:
    """A sort of the listing: by `field`, ties broken by primary key in the same direction."""

    field: str  # "updated_at" or "importance"
    descending: bool

    def order_by(self) -> tuple[str, str]:
        sign = "-" if self.descending else ""
        return f"{sign}{self.field}", f"{sign}pk"

    def after(self, value: Any, pk: int) -> Q:
        """Rows that come after (value, pk) in this order."""
        beyond = "lt" if self.descending else "gt"
        return Q(**{f"{self.field}__{beyond}": value}) | Q(**{self.field: value, f"pk__{beyond}": pk})


def question_digest(question: dict[str, Any]) -> str:
    canonical = json.dumps(question, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def encode(project: Project, question: dict[str, Any], order: Order, last: Note) -> str:
    value = getattr(last, order.field)
    key = rfc3339(value) if isinstance(value, datetime) else value
    payload = {
        "v": CURSOR_VERSION,
        "p": project.public_id,
        "q": question_digest(question),
        "k": key,
        "n": last.public_id,
    }
    return signing.dumps(payload, salt=CURSOR_SALT, compress=True)


def decode(cursor: Any, project: Project, question: dict[str, Any], order: Order) -> Q:
    """The filter that selects the rows after the cursor's position."""
    if not isinstance(cursor, str) or not cursor.strip():
        raise InvalidArgument(_BAD_CURSOR)
    try:
        payload = signing.loads(cursor.strip(), salt=CURSOR_SALT)
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        raise InvalidArgument(_BAD_CURSOR) from None
    if not isinstance(payload, dict) or payload.get("v") != CURSOR_VERSION:
        raise InvalidArgument(_BAD_CURSOR)
    if payload.get("p") != project.public_id or payload.get("q") != question_digest(question):
        raise InvalidArgument(_OTHER_QUESTION)
    key, note_id = payload.get("k"), payload.get("n")
    if not isinstance(note_id, str):
        raise InvalidArgument(_BAD_CURSOR)
    value: Any
    if order.field == "updated_at":
        try:
            value = datetime.fromisoformat(key) if isinstance(key, str) else None
        except ValueError:
            value = None
        if value is None:
            raise InvalidArgument(_BAD_CURSOR)
    elif isinstance(key, int | float) and not isinstance(key, bool):
        value = key
    else:
        raise InvalidArgument(_BAD_CURSOR)
    # Any note of the project, deleted or private: the position is where the last page ended, and
    # only the rows after it are filtered by what the caller may see.
    pk = Note.objects.filter(project=project, public_id=note_id).values_list("pk", flat=True).first()
    if pk is None:
        raise InvalidArgument(_GONE)
    return order.after(value, pk)
