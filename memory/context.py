"""get_context: a project's current state packed into a token budget.

Order of charging: the skeleton, the project header, then conflicts (so a verbose constraint can never
push out the warning it conflicts with), then the sections in SECTION_ORDER. An entry that does not fit
is first degraded to a short excerpt, and dropped (listed in meta.omitted) only when even that does not
fit. Every cost is an upper bound of its share of estimate_tokens(final JSON), so the total never
exceeds the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.principal import Principal
from memory import ranking, retrieval
from memory.models import Note, NoteLink, NoteStatus, Project
from memory.notes import excerpt, inbound_link_counts, rfc3339
from memory.tokens import estimate_json_tokens, estimate_tokens

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


DETAIL_LEVELS = {
    "lean": Detail(budget=800, excerpt_chars=160, per_section=5),
    "balanced": Detail(budget=None, excerpt_chars=320, per_section=10),
    "deep": Detail(budget=6000, excerpt_chars=1000, per_section=25),
}
SHORT_EXCERPT_CHARS = 80
MIN_BUDGET = 100
MAX_BUDGET = 50_000
LIVE = (NoteStatus.CURRENT, NoteStatus.DISPUTED, NoteStatus.PENDING)


@dataclass
class Candidate:
    note: Note
    section: str
    score: float
    reason: str = ""


@dataclass
class Packer:
    budget: int
    spent: int
    sections: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {s: [] for s in SECTION_ORDER})
    selected: list[str] = field(default_factory=list)
    selected_pks: list[int] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)

    def try_add(self, section: str, entry: dict[str, Any], note_pk: int) -> bool:
        cost = estimate_json_tokens(entry) + 1 + estimate_tokens(entry["id"]) + 2
        if self.spent + cost > self.budget:
            return False
        self.spent += cost
        self.sections[section].append(entry)
        self.selected.append(entry["id"])
        self.selected_pks.append(note_pk)
        return True


def resolve_budget(max_tokens: int | None, project: Project, detail: Detail, plan_default: int) -> int:
    """Explicit max_tokens > the project's configured default > the detail level's budget."""
    if max_tokens is not None:
        return max_tokens
    if project.default_context_budget:
        return int(project.default_context_budget)
    return detail.budget or plan_default or settings.KNOWNBASE_DEFAULT_CONTEXT_BUDGET


def _entry(candidate: Candidate, excerpt_chars: int) -> dict[str, Any]:
    note = candidate.note
    entry: dict[str, Any] = {
        "id": note.public_id,
        "type": note.type,
        "status": note.status,
        "title": note.title,
        "excerpt": excerpt(note.body, excerpt_chars),
        "score": candidate.score,
        "version": note.version,
        "updated_at": rfc3339(note.updated_at),
    }
    if candidate.reason:
        entry["reason"] = candidate.reason
    return entry


def _header(project: Project, budget_share: int) -> dict[str, Any]:
    header = {
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
) -> tuple[dict[str, Any], list[int]]:
    """The get_context response and the primary keys of the notes it returned (to reinforce)."""
    detail = DETAIL_LEVELS[detail_name]
    now = timezone.now()
    live = Note.objects.visible_to(principal).live().filter(project=project, status__in=LIVE)
    if types:
        live = live.filter(type__in=types)

    relevance: dict[int, float] = {}
    search_mode: str | None = None
    relevant_notes: list[Note] = []
    if query:
        hits, search_mode = retrieval.retrieve(
            live.select_related("project"), query, detail.per_section * 2, use_semantic=use_semantic
        )
        relevance = {hit.note.pk: hit.relevance for hit in hits}
        relevant_notes = [hit.note for hit in hits]

    pools: dict[str, list[Candidate]] = {s: [] for s in SECTION_ORDER}
    type_notes = _per_type_candidates(
        live, [t for ts in TYPE_SECTIONS.values() for t in ts], detail.per_section
    )
    conflicts = _conflict_candidates(project, live)
    recent = list(live.select_related("project").order_by("-updated_at")[: detail.per_section * 2])
    everything = {n.pk: n for n in [*type_notes, *relevant_notes, *recent, *(c[0] for c in conflicts)]}
    inbound = inbound_link_counts(list(everything))

    def scored(note: Note) -> float:
        return ranking.score(
            ranking.note_signals(note, relevance.get(note.pk, 0.0), inbound.get(note.pk, 0)), now
        )

    placed: set[int] = set()
    for note, reason in conflicts:
        pools["conflicts"].append(Candidate(note, "conflicts", scored(note), reason))
        placed.add(note.pk)
    section_of_type = {t: s for s, ts in TYPE_SECTIONS.items() for t in ts}
    for note in type_notes:
        if note.pk not in placed:
            pools[section_of_type[note.type]].append(
                Candidate(note, section_of_type[note.type], scored(note))
            )
    for section in TYPE_SECTIONS:
        pools[section].sort(key=lambda c: c.score, reverse=True)
        pools[section] = pools[section][: detail.per_section]
        placed.update(c.note.pk for c in pools[section])
    for note in relevant_notes:
        if note.pk not in placed and len(pools["relevant"]) < detail.per_section:
            pools["relevant"].append(Candidate(note, "relevant", scored(note)))
            placed.add(note.pk)
    pools["relevant"].sort(key=lambda c: c.score, reverse=True)
    for note in recent:
        if note.pk not in placed and len(pools["recent_changes"]) < detail.per_section:
            pools["recent_changes"].append(Candidate(note, "recent_changes", scored(note)))
            placed.add(note.pk)

    return _pack(project, pools, detail_name, detail, budget, search_mode)


def _pack(
    project: Project,
    pools: dict[str, list[Candidate]],
    detail_name: str,
    detail: Detail,
    budget: int,
    search_mode: str | None,
) -> tuple[dict[str, Any], list[int]]:
    meta: dict[str, Any] = {
        "budget": budget,
        "estimated_tokens": 999999,  # placeholder as wide as any real value, replaced at the end
        "detail": detail_name,
        "selected": [],
        "omitted": [],
        "omitted_count": 0,
        "search_mode": search_mode,
    }
    skeleton = {"project": {}, "sections": {s: [] for s in SECTION_ORDER}, "meta": meta}
    packer = Packer(budget=budget, spent=estimate_json_tokens(skeleton) + 2)
    header = _header(project, max(0, (budget - packer.spent) // 2))
    packer.spent += estimate_json_tokens(header)

    for section in PACKING_ORDER:
        for candidate in pools[section]:
            if packer.try_add(section, _entry(candidate, detail.excerpt_chars), candidate.note.pk):
                continue
            if packer.try_add(section, _entry(candidate, SHORT_EXCERPT_CHARS), candidate.note.pk):
                continue
            packer.dropped.append((candidate.note.public_id, section))

    omitted: list[dict[str, str]] = []
    for note_id, section in packer.dropped:
        entry = {"id": note_id, "section": section}
        cost = estimate_json_tokens(entry) + 1
        if packer.spent + cost > budget:
            break
        packer.spent += cost
        omitted.append(entry)
    meta.update(selected=packer.selected, omitted=omitted, omitted_count=len(packer.dropped))
    response = {"project": header, "sections": packer.sections, "meta": meta}
    # The figure is part of the text it measures: settle it (it only shrinks from the placeholder).
    for _ in range(3):
        meta["estimated_tokens"] = estimate_json_tokens(response)
        if estimate_json_tokens(response) == meta["estimated_tokens"]:
            break
    return response, packer.selected_pks
