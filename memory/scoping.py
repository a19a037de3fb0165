"""The one place that says what a caller may see. Every query of projects and notes starts here."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.principal import Principal
from memory.errors import InvalidArgument, NotFound
from memory.models import Note, Project, Visibility


def visible_projects(principal: Principal) -> QuerySet[Project]:
    projects = Project.objects.filter(team_id=principal.team_id)
    if principal.project_id is not None:
        projects = projects.filter(pk=principal.project_id)
    return projects


def visible_notes(principal: Principal, *, include_deleted: bool = False) -> QuerySet[Note]:
    """Notes of the caller's visible projects: team notes plus the caller's own private ones."""
    notes = Note.objects.filter(team_id=principal.team_id).filter(
        Q(visibility=Visibility.TEAM) | Q(author_id=principal.user_id)
    )
    if principal.project_id is not None:
        notes = notes.filter(project_id=principal.project_id)
    if not include_deleted:
        notes = notes.filter(deleted_at__isnull=True)
    # The embedding (hundreds of floats) and the full-text document are for the database's own
    # ranking; loading them into every Note would dominate read latency.
    return notes.defer("embedding", "search_document")


def project_for(principal: Principal, slug: str) -> Project:
    """The caller's project with this slug; not_found for anything outside their scope."""
    if not isinstance(slug, str) or not slug.strip():
        raise InvalidArgument("`project` is required: pass a project slug from list_projects.")
    project = visible_projects(principal).filter(slug=slug.strip()).first()
    if project is None:
        raise NotFound(
            f"No project {slug!r} is visible to this credential. Call list_projects to see the slugs."
        )
    return project
