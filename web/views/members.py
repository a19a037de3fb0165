"""Members and invitations: invite by email with a role, change roles, remove, leave, accept."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from edge import doors
from edge.client_address import client_address
from edge.errors import http_status, raise_for_access
from memory import store
from memory.store import Principal, StoreError
from web import confirm, mail
from web.forms import InvitedSignupForm, InviteForm, MemberForm, RoleForm, role_choices
from web.pages import page
from web.session import choose_team, manager_page, signed_in_user, team_page
from web.views.account import MODEL_BACKEND
from web.views.errors import too_many


def _members_page(
    request: HttpRequest, principal: Principal, invite_form: InviteForm | None = None, status: int = 200
) -> HttpResponse:
    user = signed_in_user(request)
    is_owner = principal.role == "owner"
    members = store.list_members(principal)
    context = {
        "members": members["members"],
        "invitations": store.list_invitations(principal)["invitations"] if principal.can_manage else [],
        "invite_form": invite_form or InviteForm(include_owner=is_owner),
        "role_choices": role_choices(include_owner=is_owner),
        "email_verified": bool(user and user.email_verified),
        "members_used": members["used"],
        "members_limit": members["limit"],
        "plan_name": members["plan"],
    }
    return page(request, "web/members.html", context, principal=principal, status=status)


def _email(form: MemberForm) -> str:
    """The member the form names; a malformed one is not found, like another team's member."""
    if not form.is_valid():
        raise Http404("No such member.")
    return str(form.cleaned_data["email"])


@team_page
def members(request: HttpRequest, principal: Principal) -> HttpResponse:
    return _members_page(request, principal)


@manager_page
@require_POST
def invite(request: HttpRequest, principal: Principal) -> HttpResponse:
    form = InviteForm(request.POST, include_owner=principal.role == "owner")
    if not form.is_valid():
        return _members_page(request, principal, form, status=400)
    try:
        made = store.invite_member(principal, form.cleaned_data["email"], form.cleaned_data["role"])
    except StoreError as error:
        form.add_error(None, error.message)
        return _members_page(request, principal, form, status=http_status(error))
    invitation = made["invitation"]
    sent = mail.send_invitation(
        invitation["email"],
        made["token"],
        team=made["team_name"],
        role=invitation["role"],
        inviter=made["inviter"],
        days=made["valid_days"],
    )
    if sent:
        messages.success(request, f"Invitation sent to {invitation['email']}.")
    else:
        messages.warning(
            request, f"The invitation to {invitation['email']} is saved but the email could not be sent."
        )
    return redirect("web:members")


@manager_page
@require_POST
def change_role(request: HttpRequest, principal: Principal) -> HttpResponse:
    form = RoleForm(request.POST)
    email = _email(form)
    try:
        changed = store.change_member_role(principal, email, form.cleaned_data["role"])
    except StoreError as error:
        if error.code == "not_found":
            raise Http404(error.message) from None
        messages.error(request, error.message)
    else:
        messages.success(request, f"{changed['email']} is now {changed['role']}.")
    return redirect("web:members")


@manager_page
@require_POST
def remove(request: HttpRequest, principal: Principal) -> HttpResponse:
    email = _email(MemberForm(request.POST))
    if not confirm.confirmed(request):
        return confirm.confirmation_page(
            request,
            question=f"Remove {email} from the team?",
            detail="Their API keys stop working at once.",
            verb="Remove",
            cancel_url=reverse("web:members"),
            fields={"email": email},
        )
    try:
        removed = store.remove_member(principal, email)
    except StoreError as error:
        if error.code == "not_found":
            raise Http404(error.message) from None
        messages.error(request, error.message)
    else:
        messages.success(request, f"{removed['email']} is no longer in the team; their keys are revoked.")
    return redirect("web:members")


@team_page
@require_http_methods(["GET", "POST"])
def leave(request: HttpRequest, principal: Principal) -> HttpResponse:
    team = store.get_team(principal)
    if request.method == "POST":
        try:
            store.leave_team(store.principal_for_account(signed_in_user(request)), principal.team_id)
        except StoreError as error:
            messages.error(request, error.message)
            return redirect("web:members")
        messages.success(request, f"You left {team['name']}.")
        return redirect("web:teams")
    return page(request, "web/leave.html", {"team": team}, principal=principal)


@manager_page
@require_POST
def revoke_invitation(request: HttpRequest, principal: Principal, public_id: str) -> HttpResponse:
    try:
        revoked = store.revoke_invitation(principal, public_id)
    except StoreError as error:
        raise_for_access(error)
        raise
    messages.success(request, f"The invitation to {revoked['email']} is revoked.")
    return redirect("web:members")


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link: accept as the signed-in invitee, or sign up with the invited address."""
    # Every request counts, so invitation tokens cannot be tried at speed from one address.
    decision = doors.INVITATION.attempt(address=client_address(request)).hit()
    if not decision.allowed:
        return too_many(
            request,
            f"Too many invitation links opened from this address. Try again in "
            f"{doors.wait_words(decision.retry_after)}.",
            decision.retry_after,
        )
    user = signed_in_user(request)
    account = store.principal_for_account(user)
    try:
        found = store.get_invitation(account, token)
    except StoreError:
        found = None
    if found is None or found["state"] != "pending":
        state = found["state"] if found else "invalid"
        return page(request, "web/invitation.html", {"state": state}, status=400)
    signup_form = None
    error = ""
    if user is None:
        signup_form = InvitedSignupForm(
            request.POST if request.method == "POST" else None, email=found["email"]
        )
        if request.method == "POST" and signup_form.is_valid():
            try:
                user = store.sign_up_invited(
                    account,
                    token,
                    signup_form.cleaned_data["password"],
                    name=signup_form.cleaned_data["name"],
                )
            except StoreError as refused:
                signup_form.add_error(None, refused.message)
            else:
                login(request, user, backend=MODEL_BACKEND)
                choose_team(request, found["team_id"])
                messages.success(request, f"Welcome to {found['team_name']}!")
                return redirect("web:home")
    elif request.method == "POST":
        try:
            store.accept_invitation(account, token)
        except StoreError as refused:
            error = refused.message
        else:
            choose_team(request, found["team_id"])
            messages.success(request, f"You joined {found['team_name']} as {found['role']}.")
            return redirect("web:home")
    context = {
        "state": "pending",
        "invitation": found,
        "signup_form": signup_form,
        "error": error,
        "token": token,
        "wrong_account": user is not None and user.email.lower() != found["email"],
        "unverified": user is not None and not user.email_verified,
    }
    failed = bool(error or (signup_form is not None and signup_form.errors))
    return page(request, "web/invitation.html", context, status=400 if failed else 200)
