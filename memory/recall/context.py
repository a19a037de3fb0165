"""get_context: a project's current state packed into a token budget.

Order of charging: the skeleton, the project header, then conflicts (so a verbose constraint can never
push out the warning it conflicts with), then the sections in PACKING_ORDER (memory.recall.packing decides each
entry's form). With a query, the notes it is about form the `relevant` section and every section is
ordered by relevance as well as importance. An entry carries only what tells the agent something: the
section names its type (except in `relevant` and `recent_changes`), `current` goes without saying, and
score, version and time are for `detail: deep`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.principal import Principal
from memory.models import Note, NoteLink, NoteStatus, Project
from memory.notes import paths as code_paths
from memory.notes.lifecycle import excerpt, inbound_link_counts, rfc3339
from memory.recall import ranking, retrieval
from memory.recall.packing import Form, Item, entry_forms, pack
from memory.recall.tokens import CHARS_PER_TOKEN, compact_json, estimate_json_tokens
from memory.shapes import results

SECTION_ORDER = (
    "constraints",
    "conflicts",
    "decisions",
    "architecture",
    "failed_approaches",
    "status",
    "relevant",
    "open_items",
    "recent_changes",
)
PACKING_ORDER = ("conflicts", *(s for s in SECTION_ORDER if s != "conflicts"))
TYPE_SECTIONS = {
    "constraints": ("constraint",),
    "decisions": ("decision",),
    "architecture": ("architecture",),
    "failed_approaches": ("failed_approach",),
    "status": ("status", "handoff"),
    "open_items": ("task",),
}


@dataclass(frozen=True)
class Detail:
    budget: int | None  # None: the plan's default context budget
    excerpt_chars: int
    per_section: int
    # Hits of a query offered to `relevant`: more than a section's share, since packing degrades the
    # lower ones to titles first and a budget with room left should still carry the answer when the
    # search ranked it 15th (conversational text, where many notes share the query's words).
    relevant_hits: int


DETAIL_LEVELS = {
    "lean": Detail(budget=800, excerpt_chars=160, per_section=5, relevant_hits=10),
    "balanced": Detail(budget=None, excerpt_chars=320, per_section=10, relevant_hits=20),
    "deep": Detail(budget=6000, excerpt_chars=1000, per_section=25, relevant_hits=30),
}
TYPED_SECTIONS = frozenset({"relevant", "recent_changes"})  # the only ones whose entries say their type
LIVE = (NoteStatus.CURRENT, NoteStatus.DISPUTED, NoteStatus.PENDING)
# Bound notes read to match the caller's `paths` against, most important first.
BOUND_CANDIDATES = 500


@dataclass
class Candidate:
    note: Note
    section: str
    score: float
    reason: str = ""


def resolve_budget(max_tokens: int | None, project: Project, detail: Detail, plan_default: int) -> int:
    """Explicit max_tokens > the project's configured default > the detail level's budget."""
    if max_tokens is not None:
        return max_tokens
    if project.default_context_budget:
        return int(project.default_context_budget)
    return detail.budget or plan_default or settings.KNOWNBASE_DEFAULT_CONTEXT_BUDGET


def _item(candidate: Candidate, detail_name: str, detail: Detail) -> Item:
    note = candidate.note
    head: dict[str, Any] = {"id": note.public_id}
    if candidate.section in TYPED_SECTIONS:
        head["type"] = note.type
    if note.status != NoteStatus.CURRENT:
        head["status"] = note.status
    tail: dict[str, Any] = {"reason": candidate.reason} if candidate.reason else {}
    if detail_name == "deep":
        tail.update(score=candidate.score, version=note.version, updated_at=rfc3339(note.updated_at))
    forms = entry_forms(head, note.title, note.body, tail, detail.excerpt_chars)
    return Item(candidate.section, note.public_id, note.pk, forms)


def _header(project: Project, budget_share: int) -> results.ContextProject:
    header: results.ContextProject = {
        "slug": project.slug,
        "name": project.name,
        "summary": project.summary,
        "agent_instructions": project.agent_instructions,
    }
    # Long summaries / instructions are cut to their share of the budget, never the other way round.
    limit = 2000
    while estimate_json_tokens(header) > budget_share and limit > 0:
        header["summary"] = excerpt(project.summary, limit // 2)
        header["agent_instructions"] = excerpt(project.agent_instructions, limit)
        limit = limit // 2 if limit > 40 else 0
    if estimate_json_tokens(header) > budget_share:
        header["summary"], header["agent_instructions"] = "", ""
    return header


def _per_type_candidates(live: QuerySet[Note], types: list[str], per_section: int) -> list[Note]:
    """The top notes of each sectioned type by importance then recency: one small index range scan
    per type (note_live_type_rank_idx), so the cost does not grow with the project."""
    per_type = [
        live.filter(type=note_type)
        .order_by("-importance", "-updated_at", "-pk")
        .values_list("pk", flat=True)[: per_section * 2]
        for note_type in types
    ]
    if not per_type:
        return []
    pks = list(per_type[0].union(*per_type[1:], all=True))
    return list(live.filter(pk__in=pks).select_related("project"))


def _conflict_candidates(project: Project, live: QuerySet[Note]) -> list[tuple[Note, str]]:
    found: dict[int, tuple[Note, str]] = {}
    # Notes whose code changed since they were written (memory.store.code): warnings until an edit or
    # a confirmation answers them.
    flagged = live.filter(review_flagged_at__isnull=False).order_by("-review_flagged_at")
    for note in flagged.select_related("superseded_by")[:25]:
        found[note.pk] = (note, f"needs review: its code changed in commit {note.review_commit}")
    for note in live.filter(status=NoteStatus.DISPUTED).select_related("superseded_by")[:25]:
        found[note.pk] = (note, "disputed")
    unfinished = live.filter(status=NoteStatus.CURRENT, superseded_by__isnull=False).select_related(
        "superseded_by"
    )
    for note in unfinished[:25]:
        newer = note.superseded_by.public_id if note.superseded_by else "?"
        found.setdefault(
            note.pk, (note, f"unfinished supersession: {newer} replaces it but it is still current")
        )
    # Contradiction links are few: fetch the project's, then keep those whose both ends the caller sees
    # (`live` is already Note.objects.visible_to(principal)), cheaper than NoteLink.objects.visible_to.
    links = list(
        NoteLink.objects.filter(kind="contradicts", from_note__project=project)
        .select_related("to_note")
        .order_by("-created_at")[:100]
    )
    ends = {link.from_note_id for link in links} | {link.to_note_id for link in links}
    visible = {note.pk: note for note in live.filter(pk__in=ends)} if ends else {}
    for link in links:
        if link.from_note_id in visible and link.to_note_id in visible and len(found) < 75:
            found.setdefault(
                link.from_note_id, (visible[link.from_note_id], f"contradicts {link.to_note.public_id}")
            )
    return list(found.values())


def build_context(
    principal: Principal,
    project: Project,
    *,
    query: str,
    detail_name: str,
    budget: int,
    types: list[str] | None,
    use_semantic: bool = False,
    work_paths: Sequence[str] = (),
) -> tuple[results.Context, list[int]]:
    """The get_context response and the primary keys of the notes it returned (to reinforce).

    With `work_paths` (the files the caller works on), notes bound to them join `relevant` and every
    note's score moves by its path affinity (memory.recall.ranking.path_adjustment)."""
    detail = DETAIL_LEVELS[detail_name]
    now = timezone.now()
    live = Note.objects.visible_to(principal).live().filter(project=project, status__in=LIVE)
    if types:
        live = live.filter(type__in=types)

    relevance: dict[int, float] = {}
    search_mode: str | None = None
    hit_notes: list[Note] = []
    if query:
        # The whole retrieval pool gives every section a relevance signal; its best per_section hits
        # are the notes the query is about.
        hits, search_mode = retrieval.retrieve(
            live.select_related("project"),
            query,
            max(retrieval.POOL, detail.relevant_hits),
            use_semantic=use_semantic,
            # No relevance floor here: the pool also ranks the other sections, and with the floor
            # get_context carried every answer for fewer labelled queries (docs/search.md).
            with_floor=False,
        )
        relevance = {hit.note.pk: hit.relevance for hit in hits}
        hit_notes = [hit.note for hit in hits]
    if work_paths:
        bound = live.exclude(paths=[]).select_related("project").order_by("-importance", "-updated_at")
        matched = [note for note in bound[:BOUND_CANDIDATES] if code_paths.binds(note.paths, work_paths)]
        # Bound here first: `relevant` fills in this order before it is sorted by score.
        known = {note.pk for note in matched}
        hit_notes = [*matched, *(note for note in hit_notes if note.pk not in known)]

    pools: dict[str, list[Candidate]] = {s: [] for s in SECTION_ORDER}
    type_notes = _per_type_candidates(
        live, [t for ts in TYPE_SECTIONS.values() for t in ts], detail.per_section
    )
    conflicts = _conflict_candidates(project, live)
    recent = list(live.select_related("project").order_by("-updated_at")[: detail.per_section * 2])
    everything = {n.pk: n for n in [*type_notes, *hit_notes, *recent, *(c[0] for c in conflicts)]}
    inbound = inbound_link_counts(list(everything))

    def scored(note: Note) -> float:
        value = ranking.score(
            ranking.note_signals(note, relevance.get(note.pk, 0.0), inbound.get(note.pk, 0)), now
        )
        return round(value + ranking.path_adjustment(code_paths.affinity(note.paths, work_paths)), 4)

    def by_score(candidates: list[Candidate]) -> list[Candidate]:
        return sorted(candidates, key=lambda c: c.score, reverse=True)[: detail.per_section]

    placed: set[int] = set()
    for note, reason in conflicts:
        pools["conflicts"].append(Candidate(note, "conflicts", scored(note), reason))
        placed.add(note.pk)
    for note in hit_notes:
        if note.pk not in placed and len(pools["relevant"]) < detail.relevant_hits:
            pools["relevant"].append(Candidate(note, "relevant", scored(note)))
            placed.add(note.pk)
    pools["relevant"].sort(key=lambda c: c.score, reverse=True)
    section_of_type = {t: s for s, ts in TYPE_SECTIONS.items() for t in ts}
    # Less relevant hits compete for their type's section with the most important notes.
    for note in dict.fromkeys([*type_notes, *hit_notes]):
        if note.pk not in placed and note.type in section_of_type:
            section = section_of_type[note.type]
            pools[section].append(Candidate(note, section, scored(note)))
    for section in TYPE_SECTIONS:
        pools[section] = by_score(pools[section])
        placed.update(c.note.pk for c in pools[section])
    for note in recent:
        if note.pk not in placed and len(pools["recent_changes"]) < detail.per_section:
            pools["recent_changes"].append(Candidate(note, "recent_changes", scored(note)))
            placed.add(note.pk)
    if query:
        pools["recent_changes"] = by_score(pools["recent_changes"])

    return _pack(project, pools, detail_name, detail, budget, search_mode)


def _pack(
    project: Project,
    pools: dict[str, list[Candidate]],
    detail_name: str,
    detail: Detail,
    budget: int,
    search_mode: str | None,
) -> tuple[results.Context, list[int]]:
    candidates = [c for section in PACKING_ORDER for c in pools[section]]
    items = [_item(candidate, detail_name, detail) for candidate in candidates]
    meta: results.ContextMeta = {
        "budget": budget,
        "estimated_tokens": budget,  # placeholders as wide as the real values, replaced at the end
        "detail": detail_name,
        "omitted": [],
        "omitted_count": len(items),
        "search_mode": search_mode,
    }
    limit = budget * CHARS_PER_TOKEN
    skeleton = {"project": {}, "sections": {}, "meta": meta}
    skeleton_chars = len(compact_json(skeleton))
    header = _header(project, max(0, (limit - skeleton_chars) // (2 * CHARS_PER_TOKEN)))
    spent = skeleton_chars + len(compact_json(header))

    conflicts = [item for item in items if item.section == "conflicts"]
    others = [item for item in items if item.section != "conflicts"]
    charged_first = pack(conflicts, limit, spent=spent, for_query=False, order=PACKING_ORDER)
    packer = pack(
        others, limit, spent=charged_first.spent, for_query=search_mode is not None, order=PACKING_ORDER
    )
    chosen = [*charged_first.chosen.items(), *((len(conflicts) + i, f) for i, f in packer.chosen.items())]
    form_of: dict[int, Form] = dict(chosen)

    sections: dict[str, list[dict[str, Any]]] = {}
    returned: list[int] = []
    dropped: list[Item] = []
    for index, item in enumerate([*conflicts, *others]):
        form = form_of.get(index)
        if form is None:
            dropped.append(item)
            continue
        sections.setdefault(item.section, []).append(item.forms[form])
        returned.append(item.pk)
    # Output in the contract's section order (conflicts second), empty sections left out.
    sections = {s: sections[s] for s in SECTION_ORDER if s in sections}

    spent = packer.spent
    omitted: list[results.Omitted] = []
    for item in dropped:
        entry: results.Omitted = {"id": item.note_id, "section": item.section}
        cost = len(compact_json(entry)) + 1
        if spent + cost > limit:
            break
        spent += cost
        omitted.append(entry)
    meta["omitted"], meta["omitted_count"] = omitted, len(dropped)
    # The sections are keyed by SECTION_ORDER's names and hold the packer's entry forms, which are
    # built from ContextEntry's keys (head, title, excerpt, tail): the shape holds by construction.
    response: results.Context = {
        "project": header,
        "sections": cast("results.ContextSections", sections),
        "meta": meta,
    }
    # The figure is part of the text it measures: settle it (it only shrinks from the placeholder).
    for _ in range(3):
        meta["estimated_tokens"] = estimate_json_tokens(response)
        if estimate_json_tokens(response) == meta["estimated_tokens"]:
            break
    return response, returned
