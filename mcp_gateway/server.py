"""The MCP servers (full and core tool sets) and their streamable HTTP apps."""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin
from urllib.parse import urlsplit

from django.conf import settings
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from edge.outage import database_unavailable
from edge.rate import ahit
from edge.site import MCP_PATH, mcp_url, site_url
from mcp_gateway import tools as _tools  # noqa: F401  (registers the tools)
from mcp_gateway.auth import (
    READ_SCOPE,
    CredentialVerifier,
    calling_client,
    current_principal,
    unverified_credential,
)
from mcp_gateway.results import error
from mcp_gateway.schema import compact_schema, one_line
from mcp_gateway.tooling import TOOLS, tool_param_names

INSTRUCTIONS = (
    "Knownbase is this team's durable project memory. Call get_context at the start of a task, "
    "remember durable facts as you learn them, and checkpoint before you stop."
)


def _first_validation_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    return f"`{where}`: {first['msg']}."


def _is_text(annotation: Any) -> bool:
    """str, Annotated[str, ...], or an optional of either."""
    if annotation is str:
        return True
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_text(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return any(_is_text(arg) for arg in get_args(annotation) if arg is not type(None))
    return False


class TextKeepingMetadata(FuncMetadata):
    """The SDK parses any JSON-looking string into an object unless the parameter is exactly `str`,
    so `str | None` text such as a note body holding a JSON snippet would be refused. Text stays text
    here; lists sent as JSON strings (some clients do) are still parsed."""

    def pre_parse_json(self, data: dict[str, Any]) -> dict[str, Any]:
        fields = self.arg_model.model_fields
        text_fields = {name for name, info in fields.items() if _is_text(info.annotation)}
        parsed = super().pre_parse_json(data)
        return {key: data[key] if key in text_fields else value for key, value in parsed.items()}


def _client_name(context: Context[Any, Any] | None) -> str:
    """The MCP client's own name (clientInfo), when the session or the request carries it."""
    try:
        params = context.session.client_params if context is not None else None
    except (AttributeError, LookupError, ValueError):
        return ""
    info = getattr(params, "client_info", None) if params is not None else None
    return str(getattr(info, "name", "") or "")


class KnownbaseMCP(MCPServer[Any]):
    """Answers bad arguments with an in-band invalid_argument result, never a protocol error."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        spec = TOOLS.get(name)
        if spec is None or self._tool_manager.get_tool(name) is None:
            return error("invalid_argument", f"There is no tool {name!r}. Call tools/list to see the tools.")
        if unverified_credential():
            # The database did not answer when the credential was checked: nothing can run.
            outage = database_unavailable()
            return error(outage.code, outage.message, **outage.details)
        calling_client.set(_client_name(context))
        principal = current_principal()
        decision = await ahit(principal.rate_limit_key, principal.requests_per_minute)
        if not decision.allowed:
            return error(
                "rate_limited",
                f"This credential made more than {decision.limit} tool calls this minute (the team plan's "
                f"limit). Retry in {decision.retry_after} s, or upgrade the plan for a higher limit.",
                retry_after=decision.retry_after,
            )
        unknown = sorted(set(arguments) - tool_param_names(spec.fn))
        if unknown:
            allowed = ", ".join(sorted(tool_param_names(spec.fn))) or "none"
            return error("invalid_argument", f"Unknown argument(s) {unknown} for {name}. Allowed: {allowed}.")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return error("invalid_argument", _first_validation_error(exc.__cause__))
            return error("internal", "The server failed to complete this call; nothing was changed.")


def transport_security() -> TransportSecuritySettings:
    hosts: list[str] = []
    for host in settings.ALLOWED_HOSTS:
        hosts += [host, f"{host}:*"]
    site = urlsplit(site_url())
    origins = [f"{site.scheme}://{site.netloc}", *settings.MCP_ALLOWED_ORIGINS]
    origins += [f"http://{h}:*" for h in ("127.0.0.1", "localhost", "[::1]") if h in settings.ALLOWED_HOSTS]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection="*" not in settings.ALLOWED_HOSTS,
        allowed_hosts=hosts,
        allowed_origins=origins,
    )


def build_server(core_only: bool = False, *, http: bool = True) -> KnownbaseMCP:
    """The MCP server; over HTTP it authenticates Bearer credentials, over stdio the process acts for
    the one credential it was started with (mcp_gateway.auth.process_principal)."""
    if not http:
        server = KnownbaseMCP(name="knownbase", instructions=INSTRUCTIONS)
    else:
        server = KnownbaseMCP(
            name="knownbase",
            instructions=INSTRUCTIONS,
            token_verifier=CredentialVerifier(mcp_url()),
            # Plain strings, validated by the model: a parsed URL would gain a trailing slash.
            auth=AuthSettings.model_validate(
                {
                    "issuer_url": site_url(),
                    "resource_server_url": mcp_url(),
                    "validate_token_resource": True,
                    "required_scopes": [READ_SCOPE],
                }
            ),
        )
    for spec in TOOLS.values():
        if core_only and not spec.core:
            continue
        server.add_tool(
            spec.fn, name=spec.name, description=one_line(spec.description), annotations=spec.annotations
        )
        registered = server._tool_manager.get_tool(spec.name)
        if registered is not None:
            # Only the published schema is compacted; arguments are still validated in full.
            registered.parameters = compact_schema(registered.parameters)
            registered.fn_metadata = TextKeepingMetadata(**dict(registered.fn_metadata))
    return server


class PostOnly:
    """In front of the /mcp endpoint: a stateless server has no stream to offer on GET (the SDK would
    hold one open that never carries anything) and no session to DELETE, so an authenticated request
    other than POST is 405 with `Allow: POST`, which the transport spec allows and clients handle by
    carrying on with POST. An unauthenticated one still gets the 401 that tells it how to sign in."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = scope.get("user")
        if scope["type"] == "http" and scope["method"] != "POST" and getattr(user, "is_authenticated", False):
            response = PlainTextResponse("Method Not Allowed: this server answers POST only.", 405)
            response.headers["Allow"] = "POST"
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def build_http_app(server: KnownbaseMCP) -> Starlette:
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=transport_security(),
    )
    # Inside the route, after the SDK's authentication middleware has resolved the credential.
    endpoints = [route for route in app.routes if isinstance(route, Route) and route.path == MCP_PATH]
    if len(endpoints) != 1:
        raise RuntimeError("the MCP SDK's app no longer has one /mcp route to guard")
    endpoints[0].app = PostOnly(endpoints[0].app)
    return app
