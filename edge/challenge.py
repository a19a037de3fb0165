"""The `WWW-Authenticate: Bearer` challenges of /mcp and the REST API (RFC 6750 §3, RFC 9728 §5.1).

One wording for both doors: a request without any bearer credential gets no `error=` (§3.1: the
client may not have known it needed one), only where to find out how to get one (the protected
resource metadata) and the scopes there are; a bad token gets `invalid_token`; a token without the
scope a call needs gets `insufficient_scope` naming that scope.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from edge.principals import OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE
from edge.site import mcp_url

REALM = "knownbase"
ALL_SCOPES = (OAUTH_READ_SCOPE, OAUTH_WRITE_SCOPE)


def resource_metadata_url() -> str:
    """RFC 9728 §3.1: the well-known prefix between the host and the path of the /mcp resource."""
    parts = urlsplit(mcp_url())
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc}/.well-known/oauth-protected-resource{path}"


def bearer_challenge(error: str | None = None, *, scope: str = "") -> str:
    params = [f'realm="{REALM}"']
    if error:
        params.append(f'error="{error}"')
    params.append(f'resource_metadata="{resource_metadata_url()}"')
    params.append(f'scope="{scope or " ".join(ALL_SCOPES)}"')
    return "Bearer " + ", ".join(params)


def no_credential_challenge() -> str:
    return bearer_challenge()


def invalid_token_challenge() -> str:
    return bearer_challenge("invalid_token")


def insufficient_scope_challenge(scope: str) -> str:
    return bearer_challenge("insufficient_scope", scope=scope)
