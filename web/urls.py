from django.urls import path

from web import converters
from web.views import (
    account,
    bulk,
    conflicts,
    home,
    intake,
    keys,
    members,
    note_new,
    notes,
    projects,
    revisions,
    team_admin,
    teams,
    transfer,
)

app_name = "web"
converters.register()  # ids and tokens match their own shapes only: anything else is a 404

urlpatterns = [
    path("", home.home, name="home"),
    path("signup/", account.signup, name="signup"),
    path("login/", account.login_view, name="login"),
    path("logout/", account.logout_view, name="logout"),
    path("password/change/", account.password_change, name="password-change"),
    path("password/reset/", account.password_reset, name="password-reset"),
    path("password/reset/sent/", account.password_reset_sent, name="password-reset-sent"),
    path(
        "password/reset/<token:uidb64>/<token:token>/",
        account.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path("verify-email/", account.verify_email, name="verify-email"),
    path("verify-email/<token:token>/", account.verify_email_confirm, name="verify-email-confirm"),
    path("teams/", teams.team_list, name="teams"),
    path("teams/switch/", teams.team_switch, name="team-switch"),
    path("teams/new/", teams.team_create, name="team-create"),
    path("teams/settings/", teams.team_settings, name="team-settings"),
    path("teams/members/", members.members, name="members"),
    path("teams/members/invite/", members.invite, name="member-invite"),
    path("teams/members/role/", members.change_role, name="member-role"),
    path("teams/members/remove/", members.remove, name="member-remove"),
    path("teams/leave/", members.leave, name="team-leave"),
    path("teams/invitations/<pid:public_id>/revoke/", members.revoke_invitation, name="invitation-revoke"),
    path("teams/join/<token:token>/", members.invitation, name="invitation"),
    path("keys/", keys.key_list, name="keys"),
    path("keys/new/", keys.key_create, name="key-create"),
    path("keys/<pid:key_id>/revoke/", keys.key_revoke, name="key-revoke"),
    # Conflicts
    path("conflicts/", conflicts.conflicts, name="conflicts"),
    path("conflicts/resolve/", conflicts.conflict_resolve, name="conflict-resolve"),
    # Note pages
    path("projects/<slug:slug>/notes/new/", note_new.note_create, name="note-create"),
    path("projects/<slug:slug>/notes/<pid:note_id>/", notes.note, name="note"),
    path("projects/<slug:slug>/notes/<pid:note_id>/edit/", notes.note_edit, name="note-edit"),
    path("projects/<slug:slug>/notes/<pid:note_id>/delete/", notes.note_delete, name="note-delete"),
    path("projects/<slug:slug>/notes/<pid:note_id>/restore/", notes.note_restore, name="note-restore"),
    path(
        "projects/<slug:slug>/notes/<pid:note_id>/still-true/", notes.note_still_true, name="note-still-true"
    ),
    path(
        "projects/<slug:slug>/notes/<pid:note_id>/revisions/", revisions.revision_list, name="note-revisions"
    ),
    path(
        "projects/<slug:slug>/notes/<pid:note_id>/revisions/<int:version>/",
        revisions.revision,
        name="note-revision",
    ),
    path(
        "projects/<slug:slug>/notes/<pid:note_id>/revisions/<int:version>/restore/",
        revisions.revision_restore,
        name="note-revision-restore",
    ),
    # Projects: the note browser, bulk actions, settings and the context preview
    path("projects/new/", projects.project_create, name="project-create"),
    path("projects/import/", transfer.import_new_project, name="import-new"),
    path("projects/<slug:slug>/", projects.project_page, name="project"),
    path("projects/<slug:slug>/bulk/", bulk.project_bulk, name="project-bulk"),
    path("projects/<slug:slug>/settings/", projects.project_settings, name="project-settings"),
    path("projects/<slug:slug>/context/", projects.context_preview, name="context-preview"),
    # Transfer and team admin
    path("projects/<slug:slug>/export/", transfer.export, name="export"),
    path("projects/<slug:slug>/import/", transfer.import_project, name="import"),
    path("projects/<slug:slug>/bring-in/", intake.bring_in, name="bring-in"),
    path("transfers/<pid:job_id>/", transfer.transfer_job, name="transfer-job"),
    path("transfers/<pid:job_id>/retry/", transfer.retry_transfer_job, name="transfer-job-retry"),
    path("team/screening/", team_admin.screening, name="screening"),
    path("team/audit/", team_admin.audit, name="audit"),
    path("team/usage/", team_admin.usage, name="usage"),
]
