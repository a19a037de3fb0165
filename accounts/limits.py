"""Limits of what accounts stores, and the kinds of limit every app declares.

accounts is the bottom layer, so the limits its models need are declared here and nowhere else;
memory.inputs re-exports them with the rest, as the one public declaration of every input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextInput:
    max_length: int
    description: str = ""


@dataclass(frozen=True)
class NumberInput:
    minimum: int | float
    maximum: int | float
    default: int | float | None = None
    description: str = ""

    @property
    def whole_default(self) -> int:
        """The default of a whole-number input, as a signature or a bound takes it (none is 0)."""
        return int(self.default or 0)


@dataclass(frozen=True)
class ListInput:
    max_items: int
    description: str = ""


# What people type.
EMAIL = TextInput(254, "A team member's email address.")  # RFC 5321's longest usable address
DISPLAY_NAME = TextInput(150, "The person's name, as shown to their team.")
PASSWORD = TextInput(128)  # what the sign-up, sign-in and password forms accept
# A Bearer credential (API key or OAuth access token); a longer header is refused unread.
BEARER_TOKEN = TextInput(4096)
TEAM_NAME = TextInput(100, "The team's display name.")
TEAM_SLUG = TextInput(60)
API_KEY_NAME = TextInput(100, "A label for the key, shown in key lists.")
API_KEY_ID = TextInput(40, "The key's public prefix (kb_…), never its secret.")
# A project's slug: declared here because the audit log keeps it with each event.
PROJECT_SLUG = TextInput(60, "project slug")

# What the server records about a call.
CLIENT_NAME = TextInput(100, "The client's name, as it introduced itself; longer ones are cut.")
AUTH_METHOD = TextInput(20)
ACTION = TextInput(60)
AUDIT_OBJECT_ID = TextInput(40)
AUDIT_EVENT_ID = TextInput(40, "An audit event's id, to page on from.")

# Stored forms the server generates: opaque public ids (prefix + accounts.ids.ID_LENGTH characters)
# and SHA-256 hex digests.
PUBLIC_ID = TextInput(24)
# Dynamic client registration (RFC 7591) is open to anyone: what one registration may carry.
OAUTH_REGISTRATION_BYTES = TextInput(16 * 1024, "Bytes of one registration request's JSON body.")
OAUTH_REDIRECT_URIS = ListInput(10, "Redirect URIs one client may register.")
OAUTH_REDIRECT_URI = TextInput(2000, "Characters of one redirect URI.")
# A signed or sealed token in a link (invitation, address confirmation, password reset, export).
LINK_TOKEN = TextInput(1024)
DIGEST = TextInput(64)

# The largest value of a PositiveIntegerField (PostgreSQL integer).
MAX_INT = 2**31 - 1

# How long a process reuses a credential it resolved (accounts.recent) before asking the database
# again: the longest a revocation, membership or plan change made in another process takes to apply.
RECENT_SECONDS = 1.0
# Resolved credentials a process keeps at most; the least recently resolved go first.
RECENT_MAX_ENTRIES = 4096
