"""Labelled path-bound queries over the agent-notes set (issue 23, point 5).

An agent about to change some files asks get_context with its task and, optionally, `paths` (the files
it is working on). The notes are labelled/retrieval/agent_notes.py's, unchanged (that file is frozen);
this file binds some of them to globs of the fictional projects' repositories, the way a team binds
notes to code, and lists tasks with the files they touch. A query's relevant notes are the notes bound
to a glob matching one of its files: what someone changing those files must not miss. Notes bound to
other code are in the pool as well, and the other ~390 notes are distractors.

`relevant` is checked against the bindings by validate(), so the labels cannot drift from the globs.
Measured by tools/bench/path_recall.py and tests/retrieval/test_path_bound.py: recall@5 of
get_context's `relevant` section with and without `paths` (docs/code-binding.md has the figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from labelled.retrieval import agent_notes
from memory.notes import paths as code_paths

# Note key → the globs it is bound to.
BINDINGS: dict[str, list[str]] = {
    # Fernwood (Django backend in backend/, React SPA in web/).
    "fw-arch-reminders": ["backend/reminders/**"],
    "fw-con-quiet-hours": ["backend/reminders/scheduling.py", "backend/sms/**"],
    "fw-inc-sms-dup": ["backend/reminders/tasks.py"],
    "fw-fail-celery-eta": ["backend/reminders/tasks.py"],
    "fw-con-sms-opt-out": ["backend/sms/**"],
    "fw-fact-twilio-senders": ["backend/sms/senders.py"],
    "fw-arch-invoicing": ["backend/billing/**"],
    "fw-con-gapless": ["backend/billing/numbering.py"],
    "fw-fail-invoice-async": ["backend/billing/numbering.py"],
    "fw-fact-vat": ["backend/billing/tax.py"],
    "fw-fact-stripe-webhooks": ["backend/billing/stripe/webhooks.py"],
    "fw-inc-double-receipt": ["backend/billing/stripe/webhooks.py"],
    "fw-con-migrations": ["backend/**/migrations/*.py"],
    "fw-con-tenant-scope": ["backend/tenancy/**", "backend/**/querysets.py"],
    "fw-con-double-booking": ["backend/scheduling/models.py", "backend/scheduling/migrations/*.py"],
    "fw-arch-availability": ["backend/scheduling/availability.py"],
    "fw-inc-dst": ["backend/scheduling/availability.py"],
    "fw-con-soap-append-only": ["backend/records/soap/**"],
    "fw-inc-receptionist-soap": ["backend/records/api/*.py"],
    "fw-fact-csrf-cookie": ["web/src/api/client.ts"],
    "fw-fail-localstorage-token": ["web/src/api/client.ts"],
    "fw-pref-state": ["web/src/**/*.tsx"],
    "fw-dec-calendar-fullcalendar": ["web/src/scheduling/calendar/**"],
    "fw-inc-calendar-slow": ["web/src/scheduling/calendar/WeekView.tsx"],
    "fw-inc-magic-link-scanners": ["backend/portal/magic_links.py"],
    "fw-con-client-magic-links": ["backend/portal/**"],
    # Quillstack (a Rust workspace under crates/).
    "qs-arch-cache": ["crates/quill-core/src/cache/**"],
    "qs-dec-cache-hash": ["crates/quill-core/src/cache/**"],
    "qs-inc-cache-corrupt": ["crates/quill-core/src/cache/index.rs"],
    "qs-fail-cache-sqlite": ["crates/quill-core/src/cache/**"],
    "qs-con-plugin-sandbox": ["crates/quill-plugin/src/**"],
    "qs-fact-plugin-fuel": ["crates/quill-plugin/src/runtime.rs"],
    "qs-inc-plugin-slow": ["crates/quill-plugin/src/runtime.rs"],
    "qs-task-plugin-timeout": ["crates/quill-plugin/src/runtime.rs"],
    "qs-inc-watch-loop": ["crates/quill-cli/src/serve/watch.rs"],
    "qs-fact-watch-debounce": ["crates/quill-cli/src/serve/watch.rs"],
    "qs-fail-serve-sse": ["crates/quill-cli/src/serve/reload.rs"],
    "qs-inc-search-cjk": ["crates/quill-search/src/tokenize.rs"],
    "qs-fact-search-stopwords": ["crates/quill-search/src/tokenize.rs"],
    "qs-inc-long-paths": ["crates/quill-cli/build.rs", "crates/*/src/fs.rs"],
    "qs-fact-dunce": ["crates/*/src/fs.rs"],
    "qs-con-msrv": ["rust-toolchain.toml", "**/Cargo.toml"],
    # Ember (Zephyr firmware under firmware/).
    "em-con-relay-interlock": ["firmware/src/hvac/relays.c"],
    "em-con-compressor-delay": ["firmware/src/hvac/**"],
    "em-arch-control-loop": ["firmware/src/control/**"],
    "em-fact-sensor-offset": ["firmware/src/sensors/sht40.c"],
    "em-inc-sensor-stuck": ["firmware/src/sensors/sht40.c"],
    "em-con-ble-pairing": ["firmware/src/ble/**"],
    "em-inc-ble-android": ["firmware/src/ble/pairing.c"],
}


class PathQuery(TypedDict):
    query: str  # the task, as the agent would say it
    files: list[str]  # the files it is about to change
    relevant: list[str]  # every note bound to one of them


QUERIES: list[PathQuery] = [
    {"query": "make reminder sending retry on Twilio errors", "files": ["backend/reminders/tasks.py"],
     "relevant": ["fw-arch-reminders", "fw-inc-sms-dup", "fw-fail-celery-eta"]},
    {"query": "add a new SMS sender for Irish clinics", "files": ["backend/sms/senders.py"],
     "relevant": ["fw-con-quiet-hours", "fw-con-sms-opt-out", "fw-fact-twilio-senders"]},
    {"query": "refactor how invoice numbers are assigned", "files": ["backend/billing/numbering.py"],
     "relevant": ["fw-arch-invoicing", "fw-con-gapless", "fw-fail-invoice-async"]},
    {"query": "handle the charge.refunded event", "files": ["backend/billing/stripe/webhooks.py"],
     "relevant": ["fw-arch-invoicing", "fw-fact-stripe-webhooks", "fw-inc-double-receipt"]},
    {"query": "add a reduced rate for prescription diets", "files": ["backend/billing/tax.py"],
     "relevant": ["fw-arch-invoicing", "fw-fact-vat"]},
    {"query": "add a colour column to appointments",
     "files": ["backend/scheduling/models.py", "backend/scheduling/migrations/0042_appointment_colour.py"],
     "relevant": ["fw-con-double-booking", "fw-con-migrations"]},
    {"query": "fix free slots for vets who work split shifts", "files": ["backend/scheduling/availability.py"],
     "relevant": ["fw-arch-availability", "fw-inc-dst"]},
    {"query": "let vets amend a note after signing it", "files": ["backend/records/soap/models.py"],
     "relevant": ["fw-con-soap-append-only"]},
    {"query": "add a date filter to the clinical notes endpoint", "files": ["backend/records/api/soap.py"],
     "relevant": ["fw-inc-receptionist-soap"]},
    {"query": "stop the SPA fetching a token before every request", "files": ["web/src/api/client.ts"],
     "relevant": ["fw-fact-csrf-cookie", "fw-fail-localstorage-token"]},
    {"query": "make the week view faster", "files": ["web/src/scheduling/calendar/WeekView.tsx"],
     "relevant": ["fw-dec-calendar-fullcalendar", "fw-inc-calendar-slow", "fw-pref-state"]},
    {"query": "make login links survive Outlook safe links", "files": ["backend/portal/magic_links.py"],
     "relevant": ["fw-inc-magic-link-scanners", "fw-con-client-magic-links"]},
    {"query": "list patients across all clinics of a group",
     "files": ["backend/tenancy/middleware.py", "backend/patients/querysets.py"],
     "relevant": ["fw-con-tenant-scope"]},
    {"query": "change the on-disk format of the build cache", "files": ["crates/quill-core/src/cache/index.rs"],
     "relevant": ["qs-arch-cache", "qs-dec-cache-hash", "qs-inc-cache-corrupt", "qs-fail-cache-sqlite"]},
    {"query": "give plugins a data directory of their own", "files": ["crates/quill-plugin/src/wasi.rs"],
     "relevant": ["qs-con-plugin-sandbox"]},
    {"query": "reuse the engine between plugin calls", "files": ["crates/quill-plugin/src/runtime.rs"],
     "relevant": ["qs-con-plugin-sandbox", "qs-fact-plugin-fuel", "qs-inc-plugin-slow", "qs-task-plugin-timeout"]},
    {"query": "ignore editor swap files", "files": ["crates/quill-cli/src/serve/watch.rs"],
     "relevant": ["qs-inc-watch-loop", "qs-fact-watch-debounce"]},
    {"query": "live reload disconnects in Safari", "files": ["crates/quill-cli/src/serve/reload.rs"],
     "relevant": ["qs-fail-serve-sse"]},
    {"query": "support Korean pages", "files": ["crates/quill-search/src/tokenize.rs"],
     "relevant": ["qs-inc-search-cjk", "qs-fact-search-stopwords"]},
    {"query": "resolve output directories relative to the config", "files": ["crates/quill-core/src/fs.rs"],
     "relevant": ["qs-inc-long-paths", "qs-fact-dunce"]},
    {"query": "bump clap to the latest version", "files": ["crates/quill-cli/Cargo.toml"],
     "relevant": ["qs-con-msrv"]},
    {"query": "add a fan-only mode", "files": ["firmware/src/hvac/relays.c"],
     "relevant": ["em-con-relay-interlock", "em-con-compressor-delay"]},
    {"query": "tune the gains so it overshoots less", "files": ["firmware/src/control/pid.c"],
     "relevant": ["em-arch-control-loop"]},
    {"query": "read humidity too", "files": ["firmware/src/sensors/sht40.c"],
     "relevant": ["em-fact-sensor-offset", "em-inc-sensor-stuck"]},
    {"query": "show the passkey on the display", "files": ["firmware/src/ble/pairing.c"],
     "relevant": ["em-con-ble-pairing", "em-inc-ble-android"]},
]  # fmt: skip


def bound_to(files: list[str]) -> set[str]:
    """The keys of the notes bound to a glob matching one of `files`."""
    return {key for key, globs in BINDINGS.items() if code_paths.binds(globs, files)}


def validate() -> None:
    keys = {note["key"] for note in agent_notes.NOTES}
    missing = set(BINDINGS) - keys
    assert not missing, f"bindings name notes the agent-notes set does not hold: {sorted(missing)}"
    for key, globs in BINDINGS.items():
        assert globs == code_paths.note_patterns(globs), f"{key}: globs are not in stored form"
    for query in QUERIES:
        assert set(query["relevant"]) == bound_to(query["files"]), query["query"]
        assert query["files"] == code_paths.call_paths(query["files"]), query["query"]
    used = {key for query in QUERIES for key in query["relevant"]}
    assert used == set(BINDINGS), f"bound notes no query needs: {sorted(set(BINDINGS) - used)}"


TOP = 5


class PathRecall(TypedDict):
    with_paths: bool
    recall_all: float  # share of queries whose every relevant note is in the top TOP of `relevant`
    recall_notes: float  # share of relevant notes found there, over all queries
    missed: list[str]  # the queries not found whole


def bind(ids: dict[str, str]) -> None:
    """Bind the loaded notes (key → public id, as harness.load returns) to their globs."""
    from memory.models import Note

    for key, globs in BINDINGS.items():
        Note.objects.filter(public_id=ids[key]).update(paths=globs)


def context_recall(principal: Any, project: Any, ids: dict[str, str], *, with_paths: bool) -> PathRecall:
    """get_context(query, paths?) for every query; the first TOP entries of its `relevant` section."""
    from memory import store

    complete: list[float] = []
    found = wanted = 0
    missed: list[str] = []
    for query in QUERIES:
        response = store.get_context(
            principal,
            project.slug,
            query=query["query"],
            paths=query["files"] if with_paths else None,
        )
        sections = cast(Mapping[str, list[Mapping[str, Any]]], response["sections"])
        top = {entry["id"] for entry in sections.get("relevant", [])[:TOP]}
        relevant = {ids[key] for key in query["relevant"]}
        complete.append(1.0 if relevant <= top else 0.0)
        if not relevant <= top:
            missed.append(query["query"])
        found += len(relevant & top)
        wanted += len(relevant)
    return {
        "with_paths": with_paths,
        "recall_all": round(sum(complete) / len(complete), 3),
        "recall_notes": round(found / wanted, 3),
        "missed": missed,
    }
