"""Every door a stranger can knock on, and how often: the one table of per-account and per-address
limits, each counted through edge.rate (so in the shared cache, with its fallback when that is down).

A door is declared once here: its name, the paths that share its counters, what one count is, the
setting that holds each limit and the window. Entry points look their door up and count through it
(`LOGIN.attempt(account=email, address=client_address(request))`); none declares a limit of its own.
The table in docs/safety.md is generated from this one (`markdown_table`) and a test compares them.

Two ways of counting:
- failures (sign-in): checked before the attempt (`retry_after`), counted only when it fails
  (`fail`), and an account's count forgiven when its owner gets in (`forgive`);
- requests (everything else): each request counts, and the one past the limit is refused (`hit`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from django.conf import settings

from edge import rate

Kind = Literal["account", "address"]
Counting = Literal["failures", "requests"]


@dataclass(frozen=True)
class Limit:
    """At most settings.<setting> counts per window for each value of `kind` (0: no limit)."""

    kind: Kind
    setting: str


@dataclass(frozen=True)
class Door:
    name: str
    paths: tuple[str, ...]  # every path whose requests count here (they share the counters)
    counts: str  # what one count is, for people
    counting: Counting
    limits: tuple[Limit, ...]
    window_setting: str = ""  # the window's length in seconds; empty: one minute

    @property
    def window(self) -> int:
        return int(getattr(settings, self.window_setting)) if self.window_setting else rate.WINDOW_SECONDS

    def limit(self, kind: Kind) -> int:
        for declared in self.limits:
            if declared.kind == kind:
                return int(getattr(settings, declared.setting))
        raise KeyError(f"door {self.name} has no per-{kind} limit")

    def attempt(self, *, account: str | None = None, address: str | None = None) -> Attempt:
        """One attempt at this door by an account, from an address (the kinds the door limits)."""
        given: dict[Kind, str | None] = {"account": account, "address": address}
        subjects: dict[Kind, str] = {}
        for declared in self.limits:
            value = given[declared.kind]
            if value is None:
                raise TypeError(f"door {self.name} counts per {declared.kind}: pass {declared.kind}=")
            subjects[declared.kind] = _scope(self.name, declared.kind, value)
        return Attempt(self, subjects)


def _scope(door: str, kind: Kind, value: str) -> str:
    # Hashed: addresses and emails stay out of cache key names (and within any key-length limit).
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    return f"door:{door}:{kind}:{digest}"


def _worst(decisions: list[rate.Decision]) -> rate.Decision:
    """The refusal with the longest wait among `decisions`, else the first of them (all allowed)."""
    refused = [decision for decision in decisions if not decision.allowed]
    if refused:
        return max(refused, key=lambda decision: decision.retry_after)
    return decisions[0] if decisions else rate.Decision(True, 0, 0)


class Attempt:
    """The counters one attempt at a door touches: one per kind the door limits."""

    def __init__(self, door: Door, subjects: dict[Kind, str]) -> None:
        self.door = door
        self.subjects = subjects

    def _each(self, count: Callable[..., rate.Decision], now: float | None) -> rate.Decision:
        return _worst(
            [
                count(scope, self.door.limit(kind), window=self.door.window, now=now)
                for kind, scope in self.subjects.items()
            ]
        )

    def retry_after(self, now: float | None = None) -> int:
        """Seconds until one more failure may be tried; 0 when every counter has room for it."""
        return self._each(rate.peek_next, now).retry_after

    def fail(self, now: float | None = None) -> None:
        """Count one failure against every subject."""
        self._each(rate.hit, now)

    def forgive(self, kind: Kind, now: float | None = None) -> None:
        """Forget the failures of one subject (an account after its owner signed in)."""
        rate.forget(self.subjects[kind], window=self.door.window, now=now)

    def peek(self, now: float | None = None) -> rate.Decision:
        """Whether a subject is already past its limit, without counting this request."""
        return self._each(rate.peek, now)

    def hit(self, now: float | None = None) -> rate.Decision:
        """Count this request against every subject; refused when any is past its limit."""
        return self._each(rate.hit, now)

    async def ahit(self, now: float | None = None) -> rate.Decision:
        """`hit` for asynchronous callers (the /mcp app)."""
        decisions = [
            await rate.ahit(scope, self.door.limit(kind), window=self.door.window, now=now)
            for kind, scope in self.subjects.items()
        ]
        return _worst(decisions)


def wait_words(seconds: int) -> str:
    """A wait as people read it on a page: "1 minute", "15 minutes"."""
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _per_account(setting: str) -> Limit:
    return Limit("account", setting)


def _per_address(setting: str) -> Limit:
    return Limit("address", setting)


# ------------------------------------------------------------------------------------------ the doors

LOGIN = Door(
    "login",
    ("POST /login/", "POST /admin/login/"),
    "failed sign-in (the right password past the limit is refused too)",
    "failures",
    (_per_account("LOGIN_FAILURES_PER_ACCOUNT"), _per_address("LOGIN_FAILURES_PER_ADDRESS")),
    "LOGIN_FAILURE_WINDOW_SECONDS",
)
PASSWORD_RESET = Door(
    "password-reset",
    ("POST /password/reset/",),
    "reset request (each sends mail, or looks as if it did)",
    "requests",
    (_per_account("PASSWORD_RESETS_PER_ACCOUNT"), _per_address("PASSWORD_RESETS_PER_ADDRESS")),
    "MAIL_REQUEST_WINDOW_SECONDS",
)
VERIFICATION_MAIL = Door(
    "verification-mail",
    ("POST /verify-email/",),
    "confirmation link sent again",
    "requests",
    (_per_account("VERIFICATION_MAILS_PER_ACCOUNT"),),
    "MAIL_REQUEST_WINDOW_SECONDS",
)
SIGNUP = Door(
    "signup",
    ("POST /signup/",),
    "sign-up form sent",
    "requests",
    (_per_address("SIGNUPS_PER_ADDRESS"),),
    "SIGNUP_WINDOW_SECONDS",
)
INVITATION = Door(
    "invitation",
    ("GET, POST /teams/join/<token>/",),
    "invitation link opened or accepted",
    "requests",
    (_per_address("INVITATION_REQUESTS_PER_ADDRESS"),),
    "INVITATION_WINDOW_SECONDS",
)
OAUTH_REGISTRATION = Door(
    "oauth-registration",
    ("POST /oauth/register/",),
    "client registration",
    "requests",
    (_per_address("OAUTH_REGISTRATIONS_PER_IP_PER_MINUTE"),),
)
ANONYMOUS_REST = Door(
    "anonymous-rest",
    ("/api/v1/*",),
    "request without a valid credential (past the limit, refused before any credential is looked up)",
    "requests",
    (_per_address("API_ANONYMOUS_PER_IP_PER_MINUTE"),),
)
MCP = Door(
    "mcp",
    ("/mcp",),
    "request (before any credential is looked up)",
    "requests",
    (_per_address("RATE_LIMIT_PER_IP_PER_MINUTE"),),
)

DOORS: tuple[Door, ...] = (
    LOGIN,
    PASSWORD_RESET,
    VERIFICATION_MAIL,
    SIGNUP,
    INVITATION,
    OAUTH_REGISTRATION,
    ANONYMOUS_REST,
    MCP,
)


def markdown_table(value_of: Callable[[str], int]) -> str:
    """The doors as the Markdown table of docs/safety.md; `value_of` gives a setting's default."""

    def limit(door: Door, kind: Kind) -> str:
        for declared in door.limits:
            if declared.kind == kind:
                return f"{value_of(declared.setting)} (`{declared.setting}`)"
        return "—"

    def window(door: Door) -> str:
        if not door.window_setting:
            return f"{rate.WINDOW_SECONDS} s"
        return f"{value_of(door.window_setting)} s (`{door.window_setting}`)"

    rows = [
        "| door | paths | one count is a | per account | per address | window |",
        "|---|---|---|---|---|---|",
    ]
    for door in DOORS:
        paths = ", ".join(f"`{path}`" for path in door.paths)
        rows.append(
            f"| {door.name} | {paths} | {door.counts} | {limit(door, 'account')} | "
            f"{limit(door, 'address')} | {window(door)} |"
        )
    return "\n".join(rows) + "\n"
