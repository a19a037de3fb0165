"""The one token estimate every budget uses.

Ratio: one token per 4 characters of the JSON text the client receives, rounded up. That is the
usual figure for English and JSON with BPE tokenizers; it over-counts slightly for plain prose,
which keeps budgets on the safe side.
"""

from __future__ import annotations

import json
import math
from typing import Any

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def estimate_json_tokens(value: Any) -> int:
    return estimate_tokens(compact_json(value))
