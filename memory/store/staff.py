"""What staff do to a team's data from the Django admin, through the store like everyone else:
deleting a project. Staff principals (accounts.principal.principal_for_staff) carry the
`administer` operation that opens these functions; no member's credential does."""

from __future__ import annotations

from accounts import actions as accounts_actions
from accounts import audit, oauth
from accounts.errors import Forbidden
from accounts.models import ApiKey, OAuthConnection, User
from accounts.principal import ADMINISTER, Principal
from memory import registry
from memory.notes.scoping import project_for
from memory.shapes import results_accounts


@registry.write(staff=ADMINISTER)
def delete_project(principal: Principal, project: str) -> results_accounts.ProjectDeleted:
    """Delete a project with its notes, revisions and links (staff only). Keys narrowed to it are
    revoked and OAuth connections narrowed to it end, so no credential outlives it; audited."""
    if not principal.may_staff(ADMINISTER):
        raise Forbidden("Projects are deleted by staff, from the admin.")
    target = project_for(principal, project)
    for key in ApiKey.objects.usable().filter(team_id=principal.team_id, project_id=target.pk):
        accounts_actions.revoke_api_key(key, actor=principal)
    staff_user = User.objects.get(pk=principal.user_id)
    for connection in OAuthConnection.objects.live().filter(team_id=principal.team_id, project_id=target.pk):
        oauth.revoke_connection(connection, by=staff_user)
    slug = target.slug
    target.delete()
    audit.record(principal, "project.deleted", project_slug=slug, object_id=slug)
    return {"status": "deleted", "slug": slug}
