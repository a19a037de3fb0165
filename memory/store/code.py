"""Knowledge bound to code going stale: reporting a change's files, and confirming a note again."""

from __future__ import annotations

from django.utils import timezone

from accounts import audit
from accounts.errors import InvalidArgument
from accounts.principal import Principal
from memory import idempotency, limits, registry, validation
from memory.models import Note, NoteStatus, Project
from memory.notes import paths as code_paths
from memory.notes.lifecycle import note_dict, rfc3339
from memory.notes.scoping import note_for, project_for
from memory.shapes import results

_COMMIT_CHARS = frozenset("0123456789abcdefABCDEF")


def _commit(value: object) -> str:
    text = validation.text(value, "commit", limit=limits.COMMIT.max_length, required=True)
    # A commit id as git prints it (full or abbreviated): anything else is a mistake in the CI step.
    if len(text) < 4 or not _COMMIT_CHARS.issuperset(text):
        raise InvalidArgument(
            "`commit` must be a git commit id (hex), e.g. the output of `git rev-parse HEAD`."
        )
    return text.lower()


@registry.write
def report_code_change(
    principal: Principal, project: str, commit: str, paths: list[str], idempotency_key: str | None = None
) -> results.CodeChangeReported:
    """Flag every current note bound to one of the changed files as needing review. The notes stay
    as they are (a flag, not a status): get_context lists them among its warnings until an edit or
    confirm_note answers the flag. Reporting the same commit again changes nothing new."""
    target = project_for(principal, project)
    clean_commit = _commit(commit)
    touched = code_paths.call_paths(paths)
    if not touched:
        raise InvalidArgument("`paths` must list the changed files, as `git diff --name-only` prints them.")

    def work() -> results.CodeChangeReported:
        return _flag(principal, target, clean_commit, touched)

    request = {"commit": clean_commit, "paths": touched}
    return idempotency.run_once(
        principal, "report_code_change", idempotency_key, work, project=target, request=request
    )


def _flag(
    principal: Principal, target: Project, clean_commit: str, touched: list[str]
) -> results.CodeChangeReported:
    bound = (
        Note.objects.visible_to(principal)
        .live()
        .filter(project=target, status=NoteStatus.CURRENT)
        .exclude(paths=[])
        .only("pk", "public_id", "title", "paths")
        .order_by("pk")
    )
    flagged: list[results.FlaggedNote] = []
    pks: list[int] = []
    for note in bound:
        hit = [path for path in touched if code_paths.binds(note.paths, [path])]
        if hit:
            pks.append(note.pk)
            flagged.append({"id": note.public_id, "title": note.title, "paths": hit})
    now = timezone.now()
    if pks:
        # A flag is metadata, not a new version: no revision, and the version stays (an agent holding
        # expected_version is not refused because CI ran).
        Note.objects.filter(pk__in=pks).update(review_commit=clean_commit, review_flagged_at=now)
    audit.record(
        principal,
        "code.changed",
        project_id=target.pk,
        project_slug=target.slug,
        commit=clean_commit,
        paths=len(touched),
        flagged=len(pks),
    )
    return {
        "project": target.slug,
        "commit": clean_commit,
        "reported_at": rfc3339(now),
        "flagged": flagged,
        "flagged_count": len(pks),
    }


@registry.write
def confirm_note(principal: Principal, id: str, idempotency_key: str | None = None) -> results.NoteResult:
    """Say a note flagged by a code change is still true: the flag is cleared, nothing else changes."""
    note = note_for(principal, id)

    def work() -> results.NoteResult:
        return _confirm(principal, note)

    return idempotency.run_once(
        principal, "confirm_note", idempotency_key, work, project=note.project, request={"id": note.public_id}
    )


def _confirm(principal: Principal, note: Note) -> results.NoteResult:
    # Read again inside the work: a retry with a key replays the first answer instead of refusing.
    note.refresh_from_db(fields=["review_commit", "review_flagged_at"])
    if note.review_flagged_at is None:
        raise InvalidArgument(f"Note {note.public_id} is not flagged for review: nothing to confirm.")
    Note.objects.filter(pk=note.pk).update(review_commit="", review_flagged_at=None)
    audit.record(
        principal,
        "note.confirmed",
        project_id=note.project_id,
        project_slug=note.project.slug,
        object_id=note.public_id,
        commit=note.review_commit,
    )
    note.review_commit, note.review_flagged_at = "", None
    return {"note": note_dict(note)}
