"""Argument types of the MCP tools, derived from memory.inputs (the one declaration of every input).

Limits become JSON-schema bounds the agent reads; choices become `enum`s taken from the models. The
store validates again in full, so a client that ignores the schema still gets a clear error."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, WithJsonSchema

from memory import inputs


def _enum(choices: tuple[str, ...]) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": list(choices)})


def _bounded(spec: inputs.NumberInput, description: str | None = None) -> Any:
    return Field(ge=int(spec.minimum), le=int(spec.maximum), description=description)


NoteTypeName = Annotated[str, _enum(inputs.NOTE_TYPES)]
StatusName = Annotated[str, _enum(inputs.NOTE_STATUSES)]
VisibilityName = Annotated[str, _enum(inputs.VISIBILITIES)]
LinkKindName = Annotated[str, _enum(inputs.LINK_KINDS)]
DetailName = Annotated[str, _enum(inputs.DETAIL_LEVELS)]
ExportFormat = Annotated[str, _enum(inputs.EXPORT_FORMATS)]
PatchOp = Annotated[str, _enum(inputs.PATCH_OPS)]

Project = Annotated[
    str, Field(max_length=inputs.PROJECT_SLUG.max_length, description=inputs.PROJECT_SLUG.description)
]
ProjectName = Annotated[str, Field(max_length=inputs.PROJECT_NAME.max_length)]
ProjectText = Annotated[str, Field(max_length=inputs.PROJECT_TEXT.max_length)]
Slug = Annotated[str, Field(max_length=inputs.PROJECT_SLUG.max_length)]
NoteId = Annotated[str, Field(max_length=inputs.NOTE_ID.max_length)]
Title = Annotated[str, Field(max_length=inputs.TITLE.max_length)]
Text = Annotated[str, Field(max_length=inputs.BODY.max_length)]
Query = Annotated[str, Field(max_length=inputs.QUERY.max_length, description=inputs.QUERY.description)]
SearchQuery = Annotated[str, Field(min_length=1, max_length=inputs.QUERY.max_length)]
Source = Annotated[str, Field(max_length=inputs.SOURCE.max_length)]
Reason = Annotated[str, Field(max_length=inputs.DELETE_REASON.max_length)]
TagName = Annotated[str, Field(max_length=inputs.TAG.max_length)]
Tags = Annotated[list[TagName], Field(max_length=inputs.TAGS.max_items)]
IdempotencyKey = Annotated[
    str, Field(max_length=inputs.IDEMPOTENCY_KEY.max_length, description=inputs.IDEMPOTENCY_KEY.description)
]
Since = Annotated[str, Field(max_length=inputs.SINCE.max_length, description=inputs.SINCE.description)]
Cursor = Annotated[str, Field(max_length=inputs.CURSOR.max_length)]
Importance = Annotated[float, Field(ge=inputs.IMPORTANCE.minimum, le=inputs.IMPORTANCE.maximum)]
Version = Annotated[int, _bounded(inputs.VERSION, "refuse if the note moved on")]
RevisionNumber = Annotated[int, _bounded(inputs.VERSION)]
ContextMaxTokens = Annotated[int, _bounded(inputs.CONTEXT_MAX_TOKENS)]
FeedLimit = Annotated[int, _bounded(inputs.FEED_LIMIT)]
FeedMaxTokens = Annotated[int, _bounded(inputs.FEED_MAX_TOKENS)]
SearchLimit = Annotated[int, _bounded(inputs.SEARCH_LIMIT)]
RevisionsLimit = Annotated[int, _bounded(inputs.REVISIONS_LIMIT)]
NoteIds = Annotated[list[NoteId], Field(min_length=1, max_length=inputs.NOTE_IDS.max_items)]
Supersedes = Annotated[
    list[NoteId], Field(max_length=inputs.SUPERSEDES.max_items, description="ids this replaces")
]
Items = Annotated[list[Text], Field(max_length=inputs.CHECKPOINT_ITEMS.max_items)]
PathPattern = Annotated[str, Field(max_length=inputs.PATH_PATTERN.max_length)]
# Undescribed: the name says enough, and every word of the core tools/list is paid for in every session.
NotePaths = Annotated[list[PathPattern], Field(max_length=inputs.NOTE_PATHS.max_items)]
WorkPaths = Annotated[list[PathPattern], Field(max_length=inputs.PATHS_PER_CALL.max_items)]
ChangedPaths = Annotated[list[PathPattern], Field(min_length=1, max_length=inputs.PATHS_PER_CALL.max_items)]
Commit = Annotated[str, Field(max_length=inputs.COMMIT.max_length)]
