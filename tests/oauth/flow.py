"""What the OAuth tests drive over HTTP: a person's browser (login and consent pages), a client's
own protocol requests (registration, authorization URL, token exchange), and /mcp itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
from mcp.client.auth.oauth2 import PKCEParameters

PASSWORD = "correct horse battery"  # the cast's password (tests/conftest.py)
LOOPBACK_CALLBACK = "http://127.0.0.1:33418/callback"


@dataclass
class Site:
    """A live server whose SITE_URL is its own address."""

    url: str

    @property
    def mcp(self) -> str:
        return f"{self.url}/mcp"


class _FormReader(HTMLParser):
    """The inputs, selects (with their options) and buttons of one page's forms."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden: dict[str, str] = {}
        self.options: dict[str, list[str]] = {}
        self.buttons: list[str] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "input" and found.get("type") == "hidden":
            self.hidden[found["name"]] = found.get("value", "")
        elif tag == "select":
            self._select = found["name"]
            self.options[self._select] = []
        elif tag == "option" and self._select is not None:
            self.options[self._select].append(found.get("value", ""))
        elif tag == "button":
            self.buttons.append(found.get("name", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def read_form(html: str) -> _FormReader:
    reader = _FormReader()
    reader.feed(html)
    return reader


class Browser:
    """A person's browser: cookies, the login form with its CSRF token, the consent form."""

    def __init__(self, site: Site, email: str) -> None:
        self.site = site
        self.email = email
        self.http = httpx2.Client(base_url=site.url, follow_redirects=False, timeout=30)
        self.visited: list[str] = []

    def get(self, url: str) -> httpx2.Response:
        """GET `url`, following redirects within the site and logging in when sent to /login/.
        Stops at a redirect that leaves the site (back to the client) or at a page."""
        response = self._get(url)
        while response.is_redirect:
            location = response.headers["location"]
            target = urlsplit(location)
            if target.netloc and f"{target.scheme}://{target.netloc}" != self.site.url:
                return response
            if target.path == "/login/":
                response = self._log_in(parse_qs(target.query).get("next", ["/"])[0])
            else:
                response = self._get(location)
        return response

    def _get(self, url: str) -> httpx2.Response:
        self.visited.append(str(urlsplit(url).path))
        return self.http.get(url)

    def _log_in(self, next_url: str) -> httpx2.Response:
        form = self._get(f"/login/?{urlencode({'next': next_url})}")
        assert form.status_code == 200
        fields = read_form(form.text).hidden
        response = self.http.post(
            "/login/",
            data={**fields, "username": self.email, "password": PASSWORD},
            headers={"Referer": f"{self.site.url}/login/"},
        )
        assert response.status_code == 302, "the login form refused the cast's password"
        assert response.headers["location"] == next_url
        return self._get(next_url)

    def post(self, url: str, **data: str) -> httpx2.Response:
        """A POST with the CSRF token from the cookie, as a form on any of the site's pages would."""
        data = {"csrfmiddlewaretoken": self.http.cookies["csrftoken"], **data}
        return self.http.post(url, data=data, headers={"Referer": f"{self.site.url}/"})

    def post_form(self, url: str, page: httpx2.Response, **choices: str) -> httpx2.Response:
        """Submit the page's form (its hidden fields and CSRF token) with `choices` added."""
        fields = read_form(page.text).hidden
        return self.http.post(url, data={**fields, **choices}, headers={"Referer": str(page.url)})

    def consent(
        self,
        authorize_url: str,
        *,
        team: str = "acme",
        project: str = "",
        access: str = "read_write",
        allow: bool = True,
    ) -> httpx2.Response:
        """Open the authorization URL, log in if asked, and answer the consent page."""
        page = self.get(authorize_url)
        if page.status_code != 200:
            return page
        choices = {"team": team, "project": project, "access": access}
        choices.update({"allow": "on"} if allow else {"deny": "1"})
        return self.post_form(authorize_url, page, **choices)


@dataclass
class Authorization:
    """One authorization request a client builds: its URL and the PKCE verifier it keeps."""

    site: Site
    client_id: str
    redirect_uri: str = LOOPBACK_CALLBACK
    pkce: PKCEParameters = field(default_factory=PKCEParameters.generate)
    state: str = "state-123"

    def url(self, **overrides: str | None) -> str:
        params: dict[str, str | None] = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "state": self.state,
            "scope": "read write",  # what an MCP client asks after discovery (the 401 names both)
            "code_challenge": self.pkce.code_challenge,
            "code_challenge_method": "S256",
            "resource": self.site.mcp,
        }
        params.update(overrides)
        query = urlencode({key: value for key, value in params.items() if value is not None})
        return f"/oauth/authorize/?{query}"

    def exchange(self, code: str, **overrides: str | None) -> httpx2.Response:
        data: dict[str, str | None] = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri,
            "client_id": self.client_id,
            "code_verifier": self.pkce.code_verifier,
            "resource": self.site.mcp,
        }
        data.update(overrides)
        return httpx2.post(
            f"{self.site.url}/oauth/token/", data={k: v for k, v in data.items() if v is not None}
        )


def redirect_params(response: httpx2.Response) -> dict[str, str]:
    """The query of a redirect back to the client (code, state, iss, or error)."""
    assert response.status_code == 302, response.text[:500]
    return {key: values[0] for key, values in parse_qs(urlsplit(response.headers["location"]).query).items()}


def register(site: Site, redirect_uris: list[str] | None = None, **metadata: Any) -> httpx2.Response:
    body = {
        "client_name": "Test agent",
        "redirect_uris": redirect_uris or [LOOPBACK_CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        **metadata,
    }
    return httpx2.post(f"{site.url}/oauth/register/", json=body)


def registered_client(site: Site, redirect_uris: list[str] | None = None) -> str:
    response = register(site, redirect_uris)
    assert response.status_code == 201, response.text
    return str(response.json()["client_id"])


@dataclass
class Connected:
    client_id: str
    tokens: dict[str, Any]

    @property
    def access_token(self) -> str:
        return str(self.tokens["access_token"])

    @property
    def refresh_token(self) -> str:
        return str(self.tokens["refresh_token"])


def connect(site: Site, browser: Browser, redirect_uri: str = LOOPBACK_CALLBACK, **consent: Any) -> Connected:
    """Register a client, consent as `browser`'s user and exchange the code for tokens."""
    authorization = Authorization(site, registered_client(site, [redirect_uri]), redirect_uri)
    code = redirect_params(browser.consent(authorization.url(), **consent))["code"]
    response = authorization.exchange(code)
    assert response.status_code == 200, response.text
    return Connected(authorization.client_id, response.json())


def refresh(site: Site, client_id: str, refresh_token: str) -> httpx2.Response:
    return httpx2.post(
        f"{site.url}/oauth/token/",
        data={"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id},
    )


def mcp_status(site: Site, token: str) -> int:
    """The HTTP status /mcp answers a tools/list with `token` as the bearer credential."""
    response = httpx2.post(
        site.mcp,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        },
    )
    return response.status_code
