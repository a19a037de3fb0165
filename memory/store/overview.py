"""The team at a glance: each project's notes by type and status, open conflicts, the latest changes
and what the agents wrote today, in a fixed handful of queries whatever the number of projects."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any, Literal

from django.db.models import Count, F
from django.utils import timezone

from accounts.principal import Principal
from memory import registry
from memory.models import LinkKind, Note, NoteLink, NoteStatus, Project
from memory.notes.lifecycle import rfc3339
from memory.shapes import results_review
from memory.transfer import intake

LATEST_CHANGES = 12
LATEST_TODAY = 10
NEEDS_REVIEW = 10
# Notes written through the web dashboard carry this client name: everything else came from an agent
# (an MCP client, the REST API, an import).
WEB_CLIENT = "web"
IMPORTED_SOURCE = intake.IMPORTED_SOURCE


def _person(user: Any) -> str:
    if user is None:
        return ""
    return str(user.name or user.email)


def _change(note: Note) -> Literal["created", "updated", "deleted"]:
    if note.deleted_at is not None:
        return "deleted"
    return "created" if note.version == 1 else "updated"


def _start_of_today() -> datetime:
    now = timezone.localtime()
    return timezone.make_aware(datetime.combine(now.date(), time.min), now.tzinfo)


@registry.read
def team_overview(principal: Principal) -> results_review.TeamOverview:
    """The caller's visible projects with live note counts by type and status and open conflicts
    (disputed notes, `contradicts` links between live notes), the latest note changes (who, through
    which client, when) and the notes agents created since midnight."""
    projects = list(Project.objects.visible_to(principal).order_by("name", "pk"))
    notes = Note.objects.visible_to(principal)
    live = notes.live()

    counts: dict[int, dict[str, dict[str, int]]] = {p.pk: {"by_type": {}, "by_status": {}} for p in projects}
    # One GROUP BY for every project, type and status the caller can see.
    for row in live.values("project_id", "type", "status").annotate(n=Count("id")).order_by():
        bucket = counts.get(row["project_id"])
        if bucket is None:
            continue
        bucket["by_type"][row["type"]] = bucket["by_type"].get(row["type"], 0) + row["n"]
        bucket["by_status"][row["status"]] = bucket["by_status"].get(row["status"], 0) + row["n"]
    contradictions = dict(
        NoteLink.objects.visible_to(principal)
        .filter(kind=LinkKind.CONTRADICTS)
        .values_list("from_note__project_id")
        .annotate(n=Count("id"))
        .order_by()
    )

    project_rows: list[results_review.ProjectOverview] = []
    disputed_total = contradictions_total = 0
    for project in projects:
        bucket = counts[project.pk]
        disputed = bucket["by_status"].get(NoteStatus.DISPUTED, 0)
        contradicting = int(contradictions.get(project.pk, 0))
        disputed_total += disputed
        contradictions_total += contradicting
        project_rows.append(
            {
                "slug": project.slug,
                "name": project.name,
                "summary": project.summary,
                "notes": sum(bucket["by_type"].values()),
                "by_type": dict(sorted(bucket["by_type"].items(), key=lambda kv: (-kv[1], kv[0]))),
                "by_status": dict(sorted(bucket["by_status"].items(), key=lambda kv: (-kv[1], kv[0]))),
                "conflicts": {"disputed": disputed, "contradictions": contradicting},
            }
        )

    latest = notes.select_related("project", "last_edited_by", "author").order_by("-updated_at", "-pk")[
        :LATEST_CHANGES
    ]
    since = _start_of_today()
    # Agents' writes only: not people's (the web), not memory brought in (import_memory marks its
    # notes; a project import keeps each note's first date, earlier than its new project's).
    today = (
        live.filter(created_at__gte=since)
        .filter(created_at__gte=F("project__created_at"))
        .exclude(source__in=(WEB_CLIENT, IMPORTED_SOURCE))
    )
    by_client = today.values_list("source").annotate(n=Count("id")).order_by("-n", "source")
    today_total = 0
    clients: list[results_review.ClientCount] = []
    for source, n in by_client:
        today_total += n
        clients.append({"client": source or "unknown", "notes": n})
    today_latest = today.select_related("project").order_by("-created_at", "-pk")[:LATEST_TODAY]
    flagged = live.filter(review_flagged_at__isnull=False).select_related("project")
    needs_review = flagged.order_by("-review_flagged_at", "-pk")[:NEEDS_REVIEW]

    return {
        "projects": project_rows,
        "conflicts": {
            "disputed": disputed_total,
            "contradictions": contradictions_total,
            "total": disputed_total + contradictions_total,
        },
        "latest_changes": [
            {
                "id": note.public_id,
                "project": note.project.slug,
                "title": note.title,
                "type": note.type,
                "status": note.status,
                "version": note.version,
                "change": _change(note),
                "by": _person(note.last_edited_by or note.author),
                "client": note.last_edited_client or note.source,
                "updated_at": rfc3339(note.updated_at),
            }
            for note in latest
        ],
        "today": {
            "since": rfc3339(since),
            "notes": today_total,
            "by_client": clients,
            "latest": [
                {
                    "id": note.public_id,
                    "project": note.project.slug,
                    "title": note.title,
                    "type": note.type,
                    "client": note.source or "unknown",
                    "created_at": rfc3339(note.created_at),
                }
                for note in today_latest
            ],
        },
        "needs_review": [
            {
                "id": note.public_id,
                "project": note.project.slug,
                "title": note.title,
                "commit": note.review_commit,
                "flagged_at": rfc3339(note.review_flagged_at),
            }
            for note in needs_review
            if note.review_flagged_at is not None
        ],
    }
