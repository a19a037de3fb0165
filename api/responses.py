"""What each endpoint answers, for the schema only: the views return the store's own results unchanged,
and the schema of each is built here from the store's declaration of it (memory.shapes.results, re-exported by the store), so
the two cannot drift apart. The fuzz run checks every response against the schema as well."""

from __future__ import annotations

import functools
import types
from typing import (
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from rest_framework import serializers

from api.fields import Out
from memory.store import results, results_team

Doc = results.Doc
NOTE_ID = results.NOTE_ID  # the example id of paths and headers (api.views.base)

__all__ = ["NOTE_ID", "shape"]


def _unwrap(annotation: Any) -> tuple[Any, Doc]:
    """The bare type of a declared field and its Doc, without NotRequired/Required around them."""
    while get_origin(annotation) in (NotRequired, Required):
        annotation = get_args(annotation)[0]
    doc = next((meta for meta in getattr(annotation, "__metadata__", ()) if isinstance(meta, Doc)), None)
    if doc is None:
        raise TypeError(f"{annotation!r} needs Annotated[..., Doc(...)]: the schema publishes it")
    return get_args(annotation)[0], doc


def _nullable(kind: Any) -> tuple[Any, bool]:
    if get_origin(kind) in (Union, types.UnionType):
        options = [arg for arg in get_args(kind) if arg is not type(None)]
        if len(options) == 1 and len(options) < len(get_args(kind)):
            return options[0], True
    return kind, False


def _field(kind: Any, doc: Doc, required: bool) -> Any:
    kind, nullable = _nullable(kind)
    text, example = doc.description, doc.example
    origin, args = get_origin(kind), get_args(kind)
    if is_typeddict(kind):
        return Out.one(shape(kind), text, required=required)
    if origin is list and is_typeddict(args[0]):
        return Out.many(shape(args[0]), text, required=required)
    if origin is list and args[0] is str:
        return Out.texts(text, example, required=required)
    if origin is list:
        child = serializers.DictField(help_text=text, style={"example": example[0]})
        return serializers.ListField(
            child=child, help_text=text, style={"example": example}, required=required
        )
    if origin is dict:
        return Out.mapping(text, example, required=required)
    if origin is Literal and all(isinstance(arg, bool) for arg in args):
        return Out.flag(text, example, required=required)
    if origin is Literal:
        return Out.choice(tuple(args), text, example, required=required)
    if kind is str and doc.time:
        return Out.time(text, required=required, nullable=nullable)
    if kind is str and doc.choices:
        return Out.choice(doc.choices, text, example, required=required)
    if kind is str:
        return Out.text(text, example, required=required, nullable=nullable)
    if kind is bool:
        return Out.flag(text, example, required=required)
    if kind is int:
        return Out.integer(text, example, required=required, nullable=nullable)
    if kind is float:
        return Out.number(text, example, required=required)
    raise TypeError(f"no schema field for {kind!r}")


@functools.cache
def shape(declaration: type) -> type[serializers.Serializer]:
    """The response serializer (an OpenAPI component of the same name) of a store result TypedDict:
    each key a field with the declared type, description and example; NotRequired keys optional."""
    if not is_typeddict(declaration):
        raise TypeError(f"{declaration!r} is not a TypedDict of memory.shapes.results")
    hints = get_type_hints(declaration, include_extras=True)
    required: frozenset[str] = getattr(declaration, "__required_keys__", frozenset())
    fields = {}
    for name, annotation in hints.items():
        kind, doc = _unwrap(annotation)
        fields[name] = _field(kind, doc, name in required)
    return type(declaration.__name__, (serializers.Serializer,), fields)


Error = shape(results_team.Error)

Note = shape(results.Note)
NoteResult = shape(results.NoteResult)
NoteList = shape(results.NoteList)
NotesBatch = shape(results.NotesBatch)
NoteStatusResult = shape(results.NoteStatusResult)
RevisionList = shape(results.RevisionList)
RevisionResult = shape(results.RevisionResult)
RevisionRestored = shape(results.RevisionRestored)
LinkList = shape(results.LinkList)
LinkResult = shape(results.LinkResult)

ProjectResult = shape(results.ProjectResult)
ProjectDetailResult = shape(results.ProjectDetailResult)
ProjectList = shape(results.ProjectList)
TagRenamed = shape(results.TagRenamed)

Remembered = shape(results.Remembered)
Checkpointed = shape(results.Checkpointed)

Context = shape(results.Context)
Changes = shape(results.Changes)
SearchResults = shape(results.SearchResults)
CodeChangeReported = shape(results.CodeChangeReported)

Imported = shape(results_team.Imported)
ImportDryRun = shape(results_team.ImportDryRun)
MemoryImport = shape(results_team.MemoryImport)
ExportDocument = shape(results_team.ExportDocument)
TransferJobResult = shape(results_team.TransferJobResult)
Usage = shape(results_team.Usage)
ApiKeyCreated = shape(results_team.ApiKeyCreated)
ApiKeyList = shape(results_team.ApiKeyList)
ApiKeyRevoked = shape(results_team.ApiKeyRevoked)
