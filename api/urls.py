"""/api/v1 (the REST API), /api/schema/ (OpenAPI 3) and /api/docs/ (interactive docs, local assets)."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api.views import capture, code, history, notes, projects, recall, team, transfer
from api.views.missing import Missing

v1 = [
    path("projects", projects.Projects.as_view()),
    path("projects/<str:project>", projects.ProjectDetail.as_view()),
    path("projects/<str:project>/tags/rename", projects.TagRename.as_view()),
    path("projects/<str:project>/notes", notes.ProjectNotes.as_view()),
    path("projects/<str:project>/remember", capture.Remember.as_view()),
    path("projects/<str:project>/checkpoint", capture.Checkpoint.as_view()),
    path("projects/<str:project>/context", recall.Context.as_view()),
    path("projects/<str:project>/render", recall.Render.as_view()),
    path("projects/<str:project>/changes", recall.Changes.as_view()),
    path("projects/<str:project>/code-changes", code.CodeChanges.as_view()),
    path("projects/<str:project>/export", transfer.Export.as_view()),
    path("projects/<str:project>/memory-imports", transfer.MemoryImport.as_view()),
    path("notes", notes.NotesBatch.as_view()),
    path("notes/<str:id>", notes.NoteDetail.as_view()),
    path("notes/<str:id>/patch", notes.NotePatch.as_view()),
    path("notes/<str:id>/restore", notes.NoteRestore.as_view()),
    path("notes/<str:id>/confirm", code.NoteConfirm.as_view()),
    path("notes/<str:id>/revisions", history.Revisions.as_view()),
    path("notes/<str:id>/revisions/<int:version>", history.RevisionDetail.as_view()),
    path("notes/<str:id>/revisions/<int:version>/restore", history.RevisionRestore.as_view()),
    path("notes/<str:id>/links", history.Links.as_view()),
    path("notes/<str:id>/links/<str:kind>/<str:to_id>", history.LinkDetail.as_view()),
    path("search", recall.Search.as_view()),
    path("import", transfer.Import.as_view()),
    path("transfers/<str:job>", transfer.TransferJob.as_view()),
    path("transfers/<str:job>/retry", transfer.TransferJobRetry.as_view()),
    path("usage", team.Usage.as_view()),
    path("api-keys", team.ApiKeys.as_view()),
    path("api-keys/<str:key_id>", team.ApiKeyDetail.as_view()),
]

urlpatterns = [
    *(path(f"api/v1/{pattern.pattern}", pattern.callback) for pattern in v1),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # Any other path under /api/ answers in the API's error shape, not with an HTML page.
    re_path(r"^api/", Missing.as_view()),
]
