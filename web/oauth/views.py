"""The authorization server's pages and endpoints: DOT's views with the product's policy on top
(the consent page, registration limits), and the Connected apps page."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from oauth2_provider.views import AuthorizationView
from oauth2_provider.views.dynamic_client_registration import (
    DynamicClientRegistrationManagementView,
    DynamicClientRegistrationView,
)

from edge import bounded_json, doors
from edge.client_address import client_address
from edge.errors import raise_for_access
from memory import inputs, store
from memory.store import StoreError, User
from web.oauth.forms import ConsentForm
from web.oauth.redirects import is_loopback, redirect_uri_problem
from web.oauth.validator import CONSENT
from web.pages import navigation, page

# Grant types a registration may ask for: the authorization code flow and its refresh tokens.
SUPPORTED_GRANT_TYPES = frozenset({"authorization_code", "refresh_token"})


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # the views below require a signed-in user
    return user


class ConsentView(AuthorizationView):
    """DOT's authorization endpoint; its form is the consent page, where the user chooses the
    team, optionally one project, and read-only or read-write access for the client."""

    template_name = "oauth/consent.html"
    form_class = ConsentForm

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if "approval_prompt" in request.GET:
            # A client may not skip the consent page: the team and access are chosen there.
            query = request.GET.copy()
            del query["approval_prompt"]
            request.GET = query  # type: ignore[assignment]  # a mutable copy on purpose
        response: HttpResponseBase = super().get(request, *args, **kwargs)
        return response

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = super().get_form_kwargs()
        kwargs["user"] = _user(self.request)
        return kwargs

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        # The consent page is a signed-in page like any other: the app's header and navigation.
        context["nav"] = navigation(self.request, None)
        application = context.get("application")
        redirect_uri = str(context.get("redirect_uri") or "")
        if application is not None:
            context["client_name"] = application.name or application.client_id
            context["redirect_host"] = urlsplit(redirect_uri).netloc or redirect_uri
            context["on_this_computer"] = is_loopback(redirect_uri)
        return context

    def form_valid(self, form: ConsentForm) -> HttpResponse:
        self.consent = form.cleaned_data.get("consent")
        response: HttpResponse = super().form_valid(form)
        return response

    def form_invalid(self, form: ConsentForm) -> HttpResponse:
        application = store.find_oauth_client(
            store.principal_for_account(_user(self.request)), str(form.data.get("client_id", ""))
        )
        if application is None:
            context = {"error": {"error": "invalid_request"}, "nav": navigation(self.request, None)}
            return render(self.request, self.template_name, context, status=400)
        context = self.get_context_data(
            form=form, application=application, redirect_uri=form.data.get("redirect_uri", "")
        )
        response: HttpResponse = self.render_to_response(context, status=400)
        return response

    def create_authorization_response(
        self, request: HttpRequest, scopes: str, credentials: dict[str, Any], allow: bool
    ) -> Any:
        consent = getattr(self, "consent", None)
        if allow and consent is not None:
            credentials[CONSENT] = consent
        return super().create_authorization_response(request, scopes, credentials, allow)


def _invalid(error: str, description: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": error, "error_description": description}, status=status)


def _size_refusal(request: HttpRequest) -> JsonResponse | None:
    """A registration body past inputs.OAUTH_REGISTRATION_BYTES: 413, by its declared length before
    it is read (Django reads no more than that), or by its size when no length was declared."""
    limit = inputs.OAUTH_REGISTRATION_BYTES.max_length
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    try:
        too_large = declared > limit or len(request.body) > limit  # read only within its length
    except RequestDataTooBig:
        too_large = True
    if too_large:
        return _invalid(
            "invalid_client_metadata", f"The registration is larger than {limit} bytes of JSON.", status=413
        )
    return None


def _redirect_uris_refusal(uris: object) -> JsonResponse | None:
    if not isinstance(uris, list):
        return None  # DOT says what redirect_uris must be
    most = inputs.OAUTH_REDIRECT_URIS.max_items
    if len(uris) > most:
        return _invalid(
            "invalid_redirect_uri", f"At most {most} redirect URIs may be registered; {len(uris)} were sent."
        )
    longest = inputs.OAUTH_REDIRECT_URI.max_length
    for uri in uris:
        if isinstance(uri, str) and len(uri) > longest:
            return _invalid(
                "invalid_redirect_uri", f"A redirect URI may be at most {longest} characters long."
            )
        problem = redirect_uri_problem(uri) if isinstance(uri, str) else None
        if problem:
            return _invalid("invalid_redirect_uri", problem)
    return None


def _metadata_refusal(request: HttpRequest) -> JsonResponse | None:
    """Our rules on top of DOT's validation of RFC 7591 client metadata: a bounded body (size,
    nesting, the count and length of redirect URIs), a client name the screening gate passes,
    redirect URIs (http only on loopback) and grant types (the authorization code flow only)."""
    too_large = _size_refusal(request)
    if too_large is not None:
        return too_large
    try:
        data = bounded_json.loads(request.body)
    except bounded_json.TooDeep as error:
        return _invalid(
            "invalid_client_metadata", f"The registration is nested deeper than {error.limit} levels."
        )
    except ValueError:
        return None  # DOT answers malformed JSON itself
    if not isinstance(data, dict):
        return None
    try:
        store.screen_client_name(store.principal_for_account(), data.get("client_name"))
    except StoreError as error:
        return JsonResponse(
            {"error": "invalid_client_metadata", "error_description": error.message}, status=400
        )
    uris = _redirect_uris_refusal(data.get("redirect_uris"))
    if uris is not None:
        return uris
    grant_types = data.get("grant_types")
    if isinstance(grant_types, list) and not set(map(str, grant_types)) <= SUPPORTED_GRANT_TYPES:
        return JsonResponse(
            {
                "error": "invalid_client_metadata",
                "error_description": "Only the authorization_code grant (with refresh_token) is supported.",
            },
            status=400,
        )
    return None


class RegistrationView(DynamicClientRegistrationView):
    """RFC 7591 registration, open to anyone (MCP clients register themselves) and so limited per
    client address; registrations that never obtain a token are deleted after a day."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        decision = doors.OAUTH_REGISTRATION.attempt(address=client_address(request)).hit()
        if not decision.allowed:
            return JsonResponse(
                {
                    "error": "rate_limited",
                    "error_description": f"More than {decision.limit} registrations a minute from this "
                    f"address; retry in {decision.retry_after} s.",
                },
                status=429,
                headers={"Retry-After": str(decision.retry_after)},
            )
        refusal = _metadata_refusal(request)
        if refusal is not None:
            return refusal
        response: HttpResponse = super().post(request, *args, **kwargs)
        return response


class RegistrationManagementView(DynamicClientRegistrationManagementView):
    """RFC 7592 read, update and delete of a registration, with the same metadata rules."""

    def put(self, request: HttpRequest, client_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = _metadata_refusal(request)
        if refusal is not None:
            return refusal
        response: HttpResponse = super().put(request, client_id, *args, **kwargs)
        return response


@login_required
@require_GET
def connected_apps(request: HttpRequest) -> HttpResponse:
    """Every OAuth client the signed-in user connected and that can still act, with what it may do."""
    connections = store.list_connections(store.principal_for_account(_user(request)))["connections"]
    return page(request, "oauth/apps.html", {"connections": connections})


@login_required
@require_POST
def revoke_app(request: HttpRequest, public_id: str) -> HttpResponse:
    try:
        revoked = store.revoke_connection(store.principal_for_account(_user(request)), public_id)
    except StoreError as error:
        raise_for_access(error)
        raise
    messages.success(request, f"{revoked['client_name']} can no longer use Knownbase.")
    return redirect("oauth-apps")
