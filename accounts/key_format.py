"""The shape of Knownbase's own API keys, declared once.

The code that mints keys (`ApiKey.issue`), the code that reads them (`ApiKey.authenticate`) and the
screening gate, which refuses a key of this server pasted into a note (memory/screening/services.py),
all derive from these values: a change to how keys are minted changes what the gate looks for.

A raw key is PREFIX, then LOOKUP_LENGTH lower-case hex characters (the public lookup, stored), then
`secrets.token_urlsafe(SECRET_BYTES)` (never stored: only a digest of the whole key is).
"""

from __future__ import annotations

import math
import re
import secrets
import string

PREFIX = "kb_"
LOOKUP_LENGTH = 12
SECRET_BYTES = 32
# token_urlsafe is unpadded base64url: four characters for every three bytes, rounded up.
SECRET_LENGTH = math.ceil(SECRET_BYTES * 4 / 3)
# Every character that can follow the prefix: a key ends where none of these follows.
BODY_CHARS = string.ascii_letters + string.digits + "-_"
# A whole raw key, as a regular expression every engine reads (no look-around): the gate wraps it.
SHAPE = rf"{re.escape(PREFIX)}[0-9a-f]{{{LOOKUP_LENGTH}}}[A-Za-z0-9_\-]{{{SECRET_LENGTH}}}"


def mint() -> tuple[str, str]:
    """(lookup, raw key): a new key's public lookup and the whole key."""
    lookup = secrets.token_hex(LOOKUP_LENGTH // 2)
    return lookup, f"{PREFIX}{lookup}{secrets.token_urlsafe(SECRET_BYTES)}"
