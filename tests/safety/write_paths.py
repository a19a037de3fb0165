"""Every write entry point, each with a way to plant a value into every text-bearing argument.

A new write tool or write store function that is not listed here fails
test_planting.py::test_every_write_entry_point_is_registered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accounts.models import Invitation, Team, User
from accounts.principal import Principal, principal_for_account
from memory import store


@dataclass(frozen=True)
class Context:
    note_id: str  # a note of acme/payments the planter may edit
    other_note_id: str


McpCall = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Step:
    """One MCP call of a planting: a set-up call that must succeed, or the planting that must be refused."""

    tool: str
    arguments: dict[str, Any]
    refused: bool = True
    secret: str = ""  # what the refusal must not repeat


def fits(value: str, limit: int, call: McpCall) -> list[McpCall]:
    """The call when the value fits the argument's length limit: a cut-off secret is no secret."""
    return [call] if len(value) <= limit else []


@dataclass(frozen=True)
class McpPath:
    """A write tool called through the official MCP client over HTTP."""

    name: str
    plant: Callable[[str, Context], list[McpCall]]
    # Arguments whose schema bounds (ids, tags, enums) may refuse a long value before the gate:
    # for those, invalid_argument is an acceptable refusal too. Free text must come back screened.
    bounded: bool = False


@dataclass(frozen=True)
class StorePath:
    """A write entry point without an MCP tool (REST and web forms will call these)."""

    name: str
    plant: Callable[[str, Principal, Context], list[Callable[[], Any]]]


MCP_PATHS: list[McpPath] = [
    McpPath(
        "remember",
        lambda s, c: [
            ("remember", {"project": "payments", "content": f"Deploy notes: {s}"}),
            *fits(s, 300, ("remember", {"project": "payments", "content": "ok", "title": s})),
            *fits(s, 100, ("remember", {"project": "payments", "content": "ok too", "source": s})),
            *fits(s, 300, ("remember", {"project": "payments", "content": "bound", "paths": ["a/**", s]})),
        ],
    ),
    McpPath(
        "checkpoint",
        lambda s, c: [
            ("checkpoint", {"project": "payments", "summary": f"Done. {s}"}),
            ("checkpoint", {"project": "payments", "summary": "ok", "decisions": ["fine", s]}),
            ("checkpoint", {"project": "payments", "summary": "ok", "open_items": [s]}),
            ("checkpoint", {"project": "payments", "summary": "ok", "failed_approaches": [s]}),
            ("checkpoint", {"project": "payments", "summary": "ok", "next_actions": [s]}),
        ],
    ),
    McpPath(
        "save_note",
        lambda s, c: [
            ("save_note", {"project": "payments", "title": "t", "body": s}),
            *fits(s, 300, ("save_note", {"project": "payments", "title": s, "body": "b"})),
            ("save_note", {"id": c.note_id, "body": f"updated {s}"}),
            *fits(s, 300, ("save_note", {"id": c.note_id, "paths": [s]})),
        ],
    ),
    McpPath(
        "patch_note",
        lambda s, c: [
            ("patch_note", {"id": c.note_id, "op": "append", "text": s}),
            ("patch_note", {"id": c.note_id, "op": "replace", "find": "original", "text": s}),
        ],
    ),
    McpPath("delete_note", lambda s, c: fits(s, 300, ("delete_note", {"id": c.note_id, "reason": s}))),
    McpPath(
        "relate_notes",
        lambda s, c: [("relate_notes", {"from_id": c.note_id, "to_id": s, "kind": "relates_to"})],
        bounded=True,
    ),
    McpPath(
        "create_project",
        lambda s, c: [
            ("create_project", {"name": "New", "summary": s}),
            ("create_project", {"name": "New", "agent_instructions": s}),
            *fits(s, 120, ("create_project", {"name": s})),
        ],
    ),
    McpPath(
        "rename_project", lambda s, c: fits(s, 120, ("rename_project", {"project": "payments", "name": s}))
    ),
    McpPath(
        "rename_tag",
        lambda s, c: [("rename_tag", {"project": "payments", "old": "x", "new": s})],
        bounded=True,
    ),
    McpPath(
        "report_code_change",
        lambda s, c: [
            *fits(
                s, 300, ("report_code_change", {"project": "payments", "commit": "abcd1234", "paths": [s]})
            ),
            *fits(s, 64, ("report_code_change", {"project": "payments", "commit": s, "paths": ["a.py"]})),
        ],
        bounded=True,
    ),
    McpPath("confirm_note", lambda s, c: [("confirm_note", {"id": s})], bounded=True),
]


def _document(secret: str) -> dict[str, Any]:
    """An export document carrying the value in a body, a tag, a nested list and an object key."""
    note = {
        "id": "n_AAAAAAAAAAAAAAAA",
        "type": "fact",
        "status": "current",
        "title": "Imported",
        "body": f"imported body {secret}",
        "tags": [],
        "importance": 0.5,
        "visibility": "team",
        "source": "",
        "version": 1,
        "author": None,
        "created_at": "2026-01-01T00:00:00.000000Z",
        "updated_at": "2026-01-01T00:00:00.000000Z",
        "deleted_at": None,
        "delete_reason": "",
        "access_count": 0,
        "last_accessed_at": None,
        "superseded_by": None,
        "revisions": [],
    }
    return {
        "format": "knownbase-export",
        "version": 1,
        "exported_at": "2026-01-01T00:00:00.000000Z",
        "project": {"slug": "imported", "name": "Imported", "summary": "", "agent_instructions": "",
                    "default_context_budget": None},
        "notes": [note],
        "links": [],
        "extra": {secret: ["nested", [secret]]},
    }  # fmt: skip


STORE_PATHS: list[StorePath] = [
    StorePath(
        "import_project", lambda s, p, c: [lambda: store.import_project(p, _document(s), slug="imported")]
    ),
    # The web import page: the dry run that stages a document, and the confirmation (a job id only).
    StorePath(
        "start_import",
        lambda s, p, c: [
            lambda: store.start_import(p, _document(s), slug="imported"),
            lambda: store.start_import(p, _document(s), slug="imported", name="Imported"),
        ],
    ),
    StorePath("confirm_import", lambda s, p, c: [lambda: store.confirm_import(p, s)]),
    StorePath(
        "add_screening_rule",
        lambda s, p, c: (
            [lambda: store.add_screening_rule(p, "pattern", "planted", s)] if len(s) <= 500 else []
        ),
    ),
    StorePath("restore_note", lambda s, p, c: [lambda: store.restore_note(p, s)]),
    # save_note over MCP reaches these too; called directly they are what REST and the web use.
    StorePath(
        "create_note",
        lambda s, p, c: [
            lambda: store.create_note(p, "payments", "t", s),
            *([lambda: store.create_note(p, "payments", s, "b")] if len(s) <= 300 else []),
        ],
    ),
    StorePath("update_note", lambda s, p, c: [lambda: store.update_note(p, c.note_id, body=f"updated {s}")]),
    StorePath("delete_screening_rule", lambda s, p, c: [lambda: store.delete_screening_rule(p, s)]),
    # Stores no text of its own: ids and a choice, refused before or by the gate.
    StorePath(
        "resolve_conflict",
        lambda s, p, c: [
            lambda: store.resolve_conflict(p, s, c.other_note_id, "both_true"),
            lambda: store.resolve_conflict(p, c.note_id, s, "both_true"),
            lambda: store.resolve_conflict(p, c.note_id, c.other_note_id, s),
        ],
    ),
    # The dashboard's bulk actions: a tag added to every selected note, a delete reason kept with each.
    StorePath(
        "bulk_update_notes",
        lambda s, p, c: [
            lambda: store.bulk_update_notes(
                p, "payments", [c.note_id, c.other_note_id], "retag", add_tags=[s]
            ),
            *(
                [lambda: store.bulk_update_notes(p, "payments", [c.note_id], "delete", reason=s)]
                if len(s) <= 300
                else []
            ),
        ],
    ),
]


# --- accounts, members, keys, OAuth and billing (the web pages' writes) -------------------------------


def _account(p: Principal) -> Principal:
    """The planter's account principal (a person acting outside any team)."""
    return principal_for_account(User.objects.get(pk=p.user_id))


def _anonymous() -> Principal:
    return principal_for_account()


def _invitation_token(p: Principal) -> str:
    """A fresh pending invitation of the planter's team, for the sign-up that follows its link."""
    _, token = Invitation.issue(
        team=Team.objects.get(pk=p.team_id), email="invited@acme.test", role="member", invited_by=None
    )
    return token


def _short(s: str, limit: int, call: Callable[[], Any]) -> list[Callable[[], Any]]:
    """The call when the value fits the field: a cut-off secret is no secret."""
    return [call] if len(s) <= limit else []


ACCOUNT_PATHS: list[StorePath] = [
    StorePath(
        "sign_up",
        lambda s, p, c: [
            *_short(
                s, 150, lambda: store.sign_up(_anonymous(), "new1@acme.test", "correct horse battery", name=s)
            ),
            *_short(
                s,
                100,
                lambda: store.sign_up(_anonymous(), "new2@acme.test", "correct horse battery", team_name=s),
            ),
            *_short(s, 200, lambda: store.sign_up(_anonymous(), f"{s}@acme.test", "correct horse battery")),
            # The team name derived from the address's local part is screened as stored.
        ],
    ),
    StorePath(
        "sign_up_invited",
        lambda s, p, c: [
            *_short(
                s,
                150,
                lambda: store.sign_up_invited(
                    _anonymous(), _invitation_token(p), "correct horse battery", name=s
                ),
            ),
            lambda: store.sign_up_invited(_anonymous(), s, "correct horse battery"),
        ],
    ),
    StorePath("accept_invitation", lambda s, p, c: [lambda: store.accept_invitation(_account(p), s)]),
    # The password is never screened (only its hash is stored); the reason is a choice.
    StorePath(
        "change_password", lambda s, p, c: [lambda: store.change_password(_account(p), "correct horse 2", s)]
    ),
    StorePath("mark_email_verified", lambda s, p, c: [lambda: store.mark_email_verified(_account(p), s)]),
    StorePath(
        "update_profile",
        lambda s, p, c: _short(s, 150, lambda: store.update_profile(_account(p), s)),
    ),
    StorePath("create_team", lambda s, p, c: _short(s, 100, lambda: store.create_team(_account(p), s))),
    StorePath("rename_team", lambda s, p, c: _short(s, 100, lambda: store.rename_team(p, s))),
    StorePath(
        "invite_member",
        lambda s, p, c: [
            lambda: store.invite_member(p, f"{s}@example.com", "member"),
            lambda: store.invite_member(p, "someone@example.com", s),
        ],
    ),
    StorePath(
        "change_member_role",
        lambda s, p, c: [
            lambda: store.change_member_role(p, s, "member"),
            lambda: store.change_member_role(p, "mia@acme.test", s),
        ],
    ),
    StorePath("remove_member", lambda s, p, c: [lambda: store.remove_member(p, s)]),
    StorePath("leave_team", lambda s, p, c: [lambda: store.leave_team(_account(p), s)]),
    StorePath("revoke_invitation", lambda s, p, c: [lambda: store.revoke_invitation(p, s)]),
    StorePath("revoke_connection", lambda s, p, c: [lambda: store.revoke_connection(_account(p), s)]),
    # Ids and a flag only: the consent page's choice, refused by the gate as sent.
    StorePath(
        "connect_oauth_client",
        lambda s, p, c: [lambda: store.connect_oauth_client(_account(p), s, 1, p.team_id, None, False)],
    ),
    StorePath("screen_client_name", lambda s, p, c: [lambda: store.screen_client_name(_anonymous(), s)]),
    StorePath("start_checkout", lambda s, p, c: [lambda: store.start_checkout(p, s)]),
    StorePath("delete_project", lambda s, p, c: [lambda: store.delete_project(p, s)]),
    # Takes no value from the caller: only its refusal of a planter without Stripe billing is checked.
    StorePath("open_billing_portal", lambda s, p, c: [lambda: store.open_billing_portal(p)]),
]

# Write store functions reached only through an MCP tool of the same name.
COVERED_BY_MCP = {path.name for path in MCP_PATHS}


# ------------------------------------------------------------------------------------------- REST
# Every REST write endpoint (issue 11), by the operationId of /api/schema/, with its plantings. A
# write endpoint of the schema missing here fails test_rest_planting.py::test_every_rest_write_is_planted.
# Paths are given unquoted; the harness percent-encodes what goes into a URL.

RestCall = tuple[
    str, str, Any, dict[str, Any] | None, dict[str, str] | None
]  # method, path, body, query, headers


def header_safe(value: str) -> bool:
    """Whether a value can travel in an HTTP header at all (one line of Latin-1)."""
    return "\n" not in value and "\r" not in value and all(ord(ch) < 256 for ch in value)


def keyed(value: str, method: str, path: str, body: Any) -> list[RestCall]:
    """The POST with `value` as its Idempotency-Key (kept in the idempotency records), when it fits."""
    if not header_safe(value) or len(value) > 200:
        return []
    return [(method, path, body, None, {"Idempotency-Key": value})]


@dataclass(frozen=True)
class RestPath:
    """A REST write endpoint called through Django's test client."""

    operation: str
    store_function: str  # the write store function it reaches
    plant: Callable[[str, Context], list[RestCall]]
    # Values in ids, slugs or tags may be refused as malformed (400) or not found (404) before or
    # instead of the gate; free text must come back 422 screened.
    bounded: bool = False


REST_PATHS: list[RestPath] = [
    RestPath(
        "create_project",
        "create_project",
        lambda s, c: [
            ("POST", "/projects", {"name": "New", "summary": s}, None, None),
            ("POST", "/projects", {"name": "New", "agent_instructions": s}, None, None),
            *([("POST", "/projects", {"name": s}, None, None)] if len(s) <= 120 else []),
            *keyed(s, "POST", "/projects", {"name": "Keyed"}),
        ],
    ),
    RestPath(
        "update_project",
        "update_project",
        lambda s, c: [
            ("PATCH", "/projects/payments", {"summary": f"About: {s}"}, None, None),
            ("PATCH", "/projects/payments", {"agent_instructions": s}, None, None),
            *([("PATCH", "/projects/payments", {"name": s}, None, None)] if len(s) <= 120 else []),
        ],
    ),
    RestPath(
        "rename_tag",
        "rename_tag",
        lambda s, c: [
            ("POST", "/projects/payments/tags/rename", {"old": "x", "new": s}, None, None),
            *keyed(s, "POST", "/projects/payments/tags/rename", {"old": "x", "new": "y"}),
        ],
        bounded=True,
    ),
    RestPath(
        "create_note",
        "create_note",
        lambda s, c: [
            ("POST", "/projects/payments/notes", {"title": "t", "body": s}, None, None),
            *(
                [("POST", "/projects/payments/notes", {"title": s, "body": "b"}, None, None)]
                if len(s) <= 300
                else []
            ),
            *keyed(s, "POST", "/projects/payments/notes", {"title": "t", "body": "keyed"}),
        ],
    ),
    RestPath(
        "update_note",
        "update_note",
        lambda s, c: [("PATCH", f"/notes/{c.note_id}", {"body": f"updated {s}"}, None, None)],
    ),
    RestPath(
        "patch_note",
        "patch_note",
        lambda s, c: [
            ("POST", f"/notes/{c.note_id}/patch", {"op": "append", "text": s}, None, None),
            (
                "POST",
                f"/notes/{c.note_id}/patch",
                {"op": "replace", "find": "original", "text": s},
                None,
                None,
            ),
            *keyed(s, "POST", f"/notes/{c.note_id}/patch", {"op": "append", "text": "keyed"}),
        ],
    ),
    RestPath(
        "delete_note",
        "delete_note",
        lambda s, c: [("DELETE", f"/notes/{c.note_id}", None, {"reason": s}, None)] if len(s) <= 300 else [],
    ),
    RestPath(
        "report_code_change",
        "report_code_change",
        lambda s, c: [
            *(
                [
                    (
                        "POST",
                        "/projects/payments/code-changes",
                        {"commit": "abcd1234", "paths": [s]},
                        None,
                        None,
                    )
                ]
                if len(s) <= 300
                else []
            ),
            *(
                [("POST", "/projects/payments/code-changes", {"commit": s, "paths": ["a.py"]}, None, None)]
                if len(s) <= 64
                else []
            ),
        ],
        bounded=True,
    ),
    RestPath(
        "confirm_note",
        "confirm_note",
        lambda s, c: [("POST", f"/notes/{s}/confirm", {}, None, None)],
        bounded=True,
    ),
    # Every note read from the files is screened (a file name too); the upload as a whole is not, so
    # the refusal names the line it came from.
    RestPath(
        "import_memory",
        "import_memory",
        lambda s, c: [
            (
                "POST",
                "/projects/payments/memory-imports",
                {"files": {"AGENTS.md": f"- Never share {s} ok."}},
                None,
                None,
            ),
            (
                "POST",
                "/projects/payments/memory-imports",
                {"files": {"AGENTS.md": f"# Keys\n\n{s}\n"}},
                None,
                None,
            ),
            *(
                [
                    (
                        "POST",
                        "/projects/payments/memory-imports",
                        {"files": {f"{s}.md": "- Never log cards."}},
                        None,
                        None,
                    )
                ]
                if len(s) <= 290
                else []
            ),
            *keyed(
                s, "POST", "/projects/payments/memory-imports", {"files": {"AGENTS.md": "- Never log cards."}}
            ),
        ],
    ),
    # The job id is the only text a retry carries: planted there it is looked up and not found.
    RestPath(
        "retry_transfer_job",
        "retry_transfer_job",
        lambda s, c: [("POST", f"/transfers/{s}/retry", {}, None, None)],
        bounded=True,
    ),
    RestPath(
        "restore_note",
        "restore_note",
        lambda s, c: [
            ("POST", f"/notes/{s}/restore", {}, None, None),
            *keyed(s, "POST", f"/notes/{c.note_id}/restore", {}),
        ],
        bounded=True,
    ),
    RestPath(
        "restore_revision",
        "restore_note_revision",
        lambda s, c: [
            ("POST", f"/notes/{s}/revisions/1/restore", {}, None, None),
            *keyed(s, "POST", f"/notes/{c.note_id}/revisions/1/restore", {}),
        ],
        bounded=True,
    ),
    RestPath(
        "create_link",
        "relate_notes",
        lambda s, c: [
            ("POST", f"/notes/{c.note_id}/links", {"to_id": s, "kind": "relates_to"}, None, None),
            *keyed(s, "POST", f"/notes/{c.note_id}/links", {"to_id": c.other_note_id, "kind": "relates_to"}),
        ],
        bounded=True,
    ),
    RestPath(
        "delete_link",
        "relate_notes",
        lambda s, c: [("DELETE", f"/notes/{c.note_id}/links/relates_to/{s}", None, None, None)],
        bounded=True,
    ),
    RestPath(
        "remember",
        "remember",
        lambda s, c: [
            ("POST", "/projects/payments/remember", {"content": f"Deploy notes: {s}"}, None, None),
            *(
                [("POST", "/projects/payments/remember", {"content": "ok", "title": s}, None, None)]
                if len(s) <= 300
                else []
            ),
            *(
                [("POST", "/projects/payments/remember", {"content": "ok too", "source": s}, None, None)]
                if len(s) <= 100
                else []
            ),
            *keyed(s, "POST", "/projects/payments/remember", {"content": "ok three"}),
        ],
    ),
    RestPath(
        "checkpoint",
        "checkpoint",
        lambda s, c: [
            ("POST", "/projects/payments/checkpoint", {"summary": f"Done. {s}"}, None, None),
            (
                "POST",
                "/projects/payments/checkpoint",
                {"summary": "ok", "decisions": ["fine", s]},
                None,
                None,
            ),
            ("POST", "/projects/payments/checkpoint", {"summary": "ok", "next_actions": [s]}, None, None),
            *keyed(s, "POST", "/projects/payments/checkpoint", {"summary": "keyed"}),
        ],
    ),
    RestPath(
        "import_project",
        "import_project",
        lambda s, c: [
            ("POST", "/import", {"document": _document(s), "slug": "imported"}, None, None),
            ("POST", "/import", {"document": _document(s), "slug": "imported", "dry_run": True}, None, None),
            *keyed(s, "POST", "/import", {"document": _document("keyed"), "slug": "imported"}),
        ],
    ),
    RestPath(
        "create_api_key",
        "create_api_key",
        lambda s, c: [
            *([("POST", "/api-keys", {"name": s}, None, None)] if len(s) <= 100 else []),
            *keyed(s, "POST", "/api-keys", {"name": "keyed"}),
        ],
    ),
    RestPath(
        "revoke_api_key",
        "revoke_api_key",
        lambda s, c: [("DELETE", f"/api-keys/{s}", None, None, None)],
        bounded=True,
    ),
]

# Write store functions reached through a REST endpoint.
COVERED_BY_REST = {path.store_function for path in REST_PATHS}
