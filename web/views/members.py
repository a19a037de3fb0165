"""Members and invitations: invite by email with a role, change roles, remove, leave, accept."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from accounts import actions
from accounts.models import Invitation, Membership, Role
from billing import actions as billing_actions
from billing import caps
from billing.models import Plan
from edge.errors import http_status
from memory.store import Principal, StoreError
from web import mail, onboarding
from web.forms import InvitedSignupForm, InviteForm, MemberForm, RoleForm, role_choices
from web.pages import page
from web.session import choose_team, current_team, manager_page, signed_in_user, team_page
from web.views.account import MODEL_BACKEND


def _members_page(
    request: HttpRequest, principal: Principal, invite_form: InviteForm | None = None, status: int = 200
) -> HttpResponse:
    user = signed_in_user(request)
    plan = Plan.of_team(principal.team_id)
    context = {
        "memberships": Membership.objects.filter(team_id=principal.team_id)
        .select_related("user")
        .order_by("user__email"),
        "invitations": Invitation.objects.pending().filter(team_id=principal.team_id).order_by("email"),
        "invite_form": invite_form or InviteForm(include_owner=principal.role == Role.OWNER),
        "role_choices": role_choices(include_owner=principal.role == Role.OWNER),
        "email_verified": bool(user and user.email_verified),
        "members_used": caps.members_used(principal.team_id),
        "members_limit": plan.max_members,
        "plan_name": plan.name,
    }
    return page(request, "web/members.html", context, principal=principal, status=status)


def _member(principal: Principal, form: MemberForm) -> Membership:
    """The team's membership named by the form, or 404: another team's member is not found."""
    if not form.is_valid():
        raise Http404("No such member.")
    membership = (
        Membership.objects.select_related("user")
        .filter(team_id=principal.team_id, user__email__iexact=form.cleaned_data["email"])
        .first()
    )
    if membership is None:
        raise Http404("No such member.")
    return membership


@team_page
def members(request: HttpRequest, principal: Principal) -> HttpResponse:
    return _members_page(request, principal)


@manager_page
@require_POST
def invite(request: HttpRequest, principal: Principal) -> HttpResponse:
    user = signed_in_user(request)
    form = InviteForm(request.POST, include_owner=principal.role == Role.OWNER)
    if user is None or not form.is_valid():
        return _members_page(request, principal, form, status=400)
    try:
        invitation, token = billing_actions.invite_member(
            current_team(principal),
            form.cleaned_data["email"],
            form.cleaned_data["role"],
            invited_by=user,
            actor=principal,
        )
    except StoreError as error:
        form.add_error(None, error.message)
        return _members_page(request, principal, form, status=http_status(error))
    if mail.send_invitation(invitation, token, user):
        messages.success(request, f"Invitation sent to {invitation.email}.")
    else:
        messages.warning(
            request, f"The invitation to {invitation.email} is saved but the email could not be sent."
        )
    return redirect("web:members")


@manager_page
@require_POST
def change_role(request: HttpRequest, principal: Principal) -> HttpResponse:
    form = RoleForm(request.POST)
    membership = _member(principal, form)
    try:
        actions.change_role(membership, form.cleaned_data["role"], actor=principal)
    except StoreError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{membership.user.email} is now {membership.role}.")
    return redirect("web:members")


@manager_page
@require_POST
def remove(request: HttpRequest, principal: Principal) -> HttpResponse:
    membership = _member(principal, MemberForm(request.POST))
    if membership.user_id == principal.user_id:
        messages.error(request, "To leave the team yourself, use “Leave this team”.")
        return redirect("web:members")
    try:
        actions.remove_member(membership, actor=principal)
    except StoreError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, f"{membership.user.email} is no longer in the team; their keys are revoked."
        )
    return redirect("web:members")


@team_page
@require_http_methods(["GET", "POST"])
def leave(request: HttpRequest, principal: Principal) -> HttpResponse:
    team = current_team(principal)
    if request.method == "POST":
        membership = Membership.objects.get(team_id=principal.team_id, user_id=principal.user_id)
        try:
            actions.leave_team(membership)
        except StoreError as error:
            messages.error(request, error.message)
            return redirect("web:members")
        messages.success(request, f"You left {team.name}.")
        return redirect("web:teams")
    return page(request, "web/leave.html", {"team": team}, principal=principal)


@manager_page
@require_POST
def revoke_invitation(request: HttpRequest, principal: Principal, public_id: str) -> HttpResponse:
    invitation = Invitation.objects.pending().filter(team_id=principal.team_id, public_id=public_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    actions.revoke_invitation(invitation, actor=principal)
    messages.success(request, f"The invitation to {invitation.email} is revoked.")
    return redirect("web:members")


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: accept as the signed-in invitee, or sign up with the invited address."""
    found = Invitation.for_token(token)
    if found is None or found.state != "pending":
        state = found.state if found else "invalid"
        return page(request, "web/invitation.html", {"state": state}, status=400)
    user = signed_in_user(request)
    signup_form = None
    error = ""
    if user is None:
        signup_form = InvitedSignupForm(request.POST if request.method == "POST" else None, email=found.email)
        if request.method == "POST" and signup_form.is_valid():
            try:
                user = onboarding.sign_up_invited(
                    found, signup_form.cleaned_data["password"], name=signup_form.cleaned_data["name"]
                )
            except StoreError as refused:
                signup_form.add_error(None, refused.message)
            else:
                login(request, user, backend=MODEL_BACKEND)
                choose_team(request, found.team_id)
                messages.success(request, f"Welcome to {found.team.name}!")
                return redirect("web:home")
    elif request.method == "POST":
        try:
            billing_actions.accept_invitation(found, user)
        except StoreError as refused:
            error = refused.message
        else:
            choose_team(request, found.team_id)
            messages.success(request, f"You joined {found.team.name} as {found.role}.")
            return redirect("web:home")
    context = {
        "state": "pending",
        "invitation": found,
        "signup_form": signup_form,
        "error": error,
        "token": token,
        "wrong_account": user is not None and user.email.lower() != found.email,
        "unverified": user is not None and not user.email_verified,
    }
    failed = bool(error or (signup_form is not None and signup_form.errors))
    return page(request, "web/invitation.html", context, status=400 if failed else 200)
