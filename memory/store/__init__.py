"""The store boundary: every read and write an entry point needs (projects and notes, but also
accounts, teams, members, invitations, API keys, OAuth connections and billing pages).

Each function takes the calling Principal first and is classified read or write in memory.registry;
three take none, each saying why in its docstring: receive_stripe_event (Stripe signs the body),
download_export (the signed link names the credential) and bind_oauth_token_family (the token
endpoint authenticates the client, not a person).
Writes run scope check → plan check → screening → transaction → audit. Results are plain dicts in
the shapes of the tool contract (memory.shapes.results), shared by MCP, REST and the web. Callers write `store.remember(...)`;
each operation lives in the module of its resource:

- projects: list_projects, get_project, create_project, rename_project, update_project, rename_tag
- capture: remember, checkpoint
- notes: get_notes, get_note, list_notes, create_note, update_note, patch_note, delete_note, restore_note
- details: get_note_details (one note for review: authorship, deletion, supersession chain)
- history: list_note_revisions, get_note_revision, restore_note_revision
- links: relate_notes, list_note_links
- conflicts: list_conflicts, resolve_conflict
- code: report_code_change (notes bound to changed files need review), confirm_note (still true)
- recall: search_notes, get_context, get_changes_since, and for clients that read text rather than
  call tools: get_context_brief (get_context as Markdown) and render_project (an AGENTS.md section)
- transfer: export_project, export_content, import_project, and the jobs a page follows: start_export,
  start_import, confirm_import, transfer_job, retry_transfer_job
- intake: import_memory (rules files and other memory tools' exports, each note judged as remember
  judges it; with dry_run, the report of what it would do)
- team: get_usage, API keys, screening rules, the audit log
- overview: team_overview (the dashboard)
- bulk: bulk_update_notes
- accounts: sign-up and the emailed links (email_registered, sign_up, get_invitation, sign_up_invited,
  accept_invitation, active_user), the person's account (change_password, email_verification,
  read_email_verification, mark_email_verified, update_profile) and teams (list_teams, find_team, get_team, create_team, rename_team)
- members: list_members, list_invitations, invite_member, change_member_role, remove_member,
  leave_team, revoke_invitation
- connections: OAuth connected apps (list_connections, revoke_connection), the consent page
  (consent_choices, find_oauth_client, connect_oauth_client), the token exchange
  (bind_oauth_token_family and revoke_replayed_oauth_code, no Principal: the client authenticates,
  not a person), the revocation endpoint (oauth_token_of_another_client, likewise) and client
  names (screen_client_name)
- staff: delete_project (staff from the admin only)
- downloads: download_export, the file behind an export link (no Principal: the link names the
  credential, which must still be live)
- billing: the billing page (get_billing, the shell's cap banner get_cap_standing, start_checkout, open_billing_portal) and Stripe's webhook
  (receive_stripe_event, which alone takes no Principal: Stripe signs the body instead)

- results, results_team, results_review, results_accounts: the shape of every answer above, as
  TypedDicts; MCP structured output, REST bodies and the OpenAPI schema are derived from them

Account-level functions (sign-up, a person's teams and connected apps) take the account principal,
`principal_for_account(user)`, or `principal_for_account()` for an anonymous visitor.

API keys have one rule for every entry point: owners and admins, with a team-wide read-write
credential, create and revoke keys; members and viewers list only their own keys.

Entry points import nothing else from the domain, so the names they need alongside the functions
are public here too: the Principal and its AuthMethod, the errors the store raises, `echo` (a
caller's value as a message may repeat it), how long an export link lives, and the User type (for
annotations and isinstance checks of a signed-in request's user; pages never query it), the role and
OAuth scope vocabulary, and same_resource (how two resource URLs compare).
"""

from accounts.errors import (
    READ_ONLY_MESSAGE,
    Forbidden,
    InvalidArgument,
    NotFound,
    PlanLimit,
    RateLimited,
    Screened,
    StoreError,
    Unavailable,
    VersionConflict,
)
from accounts.models import OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE, Role, User, same_resource
from accounts.principal import AuthMethod, Principal, principal_for_account
from memory.notes.scoping import echo
from memory.shapes import results, results_accounts, results_review, results_team
from memory.store.accounts import (
    accept_invitation,
    active_user,
    change_password,
    create_team,
    email_registered,
    email_verification,
    find_team,
    get_invitation,
    get_team,
    list_teams,
    mark_email_verified,
    read_email_verification,
    rename_team,
    sign_up,
    sign_up_invited,
    update_profile,
)
from memory.store.billing import (
    get_billing,
    get_cap_standing,
    open_billing_portal,
    receive_stripe_event,
    start_checkout,
)
from memory.store.bulk import bulk_update_notes
from memory.store.capture import checkpoint, remember
from memory.store.code import confirm_note, report_code_change
from memory.store.conflicts import list_conflicts, resolve_conflict
from memory.store.connections import (
    bind_oauth_token_family,
    connect_oauth_client,
    consent_choices,
    find_oauth_client,
    list_connections,
    oauth_token_of_another_client,
    revoke_connection,
    revoke_replayed_oauth_code,
    screen_client_name,
)
from memory.store.details import get_note_details
from memory.store.downloads import download_export
from memory.store.history import get_note_revision, list_note_revisions, restore_note_revision
from memory.store.intake import import_memory
from memory.store.links import list_note_links, relate_notes
from memory.store.members import (
    change_member_role,
    invite_member,
    leave_team,
    list_invitations,
    list_members,
    remove_member,
    revoke_invitation,
)
from memory.store.notes import (
    create_note,
    delete_note,
    get_note,
    get_notes,
    list_notes,
    patch_note,
    restore_note,
    update_note,
)
from memory.store.overview import team_overview
from memory.store.projects import (
    create_project,
    get_project,
    list_projects,
    rename_project,
    rename_tag,
    update_project,
)
from memory.store.recall import (
    get_changes_since,
    get_context,
    get_context_brief,
    render_project,
    search_notes,
)
from memory.store.staff import delete_project
from memory.store.team import (
    add_screening_rule,
    create_api_key,
    delete_screening_rule,
    get_usage,
    list_api_keys,
    list_audit_events,
    list_screening_rules,
    revoke_api_key,
)
from memory.store.transfer import (
    confirm_import,
    export_content,
    export_project,
    import_project,
    retry_transfer_job,
    start_export,
    start_import,
    transfer_job,
)
from memory.transfer.exporting import EXPORT_URL_TTL

__all__ = [
    "EXPORT_URL_TTL",
    "OAUTH_READ_SCOPE",
    "OAUTH_WRITE_SCOPE",
    "READ_ONLY_MESSAGE",
    "AuthMethod",
    "Forbidden",
    "InvalidArgument",
    "NotFound",
    "PlanLimit",
    "Principal",
    "RateLimited",
    "Role",
    "Screened",
    "StoreError",
    "Unavailable",
    "User",
    "VersionConflict",
    "accept_invitation",
    "active_user",
    "add_screening_rule",
    "bind_oauth_token_family",
    "bulk_update_notes",
    "change_member_role",
    "change_password",
    "checkpoint",
    "confirm_import",
    "confirm_note",
    "connect_oauth_client",
    "consent_choices",
    "create_api_key",
    "create_note",
    "create_project",
    "create_team",
    "delete_note",
    "delete_project",
    "delete_screening_rule",
    "download_export",
    "echo",
    "email_registered",
    "email_verification",
    "export_content",
    "export_project",
    "find_oauth_client",
    "find_team",
    "get_billing",
    "get_cap_standing",
    "get_changes_since",
    "get_context",
    "get_context_brief",
    "get_invitation",
    "get_note",
    "get_note_details",
    "get_note_revision",
    "get_notes",
    "get_project",
    "get_team",
    "get_usage",
    "import_memory",
    "import_project",
    "invite_member",
    "leave_team",
    "list_api_keys",
    "list_audit_events",
    "list_conflicts",
    "list_connections",
    "list_invitations",
    "list_members",
    "list_note_links",
    "list_note_revisions",
    "list_notes",
    "list_projects",
    "list_screening_rules",
    "list_teams",
    "mark_email_verified",
    "oauth_token_of_another_client",
    "open_billing_portal",
    "patch_note",
    "principal_for_account",
    "read_email_verification",
    "receive_stripe_event",
    "relate_notes",
    "remember",
    "remove_member",
    "rename_project",
    "rename_tag",
    "rename_team",
    "render_project",
    "report_code_change",
    "resolve_conflict",
    "restore_note",
    "restore_note_revision",
    "results",
    "results_accounts",
    "results_review",
    "results_team",
    "retry_transfer_job",
    "revoke_api_key",
    "revoke_connection",
    "revoke_invitation",
    "revoke_replayed_oauth_code",
    "same_resource",
    "screen_client_name",
    "search_notes",
    "sign_up",
    "sign_up_invited",
    "start_checkout",
    "start_export",
    "start_import",
    "team_overview",
    "transfer_job",
    "update_note",
    "update_profile",
    "update_project",
]
