"""What the store answers for people, teams, members, invitations, OAuth connections, billing pages,
export downloads and staff actions (see memory.shapes.results for the pattern every shape follows).

Only the web pages, the OAuth pages, the Stripe webhook, the export download and the admin read
these: no REST endpoint or MCP tool publishes them, so some carry what only a page needs (datetimes
it formats itself, the User row a page signs in).
"""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and __required_keys__ is what the schema and the tests trust.

from datetime import datetime
from typing import Annotated, Literal, TypedDict

from accounts.models import Role, User
from memory.shapes.results import Doc
from memory.shapes.results_team import Usage

ROLE = Doc("The role in the team.", "member", choices=tuple(Role.values))

# ------------------------------------------------------------------------------------- people, links


# A User field is bare: django-stubs reads Annotated[<a model>, ...] as its own annotated-queryset
# type and refuses the Doc. No schema is built from these shapes, so nothing needs the description.


class SignedUp(TypedDict):
    user: User  # the new account, for the page to sign in
    team_id: Annotated[int, Doc("The team it owns.", 7)]


class InvitationOffer(TypedDict):
    """What an emailed invitation link offers."""

    id: Annotated[str, Doc("The invitation's id.", "inv_3Jk8pQ")]
    state: Annotated[
        str,
        Doc(
            "Whether it can still be used.", "pending", choices=("pending", "accepted", "revoked", "expired")
        ),
    ]
    email: Annotated[str, Doc("The invited address.", "mia@acme.test")]
    role: Annotated[str, ROLE]
    team_id: Annotated[int, Doc("The inviting team's id.", 7)]
    team_name: Annotated[str, Doc("The inviting team's name.", "Acme")]
    inviter: Annotated[str, Doc("Who invited (name, else address; empty when unknown).", "Olivia")]


class InvitationAccepted(TypedDict):
    team_id: Annotated[int, Doc("The team joined.", 7)]
    team_name: Annotated[str, Doc("Its name.", "Acme")]
    role: Annotated[str, ROLE]


class PasswordChanged(TypedDict):
    status: Annotated[Literal["changed"], Doc("What happened.", "changed")]


class EmailVerification(TypedDict):
    email: Annotated[str, Doc("The address to confirm.", "mia@acme.test")]
    token: Annotated[str, Doc("The signed token of the confirmation link.", "eyJ1Ijo3fQ:1tX…")]
    hours: Annotated[int, Doc("How many hours the link stays good.", 48)]


class EmailClaim(TypedDict):
    user: User  # the account the confirmation link names
    email: Annotated[str, Doc("The address it confirms, lower-cased.", "mia@acme.test")]


class Profile(TypedDict):
    name: Annotated[str, Doc("The display name, as stored.", "Mia Chen")]


# ------------------------------------------------------------------------------------------------ teams


class TeamName(TypedDict):
    id: Annotated[int, Doc("The team's id.", 7)]
    slug: Annotated[str, Doc("The team's slug.", "acme")]
    name: Annotated[str, Doc("The team's name.", "Acme")]


class TeamRole(TeamName):
    """A team with the caller's role in it."""

    role: Annotated[str, ROLE]


class TeamChoice(TeamRole):
    """One of the teams a person is in, for the switcher."""

    current: Annotated[bool, Doc("Whether it is the principal's own team.", True)]


class TeamList(TypedDict):
    teams: Annotated[list[TeamChoice], Doc("The person's teams, by name.")]


# ---------------------------------------------------------------------------------- members, invitations


class Member(TypedDict):
    email: Annotated[str, Doc("The member's address.", "mia@acme.test")]
    name: Annotated[str, Doc("The member's display name.", "Mia Chen")]
    role: Annotated[str, ROLE]
    you: Annotated[bool, Doc("Whether it is the caller.", False)]


class MemberList(TypedDict):
    members: Annotated[list[Member], Doc("The team's members, by address.")]
    used: Annotated[int, Doc("Members counted against the plan's cap.", 3)]
    limit: Annotated[int, Doc("The plan's member cap.", 5)]
    plan: Annotated[str, Doc("The plan's name.", "Developer")]


class PendingInvitation(TypedDict):
    id: Annotated[str, Doc("The invitation's id.", "inv_3Jk8pQ")]
    email: Annotated[str, Doc("The invited address.", "mia@acme.test")]
    role: Annotated[str, ROLE]
    expires_at: Annotated[datetime, Doc("When the link stops working.")]


class InvitationList(TypedDict):
    invitations: Annotated[list[PendingInvitation], Doc("The team's pending invitations, by address.")]


class InvitationMade(TypedDict):
    id: Annotated[str, Doc("The invitation's id.", "inv_3Jk8pQ")]
    email: Annotated[str, Doc("The invited address.", "mia@acme.test")]
    role: Annotated[str, ROLE]


class MemberInvited(TypedDict):
    invitation: Annotated[InvitationMade, Doc("The invitation.")]
    token: Annotated[str, Doc("The link's token, to be mailed once: it is never stored.", "k3Jq…")]
    team_name: Annotated[str, Doc("The inviting team's name.", "Acme")]
    inviter: Annotated[str, Doc("Who invited (name, else address).", "Olivia")]
    valid_days: Annotated[int, Doc("How many days the link stays good.", 7)]


class MemberRoleChanged(TypedDict):
    email: Annotated[str, Doc("The member's address.", "mia@acme.test")]
    role: Annotated[str, ROLE]


class MemberRemoved(TypedDict):
    email: Annotated[str, Doc("The former member's address.", "mia@acme.test")]
    status: Annotated[Literal["removed"], Doc("What happened.", "removed")]


class TeamLeft(TypedDict):
    team_name: Annotated[str, Doc("The team left.", "Acme")]
    status: Annotated[Literal["left"], Doc("What happened.", "left")]


class InvitationRevoked(TypedDict):
    email: Annotated[str, Doc("The address that was invited.", "mia@acme.test")]
    status: Annotated[Literal["revoked"], Doc("What happened.", "revoked")]


# ----------------------------------------------------------------------------------- OAuth connections


class Connection(TypedDict):
    id: Annotated[str, Doc("The connection's id.", "oc_8Tm2")]
    client_name: Annotated[str, Doc("The OAuth client's name.", "Claude")]
    team_name: Annotated[str, Doc("The team it acts in.", "Acme")]
    project_name: Annotated[str | None, Doc("The one project it is narrowed to; null: all.", "Payments API")]
    read_only: Annotated[bool, Doc("Whether it may only read.", False)]
    created_at: Annotated[datetime, Doc("When it was approved.")]
    last_used_at: Annotated[datetime | None, Doc("When it was last used.")]


class ConnectionList(TypedDict):
    connections: Annotated[list[Connection], Doc("The person's live connections, newest first.")]


class ConnectionRevoked(TypedDict):
    id: Annotated[str, Doc("The connection's id.", "oc_8Tm2")]
    client_name: Annotated[str, Doc("The OAuth client's name.", "Claude")]
    status: Annotated[Literal["revoked"], Doc("What happened.", "revoked")]


class ConsentProject(TypedDict):
    id: Annotated[int, Doc("The project's row id (the consent form's value).", 12)]
    public_id: Annotated[str, Doc("The project's public id.", "p_4Hq9")]
    name: Annotated[str, Doc("The project's name.", "Payments API")]


class ConsentTeam(TeamRole):
    projects: Annotated[list[ConsentProject], Doc("The projects the person sees in it, by name.")]


class ConsentChoices(TypedDict):
    teams: Annotated[list[ConsentTeam], Doc("The person's teams, by name.")]


class OAuthConnected(TypedDict):
    id: Annotated[str, Doc("The new connection's id.", "oc_8Tm2")]
    read_only: Annotated[bool, Doc("Whether it may only read (always for a viewer).", False)]


class ClientNameScreened(TypedDict):
    client_name: Annotated[str, Doc("The client name as it will be stored.", "Claude")]


# ---------------------------------------------------------------------------------------------- billing


class PlanOffer(TypedDict):
    code: Annotated[str, Doc("The plan's code.", "developer")]
    name: Annotated[str, Doc("The plan's name.", "Developer")]
    price_cents_monthly: Annotated[int, Doc("Its monthly price in cents.", 1900)]
    buyable: Annotated[bool, Doc("Whether Stripe sells it.", True)]
    caps: Annotated[dict[str, int | bool], Doc("Each cap of the plan.", {"projects": 10})]


class Billing(TypedDict):
    team: Annotated[TeamName, Doc("The team.")]
    usage: Annotated[Usage, Doc("Its usage against the plan in force.")]
    current_plan: Annotated[PlanOffer, Doc("The plan in force.")]
    subscribed_plan: Annotated[PlanOffer, Doc("The plan subscribed to (the one in force if none).")]
    live: Annotated[bool, Doc("Whether the subscription is live.", False)]
    plans: Annotated[list[PlanOffer], Doc("Every plan of the catalogue.")]
    stripe_enabled: Annotated[bool, Doc("Whether this server has Stripe keys.", True)]
    way_out: Annotated[
        str,
        Doc(
            "How this team raises a cap on this server: Checkout, or who to ask.",
            "upgrade at https://…/billing/",
        ),
    ]
    can_manage: Annotated[bool, Doc("Whether the caller may buy.", True)]
    can_open_portal: Annotated[bool, Doc("Whether the caller may open the billing portal.", False)]


class StripeRedirect(TypedDict):
    url: Annotated[str, Doc("Where to send the browser.", "https://checkout.stripe.com/c/pay/cs_…")]


class StripeEventReceived(TypedDict):
    status: Annotated[
        Literal["received", "duplicate"],
        Doc("received, or duplicate for an event already stored.", "received"),
    ]
    event: Annotated[str, Doc("Stripe's event id.", "evt_1QxY…")]


# -------------------------------------------------------------------------------------- downloads, staff


class ExportDownload(TypedDict):
    filename: Annotated[str, Doc("The file's name.", "payments.knownbase.json")]
    text: Annotated[str, Doc("The file's content.", "{…}")]
    content_type: Annotated[str, Doc("Its media type.", "application/json")]


class ProjectDeleted(TypedDict):
    status: Annotated[Literal["deleted"], Doc("What happened.", "deleted")]
    slug: Annotated[str, Doc("The deleted project's slug.", "payments")]


class CapWarning(TypedDict):
    cap: Annotated[
        str, Doc("The capped resource.", "notes", choices=("projects", "notes", "members", "api_keys"))
    ]
    label: Annotated[str, Doc("The cap in words.", "notes")]
    used: Annotated[int, Doc("What the team uses of it.", 850)]
    limit: Annotated[int, Doc("The plan's cap.", 1000)]
    full: Annotated[bool, Doc("Whether the cap is reached: the next one is refused.", False)]


class CapStanding(TypedDict):
    """What every signed-in page's shell shows: the plan in force and the caps nearly or fully used."""

    plan: Annotated[str, Doc("The name of the plan in force.", "Free")]
    warnings: Annotated[list[CapWarning], Doc("Each cap at or past the warning share, fullest first.")]
    way_out: Annotated[str, Doc("What to do about it on this server, for this person.")]
    billing_link: Annotated[bool, Doc("Whether the billing page can change the plan for this person.", False)]
