"""Memory brought in from where agents keep it today: rules files and other memory tools' exports.

Every note read from the upload is judged exactly as `remember` judges it (duplicates and
restatements of what the project knows merge, contradictions are reported and left out) and
screened, capped and audited as any write is. A dry run does all of that inside a savepoint it rolls
back, so its report is what the import would do, note by note.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts import audit
from accounts.errors import InvalidArgument, PlanLimit, Screened
from accounts.principal import Principal
from memory import idempotency, limits, registry, validation
from memory.capture import remembering
from memory.models import Project
from memory.notes.scoping import project_for
from memory.screening import guard
from memory.shapes import results_team
from memory.store.common import memory_from_args, team_plan
from memory.transfer import intake
from memory.transfer.formats.candidate import Candidate

OPERATION = "import_memory"
# remember's statuses, as the report names them.
_OUTCOMES = {"created": "created", "updated": "merged", "duplicate": "duplicate", "conflict": "conflict"}


@registry.write(unscreened=("files",))
def import_memory(
    principal: Principal,
    project: str,
    files: Any,
    format: str | None = None,
    dry_run: bool | None = False,
    skip_refused: bool | None = False,
    idempotency_key: str | None = None,
) -> results_team.MemoryImport:
    """Read `files` ({path: text}) as `format` (or recognise it) and bring each note into `project`.

    The upload as a whole is not screened: each note read from it is, as sent and as stored, so a
    report can say which lines were refused. A refused note, or a secret anywhere in the files, fails
    the whole import unless `skip_refused` leaves such notes out (a dry run always reports them and
    goes on)."""
    target = project_for(principal, project)
    checked = intake.checked_files(files)
    # File names are never stored, but a report repeats them.
    guard.enforce(principal, OPERATION, {"files": sorted(checked)})
    rehearsal = validation.flag(dry_run, "dry_run")
    leave_out = validation.flag(skip_refused, "skip_refused")
    fmt, reading = intake.read_upload(checked, format)

    def work() -> results_team.MemoryImport:
        report = _bring_in(principal, target, reading.candidates, leave_out=leave_out or rehearsal)
        if not (leave_out or rehearsal):
            # Text that became no note (a bare line, a table, a comment) is not stored, but an import
            # that was not told to leave secrets out refuses one anywhere in what was sent.
            guard.enforce(principal, OPERATION, {"files": checked})
        counts = _counts(report)
        if not rehearsal:
            audit.record(
                principal,
                "memory.imported",
                project_id=target.pk,
                project_slug=target.slug,
                object_id=target.slug,
                format=fmt,
                **counts,
            )
        return {
            "project": target.slug,
            "format": fmt,
            "dry_run": rehearsal,
            "counts": counts,
            "notes": report,
            "unreadable": [{"file": file, "reason": reason} for file, reason in reading.unreadable],
        }

    if rehearsal:
        with transaction.atomic():
            result = work()
            transaction.set_rollback(True)  # a preview: every write above is undone
        return result
    return idempotency.run_once(
        principal,
        OPERATION,
        idempotency_key,
        work,
        project=target,
        request={"files": checked, "format": fmt, "skip_refused": leave_out},
    )


def _bring_in(
    principal: Principal, project: Project, candidates: tuple[Candidate, ...], *, leave_out: bool
) -> list[results_team.ImportedMemory]:
    plan = team_plan(principal)
    # Every statement's lock before the first write (see remembering.lock_statements).
    remembering.lock_statements(project, [candidate.content for candidate in candidates])
    report: list[results_team.ImportedMemory] = []
    capped: str | None = None
    for candidate in candidates:
        entry = _entry(candidate)
        report.append(entry)
        if capped is not None:
            _left_out(entry, "over_cap", capped)
            continue
        try:
            memory = memory_from_args(
                candidate.content,
                type=candidate.type,
                title=candidate.title,
                tags=list(candidate.tags),
                importance=candidate.importance,
                visibility=None,
                source=intake.IMPORTED_SOURCE,
                paths=list(candidate.paths) or None,
            )
            entry["title"] = memory.title
            with transaction.atomic():  # a refusal or cap undoes this note only
                guard.enforce(
                    principal,
                    OPERATION,
                    {
                        "content": memory.content,
                        "title": memory.title,
                        "tags": memory.tags,
                        "paths": memory.paths,
                    },
                )
                outcome = remembering.remember(
                    principal,
                    project,
                    memory,
                    max_revisions=plan.max_revisions_per_note,
                    use_semantic=plan.semantic_search,
                    plan=plan,
                )
        except Screened as refused:
            family = refused.details.get("family", "a secret")
            if not leave_out:
                raise Screened(
                    f"Nothing imported: the note read from {entry['origin']} looks like a secret "
                    f"({family}). Remove it, or import with skip_refused to leave such notes out.",
                    field="files",
                    family=family,
                ) from None
            entry["content"] = entry["title"] = ""
            _left_out(entry, "refused", f"Looks like a secret ({family}): never stored.")
            continue
        except PlanLimit as cap:
            capped = str(cap)
            _left_out(entry, "over_cap", capped)
            continue
        except InvalidArgument as bad:
            _left_out(entry, "invalid", str(bad))
            continue
        entry["outcome"] = _OUTCOMES[outcome["status"]]
        entry["note"] = outcome["note"]["id"]
        if outcome["status"] == "conflict":
            entry["message"] = (
                f"Contradicts note {outcome['note']['id']} (“{outcome['note']['title']}”): left out."
            )
    return report


def _left_out(entry: results_team.ImportedMemory, outcome: str, message: str) -> None:
    entry["outcome"] = outcome
    entry["message"] = message


def _entry(candidate: Candidate) -> results_team.ImportedMemory:
    shown = limits.MEMORY_IMPORT_SHOWN_CHARS
    text = candidate.content if len(candidate.content) <= shown else candidate.content[: shown - 1] + "…"
    return {
        "origin": candidate.origin,
        "type": candidate.type,
        "title": candidate.title or "",
        "content": text,
        "paths": list(candidate.paths),
        "outcome": "created",
    }


def _counts(report: list[results_team.ImportedMemory]) -> results_team.MemoryImportCounts:
    tally = dict.fromkeys(results_team.MEMORY_IMPORT_OUTCOMES, 0)
    for entry in report:
        tally[entry["outcome"]] += 1
    return {
        "created": tally["created"],
        "merged": tally["merged"],
        "duplicate": tally["duplicate"],
        "conflict": tally["conflict"],
        "refused": tally["refused"],
        "over_cap": tally["over_cap"],
        "invalid": tally["invalid"],
    }
