"""Account pages: sign up, sign in and out, password change and reset, address verification."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.utils.encoding import force_str
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.views.decorators.http import require_http_methods

from edge import doors
from edge.client_address import client_address
from memory import inputs, store
from memory.store import StoreError, User
from web import mail, tasks
from web.forms import LoginForm, PasswordResetRequestForm, SignupForm
from web.pages import page
from web.session import account_page, choose_team, current_principal, signed_in_user
from web.views.errors import too_many

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# Django's own trick: the reset link's token moves into the session and out of the URL, so it cannot
# leak through the Referer header of the page where the new password is typed.
RESET_URL_TOKEN = "set-password"  # noqa: S105 - a path segment, not a secret
RESET_SESSION_KEY = "_knownbase_reset_token"


def login_attempt(request: HttpRequest, email: str) -> doors.Attempt:
    """A sign-in attempt at the login door, shared by /login/ and /admin/login/."""
    return doors.LOGIN.attempt(account=email[: inputs.EMAIL.max_length], address=client_address(request))


def _safe_next(request: HttpRequest) -> str:
    target = str(request.POST.get("next") or request.GET.get("next") or "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if signed_in_user(request) is not None:
        return redirect("web:home")
    if request.method == "POST":
        decision = doors.SIGNUP.attempt(address=client_address(request)).hit()
        if not decision.allowed:
            return too_many(
                request,
                f"Too many sign-ups from this address. Try again in {doors.wait_words(decision.retry_after)}.",
                decision.retry_after,
            )
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = store.sign_up(
                store.principal_for_account(),
                data["email"],
                data["password"],
                name=data["name"],
                team_name=data["team"],
            )
        except IntegrityError:  # the same address signed up a moment ago in another request
            form.add_error(
                "email", "An account with this address exists already: sign in, or reset the password."
            )
        except StoreError as error:
            form.add_error(None, error.message)
        else:
            user = made["user"]
            login(request, user, backend=MODEL_BACKEND)
            choose_team(request, made["team_id"])
            if mail.send_verification(user):
                messages.success(
                    request, f"Welcome! We sent a link to {user.email}: open it to confirm your address."
                )
            else:
                messages.warning(
                    request, "Welcome! We could not send the confirmation email; send it again below."
                )
            return redirect("web:home")
    return page(request, "web/signup.html", {"form": form}, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    form = LoginForm(request, data=request.POST if request.method == "POST" else None)
    refusal = ""
    status = 200
    if request.method == "POST":
        throttle = login_attempt(request, str(request.POST.get("username", "")))
        wait = throttle.retry_after()
        if wait:
            refusal = (
                f"Too many failed sign-ins for this account or from this address. Try again in "
                f"{doors.wait_words(wait)}, or reset your password."
            )
            status = 429
        elif form.is_valid():
            throttle.forgive("account")
            login(request, form.get_user(), backend=MODEL_BACKEND)
            current_principal(request)  # the first team becomes the session's
            return redirect(next_url or settings.LOGIN_REDIRECT_URL)
        else:
            throttle.fail()
            status = 400
    context = {"form": form, "next": next_url, "refusal": refusal}
    return page(request, "web/login.html", context, status=status)


def admin_login(request: HttpRequest) -> HttpResponseBase:
    """The admin site's sign-in behind the same door as /login/: its failures count toward the same
    per-account and per-address limits, and past them even the right password is refused."""
    if request.method != "POST":
        return admin.site.login(request)
    throttle = login_attempt(request, str(request.POST.get("username", "")))
    wait = throttle.retry_after()
    if wait:
        return too_many(
            request,
            f"Too many failed sign-ins for this account or from this address. Try again in "
            f"{doors.wait_words(wait)}.",
            wait,
        )
    response = admin.site.login(request)
    if response.status_code == 302 and request.user.is_authenticated:
        throttle.forgive("account")
    elif response.status_code == 200:  # the form again, with its error; a CSRF refusal is no attempt
        throttle.fail()
    return response


@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        logout(request)
        messages.info(request, "You are signed out.")
        return redirect("web:home")
    if signed_in_user(request) is None:
        return redirect("web:home")
    return page(request, "web/logout.html")


@account_page
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest, user: User) -> HttpResponse:
    form = PasswordChangeForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        store.change_password(store.principal_for_account(user), form.cleaned_data["new_password1"], "change")
        update_session_auth_hash(request, user)  # this session stays signed in; the others end
        messages.success(request, "Your password is changed. Other sessions were signed out.")
        return redirect("web:password-change")
    return page(request, "web/password_change.html", {"form": form}, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    form = PasswordResetRequestForm(request.POST if request.method == "POST" else None)
    refusal = ""
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        decision = doors.PASSWORD_RESET.attempt(account=email, address=client_address(request)).hit()
        wait = decision.retry_after
        if decision.allowed:
            user = store.active_user(store.principal_for_account(), email=email)
            # Queued whether or not the address has an account (the task sends nothing without one),
            # and the same answer either way: neither status nor work tells which addresses exist.
            tasks.send_password_reset.delay(user.pk if user is not None else None)
            return redirect("web:password-reset-sent")
        refusal = f"Too many reset requests. Try again in {doors.wait_words(wait)}."
    status = 429 if refusal else 400 if form.errors else 200
    return page(request, "web/password_reset.html", {"form": form, "refusal": refusal}, status=status)


def password_reset_sent(request: HttpRequest) -> HttpResponse:
    return page(request, "web/password_reset_sent.html")


def _user_from_uid(uidb64: str) -> User | None:
    try:
        pk = int(force_str(urlsafe_base64_decode(uidb64)))
    except (TypeError, ValueError, OverflowError):
        return None
    return store.active_user(store.principal_for_account(), user_id=pk)


@require_http_methods(["GET", "POST"])
def password_reset_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    user = _user_from_uid(uidb64)
    if token != RESET_URL_TOKEN:
        if user is not None and default_token_generator.check_token(user, token):
            request.session[RESET_SESSION_KEY] = token
            return redirect("web:password-reset-confirm", uidb64=uidb64, token=RESET_URL_TOKEN)
        return page(request, "web/password_reset_set.html", {"valid": False}, status=400)
    session_token = str(request.session.get(RESET_SESSION_KEY, ""))
    if user is None or not default_token_generator.check_token(user, session_token):
        return page(request, "web/password_reset_set.html", {"valid": False}, status=400)
    form = SetPasswordForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        account = store.principal_for_account(user)
        store.change_password(account, form.cleaned_data["new_password1"], "reset")
        # The link reached the mailbox: that proves the address as well as a verification link would.
        store.mark_email_verified(account, user.email)
        del request.session[RESET_SESSION_KEY]
        messages.success(request, "Your password is changed: sign in with it.")
        return redirect("web:login")
    context = {"valid": True, "form": form}
    return page(request, "web/password_reset_set.html", context, status=400 if form.errors else 200)


@account_page
@require_http_methods(["GET", "POST"])
def verify_email(request: HttpRequest, user: User) -> HttpResponse:
    """Where the address stands, and a button that sends the link again."""
    refusal = ""
    if request.method == "POST" and not user.email_verified:
        decision = doors.VERIFICATION_MAIL.attempt(account=user.email).hit()
        if not decision.allowed:
            refusal = f"We sent several links already. Try again in {doors.wait_words(decision.retry_after)}."
        else:
            if mail.send_verification(user):
                messages.success(request, f"We sent a new link to {user.email}.")
            else:
                messages.error(request, "We could not send the email just now; try again later.")
            return redirect("web:verify-email")
    return page(request, "web/verify_email.html", {"refusal": refusal}, status=429 if refusal else 200)


@require_http_methods(["GET", "POST"])
def verify_email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The emailed link. Confirming takes a POST, so a mail scanner fetching the link confirms nothing."""
    claim = store.read_email_verification(store.principal_for_account(), token)
    if claim is None:
        return page(request, "web/verify_email_confirm.html", {"valid": False}, status=400)
    user = claim["user"]
    if user.email_verified and user.email == claim["email"]:
        # A link used before: say so, rather than offer a button that would change nothing.
        return page(
            request, "web/verify_email_confirm.html", {"valid": True, "done": True, "email": user.email}
        )
    if request.method == "POST":
        store.mark_email_verified(store.principal_for_account(user), claim["email"])
        messages.success(request, f"{user.email} is confirmed.")
        return redirect("web:home" if signed_in_user(request) else "web:login")
    return page(request, "web/verify_email_confirm.html", {"valid": True, "email": user.email})
